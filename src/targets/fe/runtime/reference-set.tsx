// Several rows of a referenced resource at once, for a reference filter whose catalog offers
// `in`: a picker that adds a row (its options from `POST /_values`, like the single picker's)
// and the chosen rows as a list, each with a button that removes it. Sent as one query
// parameter of comma-separated keys, `field__in=a,b`, so a view stays bookmarkable.

import { useListParams } from "./list";
import { type ChoiceLabelHook, type ChoicesHook, ReferencePicker } from "./picker";

interface ReferenceSetProps {
  field: string;
  label: string;
  useChoices: ChoicesHook;
  useChoiceLabel: ChoiceLabelHook;
}

export function ReferenceSet({ field, label, useChoices, useChoiceLabel }: ReferenceSetProps) {
  const { params, change } = useListParams();
  const name = `${field}__in`;
  const chosen = (params.get(name)?.split(",") ?? []).filter((key) => key !== "");
  const write = (keys: string[]) => change({ [name]: keys.length > 0 ? keys.join(",") : null });
  return (
    <div className="reference-set">
      <ReferencePicker
        label={`${label}: any of`}
        value=""
        onChange={(key) => {
          if (key !== "" && !chosen.includes(key)) write([...chosen, key]);
        }}
        useChoices={useChoices}
        useChoiceLabel={useChoiceLabel}
      />
      {chosen.length > 0 && (
        <ul className="chosen" aria-label={`${label}: chosen`}>
          {chosen.map((key) => (
            <ChosenRow key={key} id={key} useChoiceLabel={useChoiceLabel} onRemove={() => write(chosen.filter((other) => other !== key))} />
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
      <button type="button" aria-label={`Remove ${text}`} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}
