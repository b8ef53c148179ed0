import { t } from "#app/i18n/newsroom.ts";
import { SPONSOR_LIMITS } from "#app/lib/limits.ts";
import type { SponsorView } from "#app/lib/news-view.ts";
import styles from "./sponsor-manager.module.css";

/** The name, link and window fields, for a new sponsor or to edit one. */
export function SponsorFieldInputs({
  idPrefix,
  sponsor,
  errorOf,
}: {
  idPrefix: string;
  sponsor?: SponsorView;
  errorOf(field: string): string | null;
}) {
  const fields = [
    { name: "name", label: t.sponsors.nameLabel, type: "text", value: sponsor?.name, required: true, hint: null },
    { name: "link", label: t.sponsors.linkLabel, type: "url", value: sponsor?.link ?? "", required: false, hint: t.sponsors.linkHint },
    { name: "activeFrom", label: t.sponsors.fromLabel, type: "date", value: sponsor?.activeFrom ?? "", required: false, hint: null },
    { name: "activeUntil", label: t.sponsors.untilLabel, type: "date", value: sponsor?.activeUntil ?? "", required: false, hint: null },
  ];
  return (
    <div className={styles.fields}>
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        const error = errorOf(field.name);
        const described = [field.hint ? `${id}-dica` : null, error ? `${id}-erro` : null].filter(Boolean).join(" ") || undefined;
        return (
          <div key={field.name} className={styles.field}>
            <label htmlFor={id}>{field.label}</label>
            <input
              id={id}
              name={field.name}
              type={field.type}
              defaultValue={field.value}
              required={field.required}
              maxLength={field.name === "name" ? SPONSOR_LIMITS.name : field.name === "link" ? SPONSOR_LIMITS.link : undefined}
              inputMode={field.type === "url" ? "url" : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={described}
            />
            {field.hint ? (
              <span id={`${id}-dica`} className={styles.hint}>
                {field.hint}
              </span>
            ) : null}
            {error ? (
              <span id={`${id}-erro`} className={styles.problem} role="alert">
                {error}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
