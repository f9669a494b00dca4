/**
 * The seed of the list test project (test/e2e/lists): makers and products with every
 * column type, ties, NULLs and hostile text, created over HTTP, and a model of the same
 * rows in TypeScript so tests compute the expected answers independently of the server.
 */
import assert from "node:assert/strict";
import type { JsonClient } from "../../support/http.js";

export interface Maker {
  id: string;
  name: string;
  country: string;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  status: "draft" | "active" | "retired";
  in_stock: boolean;
  price: number | null;
  rating: number;
  released_on: string;
  created_at: string;
  sku: string;
  note: string | null;
  maker_id: string;
}

export const MAKERS = [
  ["Acme Corporation", "US"],
  ["Globex", "US"],
  ["Initech", "DE"],
  ["Umbrella Corp", "JP"],
  ["Hooli", "US"],
  ["Stark Industries", "DE"],
] as const;

const NAMES = ["Ergonomic office chair", "Standing desk", "Mechanical keyboard", "Noise cancelling headphones", "Ultrawide monitor", "Desk lamp"];

/** Names that try to break out of a string or a LIKE pattern; they must stay values. */
export const HOSTILE = ["' OR '1'='1", "Robert'); DROP TABLE products;--", "100% cotton", "under_score", "back\\slash", 'quote " and \\" escape'];

const STATUSES = ["draft", "active", "retired"] as const;

/** The body of product `i` (0..59) made by `makers`. */
export function productBody(i: number, makers: readonly Maker[]): Omit<Product, "id"> {
  const special = i === 59;
  const name = special ? "Ergonomic chair Pro" : i < HOSTILE.length ? HOSTILE[i] : `${NAMES[i % NAMES.length]} ${Math.floor(i / NAMES.length)}`;
  return {
    name,
    // Only the special row says "ergonomic chair" twice: full-text search ranks it first.
    description: special ? "An ergonomic chair: the ergonomic chair that supports your back" : `${NAMES[i % NAMES.length]} for the home office, model ${i}`,
    status: STATUSES[i % 3],
    in_stock: i % 2 === 0,
    price: i % 7 === 0 ? null : ((i * 37) % 100) / 10 + 1,
    // Five ratings for sixty rows: long runs of ties.
    rating: i % 5,
    released_on: `2024-01-${String((i % 12) + 1).padStart(2, "0")}`,
    created_at: new Date(Date.UTC(2024, 0, 1, 0, 0, 0) + i * 3_600_000 * 5).toISOString().replace(".000Z", "Z"),
    sku: `sku-${String(i).padStart(3, "0")}`,
    note: i % 4 === 0 ? null : `note ${i}${i % 8 === 1 ? " with 50% off" : ""}`,
    maker_id: makers[i % makers.length].id,
  };
}

/** Creates the makers and the 60 products through the API; returns them as the API answered. */
export async function seedCatalog(api: JsonClient): Promise<{ makers: Maker[]; products: Product[] }> {
  const makers: Maker[] = [];
  for (const [name, country] of MAKERS) {
    const reply = await api.post("/makers", { name, country });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    makers.push(reply.body);
  }
  const products: Product[] = [];
  for (let i = 0; i < 60; i++) {
    const reply = await api.post("/products", productBody(i, makers));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const { maker: _maker, reviews: _reviews, ...product } = reply.body;
    products.push(product);
    if (i % 3 === 0) assert.equal((await api.post("/reviews", { product_id: product.id, stars: (i % 5) + 1 })).status, 201);
  }
  return { makers, products };
}

export type Operator = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "contains" | "starts_with" | "in" | "is_null";

/** Compares two values of one column: numbers, ISO dates and date-times, UUIDs and text. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string" && /^\d{4}-\d\d-\d\dT/.test(a)) return Date.parse(a) - Date.parse(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function same(a: unknown, b: unknown): boolean {
  return compare(a, b) === 0 && typeof a === typeof b;
}

/** Whether `value` (a row's column) meets `op`/`operand`, as SQL decides it (NULL meets nothing but is_null). */
export function meets(value: unknown, op: Operator, operand: unknown): boolean {
  if (op === "is_null") return (value === null) === operand;
  if (value === null) return false;
  switch (op) {
    case "eq":
      return same(value, operand);
    case "neq":
      return !same(value, operand);
    case "gt":
      return compare(value, operand) > 0;
    case "gte":
      return compare(value, operand) >= 0;
    case "lt":
      return compare(value, operand) < 0;
    case "lte":
      return compare(value, operand) <= 0;
    case "contains":
      return String(value).toLowerCase().includes(String(operand).toLowerCase());
    case "starts_with":
      return String(value).toLowerCase().startsWith(String(operand).toLowerCase());
    case "in":
      return (operand as unknown[]).some((item) => same(value, item));
  }
}

/** How a value is written in a query string (`in` values joined by commas). */
export function queryValue(operand: unknown): string {
  return Array.isArray(operand) ? operand.map(String).join(",") : String(operand);
}
