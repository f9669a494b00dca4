/**
 * End-to-end: lists clients can query, against a real PostgreSQL over real HTTP.
 *
 * The list test project (test/e2e/lists) is generated, served with its recommended
 * indexes, and seeded with 60 products whose expected answers the tests compute in
 * TypeScript: every operator on every field type through query parameters and through
 * `POST /products/search`, and/or trees, 422s, hostile values and cursors, keyset walks
 * under ties while rows change, search ranking, discovery, statement counts.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { ensureVenv } from "../support/venv.js";
import { type BlogServer, CATALOG_DIR, prepareProject, serveBlog } from "./support/blog.js";
import { HOSTILE, type Maker, type Operator, type Product, meets, productBody, queryValue, seedCatalog } from "./support/catalog.js";

let postgres: Postgres | undefined;
let server: BlogServer | undefined;
let projectDir: string | undefined;
let api: JsonClient;
let makers: Maker[] = [];
let products: Product[] = [];
let staticChecks: Promise<CheckResult>;

before(async () => {
  const venv = await ensureVenv();
  projectDir = await prepareProject(CATALOG_DIR, "catalog.jsonnet", "catalog");
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = ruffCheck(venv, projectDir, ["catalog"]);
  postgres = await startPostgres();
  server = await serveBlog(projectDir, venv, postgres.asyncUrl, {}, { pkg: "catalog" });
  api = new JsonClient(server.baseUrl);
  ({ makers, products } = await seedCatalog(api));
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

const ids = (rows: readonly { id: string }[]): string[] => rows.map((row) => row.id).sort();

/** Every id a GET answers, following cursors. */
async function walkQuery(query: string, limit = 100): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const reply: Reply = await api.get(`/products?${query}${query ? "&" : ""}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expectStatus(reply, 200);
    found.push(...reply.body.items.map((item: Product) => item.id));
    cursor = reply.body.next_cursor;
  } while (cursor !== null);
  return found;
}

/** Every id `POST /products/search` answers for `filter`, following cursors. */
async function walkBody(filter: unknown, extra: Record<string, unknown> = {}): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const reply: Reply = await api.post("/products/search", { filter, limit: 100, ...extra, ...(cursor && { cursor }) });
    expectStatus(reply, 200);
    found.push(...reply.body.items.map((item: Product) => item.id));
    cursor = reply.body.next_cursor;
  } while (cursor !== null);
  return found;
}

type Case = [field: keyof Product, op: Operator, operand: unknown];

/** Every operator on every field type it applies to; operands picked from the seed. */
function cases(): Case[] {
  const some = products[17];
  const list: Case[] = [];
  for (const op of ["eq", "neq", "contains", "starts_with"] as const) {
    for (const value of [...HOSTILE, "desk", "STANDING"]) list.push(["name", op, value]);
  }
  list.push(["name", "in", [products[7].name, products[8].name, HOSTILE[0], "nothing"]]);
  list.push(["note", "eq", some.note], ["note", "contains", "50%"], ["note", "starts_with", "NOTE 1"], ["note", "is_null", true], ["note", "is_null", false]);
  list.push(["status", "eq", "retired"], ["status", "neq", "draft"], ["status", "in", ["draft", "retired"]]);
  list.push(["in_stock", "eq", true], ["in_stock", "neq", true]);
  for (const op of ["eq", "neq", "gt", "gte", "lt", "lte"] as const) {
    list.push(["price", op, some.price], ["rating", op, 2], ["released_on", op, "2024-01-06"]);
    if (op !== "neq") list.push(["created_at", op, products[30].created_at]);
  }
  list.push(["price", "in", [products[1].price, products[2].price, 999]], ["price", "is_null", true], ["price", "is_null", false]);
  list.push(["rating", "in", [0, 4]], ["released_on", "in", ["2024-01-01", "2024-01-12"]]);
  list.push(["sku", "eq", "sku-042"], ["sku", "contains", "-04"], ["sku", "starts_with", "SKU-00"]);
  list.push(["maker_id", "eq", makers[1].id], ["maker_id", "neq", makers[1].id], ["maker_id", "in", [makers[0].id, makers[2].id]]);
  list.push(["id", "eq", products[3].id], ["id", "neq", products[3].id], ["id", "in", [products[4].id, products[5].id, "00000000-0000-4000-8000-000000000000"]]);
  return list;
}

describe("lists: filters", () => {
  it("every operator on every field type, as query parameters, gives the rows computed from the seed", async () => {
    for (const [field, op, operand] of cases()) {
      const param = `${field}${op === "eq" ? "" : `__${op}`}=${encodeURIComponent(queryValue(operand))}`;
      const expected = ids(products.filter((product) => meets(product[field], op, operand)));
      assert.deepEqual((await walkQuery(param)).sort(), expected, param);
    }
  });

  it("every operator on every field type, as search-body conditions, gives the same rows", async () => {
    for (const [field, op, operand] of cases()) {
      const expected = ids(products.filter((product) => meets(product[field], op, operand)));
      assert.deepEqual((await walkBody({ field, op, value: operand })).sort(), expected, `${field} ${op} ${JSON.stringify(operand)}`);
    }
  });

  it("query parameters combine with and; trees nest and and or", async () => {
    const combined = await walkQuery(`rating__gte=3&in_stock=true&status__in=draft,active`);
    assert.deepEqual(combined.sort(), ids(products.filter((p) => p.rating >= 3 && p.in_stock && p.status !== "retired")));
    const tree = {
      or: [
        { and: [{ field: "rating", op: "eq", value: 4 }, { field: "name", op: "contains", value: "desk" }] },
        { and: [{ field: "price", op: "is_null", value: true }, { or: [{ field: "status", op: "eq", value: "draft" }, { field: "in_stock", op: "eq", value: false }] }] },
        { field: "sku", op: "eq", value: "sku-001" },
      ],
    };
    const expected = products.filter(
      (p) => (p.rating === 4 && p.name.toLowerCase().includes("desk")) || (p.price === null && (p.status === "draft" || !p.in_stock)) || p.sku === "sku-001",
    );
    assert.ok(expected.length > 3, "the tree must select rows by each branch");
    assert.deepEqual((await walkBody(tree)).sort(), ids(expected));
    const withQuery = await walkBody({ field: "rating", op: "gte", value: 3 }, { order_by: ["-price"] });
    assert.deepEqual(withQuery.sort(), ids(products.filter((p) => p.rating >= 3)));
  });

  it("answers 422, naming the parameter, for unknown fields, bad operators and bad values", async () => {
    const refused: [string, string][] = [
      ["colour=red", "colour"],
      ["in_stock__gt=true", "in_stock__gt"],
      ["name__between=a", "name__between"],
      ["rating__gte=three", "rating__gte"],
      ["rating__gte=1%3B%20DROP%20TABLE%20products", "rating__gte"],
      ["status=purple", "status"],
      ["released_on=2024-13-45", "released_on"],
      ["maker_id=' OR 1=1 --", "maker_id"],
      ["price__in=1,x", "price__in"],
      ["order_by=weight", "order_by"],
      ["order_by=rating,-rating", "order_by"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
    ];
    for (const [query, loc] of refused) {
      const reply = await api.get(`/products?${query}`);
      expectStatus(reply, 422);
      assert.equal(reply.body.detail[0].loc[1], loc, query);
    }
    const bodies: unknown[] = [
      { filter: { field: "colour", op: "eq", value: "red" } },
      { filter: { field: "name", op: "gt", value: "a" } },
      { filter: { field: "rating", op: "eq", value: "' OR 1=1 --" } },
      { filter: { field: "rating", op: "in", value: [] } },
      { filter: { and: [] } },
      { filter: { or: [{ field: "rating", op: "eq", value: 1 }], and: [] } },
      { filter: { field: "rating", op: "eq", value: 1, extra: true } },
      { filter: null, order_by: ["weight"] },
      { filter: null, limit: 500 },
      { filters: [] },
    ];
    for (const body of bodies) expectStatus(await api.post("/products/search", body), 422);
    assert.equal((await walkQuery("")).length, products.length, "the table is whole");
  });

  it("keeps hostile text a value in every form, including cursors", async () => {
    for (const name of HOSTILE) {
      const exact = products.filter((p) => p.name === name).map((p) => p.id);
      assert.deepEqual(await walkQuery(`name=${encodeURIComponent(name)}`), exact, name);
      assert.deepEqual(await walkBody({ field: "name", op: "eq", value: name }), exact, name);
    }
    const forged = (document: unknown) => Buffer.from(JSON.stringify(document)).toString("base64url");
    const cursors = [
      "' OR 1=1 --",
      forged({ order: "-rating,-id", after: ["1; DROP TABLE products", products[0].id] }),
      forged({ order: "-rating,-id", after: [1, "'; DROP TABLE products; --"] }),
      forged({ order: "rating; DROP TABLE products,id", after: [1, products[0].id] }),
      forged({ order: "-rating,-id", after: [1] }),
    ];
    for (const cursor of cursors) {
      const reply = await api.get(`/products?order_by=-rating&cursor=${encodeURIComponent(cursor)}`);
      expectStatus(reply, 422);
      assert.deepEqual(reply.body.detail[0].loc, ["query", "cursor"]);
      const posted = await api.post("/products/search", { order_by: ["-rating"], cursor });
      expectStatus(posted, 422);
      assert.deepEqual(posted.body.detail[0].loc, ["body", "cursor"]);
    }
    assert.equal((await walkQuery("")).length, products.length, "the table is whole");
  });
});

describe("lists: order and pages", () => {
  /** The seed in `order_by` order, ties broken by id in the last key's direction, NULLs as PostgreSQL sorts them. */
  function sorted(order: string[]): string[] {
    let rows = [...products];
    const terms = [...order, order.length > 0 && order[order.length - 1].startsWith("-") ? "-id" : "id"];
    for (const term of [...terms].reverse()) {
      const field = term.replace(/^-/, "") as keyof Product;
      const descending = term.startsWith("-");
      const present = rows.filter((row) => row[field] !== null).sort((a, b) => {
        const [x, y] = [a[field], b[field]];
        const order = typeof x === "number" ? (x as number) - (y as number) : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
        return descending ? -order : order;
      });
      const missing = rows.filter((row) => row[field] === null);
      rows = descending ? [...missing, ...present] : [...present, ...missing];
    }
    return rows.map((row) => row.id);
  }

  it("walks every row exactly once in the declared order, ties broken by the key", async () => {
    for (const order of [[], ["-rating"], ["rating", "-price"], ["price"], ["-price"], ["released_on", "rating"]]) {
      for (const limit of [1, 7, 60]) {
        const walked = await walkQuery(order.length > 0 ? `order_by=${order.join(",")}` : "", limit);
        assert.deepEqual(walked, sorted(order), `order_by=${order.join(",")} limit=${limit}`);
      }
    }
    const bodyWalk: string[] = [];
    let cursor: string | null = null;
    do {
      const reply: Reply = await api.post("/products/search", { order_by: ["-rating"], limit: 9, ...(cursor && { cursor }) });
      bodyWalk.push(...reply.body.items.map((item: Product) => item.id));
      cursor = reply.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(bodyWalk, sorted(["-rating"]));
  });

  it("a cursor fits only the order it was made for", async () => {
    const page = await api.get("/products?order_by=-rating&limit=5");
    const other = await api.get(`/products?order_by=rating&cursor=${encodeURIComponent(page.body.next_cursor)}`);
    expectStatus(other, 422);
    assert.match(other.body.detail[0].msg, /another order/);
  });

  it("keyset pages under order_by=-rating walk every row once while a writer inserts and deletes rows", async () => {
    const churn = async (i: number, rating: number) =>
      (
        await api.post("/products", {
          name: `Churn ${i}`,
          description: "churn",
          status: "draft",
          in_stock: true,
          price: null,
          rating,
          released_on: "2024-02-01",
          created_at: "2024-02-01T00:00:00Z",
          sku: `churn-${String(i).padStart(4, "0")}`,
          note: null,
          maker_id: makers[0].id,
        })
      ).body as Product;
    const initial = [];
    for (let i = 0; i < 30; i++) initial.push(await churn(i, i % 3));
    const seen: string[] = [];
    const deleted = new Set<string>();
    let next = 100;
    let cursor: string | null = null;
    do {
      const reply: Reply = await api.get(`/products?sku__starts_with=churn-&order_by=-rating&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expectStatus(reply, 200);
      seen.push(...reply.body.items.map((item: Product) => item.id));
      cursor = reply.body.next_cursor;
      // Between pages: a row of every rating appears (some tie with the page's last row), and an unseen one goes.
      for (let rating = 0; rating < 3; rating++) await churn(next++, rating);
      const victim = initial.find((row) => !seen.includes(row.id) && !deleted.has(row.id));
      if (victim) {
        expectStatus(await api.delete(`/products/${victim.id}`), 204);
        deleted.add(victim.id);
      }
    } while (cursor !== null);
    assert.equal(new Set(seen).size, seen.length, "no row twice");
    for (const row of initial) assert.ok(deleted.has(row.id) || seen.includes(row.id), `row ${row.sku} present throughout was skipped`);
    for (const id of deleted) assert.ok(!seen.includes(id), "a row deleted before its page appeared");
    for (const id of await walkQuery("sku__starts_with=churn-")) expectStatus(await api.delete(`/products/${id}`), 204);
  });

  it("offset pages count every row on request and end with next_offset null", async () => {
    const names: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const reply: Reply = await api.get(`/makers?limit=2&offset=${offset}&total=true`);
      expectStatus(reply, 200);
      assert.equal(reply.body.total, makers.length);
      names.push(...reply.body.items.map((item: Maker) => item.name));
      offset = reply.body.next_offset;
    }
    assert.deepEqual(names, makers.map((maker) => maker.name).sort());
    const untotalled = await api.get("/makers?country=DE");
    assert.equal(untotalled.body.total, null);
    assert.deepEqual(untotalled.body.items.map((item: Maker) => item.name).sort(), ["Initech", "Stark Industries"]);
    expectStatus(await api.get("/makers?cursor=abc"), 422);
    expectStatus(await api.get("/makers?limit=11"), 422);
  });

  it("runs as many statements for a page of 1, 10 or 100 filtered, ordered, nested rows", async () => {
    const counts: number[] = [];
    for (const limit of [1, 10, 100]) {
      const reply = await api.get(`/products?rating__gte=1&in_stock=true&order_by=-rating,price&limit=${limit}`);
      expectStatus(reply, 200);
      assert.ok(reply.body.items.some((item: { reviews: unknown[] }) => item.reviews.length > 0) || limit === 1);
      counts.push(reply.statements);
      const posted = await api.post("/products/search", { filter: { field: "rating", op: "gte", value: 1 }, order_by: ["-rating"], limit });
      counts.push(posted.statements);
    }
    assert.ok(counts[0] > 0, "the launcher counts statements");
    assert.deepEqual(counts, counts.map(() => counts[0]), `statements by page size: ${counts.join(", ")}`);
  });
});

