import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { RefObject } from "react";
import buttons from "../ui/button.module.css";
import styles from "./delete-news-button.module.css";

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  /** What confirming does, in words (the consequence, not only the action). */
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm(): void;
  /** A confirmation that takes something away from readers is drawn in the danger colour. */
  danger?: boolean;
  testId?: string;
  /** The button that opened it (the dialog has no trigger of its own): focus goes back to it on close. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * A question before a step with consequences for readers (unpublishing a story, restoring an old version of a live
 * one): a Radix alert dialog, as the news list's delete confirmation. Cancel is the default focus; focus goes back to
 * the button that opened it when it closes.
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
            if (!returnFocusTo?.current) return;
            event.preventDefault();
            returnFocusTo.current.focus();
          }}
        >
          <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
          <AlertDialog.Description className={styles.text}>{text}</AlertDialog.Description>
          <div className={styles.actions}>
            <AlertDialog.Cancel className={buttons.secondary}>{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action className={danger ? `${buttons.primary} ${styles.danger}` : buttons.primary} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
