// A form's many-to-many field: a set of related rows (reference-set.tsx) kept in the draft,
// each row's key with its label, so the chosen rows are named without asking the backend again.

import type { Choice, ChoicesHook } from "./picker";
import { ReferenceSet } from "./reference-set";

interface RelatedRowsProps {
  label: string;
  /** The chosen rows, in the order chosen. */
  value: Choice[];
  onChange: (rows: Choice[]) => void;
  useChoices: ChoicesHook;
  error?: string;
}

export function RelatedRowsPicker({ label, value, onChange, useChoices, error }: RelatedRowsProps) {
  return (
    <ReferenceSet
      label={label}
      name={label}
      keys={value.map((row) => row.key)}
      onAdd={(choice) => onChange([...value, choice])}
      onRemove={(key) => onChange(value.filter((row) => row.key !== key))}
      useChoices={useChoices}
      useChoiceLabel={(key) => value.find((row) => row.key === key)?.label}
      error={error}
    />
  );
}
