// The filter bar of a list: its controls come from the backend's filter catalog
// (`GET /_filters`) at run time. Every value lives in the URL under the list's own query
// parameter (`author_id=…`, `rating__gte=4`), so a view is bookmarkable, back and forward
// walk it, and any change starts again at the first page.

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { FieldFrame } from "./fields";
import { type Choice, ReferencePicker } from "./picker";
import { useListParams } from "./list";

/** One value a filter may take, as `/_filters` and `/_values` offer it. */
export interface CatalogChoice {
  value: string | number | boolean;
  label: string;
}

/** Where a filter's values come from (`FilterInfo.values` of the catalog). */
export type CatalogValues =
  | { kind?: "enum"; choices: CatalogChoice[] }
  | { kind?: "bool" }
  | { kind?: "ref"; resource: string }
  | { kind?: "self"; resource: string }
  | { kind?: "free_text" }
  | {
      kind?: "literal";
      type: "str" | "int" | "float" | "date" | "datetime" | "uuid";
    };

/** One filterable field of a list. */
export interface CatalogFilter {
  field: string;
  operators: string[];
  values: CatalogValues;
}

/** The catalog's answer, as far as the filter bar reads it. */
export interface FilterCatalog {
  lists: { resource: string; path: string; filters: CatalogFilter[] }[];
}

/** `POST /_values`: values for one field of a resource, best first. */
export type ValuesLookup = (request: {
  resource: string;
  field: string;
  q?: string;
  limit?: number;
}) => Promise<CatalogChoice[]>;

/** What the pages know of a field at generation time: its label, and how to name a chosen row. */
export interface FilterFieldPresentation {
  label: string;
  useChoiceLabel?: (key: string) => string | undefined;
}

interface FilterBarProps {
  /** The list's API path: which of the catalog's lists this bar filters. */
  path: string;
  catalog: FilterCatalog | undefined;
  lookup: ValuesLookup;
  fields: Readonly<Record<string, FilterFieldPresentation>>;
  /** The plural heading of the list ("Articles"): names the group of controls. */
  label: string;
}

/** A control per filterable field of the list, by the kind of its values. */
export function FilterBar({
  path,
  catalog,
  lookup,
  fields,
  label,
}: FilterBarProps) {
  const { params, change } = useListParams();
  const list = catalog?.lists.find((candidate) => candidate.path === path);
  if (!list) return null;
  const names = list.filters.flatMap((filter) => parametersOf(filter));
  const active = names.some((name) => params.has(name));
  return (
    <fieldset className="filters">
      <legend>Filter {label.toLowerCase()}</legend>
      {list.filters.map((filter) => (
        <FilterControl
          key={filter.field}
          filter={filter}
          resource={list.resource}
          lookup={lookup}
          presentation={
            fields[filter.field] ?? { label: sentence(filter.field) }
          }
        />
      ))}
      <button
        type="button"
        disabled={!active}
        onClick={() =>
          change(Object.fromEntries(names.map((name) => [name, null])))
        }
      >
        Clear filters
      </button>
    </fieldset>
  );
}

/** The query parameters a filter's control writes. */
function parametersOf(filter: CatalogFilter): string[] {
  const range = isRange(filter);
  return range
    ? [`${filter.field}__gte`, `${filter.field}__lte`]
    : [parameter(filter)];
}

const isRange = (filter: CatalogFilter) =>
  filter.operators.includes("gte") && filter.operators.includes("lte");

/** The one parameter of a single-value control: text is searched within, the rest compared equal. */
function parameter(filter: CatalogFilter): string {
  if (
    filter.values.kind === "free_text" ||
    (filter.values.kind === "literal" && filter.values.type === "str")
  ) {
    if (filter.operators.includes("contains"))
      return `${filter.field}__contains`;
    if (filter.operators.includes("starts_with"))
      return `${filter.field}__starts_with`;
  }
  return filter.operators.includes("eq")
    ? filter.field
    : `${filter.field}__${filter.operators[0] ?? "eq"}`;
}

interface ControlProps {
  filter: CatalogFilter;
  resource: string;
  lookup: ValuesLookup;
  presentation: FilterFieldPresentation;
}

function FilterControl({
  filter,
  resource,
  lookup,
  presentation,
}: ControlProps) {
  const { params, change } = useListParams();
  const values = filter.values;
  const label = presentation.label;
  const set = (name: string) => (value: string) =>
    change({ [name]: value === "" ? null : value });
  if (values.kind === "enum" || values.kind === "bool") {
    const name = parameter(filter);
    const choices =
      values.kind === "enum"
        ? values.choices
        : [
            { value: true, label: "Yes" },
            { value: false, label: "No" },
          ];
    return (
      <FieldFrame label={label}>
        {({ input }) => (
          <select
            id={input}
            value={params.get(name) ?? ""}
            onChange={(event) => set(name)(event.target.value)}
          >
            <option value="">Any</option>
            {choices.map((choice) => (
              <option key={String(choice.value)} value={String(choice.value)}>
                {choice.label}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
    );
  }
  if (values.kind === "ref" || values.kind === "self") {
    const name = parameter(filter);
    return (
      <ReferencePicker
        label={label}
        value={params.get(name) ?? ""}
        onChange={set(name)}
        useChoices={(search) =>
          useFilterChoices(lookup, resource, filter.field, search)
        }
        useChoiceLabel={
          presentation.useChoiceLabel ?? ((key) => seenLabels.get(key))
        }
      />
    );
  }
  const type = values.kind === "literal" ? INPUT_TYPES[values.type] : "text";
  if (isRange(filter)) {
    return (
      <>
        <DraftInput
          label={`${label} from`}
          type={type}
          value={params.get(`${filter.field}__gte`) ?? ""}
          onCommit={set(`${filter.field}__gte`)}
        />
        <DraftInput
          label={`${label} to`}
          type={type}
          value={params.get(`${filter.field}__lte`) ?? ""}
          onCommit={set(`${filter.field}__lte`)}
        />
      </>
    );
  }
  const name = parameter(filter);
  return (
    <DraftInput
      label={label}
      type={type}
      value={params.get(name) ?? ""}
      onCommit={set(name)}
    />
  );
}

const INPUT_TYPES: Record<string, string> = {
  str: "text",
  uuid: "text",
  int: "number",
  float: "number",
  date: "date",
  datetime: "datetime-local",
};

/** An input whose text reaches the URL on Enter or when it loses focus, not on every key. */
function DraftInput({
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

/** Labels of rows `/_values` offered, for a chosen row whose page names it no other way. */
const seenLabels = new Map<string, string>();

function useFilterChoices(
  lookup: ValuesLookup,
  resource: string,
  field: string,
  search: string,
): { choices: Choice[]; loading: boolean } {
  const query = useQuery({
    queryKey: ["_values", resource, field, search],
    queryFn: () =>
      lookup({
        resource,
        field,
        q: search.trim() === "" ? undefined : search.trim(),
        limit: 20,
      }),
  });
  const choices = (query.data ?? []).map((choice) => ({
    key: String(choice.value),
    label: choice.label,
  }));
  for (const choice of choices) seenLabels.set(choice.key, choice.label);
  return { choices, loading: query.isPending };
}

/** "author_id" → "Author id": a field the pages did not know when they were generated. */
function sentence(name: string): string {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
