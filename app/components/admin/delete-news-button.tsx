import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { t } from "../../i18n/pt-BR.ts";
import buttons from "../ui/button.module.css";
import styles from "./delete-news-button.module.css";

interface DeleteNewsButtonProps {
  id: string;
  title: string;
  onDeleted(id: string): void;
  onFailed(message: string): void;
}

/** The admin's delete icon on a news card, with a confirmation (deleting is irreversible). */
export function DeleteNewsButton({ id, title, onDeleted, onFailed }: DeleteNewsButtonProps) {
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);

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
      <AlertDialog.Trigger className={styles.trigger} aria-label={`${t.newsAdmin.delete}: ${title}`} title={t.newsAdmin.delete}>
        <Trash2 aria-hidden="true" size={18} />
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content className={styles.dialog}>
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
