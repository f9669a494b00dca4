// A modal confirmation built on the native <dialog>: the browser traps focus, Escape
// cancels, and assistive technology announces it as a dialog named by its heading.

import { type ReactNode, useEffect, useId, useRef } from "react";

interface ConfirmProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}

export function ConfirmDialog(props: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={heading}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={heading}>{props.title}</h2>
      {props.children}
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      <div className="buttons">
        <button type="button" className="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" onClick={props.onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
