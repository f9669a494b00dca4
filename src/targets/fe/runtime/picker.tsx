// The reference picker: a combobox (WAI-ARIA 1.2 pattern) whose options are the referenced
// resource's rows, shown by their label, holding the row's key. Where the options come from
// is the caller's hook (`POST /_values`, or the referenced list filtered here).

import { useEffect, useId, useState } from "react";
import { FieldFrame } from "./fields";
import { messages } from "./messages";

/** One row a reference may point at. */
export interface Choice {
  key: string;
  label: string;
}

/** The rows matching `search` (and whether they are still loading). */
export type ChoicesHook = (search: string) => { choices: Choice[]; loading: boolean };

/** The label of the row with `key`, once known. */
export type ChoiceLabelHook = (key: string) => string | undefined;

interface PickerProps {
  label: string;
  /** The key of the chosen row, "" for none. */
  value: string;
  /** Called with the chosen row's key and the row (none when the input is cleared). */
  onChange: (key: string, choice?: Choice) => void;
  useChoices: ChoicesHook;
  useChoiceLabel: ChoiceLabelHook;
  required?: boolean;
  error?: string;
}

export function ReferencePicker(props: PickerProps) {
  const listbox = useId();
  const chosenLabel = props.useChoiceLabel(props.value);
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { choices, loading } = props.useChoices(text ?? "");
  const shown = text ?? chosenLabel ?? props.value;

  useEffect(() => setActive(0), [text]);

  const choose = (choice: Choice) => {
    props.onChange(choice.key, choice);
    setText(null);
    setOpen(false);
  };

  return (
    <FieldFrame label={props.label} required={props.required} error={props.error}>
      {({ input, described }) => (
        <div className="picker">
          <input
            id={input}
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listbox}
            aria-activedescendant={open && choices[active] ? `${listbox}-${active}` : undefined}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={described}
            required={props.required}
            value={shown}
            onFocus={() => setOpen(true)}
            onBlur={() => {
              setOpen(false);
              setText(null);
            }}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              if (event.target.value === "") props.onChange("");
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown") {
                event.preventDefault();
                setOpen(true);
                setActive((index) => Math.min(index + 1, choices.length - 1));
              } else if (event.key === "ArrowUp") {
                event.preventDefault();
                setActive((index) => Math.max(index - 1, 0));
              } else if (event.key === "Enter" && open && choices[active]) {
                event.preventDefault();
                choose(choices[active]);
              } else if (event.key === "Escape") {
                setOpen(false);
                setText(null);
              }
            }}
          />
          {open && (
            <ul id={listbox} role="listbox" aria-label={props.label}>
              {loading && <li className="picker-note">{messages().loading}</li>}
              {!loading && choices.length === 0 && <li className="picker-note">{messages().noMatches}</li>}
              {choices.map((choice, index) => (
                <li
                  key={choice.key}
                  id={`${listbox}-${index}`}
                  role="option"
                  aria-selected={choice.key === props.value}
                  className={index === active ? "active" : undefined}
                  // Chosen before the input's blur closes the list.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    choose(choice);
                  }}
                >
                  {choice.label}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </FieldFrame>
  );
}

/** The choices among `rows` whose label contains `search` (case-insensitive), at most `limit`. */
export function matchingChoices(rows: readonly Choice[], search: string, limit = 20): Choice[] {
  const needle = search.trim().toLowerCase();
  return rows.filter((row) => row.label.toLowerCase().includes(needle)).slice(0, limit);
}