describe("lists: search, links and discovery", () => {
  it("full-text search ranks the expected row first; q combines with filters", async () => {
    const found = await api.get("/products?q=ergonomic%20chair&limit=100");
    expectStatus(found, 200);
    assert.equal(found.body.items[0].name, "Ergonomic chair Pro");
    const chairs = products.filter((p) => /ergonomic/i.test(p.name) || /ergonomic/i.test(p.description));
    assert.deepEqual(ids(found.body.items), ids(chairs));
    const filtered = await api.post("/products/search", { q: "ergonomic chair", filter: { field: "in_stock", op: "eq", value: false }, limit: 100 });
    assert.deepEqual(ids(filtered.body.items), ids(chairs.filter((p) => !p.in_stock)));
    assert.equal((await api.get("/products?q=%20%20")).body.items.length, 10, "blank q means no search");
  });

  it("trigram search ranks the closest maker first, typos included", async () => {
    for (const [q, first] of [
      ["globx", "Globex"],
      ["stark", "Stark Industries"],
      ["umbrela corp", "Umbrella Corp"],
    ]) {
      const reply = await api.get(`/makers?q=${encodeURIComponent(q)}`);
      expectStatus(reply, 200);
      assert.equal(reply.body.items[0]?.name, first, q);
    }
  });

  it("link fields answer { type, id, label }", async () => {
    const reply = await api.get(`/products/${products[2].id}`);
    assert.deepEqual(reply.body.maker, { type: "maker", id: makers[2].id, label: makers[2].name });
  });

  it("GET /_filters describes every filtered list, its fields, operators and values", async () => {
    const reply = await api.get("/_filters");
    expectStatus(reply, 200);
    const list = reply.body.lists.find((entry: { resource: string }) => entry.resource === "product");
    assert.equal(list.path, "/products");
    assert.equal(list.search_path, "/products/search");
    assert.equal(list.search, true);
    assert.deepEqual(list.order, { fields: ["rating", "price", "name", "created_at", "released_on"], default: [] });
    const values = Object.fromEntries(list.filters.map((filter: { field: string; values: unknown }) => [filter.field, filter.values]));
    assert.deepEqual(values.status, {
      kind: "enum",
      choices: [
        { value: "draft", label: "Draft" },
        { value: "active", label: "Active" },
        { value: "retired", label: "Retired" },
      ],
    });
    assert.deepEqual(values.in_stock, { kind: "bool" });
    assert.deepEqual(values.maker_id, { kind: "ref", resource: "maker" });
    assert.deepEqual(values.id, { kind: "self", resource: "product" });
    assert.deepEqual(values.name, { kind: "free_text" });
    assert.deepEqual(values.price, { kind: "literal", type: "float" });
    assert.deepEqual(list.filters.find((filter: { field: string }) => filter.field === "price").operators, ["eq", "neq", "gt", "gte", "lt", "lte", "in", "is_null"]);
  });

  it("POST /_values answers for enum, bool, ref, self, free-text and literal fields", async () => {
    const values = async (field: string, q?: string, limit?: number) => {
      const reply = await api.post("/_values", { resource: "product", field, ...(q !== undefined && { q }), ...(limit && { limit }) });
      expectStatus(reply, 200);
      return reply.body.values as { value: unknown; label: string }[];
    };
    assert.deepEqual(await values("status", "ret"), [{ value: "retired", label: "Retired" }]);
    assert.deepEqual(await values("in_stock"), [
      { value: true, label: "true" },
      { value: false, label: "false" },
    ]);
    assert.deepEqual((await values("maker_id", "acme corp"))[0], { value: makers[0].id, label: "Acme Corporation" });
    assert.deepEqual((await values("id", "ergonomic chair"))[0].label, "Ergonomic chair Pro");
    const lamps = products.filter((p) => p.name.toLowerCase().includes("lamp")).map((p) => p.name).sort();
    assert.deepEqual((await values("name", "lamp")).map((value) => value.label), lamps);
    const prices = [...new Set(products.map((p) => p.price).filter((price) => price !== null))].sort((a, b) => a! - b!).slice(0, 5);
    assert.deepEqual((await values("price", undefined, 5)).map((value) => value.value), prices);
    assert.deepEqual((await values("released_on", "2024-01-1")).map((value) => value.value), ["2024-01-10", "2024-01-11", "2024-01-12"]);
    const unknown = await api.post("/_values", { resource: "product", field: "weight" });
    expectStatus(unknown, 422);
    // The body is one model per resource, told apart by `resource`: the field is named under it.
    assert.deepEqual(unknown.body.detail[0].loc, ["body", "product", "field"]);
    expectStatus(await api.post("/_values", { resource: "nothing", field: "name" }), 422);
  });
});

