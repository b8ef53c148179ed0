import { t } from "#app/i18n/newsroom.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import { FormField, fieldAria } from "./form-field.tsx";
import { MediaFocusEditor } from "./media-focus-editor.tsx";
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
  /** Editing a saved story: its id, for the focus point of its saved image. */
  newsId?: string | undefined;
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
  newsId,
}: NewsMediaFieldProps) {
  const hints: Record<keyof MediaTextValues, string> = {
    mediaDescription: t.newsForm.mediaDescriptionHint,
    mediaCaption: t.newsForm.mediaCaptionHint,
    mediaCredit: t.newsForm.mediaCreditHint,
  };
  const labels: Record<keyof MediaTextValues, string> = {
    mediaDescription: t.newsForm.mediaDescription,
    mediaCaption: t.newsForm.mediaCaption,
    mediaCredit: t.newsForm.mediaCredit,
  };
  const id = (field: keyof MediaTextValues) => `${formId}-${field}`;
  const messages = (field: keyof MediaTextValues) => ({ hint: hints[field], error: errors[field] });
  const common = (field: keyof MediaTextValues) => ({
    id: id(field),
    name: field,
    value: values[field],
    ...fieldAria(id(field), messages(field)),
    disabled: busy,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onText(field, event.target.value),
  });
  const field = (name: keyof MediaTextValues, control: React.ReactNode) => (
    <FormField id={id(name)} label={labels[name]} {...messages(name)}>
      {control}
    </FormField>
  );
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
      {newsId && current?.kind === "image" && !current.external && !removeMedia && !picked ? (
        <MediaFocusEditor newsId={newsId} media={current} disabled={busy} />
      ) : null}
      {children}
      <fieldset className={styles.mediaText} disabled={busy}>
        <legend className="visually-hidden">{t.newsForm.mediaTextLegend}</legend>
        {field("mediaDescription", <textarea {...common("mediaDescription")} rows={2} />)}
        <div className={styles.row}>
          {field("mediaCaption", <input {...common("mediaCaption")} />)}
          {field("mediaCredit", <input {...common("mediaCredit")} />)}
        </div>
      </fieldset>
    </>
  );
}
