// The search box of a list that takes `q`: its text lives in the URL (`?q=relays`) beside
// the order and the filters, and a new search starts again at the first page.

import { type FormEvent, useEffect, useState } from "react";
import { useListParams } from "./list";
import { messages } from "./messages";

/** `?q=`: the list's full-text or trigram search; the best matches come first. */
export function SearchBox({ label }: { label: string }) {
  const { params, change } = useListParams();
  const current = params.get("q") ?? "";
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change({ q: text.trim() === "" ? null : text.trim() });
  };
  return (
    <form role="search" className="search" onSubmit={submit}>
      <input
        type="search"
        aria-label={label}
        placeholder={label}
        maxLength={200}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit">{messages().search}</button>
    </form>
  );
}
