// A reader's choices that outlive the page (the filter bar folded or open, the columns a list
// hides), kept in localStorage under a key per list. Storage may be refused (private mode, a
// full quota): the choice then lasts until the page is left.

import { useState } from "react";

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Refused: kept for this page only.
  }
}

/** A yes/no choice under `key`: no by default. */
export function useStoredFlag(key: string): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key) === "1");
  return [
    value,
    (next) => {
      setValue(next);
      write(key, next ? "1" : null);
    },
  ];
}

/** A set of names under `key`: empty by default, and when what is stored is no list of names. */
export function useStoredSet(key: string): [ReadonlySet<string>, (value: ReadonlySet<string>) => void] {
  const [value, setValue] = useState<ReadonlySet<string>>(() => {
    try {
      const stored: unknown = JSON.parse(read(key) ?? "[]");
      return new Set(Array.isArray(stored) ? stored.filter((name) => typeof name === "string") : []);
    } catch {
      return new Set();
    }
  });
  return [
    value,
    (next) => {
      setValue(next);
      write(key, next.size === 0 ? null : JSON.stringify([...next]));
    },
  ];
}
