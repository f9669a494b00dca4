// Choosing rows of a list page and running an operation on them together: deleting them, or
// an instance action without params. The backend has no bulk route, so the page sends one
// request per chosen row, one after another, and shows each row's outcome: rows the backend
// refused stay chosen, with its reason beside their name. A new query (another page, order,
// search or filter) starts with nothing chosen.

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useLocation } from "react-router";
import { ConfirmDialog } from "./dialog";
import { explain } from "./errors";
import { Toast } from "./toast";
import { messages } from "./messages";

/** The rows chosen on a list page, by key. */
export interface Selection {
  keys: ReadonlySet<string>;
  toggle: (key: string) => void;
  /** Chooses every key of `keys`, or none of them. */
  setAll: (keys: readonly string[], chosen: boolean) => void;
}

export function useSelection(): Selection {
  const { search } = useLocation();
  const [state, setState] = useState<{ search: string; keys: ReadonlySet<string> }>({
    search,
    keys: new Set(),
  });
  const keys = state.search === search ? state.keys : new Set<string>();
  const setAll = (changed: readonly string[], chosen: boolean) =>
    setState((previous) => {
      const next = new Set(previous.search === search ? previous.keys : []);
      for (const key of changed) {
        if (chosen) next.add(key);
        else next.delete(key);
      }
      return { search, keys: next };
    });
  return { keys, toggle: (key) => setAll([key], !keys.has(key)), setAll };
}

/** What chosen rows can go through, one request per row. */
export interface BulkOperation<T> {
  /** The dialog's confirming button: "Delete", "Publish article". */
  label: string;
  /** It deletes the rows: a danger, said so in the dialog. */
  deletes?: boolean;
  /** The reader's groups may use it (presentation only: the backend checks every request). */
  allowed?: boolean;
  /** The backend says the reader may call it on `row` (its `actions`): offered when every chosen row says so. */
  permits?: (row: T) => boolean;
  /** Runs on one row; rejects with the backend's refusal. */
  run: (row: T) => Promise<unknown>;
}

/** The operations the reader may use. */
export function usableOperations<T>(operations: readonly BulkOperation<T>[]): BulkOperation<T>[] {
  return operations.filter((operation) => operation.allowed !== false);
}

interface BulkBarProps<T> {
  selection: Selection;
  /** The rows of the page shown: the chosen ones among them go through the operation. */
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** How a row is named in the dialog. */
  name: (row: T) => string;
  /** The operations the reader may use (`usableOperations`). */
  operations: readonly BulkOperation<T>[];
  /** The resource's labels, as the config has them ("Article", "Articles"). */
  singular: string;
  plural: string;
}

interface Refusal {
  name: string;
  reason: string;
}

/** The bar over a list with chosen rows: how many, and a button per operation behind a confirmation. */
export function BulkBar<T>(props: BulkBarProps<T>) {
  const { selection, rowKey } = props;
  const [open, setOpen] = useState<BulkOperation<T> | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const dismiss = useCallback(() => setNotice(null), []);
  const queryClient = useQueryClient();
  const chosen = props.rows.filter((row) => selection.keys.has(rowKey(row)));
  const t = messages();
  const { singular, plural } = props;
  const operations = props.operations.filter((operation) => operation.permits === undefined || chosen.every(operation.permits));

  async function runOnChosen(operation: BulkOperation<T>) {
    setBusy(true);
    const done: string[] = [];
    const refused: Refusal[] = [];
    for (const row of chosen) {
      try {
        await operation.run(row);
        done.push(rowKey(row));
      } catch (error) {
        refused.push({ name: props.name(row), reason: explain(error, []).form ?? String(error) });
      }
    }
    selection.setAll(done, false);
    setBusy(false);
    setRefusals(refused);
    if (refused.length === 0) setOpen(null);
    if (done.length > 0) {
      setNotice(operation.deletes ? t.deletedRows(done.length, singular, plural) : t.ranOnRows(operation.label, done.length, singular, plural));
      void queryClient.invalidateQueries();
    }
  }

  return (
    <>
      {chosen.length > 0 && operations.length > 0 && (
        <div className="bulk">
          <span>{t.selected(chosen.length, singular, plural)}</span>
          {operations.map((operation) => (
            <button
              key={operation.label}
              type="button"
              className={operation.deletes ? "danger" : undefined}
              onClick={() => {
                setRefusals([]);
                setOpen(operation);
              }}
            >
              {operation.deletes ? t.deleteSelected : `${operation.label}…`}
            </button>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={open !== null && chosen.length > 0}
        title={
          open?.deletes
            ? t.deleteRows(chosen.length, singular, plural)
            : t.runOnRows(open?.label ?? "", chosen.length, singular, plural)
        }
        confirmLabel={open?.label ?? ""}
        busy={busy}
        onConfirm={() => open !== null && void runOnChosen(open)}
        onCancel={() => {
          setOpen(null);
          setRefusals([]);
        }}
      >
        {refusals.length > 0 && (
          <div role="alert">
            <p>
              {open?.deletes
                ? t.notDeleted(refusals.length, singular, plural)
                : t.failedOnRows(open?.label ?? "", refusals.length, singular, plural)}
            </p>
            <ul className="refusals">
              {refusals.map((refusal) => (
                <li key={refusal.name}>
                  {refusal.name}: {refusal.reason}
                </li>
              ))}
            </ul>
          </div>
        )}
        <p>{open?.deletes ? t.willBeDeleted : t.runsOneByOne(open?.label ?? "")}</p>
        <ul>
          {chosen.map((row) => (
            <li key={rowKey(row)}>{props.name(row)}</li>
          ))}
        </ul>
      </ConfirmDialog>
      {notice !== null && (
        <Toast tone="success" onDismiss={dismiss}>
          {notice}
        </Toast>
      )}
    </>
  );
}
