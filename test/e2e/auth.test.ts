/**
 * End-to-end: authentication of the generated blog backend over real HTTP, against a real
 * PostgreSQL.
 *
 * Two projects from examples/blog: config/auth.jsonnet (the generated JWT flow; its
 * verify_credentials is blog.auth.verify_credentials) and config/auth_custom.jsonnet
 * (blog.auth.current_user as get_current_user_fn). Bad tokens are minted here with
 * node:crypto, byte for byte as a JWT library would, so every rejection is of a token
 * that is wrong in exactly one way.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { postLoginFrom } from "../support/http-from.js";
import { JsonClient, type Reply, expectStatus } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { AUDIENCE, type Claims, ISSUER, claims, now, signJwt } from "./support/jwt.js";

const SECRET = randomBytes(48).toString("base64url");
/** A client address whose X-Forwarded-For uvicorn believes, as it does 127.0.0.1's by default. */
const BELIEVED_PEER = "127.0.0.10";
const LIFETIME = 900;

let venv: Venv;
let postgres: Postgres | undefined;
let jwtDir: string | undefined;
let customDir: string | undefined;
let jwtServer: BlogServer | undefined;
let customServer: BlogServer | undefined;
let anonymous: JsonClient;
let staticChecks: Promise<CheckResult[]>;

before(async () => {
  venv = await ensureVenv();
  [jwtDir, customDir] = await Promise.all([prepareBlogProject("config/auth.jsonnet"), prepareBlogProject("config/auth_custom.jsonnet")]);
  // pyright: test/e2e/pyright.test.ts.
  staticChecks = Promise.all([ruffCheck(venv, jwtDir, ["blog"]), ruffCheck(venv, customDir, ["blog"])]);
  postgres = await startPostgres();
  // One after the other: each creates the tables before it serves.
  // uvicorn believes X-Forwarded-For from 127.0.0.10 too, so a test can rotate it from a peer
  // of its own without spending 127.0.0.1's attempts, which the other tests' sign-ins use.
  jwtServer = await serveBlog(jwtDir, venv, postgres.asyncUrl, { JWT_SECRET: SECRET, FORWARDED_ALLOW_IPS: `127.0.0.1,${BELIEVED_PEER}` });
  customServer = await serveBlog(customDir, venv, postgres.asyncUrl, { JWT_SECRET: undefined });
  anonymous = new JsonClient(jwtServer.baseUrl);
});

