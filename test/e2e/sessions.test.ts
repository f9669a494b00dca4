/**
 * End-to-end: browser sessions of the generated blog backend (examples/blog/config/sessions.jsonnet)
 * over real HTTP, against a real PostgreSQL. The token endpoint sets an HttpOnly cookie; a
 * cookie-authenticated unsafe request must come from a trusted origin (403 otherwise, bearer
 * requests are exempt); logout revokes a token through the deny-list, for the bearer token and
 * the cookie alike; CORS preflights are answered for the allowed origin only; public routes see
 * the user when a token is present; the token endpoint writes the user's roles into the token.
 */
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { requestFrom } from "../support/http-from.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, DEMO_LOGIN, prepareBlogProject, serveBlog } from "./support/blog.js";
import { claims, now, signJwt } from "./support/jwt.js";

const SECRET = randomBytes(48).toString("base64url");
const TRUSTED = "http://app.blog.test";
const FOREIGN = "http://evil.example";
const GRACE = { username: "grace", password: "compiler-1952" };

let venv: Venv;
let postgres: Postgres | undefined;
let dir: string | undefined;
let server: BlogServer | undefined;
let staticChecks: Promise<CheckResult>;
let api: JsonClient;

before(async () => {
  venv = await ensureVenv();
  dir = await prepareBlogProject("config/sessions.jsonnet");
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = ruffCheck(venv, dir, ["blog"]);
  postgres = await startPostgres();
  server = await serveBlog(dir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET });
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The API's own origin, as a browser on a page it serves sends it: allowed through ALLOWED_ORIGINS (serveBlog sets it). */
function ownOrigin(): string {
  return server!.baseUrl;
}

interface Login {
  reply: Reply;
  /** The Set-Cookie line of the session cookie. */
  setCookie: string;
  /** The cookie's value: the access token. */
  cookie: string;
}

/** Log in with the OAuth2 form, as a browser's login page would (sending `headers`, e.g. Origin). */
async function login(credentials = DEMO_LOGIN, headers: Record<string, string> = {}): Promise<Login> {
  const response = await fetch(`${server!.baseUrl}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(credentials),
  });
  const reply: Reply = { status: response.status, headers: response.headers, body: await response.json(), statements: -1 };
  const setCookie = response.headers.getSetCookie().find((line) => line.startsWith("access_token=")) ?? "";
  return { reply, setCookie, cookie: /^access_token=([^;]*)/.exec(setCookie)?.[1] ?? "" };
}

/** A browser-like client: sends the session cookie, and `origin` as its Origin header when given. */
function browser(cookie: string, origin?: string): JsonClient {
  return api.with({ cookie: `access_token=${cookie}`, ...(origin === undefined ? {} : { origin }) });
}

function bearer(token: string): JsonClient {
  return api.with({ authorization: `Bearer ${token}` });
}

function decode(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
}

function expectForbidden(reply: Reply, pattern: RegExp, what: string): void {
  expectStatus(reply, 403, what);
  assert.match((reply.body as { detail: string }).detail, pattern, `${what}: the JSON detail`);
}

const author = () => ({ name: "Ada", email: `ada-${randomUUID()}@example.com` });

describe("sessions: the token endpoint", () => {
  it("sets an HttpOnly, SameSite=strict session cookie holding the token it returns, with a jti", async () => {
    const { reply, setCookie, cookie } = await login();
    expectStatus(reply, 200);
    assert.equal(cookie, reply.body.access_token, "the cookie holds the token of the body (sources: bearer and cookie)");
    const attributes = setCookie.split(";").map((part) => part.trim().toLowerCase());
    assert.ok(attributes.includes("httponly"), setCookie);
    assert.ok(attributes.includes("samesite=strict"), setCookie);
    assert.ok(attributes.includes("path=/"), setCookie);
    assert.ok(attributes.includes("max-age=900"), setCookie);
    // cookie_secure: false in this example, for http://127.0.0.1.
    assert.ok(!attributes.includes("secure"), setCookie);
    assert.equal(typeof decode(cookie).jti, "string");
  });

  it("writes the roles verify_login returns into the token's roles claim, which groups read", async () => {
    const grace = await login(GRACE);
    assert.deepEqual(decode(grace.cookie).roles, ["editor"]);
    assert.deepEqual(decode((await login()).cookie).roles, ["writer"]);
    const created = await bearer(grace.cookie).post("/authors", author());
    expectStatus(created, 201);
    const article = await bearer(grace.cookie).post("/articles", { title: "t", body: "b", author_id: created.body.id });
    expectStatus(article, 201);
    // Deleting takes an editor or an admin: ada (writer) is refused, grace (editor) may.
    expectForbidden(await bearer((await login()).cookie).delete(`/articles/${article.body.id}`), /editor/, "ada deletes");
    expectStatus(await browser(grace.cookie, ownOrigin()).delete(`/articles/${article.body.id}`), 204, "grace deletes");
  });

  it("refuses a login form posted from a foreign page, and accepts one from a trusted origin", async () => {
    const foreign = await login(DEMO_LOGIN, { origin: FOREIGN });
    expectForbidden(foreign.reply, /not trusted/, "login from a foreign origin");
    assert.equal(foreign.setCookie, "", "no cookie is set");
    expectStatus((await login(DEMO_LOGIN, { origin: TRUSTED })).reply, 200);
  });
});

describe("sessions: cookie-authenticated requests and CSRF", () => {
  it("read with the cookie alone, from any origin", async () => {
    const { cookie } = await login();
    expectStatus(await browser(cookie).get("/authors"), 200, "GET without Origin");
    expectStatus(await browser(cookie, FOREIGN).get("/authors"), 200, "GET from a foreign origin (SameSite keeps browsers from sending it)");
  });

  it("change things only from an allowed origin: 403 with a JSON body otherwise", async () => {
    const { cookie } = await login();
    expectForbidden(await browser(cookie).post("/authors", author()), /Origin header/, "POST without Origin");
    expectForbidden(await browser(cookie, FOREIGN).post("/authors", author()), /not trusted/, "POST from a foreign origin");
    expectForbidden(await browser(cookie, "null").post("/authors", author()), /not trusted/, "POST from an opaque origin");
    const created = await browser(cookie, ownOrigin()).post("/authors", author());
    expectStatus(created, 201, "POST from the API's own origin, allowed by ALLOWED_ORIGINS");
    expectStatus(await browser(cookie, TRUSTED).patch(`/authors/${created.body.id}`, { name: "Ada L." }), 200, "PATCH from the trusted origin");
    expectForbidden(await browser(cookie, FOREIGN).delete(`/authors/${created.body.id}`), /not trusted/, "DELETE from a foreign origin");
    expectStatus(await browser(cookie).get(`/authors/${created.body.id}`), 200, "still there");
  });

  it("never take the request's Host for an allowed origin: a forged Host with its matching Origin is a 403", async () => {
    const { cookie } = await login();
    const sent = (host: string, origin: string) =>
      requestFrom("127.0.0.1", `${server!.baseUrl}/authors`, {
        method: "POST",
        headers: { host, origin, cookie: `access_token=${cookie}`, "content-type": "application/json" },
        body: JSON.stringify(author()),
      });
    for (const host of ["evil.example", "evil.example:8080"]) {
      const forged = await sent(host, `http://${host}`);
      assert.equal(forged.status, 403, `Host ${host}`);
      assert.match(forged.body.detail, /not trusted/, `Host ${host}: the JSON detail`);
    }
    // The configured origin passes whatever Host says.
    assert.equal((await sent("evil.example", ownOrigin())).status, 201);
  });

  it("need no Origin with a bearer token, which no foreign page can make a browser send", async () => {
    const { cookie } = await login();
    expectStatus(await bearer(cookie).post("/authors", author()), 201, "bearer POST without Origin");
    expectStatus(await bearer(cookie).with({ origin: FOREIGN }).post("/authors", author()), 201, "bearer POST with a foreign Origin");
  });

  it("answer the JWT attack matrix through the cookie with 401, before any origin check", async () => {
    const { cookie } = await login();
    const [header, , signature] = cookie.split(".");
    const cases: [string, string][] = [
      ["a tampered payload", `${header}.${Buffer.from(JSON.stringify({ ...decode(cookie), sub: "grace" })).toString("base64url")}.${signature}`],
      ["a truncated signature", cookie.slice(0, -4)],
      ["not a JWT", "not-a-jwt"],
      ["the wrong secret", signJwt(claims({ jti: randomUUID() }), randomBytes(48).toString("base64url"))],
      ["alg: none", signJwt(claims({ jti: randomUUID() }), SECRET, "none")],
      ["an expired token", signJwt(claims({ jti: randomUUID(), iat: now() - 3600, exp: now() - 60 }), SECRET)],
      ["no jti (logout could not revoke it)", signJwt(claims(), SECRET)],
    ];
    for (const [what, value] of cases) {
      for (const [method, reply] of [
        ["GET", await browser(value).get("/authors")],
        ["POST without Origin", await browser(value).post("/authors", author())],
      ] as const) {
        expectStatus(reply, 401, `${what}, ${method}`);
        assert.equal(typeof reply.body.detail, "string");
      }
    }
    expectStatus(await browser(signJwt(claims({ jti: randomUUID() }), SECRET)).get("/authors"), 200, "a well-formed cookie passes");
  });
});

