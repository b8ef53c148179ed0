import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { type RefObject, useState } from "react";
import { t } from "../../i18n/newsroom.ts";
import buttons from "../ui/button.module.css";
import styles from "./delete-news-button.module.css";

interface DeleteNewsDialogProps {
  id: string;
  title: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The button that opened the dialog: focus goes back to it when the dialog closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  onDeleted(id: string): void;
  onFailed(message: string): void;
}

/** The confirmation before deleting a news item (deleting is irreversible), opened by the card's delete button. */
export function DeleteNewsDialog({ id, title, open, onOpenChange: setOpen, returnFocusTo, onDeleted, onFailed }: DeleteNewsDialogProps) {
  const [busy, setBusy] = useState(false);

  async function confirm(event: React.MouseEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const response = await fetch(`/api/news/${encodeURIComponent(id)}`, { method: "DELETE" });
      if (!response.ok) throw new Error(String(response.status));
      setOpen(false);
      onDeleted(id);
    } catch {
      setOpen(false);
      onFailed(t.newsAdmin.deleteFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content
          className={styles.dialog}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <AlertDialog.Title className={styles.title}>{t.newsAdmin.deleteTitle}</AlertDialog.Title>
          <AlertDialog.Description className={styles.text}>{t.newsAdmin.deleteText(title)}</AlertDialog.Description>
          <div className={styles.actions}>
            <AlertDialog.Cancel className={buttons.secondary}>{t.newsAdmin.deleteCancel}</AlertDialog.Cancel>
            <AlertDialog.Action className={`${buttons.primary} ${styles.danger}`} onClick={confirm} disabled={busy}>
              {t.newsAdmin.deleteConfirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
