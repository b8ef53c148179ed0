import { useId } from "react";
import { t } from "#app/i18n/newsroom.ts";
import styles from "./auth.module.css";

interface TextFieldProps extends React.InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  errors?: string[] | undefined;
}

/** A labelled input with its errors under it, announced to screen readers. */
export function TextField({ name, label, errors, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-erro`;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        {...input}
      />
      {errors?.length ? (
        <ul id={errorId} className={styles.fieldError}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A new password and its confirmation (registration and reset), with the errors the shared schemas give. */
export function NewPasswordFields({ label, errors }: { label: string; errors: Partial<Record<string, string[]>> }) {
  return (
    <>
      <TextField name="password" type="password" label={label} autoComplete="new-password" required errors={errors.password} />
      <TextField
        name="confirmPassword"
        type="password"
        label={t.auth.confirmPassword}
        autoComplete="new-password"
        required
        errors={errors.confirmPassword}
      />
    </>
  );
}
