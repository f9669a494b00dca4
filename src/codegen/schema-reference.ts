// A target's config reference in Markdown, rendered from its JSON Schema (`configJsonSchema`)
// and nothing else, so the reference cannot say what the schemas do not: one section per
// object schema (root first, then `$defs` in the order they are first referenced), a
// table of its keys, its examples, and the string formats the keys use.

import type { OperationRegistry } from "./registry.js";
import type { Target } from "./target.js";
import { SCHEMA_KEY, configJsonSchema, type JsonSchema } from "./json-schema.js";

interface Section {
  name: string;
  schema: JsonSchema;
}

/** The Markdown config reference of `target` (`operations`: its group's): what `codegen schema --markdown` prints and `docs/reference/` holds. */
export function configReference(target: Target, operations: OperationRegistry): string {
  return new ReferenceWriter(configJsonSchema(target, operations)).render(target.name);
}

const DEF_PREFIX = "#/$defs/";

class ReferenceWriter {
  readonly #defs: Record<string, JsonSchema>;
  readonly #root: JsonSchema;
  /** Sections still to write, and every name ever queued (a def is written once). */
  readonly #queue: Section[] = [];
  readonly #queued = new Set<string>();
  /** Defs that are not objects but titled values (`Python name`), listed under Formats. */
  readonly #formats = new Map<string, JsonSchema>();

  constructor(root: JsonSchema) {
    this.#root = root;
    this.#defs = (root.$defs as Record<string, JsonSchema> | undefined) ?? {};
  }

