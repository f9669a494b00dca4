// A reader's choices that outlive the page (the filter bar folded or open, the columns a list
// hides, its rows per page), kept in localStorage under a key per list and per signed-in user:
// two people sharing a browser each find their own. Storage may be refused (private mode, a
// full quota): the choice then lasts until the page is left.

import { createContext, useContext, useState } from "react";

/**
 * Whose choices the pages read and write: the signed-in user's id (the session's subject), or
 * null for a reader nobody signed in as. The app provides it around the pages.
 */
export const ChoicesOwner = createContext<string | null>(null);

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

/**
 * The choice `name` of the reader the pages show, as `parse` reads it (null: nothing stored),
 * and a way to change it (`format` gives null to store nothing). Another user signing in reads
 * theirs.
 */
function useStored<T>(name: string, parse: (text: string | null) => T, format: (value: T) => string | null): [T, (value: T) => void] {
  const owner = useContext(ChoicesOwner);
  const key = owner === null ? name : `user:${encodeURIComponent(owner)}:${name}`;
  const [state, setState] = useState(() => ({ key, value: parse(read(key)) }));
  const value = state.key === key ? state.value : parse(read(key));
  return [
    value,
    (next) => {
      setState({ key, value: next });
      write(key, format(next));
    },
  ];
}

/** A yes/no choice: no by default. */
export function useStoredFlag(name: string): [boolean, (value: boolean) => void] {
  return useStored(name, (text) => text === "1", (value) => (value ? "1" : null));
}

/** A number: null when none is stored. */
export function useStoredNumber(name: string): [number | null, (value: number | null) => void] {
  return useStored(
    name,
    (text) => (text !== null && Number.isFinite(Number(text)) ? Number(text) : null),
    (value) => (value === null ? null : String(value)),
  );
}

/** A set of names: empty by default, and when what is stored is no list of names. */
export function useStoredSet(name: string): [ReadonlySet<string>, (value: ReadonlySet<string>) => void] {
  return useStored<ReadonlySet<string>>(
    name,
    (text) => {
      try {
        const stored: unknown = JSON.parse(text ?? "[]");
        return new Set(Array.isArray(stored) ? stored.filter((item) => typeof item === "string") : []);
      } catch {
        return new Set<string>();
      }
    },
    (value) => (value.size === 0 ? null : JSON.stringify([...value])),
  );
}
