/**
 * End-to-end: the lending library (examples/library), a domain none of the blog tests
 * shape. Its generated tree is lint- and type-clean, its generated pytest suites pass on
 * a real PostgreSQL, and its routes hold over real HTTP:
 *
 * - what a user probing the domain by hand tries (a key renamed by PATCH, a relation
 *   that is absent, deletes the database cascades, nulls or refuses, a field named
 *   `copy`, keys with spaces, slashes and non-Latin text);
 * - the input suite: every class of value the database could not store (integers past
 *   each column's range, NUL, lone surrogates, non-finite numbers, date-times that
 *   overflow in UTC, text longer than its column, bodies over the limit, bad cursors)
 *   is answered 4xx naming the field, never 500.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonClient, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, PYTEST_ARGS, PYTEST_ENV, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareLibraryProject, serveBlog } from "./support/blog.js";

let venv: Venv;
let postgres: Postgres | undefined;
let server: BlogServer | undefined;
let projectDir: string | undefined;
let api: JsonClient;
let staticChecks: Promise<CheckResult>;

/** How long a request may take to reach a statement that waits for another transaction's lock. */
const LOCK_WAIT_TIMEOUT_MS = 30_000;

/** Whether a statement starting with `statement` waits for a lock another transaction holds. */
async function waitsForALock(statement: string): Promise<boolean> {
  const rows = await postgres!.query("SELECT 1 FROM pg_stat_activity WHERE starts_with(query, $1) AND cardinality(pg_blocking_pids(pid)) > 0", [statement]);
  return rows.length > 0;
}

