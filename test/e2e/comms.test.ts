/**
 * End-to-end: outgoing messages of the blog generated from config/comms.jsonnet, with real
 * components. The `announce` action sends `article_published` through `send_comm`; a worker
 * started with `pgq run` delivers it to an aiosmtpd server on 127.0.0.1 and to a local HTTP
 * receiver that checks the HMAC signature. A request that rolls back sends nothing, and a
 * worker SIGKILLed while the mail server holds a message is replaced by one that delivers
 * it, once.
 */
import assert from "node:assert/strict";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { rm } from "node:fs/promises";
import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { delimiter, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { JsonClient } from "../support/http.js";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type RunningProcess, until } from "../support/processes.js";
import { type CheckResult, ruffCheck } from "../support/python.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { type BlogServer, prepareBlogProject, serveBlog } from "./support/blog.js";
import { SUPPORT_DIR, type SmtpSink, startSmtpSink } from "./support/comms.js";
import { installPgqueuer, startWorker as startPgqWorker } from "./support/pgqueuer.js";

const SECRET = "webhook-secret-for-tests";
const HOLD_DOMAIN = "slow.example";

interface Hook {
  headers: IncomingMessage["headers"];
  body: string;
  signatureValid: boolean;
}

let venv: Venv;
let postgres: Postgres | undefined;
let projectDir: string | undefined;
let sink: SmtpSink | undefined;
let receiver: Server | undefined;
let server: BlogServer | undefined;
let api: JsonClient;
let env: NodeJS.ProcessEnv;
let staticChecks: Promise<CheckResult[]>;
const hooks: Hook[] = [];

