// Choosing rows of a list page and deleting them together. The backend deletes one row per
// request, so the page sends one DELETE per chosen row, one after another, and shows each
// row's outcome: rows the backend refused stay chosen, with its reason beside their name.
// A new query (another page, order, search or filter) starts with nothing chosen.

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useLocation } from "react-router";
import { ConfirmDialog } from "./dialog";
import { explain } from "./errors";
import { Toast } from "./toast";

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

/** "1 article", "3 articles". */
function counted(count: number, singular: string, plural: string): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

interface BulkDeleteProps<T> {
  selection: Selection;
  /** The rows of the page shown: the chosen ones among them are deleted. */
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** How a row is named in the dialog. */
  name: (row: T) => string;
  /** Deletes one row; rejects with the backend's refusal. */
  remove: (row: T) => Promise<unknown>;
  /** "article", "articles" (lower case). */
  singular: string;
  plural: string;
}

interface Refusal {
  name: string;
  reason: string;
}

/** The bar over a list with chosen rows: how many, and a delete button behind a confirmation. */
export function BulkDelete<T>(props: BulkDeleteProps<T>) {
  const { selection, rowKey } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const dismiss = useCallback(() => setNotice(null), []);
  const queryClient = useQueryClient();
  const chosen = props.rows.filter((row) => selection.keys.has(rowKey(row)));
  const words = (count: number) => counted(count, props.singular, props.plural);

  async function deleteChosen() {
    setBusy(true);
    const deleted: string[] = [];
    const refused: Refusal[] = [];
    for (const row of chosen) {
      try {
        await props.remove(row);
        deleted.push(rowKey(row));
      } catch (error) {
        refused.push({ name: props.name(row), reason: explain(error, []).form ?? String(error) });
      }
    }
    selection.setAll(deleted, false);
    setBusy(false);
    setRefusals(refused);
    if (refused.length === 0) setOpen(false);
    if (deleted.length > 0) {
      setNotice(`${words(deleted.length)} deleted.`);
      void queryClient.invalidateQueries();
    }
  }

  return (
    <>
      {chosen.length > 0 && (
        <div className="bulk">
          <span>{words(chosen.length)} selected</span>
          <button type="button" className="danger" onClick={() => setOpen(true)}>
            Delete selected…
          </button>
        </div>
      )}
      <ConfirmDialog
        open={open && chosen.length > 0}
        title={`Delete ${words(chosen.length)}?`}
        confirmLabel="Delete"
        busy={busy}
        onConfirm={() => void deleteChosen()}
        onCancel={() => {
          setOpen(false);
          setRefusals([]);
        }}
      >
        {refusals.length > 0 && (
          <div role="alert">
            <p>{words(refusals.length)} could not be deleted:</p>
            <ul className="refusals">
              {refusals.map((refusal) => (
                <li key={refusal.name}>
                  {refusal.name}: {refusal.reason}
                </li>
              ))}
            </ul>
          </div>
        )}
        <p>These will be deleted. This cannot be undone.</p>
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