before(async () => {
  venv = await ensureVenv();
  projectDir = await prepareLibraryProject();
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = ruffCheck(venv, projectDir, ["library"]);
  postgres = await startPostgres();
  server = await serveBlog(projectDir, venv, postgres.asyncUrl, {}, { pkg: "library" });
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

async function created(path: string, body: unknown): Promise<any> {
  const reply = await api.post(path, body);
  expectStatus(reply, 201);
  return reply.body;
}

/** A request with a body written as raw text: numbers JavaScript cannot hold, `Infinity`, lone surrogates. */
async function raw(method: string, path: string, text: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server!.baseUrl}${path}`, { method, headers: { "content-type": "application/json" }, body: text });
  const body = await response.text();
  const json = response.headers.get("content-type")?.startsWith("application/json");
  return { status: response.status, body: body === "" ? undefined : json ? JSON.parse(body) : body };
}

const publisher = () => created("/publishers", { name: unique("Pub "), country: "GB" });
const author = () => created("/authors", { name: unique("Author "), born_on: null });
const book = async (fields: Record<string, unknown> = {}) =>
  created("/books", { title: unique("Book "), isbn: unique("").slice(-13), price: 12.5, author_id: (await author()).id, ...fields });
const member = () => created("/members", { name: "Ada", email: `${unique("ada")}@example.com`, card_number: Math.floor(Math.random() * 2 ** 40) });

describe("library: the generated tree", () => {
  it("passes ruff check", async () => {
    const ruff = await staticChecks;
    assert.ok(ruff.ok, `ruff check failed:\n${ruff.output}`);
  });

  it("passes its generated pytest suites against PostgreSQL", async (t) => {
    const { code, output } = await new Promise<{ code: number; output: string }>((done) => {
      execFile(
        venv.python,
        [...PYTEST_ARGS, "library/api/lending/tests", "-q", "-p", "no:cacheprovider", "-o", "asyncio_default_fixture_loop_scope=function"],
        { cwd: projectDir, env: { ...process.env, ...PYTEST_ENV, TEST_DATABASE_URL: postgres!.asyncUrl, PYTHONDONTWRITEBYTECODE: "1" }, maxBuffer: 32 * 1024 * 1024 },
        (error, stdout, stderr) => done({ code: error === null ? 0 : Number(error.code ?? -1), output: stdout + stderr }),
      );
    });
    assert.equal(code, 0, output);
    const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
    assert.ok(passed >= 80, `only ${passed} generated tests passed:\n${output}`);
    t.diagnostic(`${passed} generated tests passed`);
  });
});

describe("library: probes of the domain", () => {
  it("renames a text key by PATCH and answers with the renamed row", async () => {
    const code = unique("sf");
    await created("/genres", { code, label: "Science fiction" });
    const renamed = await api.patch(`/genres/${code}`, { code: `${code}-x` });
    expectStatus(renamed, 200);
    assert.equal(renamed.body.code, `${code}-x`);
    expectStatus(await api.get(`/genres/${code}-x`), 200);
    expectStatus(await api.get(`/genres/${code}`), 404);
  });

  it("answers 404 to a PATCH that waits on another request's delete of its row", async () => {
    const code = unique("gone");
    await created("/genres", { code, label: "Doomed" });
    // Another transaction deletes the row and holds it. The PATCH is one UPDATE … RETURNING
    // (nothing reads the row first): it waits for the lock and, once the delete commits,
    // matches nothing, so it comes after the delete and finds no row, as a missing key does.
    const deleter = await postgres!.begin(`DELETE FROM genres WHERE code = '${code}'`);
    let answered = false;
    const patch = api.patch(`/genres/${code}`, { label: "Saved?" }).finally(() => (answered = true));
    try {
      // The delete commits only once the PATCH waits for its lock: a PATCH that came after the
      // commit would find no row whatever it does.
      const deadline = Date.now() + LOCK_WAIT_TIMEOUT_MS;
      while (!answered && !(await waitsForALock("UPDATE genres"))) {
        assert.ok(Date.now() < deadline, `the PATCH did not wait for the delete's lock within ${LOCK_WAIT_TIMEOUT_MS} ms`);
        await sleep(20);
      }
      assert.equal(answered, false, "the PATCH answered while the delete held its row");
    } finally {
      await deleter.commit();
    }
    const reply = await patch;
    expectStatus(reply, 404);
    assert.match(reply.body.detail, /not found/i);
    expectStatus(await api.get(`/genres/${code}`), 404);
  });

  it("gives a Location that resolves for keys with spaces, slashes and non-Latin text", async () => {
    for (const code of [unique("with space "), unique("a/b "), unique("漢字 ünï ")]) {
      const reply = await api.post("/genres", { code, label: "odd" });
      expectStatus(reply, 201);
      const location = reply.headers.get("location")!;
      assert.ok(/^[\x21-\x7e]+$/.test(location), `not percent-encoded: ${location}`);
      const located = await api.get(location);
      expectStatus(located, 200);
      assert.equal(located.body.code, code);
    }
  });

  it("answers null for an absent relation, two levels deep", async () => {
    const writer = await author();
    await created("/books", { title: "Alone", isbn: unique("").slice(-13), price: 3, author_id: writer.id });
    const reply = await api.get(`/authors/${writer.id}`);
    expectStatus(reply, 200);
    assert.equal(reply.body.books[0].publisher, null);
  });

  it("leaves deletes to the database's foreign-key rules: cascade, set null, restrict", async () => {
    const house = await publisher();
    const volume = await book({ publisher_id: house.id });
    const copy = await created("/copies", { book_id: volume.id, barcode: unique("bc") });
    // SET NULL: the book stays, without its publisher.
    expectStatus(await api.delete(`/publishers/${house.id}`), 204);
    assert.equal((await api.get(`/books/${volume.id}`)).body.publisher_id, null);
    // RESTRICT: the author still has a book.
    const refused = await api.delete(`/authors/${volume.author_id}`);
    expectStatus(refused, 409);
    assert.equal(refused.body.constraint, "fk_books_author_id_authors");
    assert.match(refused.body.detail, /^This row is still referenced by other rows/);
    // RESTRICT two levels down: a copy with a loan on record.
    const reader = await member();
    const lent = await api.post(`/copies/${copy.id}/lend-copy`, { member_id: reader.id, due_on: "2030-01-31" });
    expectStatus(lent, 200);
    const refusedBook = await api.delete(`/books/${volume.id}`);
    expectStatus(refusedBook, 409);
    assert.equal(refusedBook.body.constraint, "fk_loans_copy_id_copies");
    // CASCADE: a book whose copies were never lent takes them with it.
    const other = await book();
    const otherCopy = await created("/copies", { book_id: other.id, barcode: unique("bc") });
    expectStatus(await api.delete(`/books/${other.id}`), 204);
    expectStatus(await api.get(`/copies/${otherCopy.id}`), 404);
  });

  it("serves a field named copy, and runs the actions", async () => {
    const volume = await book();
    const copy = await created("/copies", { book_id: volume.id, barcode: unique("bc") });
    const reader = await member();
    const loan = await created("/loans", { copy_id: copy.id, member_id: reader.id, due_on: "2030-01-31" });
    assert.equal(loan.copy.book.id, volume.id);
    const returned = await api.post(`/loans/${loan.id}/return-loan`);
    expectStatus(returned, 200);
    assert.notEqual(returned.body.returned_at, null);
    const code = unique("g");
    await created("/genres", { code, label: "Genre" });
    const filed = await api.post(`/books/${volume.id}/add-genre`, { genre_code: code });
    expectStatus(filed, 200);
    assert.deepEqual(filed.body.genres.map((genre: { code: string }) => genre.code), [code]);
    expectStatus(await api.post(`/books/${volume.id}/add-genre`, { genre_code: code }), 409);
    const counted = await api.post("/books/count-books", { text: volume.title });
    assert.deepEqual(counted.body, { text: volume.title, books: 1 });
  });
});

