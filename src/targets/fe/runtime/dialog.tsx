// A modal confirmation built on the native <dialog>: the browser traps focus, Escape
// cancels, and assistive technology announces it as a dialog named by its heading. It opens
// with focus on Cancel, so a stray Enter (or two) never confirms. The delete button of every
// detail page, and every action that asks first, are built on it.

import { type UseMutationOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { explain } from "./errors";
import { messages } from "./messages";

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
  const cancel = useRef<HTMLButtonElement>(null);
  const heading = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (props.open && !dialog.open) {
      // showModal() focuses the first button, the confirming one: move focus to Cancel.
      dialog.showModal();
      cancel.current?.focus();
    }
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
        <button ref={cancel} type="button" onClick={props.onCancel}>
          {messages().cancel}
        </button>
      </div>
    </dialog>
  );
}

interface DeleteButtonProps<D, E, V> {
  /** The delete operation's mutation options (`deleteArticleMutation()`). */
  options: UseMutationOptions<D, E, V>;
  /** Its variables: the row's key. */
  variables: V;
  /** The dialog's question: "Delete this article?". */
  title: string;
  /** The row's name, quoted in the dialog. */
  name: string;
  /** Where to go once deleted, and what to tell the reader there. */
  after: string;
  notice: string;
}

/** A delete button, and the dialog that confirms it; a refusal (409, 404) is shown in the dialog. */
export function DeleteButton<D, E, V>(props: DeleteButtonProps<D, E, V>) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const t = messages();
  const mutation = useMutation({
    ...props.options,
    onSuccess: () => {
      navigate(props.after, { state: { notice: props.notice } });
      void queryClient.invalidateQueries();
    },
  });
  return (
    <>
      <button type="button" className="danger" onClick={() => setOpen(true)}>
        {t.delete}
      </button>
      <ConfirmDialog
        open={open}
        title={props.title}
        confirmLabel={t.delete}
        busy={mutation.isPending}
        error={mutation.isError ? explain(mutation.error, []).form : null}
        onConfirm={() => mutation.mutate(props.variables)}
        onCancel={() => {
          setOpen(false);
          mutation.reset();
        }}
      >
        <p>{t.willDelete(props.name)}</p>
      </ConfirmDialog>
    </>
  );
}
