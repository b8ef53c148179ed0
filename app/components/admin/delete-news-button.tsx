import { href } from "react-router";
import { type RefObject, useState } from "react";
import { t } from "#app/i18n/newsroom.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";

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
    // The dialog stays open (its button disabled) until the server answers.
    event.preventDefault();
    setBusy(true);
    try {
      const response = await fetch(href("/api/news/:id", { id }), { method: "DELETE" });
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
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title={t.newsAdmin.deleteTitle}
      text={t.newsAdmin.deleteText(title)}
      confirmLabel={t.newsAdmin.deleteConfirm}
      cancelLabel={t.newsAdmin.deleteCancel}
      onConfirm={confirm}
      danger
      busy={busy}
      returnFocusTo={returnFocusTo}
    />
  );
}
