// The config schemas of lists: filter fields (kinds, operators and their defaults, the key
// each kind needs), orders, pagination, search, representations and links. Rules that
// need the resource belong to the modifier operations (corpus: list-*-problems).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  FilterConfig,
  LinksConfig,
  ModifierConfig,
  OrderConfig,
  PaginateConfig,
  RepresentationConfig,
  SearchConfig,
  StructuredFilterField,
} from "../../../src/targets/be/config/schema.js";
import { assertIssues, parse } from "../../helpers/schema.js";

describe("StructuredFilterField", () => {
  test("operators default per kind", () => {
    const defaults: Record<string, string[]> = {
      free_text: ["eq", "contains", "starts_with"],
      bool: ["eq"],
      literal: ["eq", "gt", "gte", "lt", "lte"],
      self: ["eq", "in"],
    };
    for (const [values, operators] of Object.entries(defaults)) {
      assert.deepEqual(parse(StructuredFilterField, { name: "f", values }).operators, operators, values);
    }
    assert.deepEqual(parse(StructuredFilterField, { name: "s", values: "enum", enum: "shop.models.Status" }).operators, ["eq", "in"]);
    assert.deepEqual(parse(StructuredFilterField, { name: "m", values: "ref", ref_resource: "maker" }).operators, ["eq", "in"]);
    assert.deepEqual(parse(StructuredFilterField, { name: "p", values: "literal", operators: ["is_null", "gte"] }).operators, ["is_null", "gte"]);
  });

  test("each kind requires its key and rejects the others'", () => {
    assertIssues(StructuredFilterField, { name: "s", values: "enum" }, [{ path: "enum", message: 'required when values is "enum"' }]);
    assertIssues(StructuredFilterField, { name: "m", values: "ref" }, [{ path: "ref_resource", message: 'required when values is "ref"' }]);
    assertIssues(StructuredFilterField, { name: "t", values: "free_text", enum: "a.B", type: "int" }, [
      { path: "enum", message: 'only allowed when values is "enum" (this field\'s values are "free_text")' },
      { path: "type", message: 'only allowed when values is "literal" (this field\'s values are "free_text")' },
    ]);
  });

  test("operators must apply to the kind, once each", () => {
    assertIssues(StructuredFilterField, { name: "b", values: "bool", operators: ["eq", "gt"] }, [
      { path: "operators[1]", message: '"gt" does not apply to bool values; allowed: eq, neq, is_null' },
    ]);
    assertIssues(StructuredFilterField, { name: "n", values: "literal", type: "int", operators: ["contains"] }, [
      { path: "operators[0]", message: '"contains" does not apply to literal values; allowed: eq, neq, gt, gte, lt, lte, in, is_null' },
    ]);
    assertIssues(StructuredFilterField, { name: "t", values: "free_text", operators: ["eq", "eq"] }, [{ path: "operators[1]", message: '"eq" is listed twice' }]);
    assertIssues(StructuredFilterField, { name: "t", values: "free_text", operators: ["like"] }, [
      { path: "operators[0]", message: 'Invalid option: expected one of "eq"|"neq"|"gt"|"gte"|"lt"|"lte"|"contains"|"starts_with"|"in"|"is_null"' },
    ]);
  });
});

describe("FilterConfig", () => {
  test("fields are non-empty, unique, and not a list's own parameters", () => {
    assertIssues(FilterConfig, { type: "filter", fields: [] }, [{ path: "fields", message: "must list at least one field" }]);
    assertIssues(FilterConfig, { type: "filter", fields: [{ name: "a", values: "bool" }, { name: "a", values: "bool" }, { name: "q", values: "free_text" }] }, [
      { path: "fields[2].name", message: '"q" is a query parameter of every list (limit, cursor, offset, total, order_by, q); it cannot be a filter field' },
      { path: "fields[1].name", message: '"a" is already filtered by fields[0]' },
    ]);
    // kiln's bare names: the same checks, at the entry's own path.
    assertIssues(FilterConfig, { type: "filter", fields: ["a", "a", "q"] }, [
      { path: "fields[2]", message: '"q" is a query parameter of every list (limit, cursor, offset, total, order_by, q); it cannot be a filter field' },
      { path: "fields[1]", message: '"a" is already filtered by fields[0]' },
    ]);
  });
});

