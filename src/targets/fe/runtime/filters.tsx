// The filter bar of a list: its controls come from the backend's filter catalog
// (`GET /_filters`) at run time. Every value lives in the URL under the list's own query
// parameter (`author_id=…`, `rating__gte=4`, `status__in=draft,published`), so a view is
// bookmarkable, back and forward walk it, and any change starts again at the first page.
// The bar folds behind a Filters button (its count says how many are set), so the keyboard
// reaches the rows in a few steps; whether it is open is remembered per list and per signed-in
// user (runtime/stored).

import { useId } from "react";
import { useListParams } from "./list";
import { FilterControl } from "./filter-controls";
import { useStoredFlag } from "./stored";
import type { FilterCatalog, ValuesLookup } from "./values";
import { messages } from "./messages";

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

/** A control per filterable field of the list, by the kind of its values, behind a toggle. */
export function FilterBar({
  path,
  catalog,
  lookup,
  fields,
  label,
}: FilterBarProps) {
  const { params, change } = useListParams();
  const [open, setOpen] = useStoredFlag(`filters-open:${path}`);
  const barId = useId();
  const t = messages();
  const list = catalog?.lists.find((candidate) => candidate.path === path);
  if (!list) return null;
  // Every operator's parameter, those without a control included: *Clear* clears them all.
  const names = list.filters.flatMap((filter) =>
    filter.operators.map((op) =>
      op === "eq" ? filter.field : `${filter.field}__${op}`,
    ),
  );
  const set = names.filter((name) => params.has(name)).length;
  return (
    <div className="filter-bar">
      <button
        type="button"
        className="filter-toggle"
        aria-expanded={open}
        aria-controls={barId}
        onClick={() => setOpen(!open)}
      >
        {set > 0 ? t.filtersSet(set) : t.filters}
      </button>
      {open && (
        <fieldset id={barId} className="filters">
          <legend>{t.filterRows(label)}</legend>
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
            disabled={set === 0}
            onClick={() =>
              change(Object.fromEntries(names.map((name) => [name, null])))
            }
          >
            {t.clearFilters}
          </button>
        </fieldset>
      )}
    </div>
  );
}

/** "author_id" → "Author id": a field the pages did not know when they were generated. */
function sentence(name: string): string {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
