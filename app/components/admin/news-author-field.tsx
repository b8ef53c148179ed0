import { useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import type { FieldErrors } from "./news-form-values.ts";
import styles from "./news-form.module.css";

/** The select's value for "another author" (a name typed in): never a name, which is always trimmed. */
const OTHER = " outro";

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
 * The story's author: a team member picked from the list (the story is then theirs: byline box, person page), the
 * newsroom's default, or another name typed in. The saved value is the name; the server links it to the member whose
 * signing name it is. Without JavaScript the select itself is the `author` field (a member or the default), or, for a
 * story already signed by someone else, the text input.
 */
export function AuthorField({ formId, choices, defaultAuthor, inputProps, onPick, errors, busy }: AuthorFieldProps) {
  const value = String(inputProps.value ?? "");
  const [other, setOther] = useState(() => value.trim() !== "" && !choices.includes(value));
  const selected = other ? OTHER : choices.includes(value) ? value : "";
  const errorId = errors.author ? `${formId}-author-erro` : null;
  return (
    <div className={styles.field}>
      <label htmlFor={`${formId}-author-choice`}>{t.authorChoice.label}</label>
      <select
        id={`${formId}-author-choice`}
        name={other ? undefined : "author"}
        value={selected}
        disabled={busy}
        data-testid="author-choice"
        aria-describedby={other ? undefined : (errorId ?? undefined)}
        onChange={(event) => {
          const next = event.target.value;
          if (next === OTHER) {
            setOther(true);
            onPick("");
          } else {
            setOther(false);
            onPick(next);
          }
        }}
      >
        <option value="">{t.authorChoice.defaultOption(defaultAuthor)}</option>
        <optgroup label={t.authorChoice.members}>
          {choices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </optgroup>
        <option value={OTHER}>{t.authorChoice.other}</option>
      </select>
      {other ? (
        <>
          <label htmlFor={`${formId}-author`} className={styles.subLabel}>
            {t.authorChoice.otherLabel}
          </label>
          <input {...inputProps} value={value} placeholder={defaultAuthor} />
          <p id={`${formId}-author-dica`} className={styles.hint}>
            {t.newsForm.authorHint(defaultAuthor)}
          </p>
        </>
      ) : null}
      {errors.author ? (
        <p id={`${formId}-author-erro`} className={styles.error}>
          {errors.author}
        </p>
      ) : null}
    </div>
  );
}
