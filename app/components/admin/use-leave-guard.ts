import { useCallback, useEffect, useRef } from "react";
import { type BlockerFunction, useBlocker } from "react-router";

/**
 * Asks before the news form's unsaved changes are left behind: an in-app link (React Router's blocker: the caller
 * shows the question and calls `proceed` or `reset`), and a reload, a typed address or closing the tab (the browser's
 * own `beforeunload` question). `dirty`: there are changes not saved. `allowLeave()` lets the next navigation through
 * without asking (a save that succeeded, on its way to the story's page).
 */
export function useLeaveGuard(dirty: boolean) {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const allowed = useRef(false);

  // Refs, not state: a save sets `allowed` and navigates in the same tick, before a new blocker function would be in place.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => dirtyRef.current && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      // Older browsers show the question only when a value is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  return {
    /** The question is up: a link was followed with changes unsaved. */
    asking: blocker.state === "blocked",
    stay: () => {
      if (blocker.state === "blocked") blocker.reset();
    },
    leave: () => {
      if (blocker.state === "blocked") blocker.proceed();
    },
    allowLeave: () => {
      allowed.current = true;
    },
  };
}
