// The pieces of a list page: a table whose sortable column headers set the backend's
// `order_by`, and paging. All of it lives in the URL (`?order_by=-title&cursor=…&cursor=…`),
// beside the search and the filters (runtime/filters), so a view can be bookmarked and the
// browser's back button walks it back. Changing the order, a search or a filter starts again
// at the first page: a cursor is only valid for the query it was made for.

import type { QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import type { Selection } from "./bulk";
import { useStoredNumber } from "./stored";
import { messages } from "./messages";

/** One column: its header, whether the list can be ordered by it, and the cell it shows. */
export interface Column<T> {
  id: string;
  label: string;
  /** `order_by` takes the column's id. */
  sortable?: boolean;
  /** The column with the row's link: the column chooser never hides it. */
  always?: boolean;
  cell: (row: T) => ReactNode;
  /**
   * The cell as plain text, for the CSV export. A related row known by its key alone is named
   * by its title, which `queries` (the page's query cache) asks its resource for.
   */
  text: (row: T, queries: QueryClient) => string | Promise<string>;
}

/** The page's query parameters, and a way to change some of them (paging starts over). */
export function useListParams(): {
  params: URLSearchParams;
  change: (changes: Record<string, string | null>) => void;
} {
  const [params, setParams] = useSearchParams();
  return {
    params,
    change: (changes) => {
      const next = new URLSearchParams(params);
      next.delete("cursor");
      for (const [name, value] of Object.entries(changes)) {
        if (value === null) next.delete(name);
        else next.set(name, value);
      }
      setParams(next);
    },
  };
}

/**
 * Every query parameter of the page's URL but the cursor, as the list's query: the order,
 * the search and the filters. The URL is the reader's to edit; the backend checks each value
 * and answers 422 naming a bad one, which the page shows.
 */
export function useUrlQuery<Query>(): Query {
  const [params] = useSearchParams();
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    if (name === "cursor") continue;
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query as Query;
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

/** How many rows a page shows (`?limit=25`), one of the list's choices. */
export interface RowsPerPage {
  size: number;
  choices: readonly number[];
  /** Another size: paging starts over. */
  choose: (size: number) => void;
}

/**
 * The page size of the list `list`: the one the URL asks for when it is one of `choices` (all
 * within the backend's largest page), else the one the reader last chose for this list
 * (remembered per user, runtime/stored), else `standard`, which the URL then leaves out.
 */
export function useRowsPerPage(list: string, standard: number, choices: readonly number[]): RowsPerPage {
  const { params, change } = useListParams();
  const [remembered, remember] = useStoredNumber(`rows-per-page:${list}`);
  const asked = Number(params.get("limit"));
  return {
    size: choices.includes(asked) ? asked : remembered !== null && choices.includes(remembered) ? remembered : standard,
    choices,
    choose: (size) => {
      remember(size === standard ? null : size);
      change({ limit: size === standard ? null : String(size) });
    },
  };
}

/** The column the list is ordered by (`?order_by=title`, `?order_by=-title`), if any. */
export interface Ordering {
  column: string | null;
  descending: boolean;
  /** Ascending, then descending, then the list's default order. */
  toggle: (column: string) => void;
}

export function useOrdering(): Ordering {
  const { params, change } = useListParams();
  const order = params.get("order_by") ?? "";
  const descending = order.startsWith("-");
  const column = order === "" ? null : order.replace(/^-/, "");
  return {
    column,
    descending,
    toggle: (id) => change({ order_by: column !== id ? id : !descending ? `-${id}` : null }),
  };
}

interface TableProps<T> {
  caption: ReactNode;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  ordering: Ordering;
  /** With a selection, a first column of checkboxes chooses rows; `rowName` names each box. */
  selection?: Selection;
  rowName?: (row: T) => string;
}

export function DataTable<T>({ caption, columns, rows, rowKey, ordering, selection, rowName }: TableProps<T>) {
  const t = messages();
  const keys = rows.map(rowKey);
  const chosen = selection === undefined ? 0 : keys.filter((key) => selection.keys.has(key)).length;
  return (
    <>
      {/* On a narrow screen the table scrolls sideways inside this box, never the page. */}
      <div className="table-scroll">
        <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" className="choose">
                <input
                  type="checkbox"
                  aria-label={t.selectAll}
                  checked={rows.length > 0 && chosen === rows.length}
                  ref={(box) => {
                    if (box) box.indeterminate = chosen > 0 && chosen < rows.length;
                  }}
                  onChange={(event) => selection.setAll(keys, event.target.checked)}
                />
              </th>
            )}
            {columns.map((candidate) => {
              const active = candidate.id === ordering.column;
              const sort = active ? (ordering.descending ? "descending" : "ascending") : undefined;
              if (!candidate.sortable) {
                return (
                  <th key={candidate.id} scope="col">
                    {candidate.label}
                  </th>
                );
              }
              return (
                <th key={candidate.id} scope="col" aria-sort={sort}>
                  <button
                    type="button"
                    className="sort"
                    title={t.orderBy(candidate.label)}
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
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {selection && (
                <td className="choose">
                  <input
                    type="checkbox"
                    aria-label={t.selectRow(rowName ? rowName(row) : rowKey(row))}
                    checked={selection.keys.has(rowKey(row))}
                    onChange={() => selection.toggle(rowKey(row))}
                  />
                </td>
              )}
              {columns.map((candidate) => (
                <td key={candidate.id}>{candidate.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
        </table>
      </div>
      {rows.length === 0 && <p className="none">{t.nothingToShow}</p>}
    </>
  );
}

interface PagerProps {
  trail: CursorTrail;
  nextCursor: string | null;
  rows: RowsPerPage;
  /** Every row the query selects, where the list counts them. */
  total?: number | null;
}

/** Previous / Page N (of M, with T rows) / Next, and the rows per page. */
export function Pager({ trail, nextCursor, rows, total }: PagerProps) {
  const t = messages();
  const counted = total !== undefined && total !== null;
  return (
    <nav className="pager" aria-label={t.pages}>
      <button type="button" disabled={trail.page === 1} onClick={trail.previous}>
        {t.previous}
      </button>
      <span aria-live="polite">
        {counted ? t.pageOfTotal(trail.page, Math.max(1, Math.ceil(total / rows.size)), total) : t.pageNumber(trail.page)}
      </span>
      <button
        type="button"
        disabled={nextCursor === null}
        onClick={() => nextCursor !== null && trail.next(nextCursor)}
      >
        {t.next}
      </button>
      <label className="rows-per-page">
        {t.rowsPerPage}
        <select value={rows.size} onChange={(event) => rows.choose(Number(event.target.value))}>
          {rows.choices.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
