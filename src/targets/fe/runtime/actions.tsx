// An action of a resource as the reader meets it: a button that runs it (after asking, when
// the config says so), or (when it takes params) a button that opens its form; then what came
// of it, as a toast notification.

import { type ReactNode, useState } from "react";
import { ConfirmDialog } from "./dialog";
import { Json } from "./display";
import { Toast } from "./toast";
import { messages } from "./messages";

interface ActionPanelProps {
  label: string;
  busy: boolean;
  done: boolean;
  /** A collection action's answer, shown once it ran. */
  result?: unknown;
  error?: string | null;
  /** Hides what came of the last run. */
  onDismiss: () => void;
  /** Runs an action without params. */
  onRun?: () => void;
  /** Ask before `onRun`. */
  confirm?: boolean;
  /** Whether the params form is shown. */
  open?: boolean;
  onOpen?: () => void;
  /** The params form. */
  children?: ReactNode;
}

export function ActionPanel(props: ActionPanelProps) {
  const [asking, setAsking] = useState(false);
  const t = messages();
  const outcome = (
    <>
      {props.done && (
        <Toast tone="success" onDismiss={props.onDismiss}>
          {t.done(props.label)}
          {props.result !== undefined && (
            <>
              {` ${t.result} `}
              <Json value={props.result} />
            </>
          )}
        </Toast>
      )}
      {props.error && (
        <Toast tone="error" onDismiss={props.onDismiss}>
          {t.failed(props.label, props.error)}
        </Toast>
      )}
    </>
  );
  const run = props.onRun;
  if (run) {
    return (
      <div className="action-run">
        <button type="button" disabled={props.busy} onClick={props.confirm ? () => setAsking(true) : run}>
          {props.label}
        </button>
        {props.confirm && (
          <ConfirmDialog
            open={asking}
            title={t.askRun(props.label)}
            confirmLabel={props.label}
            onConfirm={() => {
              setAsking(false);
              run();
            }}
            onCancel={() => setAsking(false)}
          >
            <p>{t.runNow(props.label)}</p>
          </ConfirmDialog>
        )}
        {outcome}
      </div>
    );
  }
  if (!props.open) {
    return (
      <div className="action-run">
        <button type="button" aria-expanded={false} onClick={props.onOpen}>
          {props.label}…
        </button>
        {outcome}
      </div>
    );
  }
  return (
    <section className="action" aria-label={props.label}>
      <h3>{props.label}</h3>
      {props.children}
    </section>
  );
}
