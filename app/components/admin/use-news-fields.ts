import { useState } from "react";
import { checkNewsMediaFile } from "#app/lib/news-schema.ts";
import type { PickedFile } from "./media-picker.tsx";
import type { Field, FieldErrors, NewsFormValues } from "./news-form-values.ts";

/**
 * The news form's fields: their values, their errors (a field's error goes as soon as it is edited), the picked
 * file (checked at once: a file of the wrong type or too large is refused with its message) and the removal of the
 * current media.
 */
export function useNewsFields(initial: NewsFormValues, initialErrors: () => FieldErrors) {
  const [values, setValues] = useState<NewsFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>(initialErrors);
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [removeMedia, setRemoveMedia] = useState(false);

  function clearError(key: Field) {
    if (errors[key]) setErrors(({ [key]: _removed, ...rest }) => rest);
  }

  return {
    values,
    setValues,
    errors,
    setErrors,
    clearError,
    picked,
    removeMedia,
    removeCurrentMedia: () => setRemoveMedia(true),
    update<K extends keyof NewsFormValues>(field: K, value: NewsFormValues[K]) {
      setValues((previous) => ({ ...previous, [field]: value }));
      clearError(field === "body" ? "fullContent" : (field as Field));
    },
    onPick(file: PickedFile | null) {
      setPicked(file);
      clearError("media");
      const problem = file ? checkNewsMediaFile(file.file) : null;
      if (problem) {
        setErrors((previous) => ({ ...previous, media: problem }));
        setPicked(null);
      }
    },
  };
}
