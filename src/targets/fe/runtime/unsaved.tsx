// A form whose inputs differ from what it started with holds the reader back: leaving it for
// another page of the app asks first (a dialog that opens on Cancel, so Enter stays), and
// closing or reloading the tab lets the browser ask. Saving releases the hold before the
// form navigates away, so its own navigation never asks.

import { type ReactNode, useEffect, useRef } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "./dialog";
import { messages } from "./messages";

export interface UnsavedChanges {
  /** Call before the form's own navigation (after a save): it leaves without asking. */
  release: () => void;
  /** The dialog asking whether to leave; render it beside the form. */
  prompt: ReactNode;
}

/** Holds the reader on a form while `draft` differs from `initial` (compared as JSON). */
export function useUnsavedChanges<D>(draft: D, initial: D): UnsavedChanges {
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  const released = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      changed &&
      !released.current &&
      currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!changed) return;
    const ask = (event: BeforeUnloadEvent) => {
      if (!released.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [changed]);
  const t = messages();
  const prompt = (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title={t.leaveUnsaved}
      confirmLabel={t.leave}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <p>{t.unsavedText}</p>
    </ConfirmDialog>
  );
  return {
    release: () => {
      released.current = true;
    },
    prompt,
  };
}