  render(targetName: string): string {
    const out: string[] = [
      `<!-- Generated from \`codegen schema --target ${targetName}\` by \`npm run docs\`; edit the config schemas, not this file. -->`,
      "",
      `# \`${targetName}\` config reference`,
      "",
    ];
    if (typeof this.#root.description === "string") out.push(this.#root.description, "");
    out.push(
      `Every key of a \`${targetName}\` config, from the JSON Schema that \`codegen schema --target ${targetName}\` prints.`,
      "A key without a default and not marked required may be left out.",
      "",
    );
    this.#queue.push({ name: "", schema: this.#root });
    for (let section = this.#queue.shift(); section; section = this.#queue.shift()) out.push(...this.#section(section));
    out.push(...this.#formatSection());
    return `${out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
  }

  #section({ name, schema }: Section): string[] {
    const lines: string[] = [];
    if (name) {
      lines.push(`## ${name}`, "");
      if (typeof schema.description === "string") lines.push(schema.description, "");
    } else {
      lines.push("## The config file", "");
    }
    const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const rows = Object.entries(properties).filter(([key]) => !(name === "" && key === SCHEMA_KEY));
    if (rows.length > 0) {
      lines.push("| Key | Type | Default | Description |", "|---|---|---|---|");
      for (const [key, property] of rows) {
        const fallback = required.has(key) ? "required" : "—";
        const text = [property.description, examplesOf(property)].filter(Boolean).join(" ");
        lines.push(`| \`${key}\` | ${this.#type(property, `${name || "config"}.${key}`)} | ${defaultOf(property, fallback)} | ${cell(String(text))} |`);
      }
      lines.push("");
      if (schema.additionalProperties === false) lines.push("Any other key is an error.", "");
      else if (schema.additionalProperties !== undefined) lines.push("Other keys are allowed (see below).", "");
    }
    lines.push(...this.#cases(schema));
    const examples = schema.examples as unknown[] | undefined;
    if (examples?.length) {
      lines.push(examples.length === 1 ? "Example:" : "Examples:", "", "```json", ...examples.map((example) => JSON.stringify(example)), "```", "");
    }
    return lines;
  }

  /** `allOf` of `if`/`then` pairs: which schema applies in which case, grouped by schema. */
  #cases(schema: JsonSchema): string[] {
    const pairs = ((schema.allOf as JsonSchema[] | undefined) ?? []).filter((part) => part.if !== undefined && part.then !== undefined);
    if (pairs.length === 0) return [];
    const byThen = new Map<string, unknown[]>();
    for (const pair of pairs) {
      const then = this.#type(pair.then as JsonSchema, "case");
      byThen.set(then, [...(byThen.get(then) ?? []), ...constantsIn(pair.if)]);
    }
    const lines = ["Depending on the value it selects, the entry must also match:", ""];
    for (const [then, values] of byThen) lines.push(`- ${[...new Set(values)].map((value) => `\`${JSON.stringify(value)}\``).join(", ")}: ${then}`);
    return [...lines, ""];
  }

  /** A short rendering of a schema's type; object defs are queued as sections and linked. */
  #type(schema: JsonSchema, path: string): string {
    const parts: string[] = [];
    if (typeof schema.$ref === "string") parts.push(this.#refType(schema.$ref));
    if (schema.const !== undefined) parts.push(`\`${JSON.stringify(schema.const)}\``);
    if (Array.isArray(schema.enum)) parts.push(schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" \\| "));
    // zod writes a union as `anyOf`, a discriminated union as `oneOf`.
    const options = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(options)) parts.push((options as JsonSchema[]).map((option) => this.#type(option, path)).join(" or "));
    if (parts.length > 0) return parts.join(", ");
    if (typeof schema.title === "string") return schema.title;
    switch (schema.type) {
      case "array": {
        const items = this.#type((schema.items as JsonSchema | undefined) ?? {}, `${path}[]`);
        return `${typeof schema.minItems === "number" && schema.minItems > 0 ? "non-empty " : ""}list of ${items}`;
      }
      case "integer":
      case "number":
        return numberType(schema);
      case "string":
        return typeof schema.minLength === "number" && schema.minLength > 0 ? "non-empty string" : "string";
      case "boolean":
        return "boolean";
      case "object":
        if (schema.properties) {
          this.#enqueue(`\`${path}\``, schema);
          return `[object](#${anchor(`\`${path}\``)})`;
        }
        // A map: its values' schema is documented like any other (`resources.<key>`).
        if (typeof schema.additionalProperties === "object" && schema.additionalProperties !== null) {
          return `map of string to ${this.#type(schema.additionalProperties as JsonSchema, `${path}.<key>`)}`;
        }
        return "object";
      default:
        return "any JSON value";
    }
  }

  #refType(ref: string): string {
    if (!ref.startsWith(DEF_PREFIX)) return `\`${ref}\``;
    const name = ref.slice(DEF_PREFIX.length);
    const def = this.#defs[name] ?? {};
    if (def.properties) {
      this.#enqueue(name, def);
      return `[${name}](#${anchor(name)})`;
    }
    if (typeof def.title === "string" && def.type === "string") {
      this.#formats.set(def.title, def);
      return `[${def.title}](#formats)`;
    }
    if (typeof def.title === "string") return def.title;
    return this.#type(def, name);
  }

  #enqueue(name: string, schema: JsonSchema): void {
    if (this.#queued.has(name)) return;
    this.#queued.add(name);
    this.#queue.push({ name, schema });
  }

  #formatSection(): string[] {
    if (this.#formats.size === 0) return [];
    const lines = ["## Formats", "", "| Format | Rule | Pattern |", "|---|---|---|"];
    for (const [title, schema] of [...this.#formats].sort(([a], [b]) => a.localeCompare(b))) {
      const pattern = typeof schema.pattern === "string" ? `\`${cell(schema.pattern)}\`` : "—";
      lines.push(`| ${title} | ${cell(String(schema.description ?? ""))} | ${pattern} |`);
    }
    return [...lines, ""];
  }
}

function numberType(schema: JsonSchema): string {
  const name = schema.type === "integer" ? "integer" : "number";
  const { minimum: min, maximum: max } = schema;
  if (typeof min === "number" && typeof max === "number") return `${name} from ${min} to ${max}`;
  if (typeof min === "number") return `${name} ≥ ${min}`;
  if (typeof max === "number") return `${name} ≤ ${max}`;
  return name;
}

function defaultOf(schema: JsonSchema, fallback: string): string {
  return schema.default === undefined ? fallback : `\`${cell(JSON.stringify(schema.default))}\``;
}

function examplesOf(schema: JsonSchema): string {
  const examples = schema.examples as unknown[] | undefined;
  if (!examples?.length) return "";
  return `Example: ${examples.map((example) => `\`${JSON.stringify(example)}\``).join(", ")}.`;
}

/** Every `const` value inside a schema (the values an `if` tests for). */
function constantsIn(schema: unknown): unknown[] {
  if (Array.isArray(schema)) return schema.flatMap(constantsIn);
  if (typeof schema !== "object" || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === "const" ? [value] : constantsIn(value)));
}

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** GitHub's anchor for a heading. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
