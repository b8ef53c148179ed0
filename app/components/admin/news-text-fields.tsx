import { Star } from "lucide-react";
import { t } from "#app/i18n/newsroom.ts";
import { AuthorField } from "./news-author-field.tsx";
import { NewsBodyField } from "./news-body-field.tsx";
import type { FieldErrors, NewsFormValues } from "./news-form-values.ts";
import styles from "./news-form.module.css";

type Update = <K extends keyof NewsFormValues>(field: K, value: NewsFormValues[K]) => void;

/**
 * The form's heading with the highlight switch (a star): editors and admins only (`highlight`); a reporter never
 * highlights (the server ignores it from them).
 */
export function NewsFormHead({
  editing,
  highlighted,
  update,
  busy,
  highlight = true,
}: {
  editing: boolean;
  highlighted: boolean;
  update: Update;
  busy: boolean;
  highlight?: boolean;
}) {
  return (
    <div className={styles.head}>
      <h1 className="page-title">{editing ? t.newsForm.editTitle : t.newsForm.createTitle}</h1>
      {highlight ? <HighlightSwitch highlighted={highlighted} update={update} busy={busy} /> : null}
    </div>
  );
}

function HighlightSwitch({ highlighted, update, busy }: { highlighted: boolean; update: Update; busy: boolean }) {
  return (
    <label className={styles.star} title={highlighted ? t.newsForm.highlightOff : t.newsForm.highlightOn} data-active={highlighted}>
      <input
        type="checkbox"
        name="isHighlighted"
        className="visually-hidden"
        checked={highlighted}
        onChange={(event) => update("isHighlighted", event.target.checked)}
        disabled={busy}
        aria-label={highlighted ? t.newsForm.highlightOff : t.newsForm.highlightOn}
      />
      <Star aria-hidden="true" size={28} fill={highlighted ? "currentColor" : "none"} />
      <span>{highlighted ? t.newsForm.highlighted : t.newsForm.notHighlighted}</span>
    </label>
  );
}

interface NewsTextFieldsProps {
  formId: string;
  values: NewsFormValues;
  update: Update;
  errors: FieldErrors;
  busy: boolean;
  categorySuggestions: string[];
  /** The team members' signing names (the author list). */
  authorChoices: string[];
  defaultAuthor: string;
  /** Changes when the form's values are replaced (an autosave recovered): the body's editor starts again from them. */
  bodyKey: number;
}

/**
 * The story's texts: title, subtitle, body, category (with the categories in use as suggestions) and author. Each
 * invalid field says so (aria-invalid) and points to its message (aria-describedby).
 */
export function NewsTextFields({
  formId,
  values,
  update,
  errors,
  busy,
  categorySuggestions,
  authorChoices,
  defaultAuthor,
  bodyKey,
}: NewsTextFieldsProps) {
  const describedBy = (field: keyof FieldErrors, hint?: string) =>
    [hint, errors[field] ? `${formId}-${field}-erro` : null].filter(Boolean).join(" ") || undefined;
  const fieldProps = (field: "title" | "subtitle" | "category" | "author", hint?: string) => ({
    id: `${formId}-${field}`,
    name: field,
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(field, event.target.value),
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": describedBy(field, hint),
    disabled: busy,
  });
  return (
    <>
      <div className={styles.field}>
        <label htmlFor={`${formId}-title`}>{t.newsForm.title}</label>
        <input {...fieldProps("title")} />
        <FieldError formId={formId} field="title" errors={errors} />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${formId}-subtitle`}>{t.newsForm.subtitle}</label>
        <textarea {...fieldProps("subtitle")} rows={4} />
        <FieldError formId={formId} field="subtitle" errors={errors} />
      </div>
      <NewsBodyField
        key={bodyKey}
        formId={formId}
        body={values.body}
        onChange={(body) => update("body", body)}
        error={errors.fullContent}
        disabled={busy}
      />
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${formId}-category`}>{t.newsForm.category}</label>
          <input
            {...fieldProps("category", `${formId}-category-dica`)}
            placeholder={t.newsForm.categoryHint}
            list={`${formId}-categorias`}
            autoComplete="off"
          />
          <datalist id={`${formId}-categorias`} data-testid="category-suggestions">
            {categorySuggestions.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          <p id={`${formId}-category-dica`} className={styles.hint}>
            {t.newsForm.categoryHint}
          </p>
          <FieldError formId={formId} field="category" errors={errors} />
        </div>
        <AuthorField
          formId={formId}
          choices={authorChoices}
          defaultAuthor={defaultAuthor}
          inputProps={fieldProps("author", `${formId}-author-dica`)}
          onPick={(name) => update("author", name)}
          errors={errors}
          busy={busy}
        />
      </div>
    </>
  );
}

/** The schedule's date and time, on the site's clock (not shown for a published story). */
export function NewsScheduleField({
  formId,
  value,
  onChange,
  errors,
  busy,
  timeZone,
}: {
  formId: string;
  value: string;
  onChange(value: string): void;
  errors: FieldErrors;
  busy: boolean;
  timeZone: string;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={`${formId}-publishAt`}>{t.newsForm.publishAt}</label>
      <input
        id={`${formId}-publishAt`}
        name="publishAt"
        type="datetime-local"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={busy}
        aria-invalid={errors.publishAt ? true : undefined}
        aria-describedby={`${formId}-publishAt-dica${errors.publishAt ? ` ${formId}-publishAt-erro` : ""}`}
      />
      <p id={`${formId}-publishAt-dica`} className={styles.hint}>
        {t.newsForm.publishAtHint(timeZone)}
      </p>
      <FieldError formId={formId} field="publishAt" errors={errors} />
    </div>
  );
}

export function FieldError({ formId, field, errors }: { formId: string; field: keyof FieldErrors; errors: FieldErrors }) {
  return errors[field] ? (
    <p id={`${formId}-${field}-erro`} className={styles.error}>
      {errors[field]}
    </p>
  ) : null;
}
