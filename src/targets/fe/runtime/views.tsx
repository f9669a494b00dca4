// A signed-in reader's saved views of a list (the backend's `{prefix}/views`): the list's query
// as the URL has it (filters, search, order; neither the page nor its size) and the columns
// shown, under a name. Applying one puts its query in the URL, so the list, the filter bar and
// the headers follow, and shows its columns. Each view is its owner's: the backend answers
// nobody else's.

import { type FormEvent, useId, useState } from "react";
import { useSearchParams } from "react-router";
import type { ShownColumns } from "./columns";
import { ConfirmDialog } from "./dialog";
import { explain } from "./errors";
import { Toast } from "./toast";
import { messages } from "./messages";

/** A view as the backend answers it. */
export interface SavedView {
  id: string;
  name: string;
  query: { [key: string]: unknown };
  columns: string[];
}

/**
 * A view to save: its name, the list's query parameters (`Query`, the list's query type:
 * the URL's text, which the backend validates as it does the list's), the columns shown.
 */
export interface NewView<Query> {
  name: string;
  query: Query;
  columns: string[];
}

/** Parameters of the page's URL that are no part of a view: where the reader is, how many rows. */
const NOT_SAVED = new Set(["cursor", "limit"]);

/** A stored value as its query parameter: a list joined by commas, as the filter bar writes one. */
function parameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(String).join(",");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

interface SavedViewsProps<T, Query> {
  /** The reader's views of the list, by name; undefined while they are on their way. */
  views: readonly SavedView[] | undefined;
  shown: ShownColumns<T>;
  save: (view: NewView<Query>) => Promise<unknown>;
  remove: (id: string) => Promise<unknown>;
  /** Asks for the views again, once one is saved or deleted. */
  refresh: () => unknown;
}

/** A picker applying or deleting one of the reader's views, and a form saving the current one. */
export function SavedViews<T, Query>({ views, shown, save, remove, refresh }: SavedViewsProps<T, Query>) {
  const [params, setParams] = useSearchParams();
  const [chosen, setChosen] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const heading = useId();
  const t = messages();
  const view = views?.find((candidate) => candidate.id === chosen);

  const apply = (picked: SavedView) => {
    // The first page of the view's rows, as many a page as the reader shows now.
    const next = new URLSearchParams();
    const limit = params.get("limit");
    if (limit !== null) next.set("limit", limit);
    for (const [key, value] of Object.entries(picked.query)) {
      const text = parameter(value);
      if (!NOT_SAVED.has(key) && text !== null) next.set(key, text);
    }
    setParams(next);
    if (picked.columns.length > 0) shown.showOnly(picked.columns);
  };

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setNotice(done);
      refresh();
      return true;
    } catch (failure) {
      const explained = explain(failure, ["name"]);
      setError(explained.fields.name ?? explained.form);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      if (NOT_SAVED.has(key)) continue;
      const values = params.getAll(key);
      query[key] = values.length === 1 ? values[0]! : values;
    }
    const saving = { name: name.trim(), query: query as Query, columns: shown.columns.map((column) => column.id) };
    if (await run(() => save(saving), t.viewSaved(saving.name))) setName("");
  };

  return (
    <section className="saved-views" aria-labelledby={heading}>
      <h2 id={heading}>{t.savedViews}</h2>
      <div className="saved-views-pick">
        <label>
          {t.view}
          <select value={chosen} onChange={(event) => setChosen(event.target.value)}>
            <option value="">{views === undefined ? t.loading : views.length === 0 ? t.noViews : t.chooseView}</option>
            {views?.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={view === undefined} onClick={() => view && apply(view)}>
          {t.applyView}
        </button>
        <button type="button" className="danger" disabled={view === undefined || busy} onClick={() => setAsking(true)}>
          {t.deleteView}
        </button>
      </div>
      <form className="saved-views-save" onSubmit={(event) => void onSave(event)}>
        <label>
          {t.viewName}
          <input value={name} required maxLength={200} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" disabled={busy || name.trim() === ""}>
          {t.saveView}
        </button>
      </form>
      {error !== null && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {notice !== null && (
        <Toast tone="success" onDismiss={() => setNotice(null)}>
          {notice}
        </Toast>
      )}
      {view && (
        <ConfirmDialog
          open={asking}
          title={t.deleteViewAsk(view.name)}
          confirmLabel={t.delete}
          busy={busy}
          onConfirm={() => {
            setAsking(false);
            void run(() => remove(view.id), t.viewDeleted(view.name)).then((gone) => gone && setChosen(""));
          }}
          onCancel={() => setAsking(false)}
        >
          <p>{t.willDelete(view.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