after(async () => {
  await jwtServer?.process.stop();
  await customServer?.process.stop();
  await postgres?.stop();
  await staticChecks?.catch(() => undefined);
  for (const dir of [jwtDir, customDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------
// Tokens

const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });

/** A compact JWS of `payload`, signed with `alg` (default HS256) and the server's secret unless `secret` says otherwise. */
function mint(payload: Claims, options: { alg?: string; secret?: string } = {}): string {
  const alg = options.alg ?? "HS256";
  return signJwt(payload, alg === "RS256" ? rsa.privateKey : (options.secret ?? SECRET), alg);
}

/** `token` with its payload replaced and its signature kept. */
function withPayload(token: string, payload: Claims): string {
  const [header, , signature] = token.split(".");
  return `${header}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${signature}`;
}

function decodePart(token: string, index: number): Claims {
  return JSON.parse(Buffer.from(token.split(".")[index]!, "base64url").toString("utf8"));
}

function bearer(token: string): JsonClient {
  return anonymous.with({ authorization: `Bearer ${token}` });
}

/** POST the OAuth2 password-flow form to the token endpoint. */
async function requestToken(username: string, password: string, url = `${jwtServer!.baseUrl}/auth/token`): Promise<Reply> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  return { status: response.status, headers: response.headers, body: await response.json(), statements: -1 };
}

// ---------------------------------------------------------------------------------------
// Assertions

function expectChallenge(reply: Reply, what: string): void {
  assert.equal(reply.status, 401, `${what}: expected 401, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  assert.match(reply.headers.get("www-authenticate") ?? "", /^Bearer\b/, `${what}: WWW-Authenticate`);
}

function unique(): string {
  return randomBytes(4).toString("hex");
}

async function createAuthor(client: JsonClient): Promise<{ id: string }> {
  const reply = await client.post("/authors", { name: "Ada", email: `ada-${unique()}@example.com` });
  expectStatus(reply, 201);
  return reply.body;
}

async function createArticle(client: JsonClient): Promise<{ id: string; extra: Record<string, unknown> }> {
  const author = await createAuthor(client);
  const reply = await client.post("/articles", { title: `Auth ${unique()}`, body: "one two", author_id: author.id });
  expectStatus(reply, 201);
  return reply.body;
}

// ---------------------------------------------------------------------------------------

describe("auth: the generated tree", () => {
  it("passes ruff check, for both flows", async () => {
    const names = ["ruff (jwt)", "ruff (custom)"];
    (await staticChecks).forEach((result, index) => assert.ok(result.ok, `${names[index]}:\n${result.output}`));
  });
});

describe("auth: protected routes", () => {
  it("answer 401 with WWW-Authenticate: Bearer without a token", async () => {
    const id = randomUUID();
    const requests: [string, () => Promise<Reply>][] = [
      ["GET /authors", () => anonymous.get("/authors")],
      ["GET /authors/{pk}", () => anonymous.get(`/authors/${id}`)],
      ["POST /authors", () => anonymous.post("/authors", { name: "X", email: "x@example.com" })],
      ["POST /articles", () => anonymous.post("/articles", { title: "T", body: "B", author_id: id })],
      ["PATCH /articles/{pk}", () => anonymous.patch(`/articles/${id}`, { title: "T" })],
      ["DELETE /articles/{pk}", () => anonymous.delete(`/articles/${id}`)],
      ["POST /articles/{pk}/publish-article", () => anonymous.post(`/articles/${id}/publish-article`)],
      ["POST /articles/archive-stale-articles", () => anonymous.post("/articles/archive-stale-articles", { before: "2024-01-01T00:00:00Z" })],
      ["GET /comments", () => anonymous.get("/comments")],
    ];
    for (const [what, request] of requests) expectChallenge(await request(), what);
  });

  it("answer with a valid token", async () => {
    const client = bearer(mint(claims()));
    const author = await createAuthor(client);
    expectStatus(await client.get(`/authors/${author.id}`), 200);
    expectStatus(await client.get("/authors"), 200);
  });

  it("reject every malformed, forged, expired or foreign token with 401", async () => {
    const cases: [string, string][] = [
      ["not a JWT", "not-a-jwt"],
      ["three garbage parts", "abc.def.ghi"],
      ["a truncated signature", mint(claims()).slice(0, -4)],
      ["a tampered payload", withPayload(mint(claims()), claims({ sub: "grace" }))],
      ["the wrong secret", mint(claims(), { secret: randomBytes(48).toString("base64url") })],
      ["an expired token", mint(claims({ iat: now() - 3600, exp: now() - 60 }))],
      ["alg: none", mint(claims(), { alg: "none" })],
      ["HS512 with the right secret", mint(claims(), { alg: "HS512" })],
      ["RS256", mint(claims(), { alg: "RS256" })],
      ["no sub", mint(claims({ sub: undefined }))],
      ["no exp", mint(claims({ exp: undefined }))],
      ["no iat", mint(claims({ iat: undefined }))],
      ["a non-string sub", mint(claims({ sub: 42 }))],
      ["the wrong issuer", mint(claims({ iss: "someone-else" }))],
      ["no issuer", mint(claims({ iss: undefined }))],
      ["the wrong audience", mint(claims({ aud: "other-api" }))],
    ];
    for (const [what, token] of cases) expectChallenge(await bearer(token).get("/authors"), what);
    expectChallenge(await anonymous.with({ authorization: `Basic ${Buffer.from("ada:analytical-engine").toString("base64")}` }).get("/authors"), "Basic credentials");
  });

  it("says when a token has expired", async () => {
    const reply = await bearer(mint(claims({ iat: now() - 3600, exp: now() - 60 }))).get("/authors");
    expectChallenge(reply, "expired");
    assert.equal(reply.body.detail, "The access token has expired");
    assert.equal(reply.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
  });
});

describe("auth: the token endpoint", () => {
  it("issues a bearer token for the right credentials: sub, iat, exp, iss, aud, signed HS256", async () => {
    const before = now();
    const reply = await requestToken("ada", "analytical-engine");
    expectStatus(reply, 200);
    assert.deepEqual(Object.keys(reply.body).sort(), ["access_token", "expires_in", "token_type"]);
    assert.equal(reply.body.token_type, "bearer");
    assert.equal(reply.body.expires_in, LIFETIME);
    assert.equal(reply.headers.get("cache-control"), "no-store");
    const token: string = reply.body.access_token;
    assert.deepEqual(decodePart(token, 0), { alg: "HS256", typ: "JWT" });
    const payload = decodePart(token, 1);
    assert.deepEqual(Object.keys(payload).sort(), ["aud", "exp", "iat", "iss", "sub"]);
    assert.equal(payload.sub, "ada");
    assert.equal(payload.iss, ISSUER);
    assert.equal(payload.aud, AUDIENCE);
    assert.ok((payload.iat as number) >= before - 1 && (payload.iat as number) <= now() + 1, `iat ${payload.iat}`);
    assert.equal((payload.exp as number) - (payload.iat as number), LIFETIME);
    // Signed with the configured secret: the same token as one minted here.
    assert.equal(token, mint({ sub: "ada", iat: payload.iat, exp: payload.exp, iss: ISSUER, aud: AUDIENCE }));
    expectStatus(await bearer(token).get("/authors"), 200);
  });

  it("answers 401 for a wrong password or an unknown user, 422 for a form without them", async () => {
    for (const [username, password] of [["ada", "wrong"], ["nobody", "analytical-engine"], ["grace", "analytical-engine"]] as const) {
      const reply = await requestToken(username, password);
      expectStatus(reply, 401);
      assert.equal(reply.headers.get("www-authenticate"), "Bearer");
      assert.equal(reply.body.detail, "Incorrect username or password");
    }
    const response = await fetch(`${jwtServer!.baseUrl}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "ada" }),
    });
    assert.equal(response.status, 422);
  });

  it("is where Swagger UI's Authorize button posts: the scheme's tokenUrl, resolved from /docs", async () => {
    const openapi = (await anonymous.get("/openapi.json")).body;
    const scheme = openapi.components.securitySchemes.OAuth2PasswordBearer;
    assert.equal(scheme.type, "oauth2");
    const tokenUrl = new URL(scheme.flows.password.tokenUrl, `${jwtServer!.baseUrl}/docs`).href;
    assert.equal(tokenUrl, `${jwtServer!.baseUrl}/auth/token`);
    expectStatus(await requestToken("grace", "compiler-1952", tokenUrl), 200);
    // Protected operations carry the scheme; public ones do not.
    assert.deepEqual(openapi.paths["/authors"].get.security, [{ OAuth2PasswordBearer: [] }]);
    assert.equal(openapi.paths["/categories"].get.security, undefined);
    assert.equal(openapi.paths["/articles"].get.security, undefined);
  });
});

