// An action of a resource as the reader meets it: a button that runs it, or (when it takes
// params) a button that opens its form; then what came of it, announced to screen readers.

import type { ReactNode } from "react";
import { Json } from "./display";

interface ActionPanelProps {
  label: string;
  busy: boolean;
  done: boolean;
  /** A collection action's answer, shown once it ran. */
  result?: unknown;
  error?: string | null;
  /** Runs an action without params. */
  onRun?: () => void;
  /** Whether the params form is shown. */
  open?: boolean;
  onOpen?: () => void;
  /** The params form. */
  children?: ReactNode;
}

export function ActionPanel(props: ActionPanelProps) {
  const outcome = (
    <>
      {props.done && (
        <span className="notice" role="status">
          {props.label}: done.
          {props.result !== undefined && (
            <>
              {" Result: "}
              <Json value={props.result} />
            </>
          )}
        </span>
      )}
      {props.error && (
        <span className="form-error" role="alert">
          {props.error}
        </span>
      )}
    </>
  );
  if (props.onRun) {
    return (
      <div className="action-run">
        <button type="button" disabled={props.busy} onClick={props.onRun}>
          {props.label}
        </button>
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
