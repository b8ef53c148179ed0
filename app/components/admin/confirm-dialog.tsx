import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { RefObject } from "react";
import buttons from "#app/components/ui/button.module.css";
import styles from "./confirm-dialog.module.css";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** What confirming does, in words (the consequence, not only the action). */
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  /** Confirmed. The dialog closes unless the handler calls `event.preventDefault()` (to close it when its work ends). */
  onConfirm(event: React.MouseEvent): void;
  /** A confirmation that takes something away from readers is drawn in the danger colour. */
  danger?: boolean;
  /** Work under way (a delete being sent): the confirm button is disabled. */
  busy?: boolean;
  testId?: string;
  /** The button that opened it (the dialog has no trigger of its own): focus goes back to it on close. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * The newsroom's one question before a step with consequences (unpublishing a story, restoring an old version of a
 * live one, deleting a story or a sponsor): a Radix alert dialog. Cancel is the default focus; focus goes back to the
 * button that opened it when it closes (if that button is still on the page: a deleted sponsor's is not).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  text,
  confirmLabel,
  cancelLabel,
  onConfirm,
  danger,
  busy,
  testId,
  returnFocusTo,
}: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={styles.overlay} />
        <AlertDialog.Content
          className={styles.dialog}
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            if (!returnFocusTo) return;
            event.preventDefault();
            if (returnFocusTo.current?.isConnected) returnFocusTo.current.focus();
          }}
        >
          <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.text}>{text}</AlertDialog.Description>
          <div className={styles.actions}>
            <AlertDialog.Cancel className={buttons.secondary}>{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action className={danger ? `${buttons.primary} ${styles.danger}` : buttons.primary} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
