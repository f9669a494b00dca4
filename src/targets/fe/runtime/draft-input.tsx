// A filter's typed value: an input whose text reaches the URL on Enter or when it loses
// focus, not on every key, so a half-typed number or date never starts a request.

import { useEffect, useState } from "react";
import { FieldFrame } from "./fields";

/** The input type of a `literal` filter's value type. */
export const INPUT_TYPES: Record<string, string> = {
  str: "text",
  uuid: "text",
  int: "number",
  float: "number",
  date: "date",
  datetime: "datetime-local",
};

/** An input whose text reaches the URL on Enter or when it loses focus, not on every key. */
export function DraftInput({
  label,
  type,
  value,
  onCommit,
}: {
  label: string;
  type: string;
  value: string;
  onCommit: (value: string) => void;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const commit = () => {
    if (text.trim() !== value) onCommit(text.trim());
  };
  return (
    <FieldFrame label={label}>
      {({ input }) => (
        <input
          id={input}
          type={type}
          step={type === "number" ? "any" : undefined}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === "Enter") commit();
          }}
        />
      )}
    </FieldFrame>
  );
}
