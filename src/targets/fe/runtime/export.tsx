// The CSV export of a list: every row of the list's current query (its order, search and
// filters), asked for page by page at the list's largest page size, each page's rows added
// to the file as they arrive; the file downloads once the last page is in. Its columns are
// the list page's, each cell as the plain text of what the page shows: a related row by its
// title, as its link in the list names it, never by its key.

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Column } from "./list";
import { messages } from "./messages";

/** A page of rows, and the position of the next page (null after the last). */
export interface ExportPage<T> {
  items: readonly T[];
  next: string | null;
}

/** A value as the text of a cell: nothing for null, JSON for objects. */
export function plainText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * The title of a related row known by its key (a comment's `article_id`), from its resource's
 * answer `row` (the query the list's link asked, cached); the key when it cannot be read.
 */
export function relatedTitle<D>(row: Promise<D>, title: (row: D) => string, key: string | number): Promise<string> {
  return row.then(title, () => String(key));
}

/**
 * One CSV record (RFC 4180), ending in CRLF: a cell with a quote, a comma or a line break is
 * quoted. A cell a spreadsheet would run as a formula (`=…`, `@…`, `+…` that is no number)
 * is made inert with a leading `'`.
 */
export function csvRecord(cells: readonly string[]): string {
  const fields = cells.map((cell) => {
    const formula = /^[=@\t\r]/.test(cell) || (/^[+-]/.test(cell) && !Number.isFinite(Number(cell)));
    const safe = formula ? `'${cell}` : cell;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  });
  return `${fields.join(",")}\r\n`;
}

interface ExportProps<T> {
  columns: readonly Column<T>[];
  /** The page at `position` (undefined: the first) of the list's current query. */
  fetchPage: (position: string | undefined) => Promise<ExportPage<T>>;
  filename: string;
}

/** An "Export CSV" button, and what it has done so far. */
export function ExportCsv<T>({ columns, fetchPage, filename }: ExportProps<T>) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState("");
  const queries = useQueryClient();

  const t = messages();

  async function exportRows() {
    setBusy(true);
    const parts = [csvRecord(columns.map((column) => column.label))];
    let rows = 0;
    try {
      let position: string | undefined;
      do {
        const page = await fetchPage(position);
        const records = page.items.map(async (row) => csvRecord(await Promise.all(columns.map((column) => column.text(row, queries)))));
        parts.push(...(await Promise.all(records)));
        rows += page.items.length;
        setProgress(t.exporting(rows));
        position = page.next ?? undefined;
      } while (position !== undefined);
      saveFile(new Blob(parts, { type: "text/csv;charset=utf-8" }), filename);
      setProgress(t.exported(rows));
    } catch (error) {
      setProgress(t.exportFailed(error instanceof Error ? error.message : String(error)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="export">
      <button type="button" disabled={busy} onClick={() => void exportRows()}>
        {t.exportCsv}
      </button>
      <span role="status">{progress}</span>
    </span>
  );
}

/** Saves `file` as `filename` through the browser's downloads (a CSV export, a stored file's bytes). */
export function saveFile(file: Blob, filename: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once the click is handled; the URL is let go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
