// How a read field shows in a table cell or a detail list, as JSX: scalars through the
// runtime's display components, references and nested rows as links to their pages; and
// the same cell as plain text, for the CSV export.

import { type Imports, member } from "./code.js";
import { KIND_CODE, TEXT_KINDS } from "./kinds.js";
import type { PageField, PageResource } from "./model.js";
import type { FieldKind } from "./openapi.js";
import { CLIENT, choiceLabelHook, helpersModule, pathFn, titleFn } from "./names.js";

/** Finds a resource by key. */
export type Lookup = (key: string) => PageResource;

/** The JSX showing `field` of `row`. */
export function cell(field: PageField, row: string, imports: Imports, lookup: Lookup): string {
  const value = member(row, field.name);
  if (field.kind === "nested") return nestedCell(field, value, imports, lookup);
  if (field.references) {
    const target = lookup(field.references);
    const to = `${imports.use(helpersModule(target), pathFn(target))}({ ${target.keyField}: ${value} })`;
    // Named by the row's title where the target can be asked for one row; by its key otherwise.
    const link = target.get
      ? `<${imports.use("runtime/reference-link", "ReferenceLink")} to={${to}} rowKey={String(${value})} useLabel={${imports.use(helpersModule(target), choiceLabelHook(target))}} />`
      : `<${imports.from("react-router", "Link")} to={${to}}>{${value}}</Link>`;
    if (!field.nullable) return link;
    return `${value} === null ? <${imports.use("runtime/display", "Empty")} /> : ${link}`;
  }
  return `<${imports.use("runtime/display", KIND_CODE[field.kind].display)} value={${value}} />`;
}

/**
 * The plain text of `field` of `row`, for the CSV export, as a column's `text` function: what
 * its cell shows, a nested row by its title, several by their titles joined with "; ", and a
 * key of another resource's row by that row's title (asked through the query cache `queries`,
 * as its link asks it) where the resource can be asked for one row.
 */
export function cellText(field: PageField, row: string, imports: Imports, lookup: Lookup): string {
  const value = member(row, field.name);
  const orEmpty = (title: string) => (field.nullable ? `${value} === null ? "" : ${title}` : title);
  const target = field.references && field.kind !== "nested" && !field.many ? lookup(field.references) : undefined;
  if (target?.get) {
    const asked = `queries.ensureQueryData(${imports.use(CLIENT, `${target.get.fn}Options`)}({ path: { pk: ${value} } }))`;
    return `(${row}, queries) => ${orEmpty(`${imports.use("runtime/export", "relatedTitle")}(${asked}, ${imports.use(helpersModule(target), titleFn(target))}, ${value})`)}`;
  }
  if (field.kind !== "nested") return `(${row}) => ${imports.use("runtime/export", "plainText")}(${value})`;
  if (field.many) return `(${row}) => ${value}.map((item) => ${nestedTitle(field, "item", imports, lookup)}).join("; ")`;
  return `(${row}) => ${orEmpty(nestedTitle(field, value, imports, lookup))}`;
}

/** The text naming a nested object: its resource's title, else its `label` (link objects), else its first text field. */
export function nestedTitle(field: PageField, item: string, imports: Imports, lookup: Lookup): string {
  const target = field.link ? lookup(field.link) : undefined;
  const fields = field.nested?.fields ?? [];
  if (target && fields.some((candidate) => candidate.name === target.titleField)) {
    return `${imports.use(helpersModule(target), titleFn(target))}(${item})`;
  }
  const isText = (candidate: { kind: FieldKind }) => TEXT_KINDS.has(candidate.kind);
  const text = fields.find((candidate) => candidate.name === "label" && isText(candidate)) ?? fields.find(isText) ?? fields[0];
  return text ? `String(${member(item, text.name)})` : `JSON.stringify(${item})`;
}

function nestedItem(field: PageField, item: string, imports: Imports, lookup: Lookup): string {
  const title = nestedTitle(field, item, imports, lookup);
  if (!field.link) return `{${title}}`;
  const target = lookup(field.link);
  return `<${imports.from("react-router", "Link")} to={${imports.use(helpersModule(target), pathFn(target))}(${item})}>{${title}}</Link>`;
}

function nestedCell(field: PageField, value: string, imports: Imports, lookup: Lookup): string {
  const empty = () => `<${imports.use("runtime/display", "Empty")} />`;
  if (!field.many) {
    const item = nestedItem(field, value, imports, lookup);
    const shown = item.startsWith("{") ? `<span>${item}</span>` : item;
    return field.nullable ? `${value} === null ? ${empty()} : ${shown}` : shown;
  }
  const keyField = field.link ? lookup(field.link).keyField : undefined;
  const keyed = keyField !== undefined && (field.nested?.fields.some((candidate) => candidate.name === keyField) ?? false);
  const [params, itemKey] = keyed ? ["(item)", `String(${member("item", keyField!)})`] : ["(item, index)", "index"];
  const list = `<ul className="many">{${value}.map(${params} => <li key={${itemKey}}>${nestedItem(field, "item", imports, lookup)}</li>)}</ul>`;
  return `${value}.length === 0 ? ${empty()} : ${list}`;
}