function signatureOf(timestamp: string, body: string): string {
  return `sha256=${createHmac("sha256", SECRET).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** A webhook receiver that checks each request's signature as a user's receiver would. */
async function startReceiver(): Promise<string> {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const timestamp = String(request.headers["comms-timestamp"] ?? "");
      const signature = Buffer.from(String(request.headers["comms-signature"] ?? ""));
      const expected = Buffer.from(signatureOf(timestamp, body));
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
      const signatureValid = fresh && signature.length === expected.length && timingSafeEqual(signature, expected);
      hooks.push({ headers: request.headers, body, signatureValid });
      response.writeHead(signatureValid ? 204 : 401).end();
    });
  });
  await new Promise<void>((done) => receiver!.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
}

const mails = () => sink!.mails();

function startWorker(): RunningProcess {
  return startPgqWorker(venv, "comms_worker:create_worker", SUPPORT_DIR, env);
}

async function article(): Promise<{ id: string; title: string }> {
  const author = await api.post("/authors", { name: "Ada Lovelace", email: `ada-${randomUUID()}@example.com` });
  assert.equal(author.status, 201);
  const created = await api.post("/articles", { title: `Engines & <notes> ${randomUUID().slice(0, 8)}`, body: "On the analytical engine.", author_id: author.body.id });
  assert.equal(created.status, 201);
  return created.body;
}

async function tag(): Promise<number> {
  const created = await api.post("/tags", { name: `tag-${randomUUID()}` });
  assert.equal(created.status, 201);
  return created.body.id;
}

async function outbox(articleTitle: string) {
  return postgres!.query(
    "SELECT id, target, recipient, status, attempts FROM comm_outbox WHERE context->>'title' = $1 ORDER BY target",
    [articleTitle],
  );
}

async function attemptsOf(deliveryId: unknown): Promise<string[]> {
  const rows = await postgres!.query("SELECT status FROM comm_attempts WHERE delivery_id = $1 ORDER BY id", [deliveryId]);
  return rows.map((row) => String(row.status));
}

before(async () => {
  venv = await ensureVenv();
  [projectDir, postgres, sink] = await Promise.all([
    prepareBlogProject("config/comms.jsonnet"),
    startPostgres(),
    startSmtpSink(venv, { domain: HOLD_DOMAIN, seconds: 20 }),
  ]);
  // Collected in its own test; pyright: test/e2e/pyright.test.ts.
  staticChecks = Promise.all([ruffCheck(venv, projectDir, ["blog"])]);
  const hookUrl = await startReceiver();
  env = {
    ...process.env,
    DATABASE_URL: postgres.asyncUrl,
    PGDSN: postgres.url,
    PYTHONPATH: [projectDir, SUPPORT_DIR].join(delimiter),
    PYTHONDONTWRITEBYTECODE: "1",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(sink.port),
    SMTP_FROM: "blog@example.com",
    SMTP_TLS: "none",
    BLOG_WEBHOOK_URL: hookUrl,
    BLOG_WEBHOOK_SECRET: SECRET,
    COMMS_LEASE_SECONDS: "3",
  };
  // pgqueuer's tables are installed while the server starts: nothing is enqueued before a request.
  const [, started] = await Promise.all([installPgqueuer(venv, env), serveBlog(projectDir, venv, postgres.asyncUrl)]);
  server = started;
  api = new JsonClient(server.baseUrl);
});

after(async () => {
  await server?.process.stop();
  await sink?.stop();
  await new Promise((done) => (receiver ? receiver.close(done) : done(undefined)));
  await postgres?.stop();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

describe("comms", () => {
  it("the generated comms module and the action calling it pass ruff", async () => {
    for (const check of await staticChecks) assert.ok(check.ok, check.output);
  });

  it("a request that rolls back writes no message and no job", async () => {
    const { id, title } = await article();
    const reply = await api.post(`/articles/${id}/announce`, { recipient: "reader@example.com", tag_id: 987_654 });
    assert.equal(reply.status, 409, JSON.stringify(reply.body));
    assert.deepEqual(await outbox(title), []);
    const jobs = await postgres!.query("SELECT count(*)::int AS n FROM pgqueuer WHERE entrypoint = 'comms_deliver'");
    assert.equal(jobs[0]!.n, 0);
    assert.equal((await api.get(`/articles/${id}`)).body.published, false);
  });

  it("delivers the rendered e-mail to the SMTP server and the signed webhook", async () => {
    const { id, title } = await article();
    const reply = await api.post(`/articles/${id}/announce`, { recipient: "reader@example.com", tag_id: await tag() });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const rows = await outbox(title);
    assert.deepEqual(
      rows.map((row) => [row.target, row.recipient, row.status]),
      [
        ["email", "reader@example.com", "pending"],
        ["feed", "$BLOG_WEBHOOK_URL", "pending"],
      ],
    );
    const worker = startWorker();
    try {
      await until("the e-mail and the webhook", async () => (await mails()).length >= 1 && hooks.length >= 1, [worker, sink!.process]);
      await until("both rows delivered", async () => (await outbox(title)).every((row) => row.status === "delivered"), [worker]);
    } finally {
      await worker.stop();
    }
    const [mail] = await mails();
    assert.equal(mail!.subject, `New on the blog: ${title}`);
    // SMTP carries lines ending in CRLF.
    assert.equal(mail!.body.replaceAll("\r\n", "\n"), `Ada Lovelace has published "${title}".\n\nOn the analytical engine.\n`);
    assert.deepEqual(mail!.to, ["reader@example.com"]);
    assert.equal(mail!.from, "blog@example.com");
    assert.equal(mail!.content_type, "text/plain");
    assert.equal(mail!.message_id, `<${rows[0]!.id}@comms>`);
    assert.equal(hooks.length, 1);
    const [hook] = hooks;
    assert.ok(hook!.signatureValid, `bad signature: ${JSON.stringify(hook!.headers)}`);
    assert.notEqual(signatureOf(String(hook!.headers["comms-timestamp"]), `${hook!.body} `), hook!.headers["comms-signature"]);
    const payload = JSON.parse(hook!.body);
    assert.equal(payload.type, "article_published");
    assert.equal(payload.subject, `New on the blog: ${title}`);
    assert.deepEqual(payload.context, { title, author: "Ada Lovelace", summary: "On the analytical engine." });
    assert.equal(hook!.headers["comms-id"], rows[1]!.id);
    for (const row of await outbox(title)) {
      assert.equal(row.attempts, 1);
      assert.deepEqual(await attemptsOf(row.id), ["delivered"]);
    }
  });

  it("a worker killed mid-delivery is replaced by one that delivers the message exactly once", async () => {
    const { id, title } = await article();
    const recipient = `reader@${HOLD_DOMAIN}`;
    const reply = await api.post(`/articles/${id}/announce`, { recipient, tag_id: await tag() });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const before = (await mails()).length;
    const first = startWorker();
    try {
      // The mail server holds the message's DATA: the worker is inside the SMTP exchange.
      await until("the SMTP server to hold the message", () => sink!.process.output().includes("holding"), [first, sink!.process]);
      first.child.kill("SIGKILL");
      await first.exitCode;
    } finally {
      await first.stop();
    }
    const [email] = (await outbox(title)).filter((row) => row.target === "email");
    assert.equal(email!.status, "sending");
    const started = Date.now();
    const second = startWorker();
    try {
      await until("the e-mail to be delivered again", async () => (await outbox(title)).every((row) => row.status === "delivered"), [second, sink!.process], 60_000);
      // Anything sent twice would reach the sink within a second of the first copy.
      await sleep(1500);
    } finally {
      await second.stop();
    }
    const received = (await mails()).slice(before).filter((mail) => mail.to.includes(recipient));
    assert.equal(received.length, 1, JSON.stringify(received));
    assert.equal(received[0]!.message_id, `<${email!.id}@comms>`);
    assert.match(sink!.process.output(), /dropped/, "the killed worker's SMTP exchange was not cut off");
    assert.deepEqual(await attemptsOf(email!.id), ["interrupted", "delivered"]);
    const [row] = (await outbox(title)).filter((candidate) => candidate.target === "email");
    assert.equal(row!.attempts, 2);
    console.log(`# redelivered ${Date.now() - started} ms after the restart (lease 3 s, heartbeat timeout 2 s)`);
  });
});
