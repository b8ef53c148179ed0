import { t } from "#app/i18n/newsroom.ts";
import type { FieldErrors } from "./news-form-values.ts";
import styles from "./news-form.module.css";

interface AuthorFieldProps {
  formId: string;
  /** The team members' signing names. */
  choices: string[];
  defaultAuthor: string;
  /** The text input's props (the form's `author` value, its change handler, its error wiring). */
  inputProps: React.InputHTMLAttributes<HTMLInputElement> & { value: string | boolean | unknown };
  onPick(name: string): void;
  errors: FieldErrors;
  busy: boolean;
}

/**
 * The story's author: a team member picked from the list (the story is then theirs: byline box, person page), or any
 * other name typed in the text field ("Autor (opcional)": an agency, a guest writer; empty is the newsroom's default).
 * The list shows the member whose name the field holds; picking one writes their name in the field. The server links
 * the story to the member whose signing name it is. Without JavaScript the text field alone is sent.
 */
export function AuthorField({ formId, choices, defaultAuthor, inputProps, onPick, errors, busy }: AuthorFieldProps) {
  const value = String(inputProps.value ?? "");
  const member = choices.find((name) => name === value.trim()) ?? "";
  return (
    <div className={styles.field}>
      <label htmlFor={`${formId}-author-choice`}>{t.authorChoice.label}</label>
      <select
        id={`${formId}-author-choice`}
        value={member}
        disabled={busy}
        data-testid="author-choice"
        onChange={(event) => onPick(event.target.value)}
      >
        <option value="">{t.authorChoice.other}</option>
        {choices.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <label htmlFor={`${formId}-author`} className={styles.subLabel}>
        {t.newsForm.author}
      </label>
      <input {...inputProps} value={value} placeholder={defaultAuthor} />
      <p id={`${formId}-author-dica`} className={styles.hint}>
        {t.newsForm.authorHint(defaultAuthor)}
      </p>
      {errors.author ? (
        <p id={`${formId}-author-erro`} className={styles.error}>
          {errors.author}
        </p>
      ) : null}
    </div>
  );
}
