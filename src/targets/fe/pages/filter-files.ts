// The filter bar of a list page, `src/generated/<key>/<Name>Filters.tsx`, and the catalog
// module the bars and the forms' pickers share, `src/generated/catalog.ts`: the labels and
// label hooks are known when generating; the controls and values come from the backend's
// catalog (`GET /_filters`, `POST /_values`) when the page runs.

import type { Lookup } from "./cells.js";
import { Imports, commentText, jsxAttr, propertyKey, tsString } from "./code.js";
import type { PageCatalog, PageFilters, PageResource } from "./model.js";
import { CATALOG, CLIENT, choiceLabelHook, helpersModule, pageModule } from "./names.js";
import { PageFile } from "./output.js";

export function filtersFile(resource: PageResource, filters: PageFilters, lookup: Lookup): PageFile {
  const imports = new Imports(resource.key);
  imports.use("runtime/filters", "FilterBar");
  imports.type("runtime/filters", "FilterFieldPresentation");
  imports.use(CATALOG, "lookupValues");
  imports.use(CATALOG, "useFilterCatalog");
  const fields = filters.fields.map((field) => {
    const target = field.references ? lookup(field.references) : undefined;
    return {
      key: propertyKey(field.name),
      label: tsString(field.label),
      label_hook: target?.get ? imports.use(helpersModule(target), choiceLabelHook(target)) : undefined,
    };
  });
  return new PageFile({
    path: `src/generated/${pageModule(resource, "Filters")}.tsx`,
    template: "pages/filters.tsx.njk",
    imports: imports.collector,
    context: {
      pascal: resource.pascal,
      fields,
      plural_lower: commentText(resource.plural.toLowerCase()),
      path_attr: jsxAttr("path", resource.path),
      label_attr: jsxAttr("label", resource.plural),
    },
  });
}

export function catalogFile(catalog: PageCatalog): PageFile {
  const imports = new Imports("");
  imports.from("@tanstack/react-query", "useQuery");
  for (const name of ["FilterCatalog", "ListedChoices", "ReferenceField", "ValuesLookup"]) imports.type("runtime/values", name);
  imports.use("runtime/values", "useReferenceValues");
  imports.type("runtime/picker", "Choice");
  if (catalog.needsSession) imports.use("session", "useSession");
  return new PageFile({
    path: `src/generated/${CATALOG}.ts`,
    template: "pages/catalog.ts.njk",
    imports: imports.collector,
    context: {
      values_fn: imports.use(CLIENT, catalog.valuesFn),
      catalog_options: imports.use(CLIENT, `${catalog.catalogFn}Options`),
      needs_session: catalog.needsSession,
    },
  });
}
