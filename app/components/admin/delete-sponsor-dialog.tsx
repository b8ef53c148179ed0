import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { RefObject } from "react";
import { t } from "../../i18n/newsroom.ts";
import buttons from "../ui/button.module.css";
import styles from "./delete-news-button.module.css";

interface DeleteSponsorDialogProps {
  name: string;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The button that opened the dialog: focus goes back to it when the dialog closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  onConfirm(): void;
}

/** The confirmation before removing a sponsor (its logo goes too: irreversible), as for deleting a news item. */
export function DeleteSponsorDialog({ name, open, onOpenChange, returnFocusTo, onConfirm }: DeleteSponsorDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content
          className={styles.dialog}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnFocusTo.current?.isConnected) returnFocusTo.current.focus();
          }}
        >
          <AlertDialog.Title className={styles.title}>{t.sponsors.deleteTitle}</AlertDialog.Title>
          <AlertDialog.Description className={styles.text}>{t.sponsors.deleteText(name)}</AlertDialog.Description>
          <div className={styles.actions}>
            <AlertDialog.Cancel className={buttons.secondary}>{t.sponsors.deleteCancel}</AlertDialog.Cancel>
            <AlertDialog.Action className={`${buttons.primary} ${styles.danger}`} onClick={onConfirm}>
              {t.sponsors.deleteConfirm}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
