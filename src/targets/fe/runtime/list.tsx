// The pieces of a list page: a table whose column headers order its rows, and keyset
// paging. Both live in the URL (`?sort=-title&cursor=…&cursor=…`), so a view can be
// bookmarked and the browser's back button walks pages back.
//
// Ordering applies to the rows of the page shown: the backend serves pages in key order.
// When a list declares server-side ordering, `sort` is the parameter to send instead.

import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { type Shown, compareShown } from "./display";

/** One column: its header, the value it sorts by, and the cell it shows. */
export interface Column<T> {
  id: string;
  label: string;
  value: (row: T) => Shown;
  cell: (row: T) => ReactNode;
}

/** Where a keyset list is: the cursors that led to this page, oldest first. */
export interface CursorTrail {
  /** The cursor of the page shown; undefined on the first page. */
  cursor: string | undefined;
  /** 1 for the first page. */
  page: number;
  next: (cursor: string) => void;
  previous: () => void;
}

export function useCursorTrail(): CursorTrail {
  const [params, setParams] = useSearchParams();
  const trail = params.getAll("cursor");
  const withTrail = (cursors: string[]) => {
    const next = new URLSearchParams(params);
    next.delete("cursor");
    for (const cursor of cursors) next.append("cursor", cursor);
    setParams(next);
  };
  return {
    cursor: trail.at(-1),
    page: trail.length + 1,
    next: (cursor) => withTrail([...trail, cursor]),
    previous: () => withTrail(trail.slice(0, -1)),
  };
}

/** The column the rows are ordered by (`?sort=title`, `?sort=-title`), if any. */
export interface Ordering {
  column: string | null;
  descending: boolean;
  /** Ascending, then descending, then no ordering. */
  toggle: (column: string) => void;
}

export function useOrdering(): Ordering {
  const [params, setParams] = useSearchParams();
  const sort = params.get("sort") ?? "";
  const descending = sort.startsWith("-");
  const column = sort === "" ? null : sort.replace(/^-/, "");
  return {
    column,
    descending,
    toggle: (id) => {
      const next = new URLSearchParams(params);
      if (column !== id) next.set("sort", id);
      else if (!descending) next.set("sort", `-${id}`);
      else next.delete("sort");
      setParams(next);
    },
  };
}

interface TableProps<T> {
  caption: ReactNode;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  ordering: Ordering;
}

export function DataTable<T>({ caption, columns, rows, rowKey, ordering }: TableProps<T>) {
  const column = columns.find((candidate) => candidate.id === ordering.column);
  const sorted = column
    ? [...rows].sort((a, b) => {
        const order = compareShown(column.value(a), column.value(b));
        return ordering.descending ? -order : order;
      })
    : rows;
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((candidate) => {
            const active = candidate.id === ordering.column;
            const sort = active ? (ordering.descending ? "descending" : "ascending") : undefined;
            return (
              <th key={candidate.id} scope="col" aria-sort={sort}>
                <button
                  type="button"
                  className="sort"
                  title={`Order by ${candidate.label}`}
                  onClick={() => ordering.toggle(candidate.id)}
                >
                  {candidate.label}
                  <span aria-hidden="true">{active ? (ordering.descending ? " ↓" : " ↑") : ""}</span>
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {sorted.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((candidate) => (
              <td key={candidate.id}>{candidate.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Previous / Page N / Next. */
export function Pager({ trail, nextCursor }: { trail: CursorTrail; nextCursor: string | null }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={trail.page === 1} onClick={trail.previous}>
        Previous
      </button>
      <span aria-live="polite">Page {trail.page}</span>
      <button
        type="button"
        disabled={nextCursor === null}
        onClick={() => nextCursor !== null && trail.next(nextCursor)}
      >
        Next
      </button>
    </nav>
  );
}