describe("OrderConfig and PaginateConfig", () => {
  test("order: the default is one of the fields; the direction defaults to asc", () => {
    assert.deepEqual(parse(OrderConfig, { type: "order", fields: ["title"], default: "title" }), { type: "order", fields: ["title"], default: "title", default_dir: "asc" });
    assertIssues(OrderConfig, { type: "order", fields: ["title", "title"], default: "rank", default_dir: "down" }, [
      { path: "default_dir", message: 'Invalid option: expected one of "asc"|"desc"' },
    ]);
    assertIssues(OrderConfig, { type: "order", fields: ["title", "title"], default: "rank" }, [
      { path: "fields[1]", message: '"title" is listed twice' },
      { path: "default", message: "must be one of fields (title, title)" },
    ]);
  });

  test("paginate: keyset, 50 of at most 100 by default; the default within the maximum", () => {
    assert.deepEqual(parse(PaginateConfig, { type: "paginate" }), { type: "paginate", mode: "keyset", default_page_size: 50, max_page_size: 100 });
    assertIssues(PaginateConfig, { type: "paginate", mode: "offset", default_page_size: 20, max_page_size: 10 }, [
      { path: "default_page_size", message: "must not exceed max_page_size (10)" },
    ]);
    // kiln's cursor_field parses (a warning names it, see kiln.test.ts); other unknown keys do not.
    assertIssues(PaginateConfig, { type: "paginate", mode: "pages", cursor_field: "id", cursor: "id" }, [
      { path: "mode", message: 'Invalid option: expected one of "keyset"|"offset"' },
      { path: "cursor", message: "unknown key" },
    ]);
  });

  test("a modifier entry is any object with a type", () => {
    assert.deepEqual(parse(ModifierConfig, { type: "soft_delete", column: "deleted_at" }), { type: "soft_delete", column: "deleted_at" });
  });
});

describe("SearchConfig, RepresentationConfig and LinksConfig", () => {
  test("search: trigram by default, full_text with a vector column; language only for full_text", () => {
    assert.deepEqual(parse(SearchConfig, { fields: ["name"] }), { fields: ["name"], strategy: "trigram", language: "simple" });
    assert.equal(parse(SearchConfig, { vector_column: "document" }).strategy, "full_text");
    assertIssues(SearchConfig, { fields: [], language: "english" }, [
      { path: "fields", message: "must list at least one field (or give vector_column with the full_text strategy)" },
      { path: "language", message: 'only applies to the full_text strategy (set strategy: "full_text")' },
    ]);
    assertIssues(SearchConfig, { fields: ["a"], strategy: "full_text", language: "en'); DROP" }, [
      { path: "language", message: "must be a PostgreSQL text search configuration name, like english or simple" },
    ]);
  });

  test("representations: fields or a builder, not `read`", () => {
    assert.equal(parse(RepresentationConfig, { name: "card", builder: "blog.cards.card" }).builder, "blog.cards.card");
    assertIssues(RepresentationConfig, { name: "read", fields: [{ name: "id", type: "uuid" }] }, [
      { path: "name", message: '"read" names the resource\'s own fields; pick another name' },
    ]);
    assertIssues(RepresentationConfig, { name: "both", builder: "a.b", fields: [{ name: "id", type: "uuid" }] }, [{ path: "", message: "give fields or builder (exactly one)" }]);
  });

  test("links: a label field unless kiln's kind is id; other kinds refused", () => {
    assert.deepEqual(parse(LinksConfig, { name: "title", kind: "id_name" }), { name: "title", kind: "id_name" });
    assert.deepEqual(parse(LinksConfig, { name: "title", kind: "name" }), { name: "title", kind: "name" });
    assert.deepEqual(parse(LinksConfig, { kind: "id" }), { kind: "id" });
    assertIssues(LinksConfig, { kind: "name" }, [{ path: "name", message: 'required unless kind is "id" or a builder is given: the field whose value labels the links' }]);
    assertIssues(LinksConfig, { name: "title", kind: "slug" }, [{ path: "kind", message: 'Invalid option: expected one of "id_name"|"name"|"id"' }]);
  });
});
