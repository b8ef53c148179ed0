import type { RefObject } from "react";
import { t } from "#app/i18n/newsroom.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";

interface DeleteSponsorDialogProps {
  name: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The button that opened the dialog: focus goes back to it when the dialog closes (if still on the page). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  onConfirm(): void;
}

/** The confirmation before removing a sponsor (its logo goes too: irreversible), as for deleting a news item. */
export function DeleteSponsorDialog({ name, open, onOpenChange, returnFocusTo, onConfirm }: DeleteSponsorDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t.sponsors.deleteTitle}
      text={t.sponsors.deleteText(name)}
      confirmLabel={t.sponsors.deleteConfirm}
      cancelLabel={t.sponsors.deleteCancel}
      onConfirm={() => onConfirm()}
      danger
      returnFocusTo={returnFocusTo}
    />
  );
}
