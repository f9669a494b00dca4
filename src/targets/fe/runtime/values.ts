// Rows for pickers from the backend's `POST /_values`, found through the filter catalog
// (`GET /_filters`): the filter bar's reference pickers and the forms' both ask here. A form
// falls back to the referenced list when the catalog offers no values for its field.

import { useQuery } from "@tanstack/react-query";
import type { Choice } from "./picker";

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

/** The catalog's answer, as far as the pages read it. */
export interface FilterCatalog {
  lists: { resource: string; path: string; filters: CatalogFilter[] }[];
}

/** A field of a backend resource whose values `/_values` lists. */
export interface ValuesSource {
  resource: string;
  field: string;
}

/** `POST /_values`: values for one field of a resource, best first. */
export type ValuesLookup = (
  request: ValuesSource & { q?: string; limit?: number },
) => Promise<CatalogChoice[]>;

/** Labels of rows `/_values` offered, for a chosen row whose page names it no other way. */
export const seenLabels = new Map<string, string>();

/** The values of `source` matching `search`, best first; nothing is asked without a source. */
export function useValueChoices(
  lookup: ValuesLookup,
  source: ValuesSource | undefined,
  search: string,
): { choices: Choice[]; loading: boolean } {
  const q = search.trim() === "" ? undefined : search.trim();
  const query = useQuery({
    queryKey: ["_values", source?.resource, source?.field, q],
    queryFn: () => lookup({ ...source!, q, limit: 20 }),
    enabled: source !== undefined,
  });
  const choices = (query.data ?? []).map((choice) => ({
    key: String(choice.value),
    label: choice.label,
  }));
  for (const choice of choices) seenLabels.set(choice.key, choice.label);
  return { choices, loading: source !== undefined && query.isPending };
}

/** A form's reference field: the form's list path, the field, and the referenced list's path. */
export interface ReferenceField {
  path: string;
  field: string;
  target: string;
}

/**
 * Where the catalog lists values for a form's reference field: the filter of the form's
 * own list on that field, else the key filter (`self`) of the referenced list.
 */
export function valuesSourceOf(
  catalog: FilterCatalog | undefined,
  reference: ReferenceField,
): ValuesSource | undefined {
  const keyed = (path: string, match: (filter: CatalogFilter) => boolean) => {
    const list = catalog?.lists.find((candidate) => candidate.path === path);
    const filter = list?.filters.find(match);
    return list && filter
      ? { resource: list.resource, field: filter.field }
      : undefined;
  };
  return (
    keyed(
      reference.path,
      (filter) =>
        filter.field === reference.field &&
        (filter.values.kind === "ref" || filter.values.kind === "self"),
    ) ?? keyed(reference.target, (filter) => filter.values.kind === "self")
  );
}

/** The referenced list's rows matching `search`, asked only when `enabled`. */
export type ListedChoices = (
  search: string,
  enabled: boolean,
) => { choices: Choice[]; loading: boolean };

/**
 * Rows for a form's reference picker: from `/_values` when the catalog offers the field,
 * else from the referenced list (`listed`), which is not asked while the catalog loads.
 */
export function useReferenceValues(
  catalog: { data?: FilterCatalog; isLoading: boolean },
  lookup: ValuesLookup,
  reference: ReferenceField,
  search: string,
  listed: ListedChoices,
): { choices: Choice[]; loading: boolean } {
  const source = valuesSourceOf(catalog.data, reference);
  const values = useValueChoices(lookup, source, search);
  const fallback = listed(search, !catalog.isLoading && source === undefined);
  if (source) return values;
  return catalog.isLoading ? { choices: [], loading: true } : fallback;
}
