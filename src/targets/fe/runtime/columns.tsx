// A list's column chooser: the reader hides the columns the table need not show, remembered per
// list and per signed-in user (runtime/stored). The column holding the row's link is always shown, so
// every row still opens, and the last column shown stays. The CSV export takes the same columns.

import { useId, useState } from "react";
import type { Column } from "./list";
import { useStoredSet } from "./stored";
import { messages } from "./messages";

/** A list's columns and which of them the reader shows. */
export interface ShownColumns<T> {
  /** The columns shown, in the list's order. */
  columns: readonly Column<T>[];
  all: readonly Column<T>[];
  hidden: ReadonlySet<string>;
  toggle: (id: string) => void;
  /** Shows these columns and hides the others (a saved view's); ids the list lacks are ignored. */
  showOnly: (ids: readonly string[]) => void;
}

/** The columns of the list `list` the reader has not hidden. */
export function useShownColumns<T>(list: string, all: readonly Column<T>[]): ShownColumns<T> {
  const [hidden, setHidden] = useStoredSet(`columns-hidden:${list}`);
  return {
    columns: all.filter((column) => column.always || !hidden.has(column.id)),
    all,
    hidden,
    toggle: (id) => {
      const next = new Set(hidden);
      if (!next.delete(id)) next.add(id);
      setHidden(next);
    },
    showOnly: (ids) => {
      const wanted = new Set(ids);
      // None of them the list's (the backend's columns changed): every column shows.
      const known = all.some((column) => wanted.has(column.id));
      setHidden(new Set(known ? all.filter((column) => !wanted.has(column.id)).map((column) => column.id) : []));
    },
  };
}

/** A Columns button unfolding a checkbox per column. */
export function ColumnChooser<T>({ shown }: { shown: ShownColumns<T> }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const t = messages();
  return (
    <div className="column-chooser">
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {t.columns}
      </button>
      {open && (
        <fieldset id={id}>
          <legend>{t.columnsShown}</legend>
          {shown.all.map((column) => {
            const visible = shown.columns.includes(column);
            return (
              <label key={column.id}>
                <input
                  type="checkbox"
                  checked={visible}
                  disabled={column.always === true || (visible && shown.columns.length === 1)}
                  onChange={() => shown.toggle(column.id)}
                />
                {column.label}
              </label>
            );
          })}
        </fieldset>
      )}
    </div>
  );
}
