// Several rows of a referenced resource, chosen one at a time: a picker that adds a row (its
// options from the caller's hook, as the single picker's, without the rows already chosen)
// and the chosen rows as a list, each with a button that removes it. Where the keys are kept
// is the caller's: a filter's `field__in` query parameter (filter-controls.tsx) or a form's
// draft (related-rows.tsx).

import { useEffect, useRef } from "react";
import { type Choice, type ChoiceLabelHook, type ChoicesHook, ReferencePicker } from "./picker";
import { messages } from "./messages";

interface ReferenceSetProps {
  /** The picker's label. */
  label: string;
  /** What the list of chosen rows is named after: "Tags" names it "Tags: chosen". */
  name: string;
  /** The chosen rows' keys, in the order chosen. */
  keys: readonly string[];
  onAdd: (choice: Choice) => void;
  onRemove: (key: string) => void;
  useChoices: ChoicesHook;
  /** A chosen row's label, once known (the row shows its key until then). */
  useChoiceLabel: ChoiceLabelHook;
  error?: string;
}

/** The picker names no chosen row: its input only searches. */
const noLabel = () => undefined;

export function ReferenceSet({ label, name, keys, onAdd, onRemove, useChoices, useChoiceLabel, error }: ReferenceSetProps) {
  const frame = useRef<HTMLDivElement>(null);
  // After a removal, where the focus goes: the next row's button (else the previous, else the input).
  const removedAt = useRef<number | null>(null);
  const chosen = new Set(keys);
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
    // Once the keys have changed: a render that still shows the removed row is not the one after it.
  }, [JSON.stringify(keys)]);

  return (
    <div className="reference-set" ref={frame}>
      <ReferencePicker
        label={label}
        value=""
        onChange={(_key, choice) => {
          if (choice && !chosen.has(choice.key)) onAdd(choice);
        }}
        useChoices={useUnchosen}
        useChoiceLabel={noLabel}
        error={error}
      />
      {keys.length > 0 && (
        <ul className="chosen" aria-label={messages().chosen(name)}>
          {keys.map((key, index) => (
            <ChosenRow
              key={key}
              id={key}
              useChoiceLabel={useChoiceLabel}
              onRemove={() => {
                removedAt.current = index;
                onRemove(key);
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** One chosen row, by its label once known (its key until then). */
function ChosenRow({ id, useChoiceLabel, onRemove }: { id: string; useChoiceLabel: ChoiceLabelHook; onRemove: () => void }) {
  const text = useChoiceLabel(id) ?? id;
  return (
    <li>
      {text}
      <button type="button" aria-label={messages().remove(text)} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}