describe("lists: bad input is a 4xx, never a 500", () => {
  /** `POST path` with `text` as the JSON body, sent as written (`NaN` is no JSON.stringify output). */
  async function postRaw(path: string, text: string): Promise<Reply> {
    const response = await fetch(`${server!.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    const body = await response.text();
    return { status: response.status, headers: response.headers, body: body === "" ? undefined : JSON.parse(body), statements: -1 };
  }

  const rating = (value: unknown) => ({ field: "rating", op: Array.isArray(value) ? "in" : "eq", value });

  it("an in list holds at most 100 values in a query and 1,000 in a search (422 naming it)", async () => {
    const many = (count: number) => Array.from({ length: count }, (_, i) => i % 5);
    expectStatus(await api.get(`/products?rating__in=${many(100).join(",")}`), 200);
    const query = await api.get(`/products?rating__in=${many(101).join(",")}`);
    expectStatus(query, 422);
    assert.deepEqual(query.body.detail[0].loc, ["query", "rating__in"]);
    expectStatus(await api.post("/products/search", { filter: rating(many(1000)) }), 200);
    // 32,767 values: past what one statement can carry, the 500 this replaced. In a search,
    // the tree's bound on all its in values comes first.
    for (const count of [1001, 32_767, 40_000]) {
      const reply = await api.post("/products/search", { filter: rating(many(count)) });
      expectStatus(reply, 422, `${count} values`);
      assert.deepEqual(reply.body.detail[0].loc, ["body", "filter"]);
      assert.match(reply.body.detail[0].msg, /at most 1,000 values/);
    }
  });

  it("a search tree holds at most 100 conditions, 10 levels of groups and 1,000 in values in all (422)", async () => {
    const nested = (depth: number): unknown => (depth === 0 ? rating(1) : { and: [nested(depth - 1)] });
    const allowed = [
      { or: Array.from({ length: 100 }, (_, i) => rating(i)) },
      nested(10),
      { or: [rating(Array(600).fill(1)), rating(Array(400).fill(2))] },
    ];
    for (const filter of allowed) expectStatus(await api.post("/products/search", { filter }), 200);
    const refused = [
      { or: Array.from({ length: 101 }, (_, i) => rating(i)) },
      nested(11),
      { or: [rating(Array(600).fill(1)), rating(Array(401).fill(2))] },
      // The probe's ~1 MiB search: 19,000 conditions.
      { or: Array.from({ length: 19_000 }, (_, i) => ({ field: "name", op: "contains", value: `n${i}` })) },
    ];
    for (const filter of refused) {
      const reply = await api.post("/products/search", { filter });
      expectStatus(reply, 422);
      assert.deepEqual(reply.body.detail.map((error: { loc: unknown }) => error.loc), [["body", "filter"]]);
    }
    const openapi = (await api.get("/openapi.json")).body;
    assert.match(openapi.components.schemas.ProductSearch.properties.filter.description, /at most 100 conditions/);
    assert.equal(openapi.components.schemas.ProductRatingInFilter.properties.value.maxItems, 1000);
  });

  it("refuses NaN and infinities in float filters and float fields (422 naming them)", async () => {
    for (const query of ["price=nan", "price__gte=inf", "price__lt=-Infinity", "price=1e999", "price__in=1,NaN"]) {
      const reply = await api.get(`/products?${query}`);
      expectStatus(reply, 422, query);
      assert.equal(reply.body.detail[0].loc[1], query.split("=")[0], query);
    }
    for (const value of ["NaN", "Infinity", "-Infinity", "1e999"]) {
      const search = await postRaw("/products/search", `{"filter": {"field": "price", "op": "eq", "value": ${value}}}`);
      expectStatus(search, 422, `search ${value}`);
      assert.deepEqual(search.body.detail[0].loc.slice(0, 3), ["body", "filter", "price"], value);
      const body = JSON.stringify(productBody(1000, makers)).replace(/"price":[^,}]*/, `"price": ${value}`);
      const created = await postRaw("/products", body);
      expectStatus(created, 422, `create ${value}`);
      assert.deepEqual(created.body.detail[0].loc, ["body", "price"], value);
    }
  });

  it("integer keys of any length in the path are 422, never a 500", async () => {
    const review = await api.post("/reviews", { product_id: products[0].id, stars: 3 });
    expectStatus(review, 201);
    expectStatus(await api.get(`/reviews/${review.body.id}`), 200);
    for (const key of ["2147483648", "9".repeat(4300), "9".repeat(4301), "1".repeat(15_000)]) {
      for (const reply of [await api.get(`/reviews/${key}`), await api.patch(`/reviews/${key}`, { stars: 4 }), await api.delete(`/reviews/${key}`)]) {
        expectStatus(reply, 422, `${key.length} digits`);
        assert.deepEqual(reply.body.detail[0].loc, ["path", "pk"]);
      }
    }
    // Past the server's 16 KiB limit on a request's head, the protocol answers first (runtime/server.py).
    const long = "1".repeat(100_000);
    for (const reply of [await api.get(`/reviews/${long}`), await api.patch(`/reviews/${long}`, { stars: 4 }), await api.delete(`/reviews/${long}`)]) {
      expectStatus(reply, 414, "100000 digits");
      assert.match(reply.body.detail, /^The request line is longer than 16,384 bytes\.$/);
    }
    expectStatus(await api.get("/reviews/seven"), 404);
    expectStatus(await api.delete(`/reviews/${review.body.id}`), 204);
  });

  it("an empty cursor is the first page", async () => {
    const first = await api.get("/products?order_by=-rating&limit=7");
    const empty = await api.get("/products?order_by=-rating&limit=7&cursor=");
    expectStatus(empty, 200);
    assert.deepEqual(empty.body, first.body);
    const posted = await api.post("/products/search", { order_by: ["-rating"], limit: 7, cursor: "" });
    expectStatus(posted, 200);
    assert.deepEqual(posted.body, first.body);
  });

  it("a statement past the database's statement_timeout (3 s here) is a 503 with Retry-After", async () => {
    const lock = await postgres!.begin("LOCK TABLE products IN ACCESS EXCLUSIVE MODE");
    try {
      const [listed, searched] = await Promise.all([api.get("/products"), api.post("/products/search", { filter: rating(1) })]);
      for (const reply of [listed, searched]) {
        expectStatus(reply, 503);
        assert.equal(reply.headers.get("retry-after"), "1");
      }
    } finally {
      await lock.commit();
    }
    expectStatus(await api.get("/products"), 200);
  });
});

describe("lists: static checks", () => {
  it("the generated project passes ruff check", async () => {
    const ruff = await staticChecks;
    assert.ok(ruff.ok, `ruff check failed:\n${ruff.output}`);
  });
});