describe("auth: the token endpoint's limits on password guessing (10/minute per username, 30/minute per address)", () => {
  const tokenUrl = () => `${jwtServer!.baseUrl}/auth/token`;
  const statuses = (replies: { status: number }[]) => replies.map((reply) => reply.status).sort();

  it("per username, whatever its case and address: 10 wrong passwords pass to the check, then 429 with Retry-After", async () => {
    const username = `mallory-${randomUUID()}`;
    // Concurrent, from four addresses: the count in PostgreSQL is exact, whoever asks.
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, index) => postLoginFrom(`127.0.0.${2 + (index % 4)}`, tokenUrl(), index % 2 ? username.toUpperCase() : username, "guess")),
    );
    assert.deepEqual(statuses(replies), [...Array(10).fill(401), 429, 429]);
    const refused = replies.find((reply) => reply.status === 429)!;
    const retryAfter = Number(refused.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${refused.headers["retry-after"]}`);
    assert.match(refused.body.detail, /^Rate limit exceeded: 10 requests per 60s$/);
  });

  it("per client address: the 31st attempt from one address is 429, another address still gets its 401", async () => {
    const replies = await Promise.all(Array.from({ length: 31 }, () => postLoginFrom("127.0.0.6", tokenUrl(), `guesser-${randomUUID()}`, "guess")));
    assert.deepEqual(statuses(replies), [...Array(30).fill(401), 429]);
    assert.equal((await postLoginFrom("127.0.0.7", tokenUrl(), `guesser-${randomUUID()}`, "guess")).status, 401);
    // X-Forwarded-For changes nothing: the project trusts no proxy.
    const forwarded = await postLoginFrom("127.0.0.6", tokenUrl(), `guesser-${randomUUID()}`, "guess", { "x-forwarded-for": "198.51.100.9" });
    assert.equal(forwarded.status, 429);
  });

  it("rotating X-Forwarded-For from a peer uvicorn believes escapes nothing: the 31st attempt is 429", async () => {
    // uvicorn rewrites the client from the header for the peers it believes (127.0.0.1 by
    // default). The generated protocol records the real peer first, and the project trusts
    // no proxy, so the generated code does not believe the header.
    const replies = await Promise.all(
      Array.from({ length: 31 }, (_, index) => postLoginFrom(BELIEVED_PEER, tokenUrl(), `rotator-${randomUUID()}`, "guess", { "x-forwarded-for": `198.51.100.${index + 1}` })),
    );
    assert.deepEqual(statuses(replies), [...Array(30).fill(401), 429]);
    const another = await postLoginFrom(BELIEVED_PEER, tokenUrl(), `rotator-${randomUUID()}`, "guess", { "x-forwarded-for": "203.0.113.77" });
    assert.equal(another.status, 429);
  });

  it("a right password clears its username's count: a user who signs in often is never locked out by it", async () => {
    for (let round = 0; round < 2; round += 1) {
      const wrong = await Promise.all(Array.from({ length: 9 }, () => postLoginFrom("127.0.0.8", tokenUrl(), "grace", "guess")));
      assert.deepEqual(statuses(wrong), Array(9).fill(401));
      assert.equal((await postLoginFrom("127.0.0.9", tokenUrl(), "grace", "compiler-1952")).status, 200, `round ${round}`);
    }
  });

  it("documents the 429 in OpenAPI", async () => {
    const operation = (await anonymous.get("/openapi.json")).body.paths["/auth/token"].post;
    assert.ok(operation.responses["429"], JSON.stringify(Object.keys(operation.responses)));
  });
});

describe("auth: public routes", () => {
  it("a resource with require_auth: false answers without a token", async () => {
    const slug = `cat-${unique()}`;
    expectStatus(await anonymous.post("/categories", { slug, title: "Open" }), 201);
    expectStatus(await anonymous.get(`/categories/${slug}`), 200);
    expectStatus(await anonymous.patch(`/categories/${slug}`, { title: "Still open" }), 200);
    expectStatus(await anonymous.get("/categories"), 200);
    expectStatus(await anonymous.delete(`/categories/${slug}`), 204);
  });

  it("operations with require_auth: false answer without a token; the resource's others do not", async () => {
    const article = await createArticle(bearer(mint(claims())));
    expectStatus(await anonymous.get(`/articles/${article.id}`), 200);
    expectStatus(await anonymous.get("/articles"), 200);
    expectChallenge(await anonymous.patch(`/articles/${article.id}`, { title: "Nope" }), "PATCH /articles/{pk}");
  });

  it("excluded paths answer without a token: an exact path and a prefix", async () => {
    const counted = await anonymous.post("/articles/count-words", { text: "one two three" });
    expectStatus(counted, 200);
    assert.deepEqual(counted.body, { words: 3 });
    const tag = await anonymous.post("/tags", { name: `open-${unique()}` });
    expectStatus(tag, 201);
    expectStatus(await anonymous.get(`/tags/${tag.body.id}`), 200);
    expectStatus(await anonymous.get("/tags"), 200);
  });
});

describe("auth: actions receive the user", () => {
  it("an action with pass_user gets current_user, the token's subject", async () => {
    const token = (await requestToken("grace", "compiler-1952")).body.access_token as string;
    const client = bearer(token);
    const article = await createArticle(client);
    const reviewed = await client.post(`/articles/${article.id}/review-article`);
    expectStatus(reviewed, 200);
    assert.equal(reviewed.body.extra.reviewed_by, "grace");
    expectChallenge(await anonymous.post(`/articles/${article.id}/review-article`), "review without a token");
  });
});

describe("auth: startup", () => {
  it("refuses to start without the secret, with a message naming the variable", async () => {
    const failure = await serveBlog(jwtDir!, venv, postgres!.asyncUrl, { JWT_SECRET: undefined }).then(
      async (server) => {
        await server.process.stop();
        assert.fail("the server started without JWT_SECRET");
      },
      (error: unknown) => String(error),
    );
    assert.match(failure, /process exited before/);
    assert.match(failure, /RuntimeError: JWT_SECRET is not set: it must hold the secret that signs access tokens/);
  });

  it("refuses to start with a secret shorter than the hash", async () => {
    const failure = await serveBlog(jwtDir!, venv, postgres!.asyncUrl, { JWT_SECRET: "too-short" }).then(
      async (server) => {
        await server.process.stop();
        assert.fail("the server started with a 9-byte secret");
      },
      (error: unknown) => String(error),
    );
    assert.match(failure, /RuntimeError: JWT_SECRET is too short: HS256 needs a secret of at least 32 bytes/);
  });
});

describe("auth: a get_current_user_fn of the project's own", () => {
  const client = () => new JsonClient(customServer!.baseUrl);
  const withToken = (token: string) => client().with({ authorization: `Bearer ${token}` });

  it("starts without any signing secret and serves no token endpoint", async () => {
    const reply = await requestToken("ada", "analytical-engine", `${customServer!.baseUrl}/auth/token`);
    expectStatus(reply, 404);
  });

  it("decides who gets in: 401 from the dependency without a known token, 200 with one", async () => {
    expectChallenge(await client().get("/authors"), "no token");
    expectChallenge(await withToken("blog-demo-token-nobody").get("/authors"), "unknown token");
    expectChallenge(await withToken(mint(claims())).get("/authors"), "a JWT means nothing here");
    const author = await createAuthor(withToken("blog-demo-token-ada"));
    expectStatus(await withToken("blog-demo-token-grace").get(`/authors/${author.id}`), 200);
  });

  it("honours exclude_paths, and passes its user to pass_user actions", async () => {
    expectStatus(await client().get("/categories"), 200);
    const article = await createArticle(withToken("blog-demo-token-ada"));
    const reviewed = await withToken("blog-demo-token-ada").post(`/articles/${article.id}/review-article`);
    expectStatus(reviewed, 200);
    assert.equal(reviewed.body.extra.reviewed_by, "ada");
  });
});
