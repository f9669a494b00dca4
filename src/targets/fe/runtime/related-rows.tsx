// A form's many-to-many field: the related rows chosen so far, each with a button that
// removes it, and a picker that adds one (its options from the caller's hook, as the single
// reference picker's, without the rows already chosen). The draft holds each row's key with
// its label, so the chosen rows are named without asking the backend again.

import { useEffect, useRef } from "react";
import { type Choice, type ChoicesHook, ReferencePicker } from "./picker";

interface RelatedRowsProps {
  label: string;
  /** The chosen rows, in the order chosen. */
  value: Choice[];
  onChange: (rows: Choice[]) => void;
  useChoices: ChoicesHook;
  error?: string;
}

/** The picker names no chosen row: its input only searches. */
const noLabel = () => undefined;

export function RelatedRowsPicker({ label, value, onChange, useChoices, error }: RelatedRowsProps) {
  const frame = useRef<HTMLDivElement>(null);
  // After a removal, where the focus goes: the next row's button (else the previous, else the input).
  const removedAt = useRef<number | null>(null);
  const chosen = new Set(value.map((row) => row.key));
  const useUnchosen: ChoicesHook = (search) => {
    const found = useChoices(search);
    return { ...found, choices: found.choices.filter((choice) => !chosen.has(choice.key)) };
  };

  useEffect(() => {
    const index = removedAt.current;
    if (index === null || !frame.current) return;
    removedAt.current = null;
    const buttons = frame.current.querySelectorAll<HTMLButtonElement>("ul.chosen button");
    (buttons[Math.min(index, buttons.length - 1)] ?? frame.current.querySelector("input"))?.focus();
  }, [value]);

  return (
    <div className="related-rows" ref={frame}>
      <ReferencePicker
        label={label}
        value=""
        onChange={(_key, choice) => {
          if (choice && !chosen.has(choice.key)) onChange([...value, choice]);
        }}
        useChoices={useUnchosen}
        useChoiceLabel={noLabel}
        error={error}
      />
      {value.length > 0 && (
        <ul className="chosen" aria-label={`${label}: chosen`}>
          {value.map((row, index) => (
            <li key={row.key}>
              {row.label}
              <button
                type="button"
                aria-label={`Remove ${row.label}`}
                onClick={() => {
                  removedAt.current = index;
                  onChange(value.filter((other) => other.key !== row.key));
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