describe("sessions: logout", () => {
  it("revokes a bearer token: the same token is 401 afterwards, another token still works", async () => {
    const token = (await login()).reply.body.access_token as string;
    const other = (await login()).reply.body.access_token as string;
    expectStatus(await bearer(token).get("/authors"), 200);
    expectStatus(await bearer(token).post("/auth/logout"), 204, "logout");
    const refused = await bearer(token).get("/authors");
    expectStatus(refused, 401, "the revoked token");
    assert.equal(refused.body.detail, "The access token has been revoked");
    expectStatus(await bearer(token).post("/auth/logout"), 401, "a second logout");
    expectStatus(await bearer(other).get("/authors"), 200, "another token of the same user");
  });

  it("revokes the cookie's token and clears the cookie; a copy of the cookie is 401 afterwards", async () => {
    const { cookie } = await login();
    expectForbidden(await browser(cookie).post("/auth/logout"), /Origin header/, "logout without Origin");
    const response = await fetch(`${server!.baseUrl}/auth/logout`, { method: "POST", headers: { cookie: `access_token=${cookie}`, origin: ownOrigin() } });
    assert.equal(response.status, 204);
    const cleared = response.headers.getSetCookie().find((line) => line.startsWith("access_token="));
    assert.match(cleared ?? "", /^access_token=""?;.*Max-Age=0/i, "the cookie is cleared");
    expectStatus(await browser(cookie).get("/authors"), 401, "the old cookie");
    expectStatus(await bearer(cookie).get("/authors"), 401, "the same token as a bearer token");
  });
});

