import { t } from "../../i18n/newsroom.ts";
import type { MediaView } from "../../lib/media-view.ts";
import { MediaPicker, type PickedFile } from "./media-picker.tsx";
import type { SubmitProgress } from "./use-news-submit.ts";
import styles from "./news-form.module.css";

export interface MediaTextValues {
  mediaDescription: string;
  mediaCaption: string;
  mediaCredit: string;
}

interface NewsMediaFieldProps {
  formId: string;
  picked: PickedFile | null;
  onPick(file: PickedFile | null): void;
  current: MediaView | null;
  removeMedia: boolean;
  onRemoveCurrent(): void;
  progress: SubmitProgress;
  busy: boolean;
  values: MediaTextValues;
  onText(field: keyof MediaTextValues, value: string): void;
  errors: Partial<Record<"media" | keyof MediaTextValues, string>>;
  /** Rendered between the picker and the texts (the schedule field keeps its place in the form). */
  children?: React.ReactNode;
}

/** The news media: the file picker (with the current media and upload progress), and its description, caption and credit. */
export function NewsMediaField({
  formId,
  picked,
  onPick,
  current,
  removeMedia,
  onRemoveCurrent,
  progress,
  busy,
  values,
  onText,
  errors,
  children,
}: NewsMediaFieldProps) {
  const described = (field: keyof MediaTextValues) => `${formId}-${field}-dica${errors[field] ? ` ${formId}-${field}-erro` : ""}`;
  const common = (field: keyof MediaTextValues) => ({
    id: `${formId}-${field}`,
    name: field,
    value: values[field],
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": described(field),
    disabled: busy,
  });
  const error = (field: keyof MediaTextValues) =>
    errors[field] ? (
      <p id={`${formId}-${field}-erro`} className={styles.error}>
        {errors[field]}
      </p>
    ) : null;
  return (
    <>
      <MediaPicker
        picked={picked}
        onPick={onPick}
        current={removeMedia ? null : current}
        onRemoveCurrent={onRemoveCurrent}
        progress={progress}
        disabled={busy}
        error={errors.media}
      />
      {removeMedia && !picked ? <input type="hidden" name="removeMedia" value="on" /> : null}
      {children}
      <fieldset className={styles.mediaText} disabled={busy}>
        <legend className="visually-hidden">{t.newsForm.mediaTextLegend}</legend>
        <div className={styles.field}>
          <label htmlFor={`${formId}-mediaDescription`}>{t.newsForm.mediaDescription}</label>
          <textarea {...common("mediaDescription")} rows={2} onChange={(event) => onText("mediaDescription", event.target.value)} />
          <p id={`${formId}-mediaDescription-dica`} className={styles.hint}>
            {t.newsForm.mediaDescriptionHint}
          </p>
          {error("mediaDescription")}
        </div>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor={`${formId}-mediaCaption`}>{t.newsForm.mediaCaption}</label>
            <input {...common("mediaCaption")} onChange={(event) => onText("mediaCaption", event.target.value)} />
            <p id={`${formId}-mediaCaption-dica`} className={styles.hint}>
              {t.newsForm.mediaCaptionHint}
            </p>
            {error("mediaCaption")}
          </div>
          <div className={styles.field}>
            <label htmlFor={`${formId}-mediaCredit`}>{t.newsForm.mediaCredit}</label>
            <input {...common("mediaCredit")} onChange={(event) => onText("mediaCredit", event.target.value)} />
            <p id={`${formId}-mediaCredit-dica`} className={styles.hint}>
              {t.newsForm.mediaCreditHint}
            </p>
            {error("mediaCredit")}
          </div>
        </div>
      </fieldset>
    </>
  );
}
