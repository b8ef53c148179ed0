import { Eye } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import type { MediaView } from "#app/lib/media-view.ts";
import buttons from "#app/components/ui/button.module.css";
import type { PickedFile } from "./media-picker.tsx";
import type { NewsFormValues } from "./news-form-values.ts";
import styles from "./news-preview.module.css";

const PreviewDialog = lazy(() => import("./news-preview-dialog.tsx"));

/**
 * "Ver como leitor" on the news form: the story as a reader will see it, from what is in the form now (also what is
 * not saved yet: the text, the picked file). A dialog over the form, full screen on a phone; nothing is sent. Shown
 * once the page runs JavaScript (without it, the saved story's preview is the article's `?previa=1`).
 */
export function NewsPreview({
  values,
  picked,
  currentMedia,
  removeMedia,
  defaultAuthor,
}: {
  values: NewsFormValues;
  picked: PickedFile | null;
  currentMedia: MediaView | null;
  removeMedia: boolean;
  defaultAuthor: string;
}) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <>
      <button type="button" className={`${buttons.secondary} ${styles.open}`} onClick={() => setOpen(true)} data-testid="news-preview-open">
        <Eye aria-hidden="true" size={18} />
        {t.newsForm.preview}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PreviewDialog
            values={values}
            picked={picked}
            currentMedia={removeMedia ? null : currentMedia}
            defaultAuthor={defaultAuthor}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