describe("sessions: who is signed in", () => {
  it("answers the token's subject, groups and expiry, by cookie or bearer token; 401 without, and after logout", async () => {
    const { cookie, reply } = await login(GRACE);
    const answer = await browser(cookie).get("/auth/session");
    expectStatus(answer, 200, "GET /auth/session with the cookie (a safe method: no Origin needed)");
    assert.equal(answer.body.subject, "grace");
    assert.deepEqual(answer.body.groups, ["editor"], "the roles claim the token endpoint wrote");
    assert.ok(Math.abs(answer.body.expires_at - (now() + reply.body.expires_in)) <= 5, `expires_at ${answer.body.expires_at}`);
    assert.deepEqual((await bearer(reply.body.access_token as string).get("/auth/session")).body, answer.body, "the bearer token of the same login");
    assert.deepEqual((await bearer((await login()).reply.body.access_token as string).get("/auth/session")).body.groups, ["writer"]);
    const anonymous = await api.get("/auth/session");
    expectStatus(anonymous, 401, "nobody signed in");
    assert.equal(anonymous.body.detail, "Not authenticated");
    expectStatus(await browser(cookie, ownOrigin()).post("/auth/logout"), 204, "logout");
    expectStatus(await browser(cookie).get("/auth/session"), 401, "the revoked cookie");
  });
});

describe("sessions: CORS", () => {
  async function preflight(origin: string): Promise<Response> {
    return fetch(`${server!.baseUrl}/articles`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
  }

  it("answers a preflight from the allowed origin, with credentials", async () => {
    const response = await preflight(TRUSTED);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("access-control-allow-origin"), TRUSTED);
    assert.equal(response.headers.get("access-control-allow-credentials"), "true");
    assert.match(response.headers.get("access-control-allow-methods") ?? "", /POST/);
  });

  it("refuses a preflight from any other origin: no Access-Control-Allow-Origin", async () => {
    for (const origin of [FOREIGN, "http://app.blog.test.evil.example", "https://app.blog.test"]) {
      const response = await preflight(origin);
      assert.equal(response.status, 400, origin);
      assert.equal(response.headers.get("access-control-allow-origin"), null, origin);
    }
  });

  it("labels simple responses for the allowed origin only", async () => {
    assert.equal((await api.with({ origin: TRUSTED }).get("/categories")).headers.get("access-control-allow-origin"), TRUSTED);
    assert.equal((await api.with({ origin: FOREIGN }).get("/categories")).headers.get("access-control-allow-origin"), null);
  });
});

