import { Trash2 } from "lucide-react";
import { lazy } from "react";
import { t } from "#app/i18n/pt-BR.ts";
import { useLazyDialog } from "#app/components/ui/use-lazy-dialog.tsx";
import styles from "./delete-news-button.module.css";

const Dialog = lazy(() => import("./delete-news-button.tsx").then((module) => ({ default: module.DeleteNewsDialog })));

interface DeleteNewsButtonProps {
  id: string;
  title: string;
  onDeleted(id: string): void;
  onFailed(message: string): void;
}

/**
 * The admin's delete icon on a news card. The button itself is part of the page (it works as soon as the page is
 * hydrated); the confirmation dialog and the library behind it are downloaded on the first click, so readers of the
 * list never download them.
 */
export function DeleteNewsButton(props: DeleteNewsButtonProps) {
  const confirm = useLazyDialog(Dialog);
  return (
    <>
      <button
        ref={confirm.trigger}
        type="button"
        className={styles.trigger}
        aria-label={`${t.newsAdmin.delete}: ${props.title}`}
        title={t.newsAdmin.delete}
        aria-haspopup="dialog"
        onClick={confirm.show}
      >
        <Trash2 aria-hidden="true" size={18} />
      </button>
      {confirm.dialog(props)}
    </>
  );
}
