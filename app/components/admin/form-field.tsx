import type { ReactNode } from "react";
import styles from "./news-form.module.css";

interface FieldMessages {
  /** A hint under the control (its element is `${id}-dica`). */
  hint?: ReactNode;
  /** The field's error, if any (its element is `${id}-erro`). */
  error?: string | undefined;
}

/** The ARIA of a field's control: invalid when it has an error, described by its hint and its error. */
export function fieldAria(id: string, { hint, error }: FieldMessages) {
  const describedBy = [hint ? `${id}-dica` : null, error ? `${id}-erro` : null].filter(Boolean).join(" ");
  return { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy || undefined };
}

/**
 * One field of a newsroom form: its label, the control (`children`, with `id` and `fieldAria(id, …)`), the hint and
 * the error, in that order and with the ids the control points to.
 */
export function FormField({ id, label, hint, error, children }: FieldMessages & { id: string; label: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${id}-dica`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-erro`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
