import { type ComponentType, type ReactNode, type RefObject, Suspense, useRef, useState } from "react";

/** What a dialog loaded on demand gets from `useLazyDialog`, besides its own props. */
export interface LazyDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The button that opened it: focus goes back there when the dialog closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

/**
 * A button that opens a dialog whose code (and the dialog library behind it) is downloaded on the first click, so
 * pages that never open it never load it. `Dialog` is a `React.lazy` component made once, at module level. Put
 * `trigger` on the button and call `show` from its click; render `dialog(props)` next to the button: nothing until
 * the first click, then the dialog (behind Suspense while its code arrives), kept mounted afterwards so it can close
 * with its animation and give focus back to the button.
 */
export function useLazyDialog<P extends LazyDialogProps>(Dialog: ComponentType<P>) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return {
    open,
    trigger,
    show() {
      setWanted(true);
      setOpen(true);
    },
    dialog(props: Omit<P, keyof LazyDialogProps>): ReactNode {
      if (!wanted) return null;
      const all = { ...props, open, onOpenChange: setOpen, returnFocusTo: trigger } as P;
      return (
        <Suspense fallback={null}>
          <Dialog {...all} />
        </Suspense>
      );
    },
  };
}