describe("sessions: the per-request cost of the deny-list", () => {
  it("is one statement per authenticated request, and none without a token", async () => {
    const token = (await login()).reply.body.access_token as string;
    const created = await bearer(token).post("/authors", author());
    const article = await bearer(token).post("/articles", { title: "t", body: "b", author_id: created.body.id, published: true });
    expectStatus(article, 201);
    // The same public route and row: anonymous, then with a token (the revocation lookup on top).
    const anonymous = await api.get(`/articles/${article.body.id}`);
    const signedIn = await bearer(token).get(`/articles/${article.body.id}`);
    expectStatus(anonymous, 200);
    expectStatus(signedIn, 200);
    assert.ok(anonymous.statements > 0);
    assert.equal(signedIn.statements, anonymous.statements + 1);
  });
});

describe("sessions: public routes see the user when a token is present", () => {
  it("a draft is visible to its author on the public get and list, and to nobody else", async () => {
    const email = `writer-${randomUUID()}@example.com`;
    const token = signJwt(claims({ sub: email, jti: randomUUID(), roles: ["writer"] }), SECRET);
    const created = await bearer(token).post("/authors", { name: "W", email });
    expectStatus(created, 201);
    const draft = await bearer(token).post("/articles", { title: "draft", body: "b", author_id: created.body.id, published: false });
    expectStatus(draft, 201);
    const id = draft.body.id as string;
    const listed = async (client: JsonClient) => ((await client.get("/articles?limit=100")).body.items as { id: string }[]).some((item) => item.id === id);
    expectStatus(await bearer(token).get(`/articles/${id}`), 200, "the author, by bearer token");
    expectStatus(await browser(token).get(`/articles/${id}`), 200, "the author, by cookie");
    assert.ok(await listed(bearer(token)), "the author's list holds the draft");
    expectStatus(await api.get(`/articles/${id}`), 404, "anonymous");
    assert.ok(!(await listed(api)), "the anonymous list leaves it out");
    // Credentials a protected route would refuse count as none: the public route answers as to anyone.
    const forged = signJwt(claims({ sub: email, jti: randomUUID() }), randomBytes(48).toString("base64url"));
    expectStatus(await bearer(forged).get(`/articles/${id}`), 404, "a forged token");
    expectStatus(await bearer(signJwt(claims({ sub: `other-${email}`, jti: randomUUID() }), SECRET)).get(`/articles/${id}`), 404, "another writer");
    // The public permissions routes read the user the same way: anonymous may only list; the
    // author may create, and on the draft get and update, not delete (editors and admins).
    const names = async (client: JsonClient, path: string) => {
      const reply = await client.get(path);
      expectStatus(reply, 200, path);
      return (reply.body as { name: string }[]).map((action) => action.name);
    };
    assert.deepEqual(await names(api, "/articles/permissions"), ["list"], "anonymous");
    assert.deepEqual(await names(bearer(forged), "/articles/permissions"), ["list"], "a forged token");
    const collection = await names(bearer(token), "/articles/permissions");
    assert.ok(collection.includes("list") && collection.includes("create"), `the author: ${collection.join(", ")}`);
    const row = await names(bearer(token), `/articles/${id}/permissions`);
    assert.ok(row.includes("get") && row.includes("update") && !row.includes("delete"), `the author on the draft: ${row.join(", ")}`);
    expectStatus(await api.get(`/articles/${id}/permissions`), 404, "anonymous, the draft's permissions");
  });
});

describe("sessions: the generated code", () => {
  it("passes ruff", async () => {
    const result = await staticChecks;
    assert.ok(result.ok, result.output);
  });

  it("documents the cookie scheme and the logout endpoint in OpenAPI", async () => {
    const openapi = (await api.get("/openapi.json")).body;
    assert.deepEqual(openapi.components.securitySchemes.APIKeyCookie, { type: "apiKey", in: "cookie", name: "access_token" });
    const logout = openapi.paths["/auth/logout"].post;
    assert.equal(logout.operationId, "revokeAccessToken");
    assert.ok("204" in logout.responses && "401" in logout.responses && "403" in logout.responses);
    const session = openapi.paths["/auth/session"].get;
    assert.equal(session.operationId, "getCurrentSession");
    assert.deepEqual(openapi.components.schemas.CurrentSession.required, ["subject", "groups", "expires_at"]);
  });
});
