// The filter bar of a list page, `src/generated/<key>/<Name>Filters.tsx`: the labels of the
// filtered fields and the label hooks of the rows they point at, known when generating; the
// controls come from the backend's catalog (`GET /_filters`) when the page runs.

import type { Lookup } from "./cells.js";
import { Imports, commentText, jsxAttr, propertyKey, tsString } from "./code.js";
import type { PageFilters, PageResource } from "./model.js";
import { CLIENT, choiceLabelHook, helpersModule, pageModule } from "./names.js";
import { PageFile } from "./output.js";

export function filtersFile(resource: PageResource, filters: PageFilters, lookup: Lookup): PageFile {
  const imports = new Imports(resource.key);
  imports.from("@tanstack/react-query", "useQuery");
  imports.use("runtime/filters", "FilterBar");
  imports.type("runtime/filters", "FilterFieldPresentation");
  imports.type("runtime/filters", "ValuesLookup");
  if (filters.needsSession) imports.use("session", "useSession");
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
      guarded: filters.needsSession,
      plural_lower: commentText(resource.plural.toLowerCase()),
      path_attr: jsxAttr("path", resource.path),
      label_attr: jsxAttr("label", resource.plural),
      values_fn: imports.use(CLIENT, filters.valuesFn),
      catalog_options: imports.use(CLIENT, `${filters.catalogFn}Options`),
    },
  });
}