describe("library: the input suite (never a 500)", () => {
  /** One case: a request and the status it must get; 422s name `field` in their first error. */
  interface Case {
    name: string;
    send: () => Promise<{ status: number; body: any }>;
    status: number;
    field?: string;
  }

  const cases: Case[] = [];
  const add = (name: string, status: number, send: Case["send"], field?: string) => cases.push({ name, status, send, field });
  const patchLoan = async (text: string) => {
    const volume = await book();
    const copy = await created("/copies", { book_id: volume.id, barcode: unique("bc") });
    const loan = await created("/loans", { copy_id: copy.id, member_id: (await member()).id, due_on: "2030-01-31" });
    return raw("PATCH", `/loans/${loan.id}`, text);
  };
  const memberBody = (card: string) => `{"name": "Ada", "email": "${unique("m")}@example.com", "card_number": ${card}}`;
  const bookBody = async (fields: string) => `{"title": "T", "isbn": "${unique("").slice(-13)}", "price": 1, "author_id": "${(await author()).id}", ${fields}}`;

  // Integers at and past each column type's range: int4 keys in the path, int8 and int4 in bodies.
  add("int4 key at its maximum", 404, () => api.get(`/copies/${2 ** 31 - 1}`));
  add("int4 key past its maximum", 422, () => api.get(`/copies/${2 ** 31}`), "pk");
  add("int4 key far past its maximum", 422, () => api.get(`/publishers/${"9".repeat(40)}`), "pk");
  add("int8 column at its maximum (2^53 - 1, I-JSON)", 201, () => raw("POST", "/members", memberBody("9007199254740991")));
  add("int8 column past it", 422, () => raw("POST", "/members", memberBody("9007199254740992")), "card_number");
  add("int8 column past 64 bits", 422, () => raw("POST", "/members", memberBody("99999999999999999999")), "card_number");
  add("int4 body field past its maximum", 422, () => raw("POST", "/loans", `{"copy_id": 2147483648, "member_id": "${crypto.randomUUID()}", "due_on": "2030-01-01"}`), "copy_id");
  add("numeric(8,2) at its maximum", 201, async () => raw("POST", "/books", await bookBody('"rating": 1.5, "published_on": null, "publisher_id": null, "title": "Max", "price": 999999.99')));
  add("numeric(8,2) past its maximum", 422, async () => raw("POST", "/books", await bookBody('"price": 1000000')), "price");
  // Text PostgreSQL cannot store, and text longer than its column.
  add("NUL in text", 422, () => api.post("/publishers", { name: "a\u0000b", country: "GB" }), "name");
  add("lone surrogate in text", 422, () => raw("POST", "/publishers", '{"name": "\\ud800", "country": "GB"}'), "name");
  add("three letters into String(2)", 422, () => api.post("/publishers", { name: unique("p"), country: "GBR" }), "country");
  add("100,000 characters into String(200)", 422, async () => api.post("/books", { title: "t".repeat(100_000), isbn: "1", price: 1, author_id: (await author()).id }), "title");
  add("NUL in a text key", 422, () => api.get("/genres/a%00b"), "pk");
  add("non-Latin-1 text key", 201, () => api.post("/genres", { code: unique("ключ"), label: "Ключ" }));
  // Numbers JSON should not carry.
  add("Infinity", 422, async () => raw("POST", "/books", await bookBody('"rating": Infinity')), "rating");
  add("NaN", 422, async () => raw("POST", "/books", await bookBody('"rating": NaN')), "rating");
  add("a number as text", 422, async () => raw("POST", "/books", await bookBody('"rating": "1.5"')), "rating");
  // Date-times that overflow once converted to UTC, and the last one that does not.
  add("date-time past year 9999 in UTC", 422, () => patchLoan('{"returned_at": "9999-12-31T23:59:59-23:59"}'), "returned_at");
  add("date-time before year 1 in UTC", 422, () => patchLoan('{"returned_at": "0001-01-01T00:00:00+01:00"}'), "returned_at");
  add("the last date-time", 200, () => patchLoan('{"returned_at": "9999-12-31T23:59:59Z"}'));
  add("a date-time as a number", 422, () => patchLoan('{"returned_at": 0}'), "returned_at");
  add("null for a non-nullable field", 422, () => patchLoan('{"due_on": null}'), "due_on");
  // Bodies: over the 1 MiB limit, and just under it.
  add("a body over the limit", 413, () => raw("POST", "/publishers", JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), country: "GB" })));
  add("50 MiB", 413, () => raw("POST", "/genres", JSON.stringify({ code: "big", label: "x".repeat(50 * 1024 * 1024) })));
  add("a large body under the limit", 422, () => raw("POST", "/genres", JSON.stringify({ code: unique("big"), label: "x".repeat(900 * 1024) })), "label");
  add("a body that is not UTF-8", 400, () => fetch(`${server!.baseUrl}/genres`, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.from([0xff, 0xfe, 0x7b]) }).then(async (r) => ({ status: r.status, body: await r.json() })));
  // An empty cursor is the first page (docs/be.md); cursors the server never issued are refused.
  add("an empty cursor", 200, () => api.get("/copies?cursor="));
  for (const [name, cursor] of [
    ["a cursor that is not base64", "!!!"],
    // 5,000 levels pass the decoder's recursion limit (1,000) and keep the request line under
    // the server's 16 KiB head limit: a longer one is refused with a 414 before the app runs.
    ["a cursor nested past the decoder's recursion", Buffer.from("[".repeat(5_000)).toString("base64url")],
    ["a cursor of the wrong type", Buffer.from(JSON.stringify({ after: "x" })).toString("base64url")],
  ] as const) {
    add(name, 422, () => api.get(`/copies?cursor=${encodeURIComponent(cursor)}`), "cursor");
  }
  // Decodes, but holds a key no int4 column has: the database refuses it (a 422 naming no field).
  add("a cursor past int4", 422, () => api.get(`/copies?cursor=${Buffer.from(JSON.stringify({ after: 2 ** 40 })).toString("base64url")}`));

  it(`answers each of ${cases.length} cases with its status, naming the field`, async (t) => {
    const lines: string[] = [];
    for (const entry of cases) {
      const reply = await entry.send().catch((error: unknown) => {
        throw new Error(`${entry.name}: ${String(error)}`);
      });
      lines.push(`${reply.status} ${entry.name}`);
      assert.ok(reply.status < 500, `${entry.name}: ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 500)}`);
      assert.equal(reply.status, entry.status, `${entry.name}: ${JSON.stringify(reply.body)?.slice(0, 500)}`);
      if (entry.field !== undefined) assert.equal(reply.body.detail[0].loc.at(-1) === entry.field || reply.body.detail[0].loc.includes(entry.field), true, `${entry.name}: ${JSON.stringify(reply.body.detail).slice(0, 500)}`);
    }
    t.diagnostic(lines.join("; "));
  });
});
