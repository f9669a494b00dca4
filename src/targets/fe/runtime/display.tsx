// How values of each field type read on a page: dates and times in the reader's locale,
// flags as words, JSON as formatted code, and an explicit mark for "no value".

import { messages } from "./messages";

/** The mark shown for null. */
export function Empty() {
  return <span className="empty">—</span>;
}

/** Yes or No. */
export function Flag({ value }: { value: boolean | null | undefined }) {
  if (value === null || value === undefined) return <Empty />;
  return <span>{value ? messages().yes : messages().no}</span>;
}

/** An ISO 8601 instant in the reader's locale, with the instant in `dateTime`. */
export function DateTime({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <Empty />;
  const date = new Date(value);
  return <time dateTime={value}>{Number.isNaN(date.getTime()) ? value : date.toLocaleString()}</time>;
}

/** An ISO 8601 date as written (dates have no time zone to convert). */
export function DateOnly({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined) return <Empty />;
  return <time dateTime={value}>{value}</time>;
}

/** Text, numbers and keys. */
export function Plain({ value }: { value: string | number | null | undefined }) {
  if (value === null || value === undefined || value === "") return <Empty />;
  return <span>{value}</span>;
}

/** A JSON value, formatted. */
export function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Empty />;
  return <code className="json">{JSON.stringify(value)}</code>;
}
