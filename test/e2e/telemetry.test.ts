/**
 * End-to-end: the blog generated with `telemetry` (examples/blog/config/telemetry.jsonnet),
 * its `setup_telemetry(app)` installed over a real PostgreSQL. With the SDK's in-memory
 * exporter: server, handler and SQL spans, parent-linked; the resource; HTTP metrics; client
 * spans of httpx and requests, and trace ids on log records; the bodies of the routes that
 * opt in, redacted; no attribute holding the password, the token or the signing secret;
 * samplers taking effect. With `otlp_http`: one export reaching a local receiver that
 * decodes the protobuf.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Postgres, startPostgres } from "../support/postgres.js";
import { type RunningProcess, startProcess, until } from "../support/processes.js";
import { type Venv, ensureVenv } from "../support/venv.js";
import { prepareBlogProject } from "./support/blog.js";

const run = promisify(execFile);
const SUPPORT_DIR = resolve(fileURLToPath(import.meta.url), "../support");
const SECRET = randomBytes(48).toString("base64url");
/** One driver run: imports, a handful of requests, a flush; generous on a busy machine. */
const DRIVE_TIMEOUT_MS = 180_000;
/** The OTLP receiver prints its port as soon as it listens. */
const RECEIVER_START_MS = 15_000;

interface Span {
  name: string;
  kind: string;
  /** The instrumentation that made it, e.g. `opentelemetry.instrumentation.httpx`. */
  scope: string | null;
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  attributes: Record<string, string>;
  resource: Record<string, string>;
}
interface Report {
  secrets: { token: string };
  metrics: string[];
  /** Records of the driver's `GET /_outbound`, with the ids the logging instrumentation put on them. */
  logs: { message: string; trace_id: string; span_id: string }[];
  /** The `traceparent` each client sent the echo server. */
  outbound: Record<"httpx" | "requests", { traceparent: string | null }>;
  spans: Span[];
}

let venv: Venv;
let postgres: Postgres | undefined;
let projectDir: string | undefined;

before(async () => {
  [venv, postgres, projectDir] = await Promise.all([ensureVenv(), startPostgres(), prepareBlogProject("config/telemetry.jsonnet")]);
});

after(async () => {
  await postgres?.stop();
  if (projectDir) await rm(projectDir, { recursive: true, force: true });
});

/** Runs the driver (creating an author with an unused e-mail address) and parses its report. */
async function drive(args: string[], env: Record<string, string> = {}): Promise<Report> {
  const email = `ada-${randomBytes(4).toString("hex")}@example.com`;
  const { stdout } = await run(venv.python, [join(SUPPORT_DIR, "telemetry_run.py"), "--email", email, ...args], {
    cwd: projectDir,
    env: {
      ...process.env,
      DATABASE_URL: postgres!.asyncUrl,
      JWT_SECRET: SECRET,
      BLOG_ENVIRONMENT: "e2e",
      PYTHONPATH: projectDir,
      PYTHONDONTWRITEBYTECODE: "1",
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
    timeout: DRIVE_TIMEOUT_MS,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Report;
}

interface ExportLine {
  path: string;
  content_type: string;
  spans: { name: string; service: string }[];
}

/** Drives the app exporting over OTLP/HTTP to a local receiver; its report, and what the receiver decoded. */
async function driveIntoReceiver(): Promise<{ exported: Report; lines: ExportLine[] }> {
  const receiver: RunningProcess = startProcess(venv.python, [join(SUPPORT_DIR, "otlp_receiver.py")], {
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
  });
  try {
    await until("the OTLP receiver to print its port", () => receiver.output().includes("\n"), [receiver], RECEIVER_START_MS);
    const port = (JSON.parse(receiver.output().split("\n")[0]!) as { port: number }).port;
    const exported = await drive(["--exporter", "otlp_http"], { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    // The driver flushed before it exited, and the receiver prints each export before answering it.
    const lines = receiver
      .output()
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ExportLine);
    assert.ok(lines.length >= 1, `the receiver got nothing:\n${receiver.output()}`);
    return { exported, lines };
  } finally {
    await receiver.stop();
  }
}

function only(spans: Span[], predicate: (span: Span) => boolean, what: string): Span {
  const found = spans.filter(predicate);
  assert.equal(found.length, 1, `expected one ${what}, found ${found.length}: ${spans.map((span) => span.name).join(", ")}`);
  return found[0]!;
}

describe("telemetry of the generated blog", () => {
  let report: Report;
  // Once the first run has created the tables, these two run side by side; each test awaits its own.
  let zeroRatio: Promise<Report>;
  let intoReceiver: Promise<{ exported: Report; lines: ExportLine[] }>;
  before(async () => {
    report = await drive(["--exporter", "memory", "--sampler", "always_on"]);
    zeroRatio = drive(["--exporter", "memory", "--sampler", "parentbased_traceidratio", "--ratio", "0"]);
    intoReceiver = driveIntoReceiver();
    // Their failures are reported by the tests that await them, not as unhandled here.
    for (const run of [zeroRatio, intoReceiver]) run.catch(() => {});
  });

  it("links the server span, the handler span and the SQL spans", () => {
    const server = only(report.spans, (span) => span.name === "POST /authors" && span.kind === "SERVER", "server span of POST /authors");
    const handler = only(report.spans, (span) => span.name === "author.create", "handler span author.create");
    assert.equal(handler.parent_id, server.span_id);
    assert.equal(handler.trace_id, server.trace_id);
    assert.deepEqual(
      { resource: handler.attributes["handler.resource"], operation: handler.attributes["handler.operation"] },
      { resource: "author", operation: "create" },
    );
    const inserts = report.spans.filter((span) => span.kind === "CLIENT" && span.parent_id === handler.span_id && /^INSERT/.test(span.name));
    assert.ok(inserts.length >= 1, `no INSERT span under author.create: ${report.spans.map((span) => `${span.name}<${span.parent_id}`).join(", ")}`);
    assert.equal(inserts[0]!.attributes["db.system"] ?? inserts[0]!.attributes["db.system.name"], "postgresql");

    const get = only(report.spans, (span) => span.name === "author.get", "handler span author.get");
    const getServer = only(report.spans, (span) => span.name === "GET /authors/{pk:uuid}" && span.kind === "SERVER", "server span of GET /authors/{pk:uuid}");
    assert.equal(get.parent_id, getServer.span_id);
    assert.ok(report.spans.some((span) => span.kind === "CLIENT" && span.parent_id === get.span_id && /^SELECT/.test(span.name)));
    assert.ok(report.spans.some((span) => span.name === "article.list"));
    // The tags resource sets kiln's trace: false: its server span, no handler span.
    only(report.spans, (span) => span.name === "GET /tags" && span.kind === "SERVER", "server span of GET /tags");
    assert.ok(!report.spans.some((span) => span.name.startsWith("tag.")), report.spans.map((span) => span.name).join(", "));
  });

  it("traces calls out with httpx and requests under the route that made them, and logs carry the trace ids", () => {
    const server = only(report.spans, (span) => span.name === "GET /_outbound" && span.kind === "SERVER", "server span of GET /_outbound");
    for (const library of ["httpx", "requests"] as const) {
      const client = only(report.spans, (span) => span.scope === `opentelemetry.instrumentation.${library}` && span.kind === "CLIENT", `${library} client span`);
      assert.deepEqual([client.trace_id, client.parent_id], [server.trace_id, server.span_id], library);
      // Its span goes along as the parent of whatever the called service records, sampled.
      const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(report.outbound[library].traceparent ?? "");
      assert.ok(sent, `${library} sent no traceparent: ${JSON.stringify(report.outbound)}`);
      assert.deepEqual([sent[1], sent[2], Number.parseInt(sent[3]!, 16) & 1], [client.trace_id, client.span_id, 1], library);
    }
    const records = report.logs.filter((log) => log.message === "calling out");
    assert.equal(records.length, 1, JSON.stringify(report.logs));
    assert.deepEqual([records[0]!.trace_id, records[0]!.span_id], [server.trace_id, server.span_id]);
  });

  it("records bodies on the handler spans of the routes that opt in (the authors'), and nowhere else", () => {
    const bodies = report.spans.filter((span) => Object.keys(span.attributes).some((key) => key.startsWith("handler.") && key.includes(".body")));
    assert.deepEqual([...new Set(bodies.map((span) => span.name))].sort(), ["author.create", "author.get"]);
    const create = only(report.spans, (span) => span.name === "author.create", "handler span author.create");
    // The validated body: the fields the schema declares, not the password sent beside them.
    const sent = JSON.parse(create.attributes["handler.request.body"]!) as Record<string, unknown>;
    assert.deepEqual(Object.keys(sent), ["name", "email"]);
    assert.equal(sent.name, "Ada");
    const answered = JSON.parse(create.attributes["handler.response.body"]!) as Record<string, unknown>;
    assert.equal(answered.email, sent.email);
    const get = only(report.spans, (span) => span.name === "author.get", "handler span author.get");
    assert.equal((JSON.parse(get.attributes["handler.response.body"]!) as { id: string }).id, answered.id);
    assert.equal(get.attributes["handler.request.body"], undefined);
  });

  it("names the service on every span and records HTTP metrics", () => {
    assert.ok(report.spans.length > 0, "no span was recorded");
    for (const span of report.spans) {
      assert.equal(span.resource["service.name"], "blog-api");
      assert.equal(span.resource["service.version"], "1.0.0");
      assert.equal(span.resource["deployment.environment.name"], "e2e");
      assert.equal(span.resource.team, "blog");
    }
    assert.ok(report.metrics.some((name) => name.startsWith("http.server.")), report.metrics.join(", "));
  });

  it("puts no password, token or secret in any span attribute", () => {
    assert.ok(report.secrets.token.length > 20);
    const forbidden = ["analytical-engine", report.secrets.token, SECRET, "Bearer"];
    for (const span of report.spans) {
      for (const [key, value] of Object.entries(span.attributes)) {
        for (const secret of forbidden) assert.ok(!value.includes(secret), `${span.name} ${key} holds a credential: ${value}`);
      }
    }
    assert.ok(report.spans.some((span) => span.name === "POST /auth/token"), "the token request is traced, without its body");
  });

  it("honours the sampler: a zero ratio records only the trace a caller sampled, nothing of the other requests", async () => {
    // Which sampler each name builds (always_off too) is test_telemetry.py's; here, that
    // setup_telemetry's override is the sampler the running app uses.
    const ratio = await zeroRatio;
    assert.ok(ratio.spans.length >= 3, ratio.spans.map((span) => span.name).join(", "));
    assert.ok(ratio.spans.every((span) => span.trace_id === "4bf92f3577b34da6a3ce929d0e0e4736"));
    assert.ok(ratio.spans.some((span) => span.name === "article.list"));
    assert.ok(!ratio.spans.some((span) => span.name === "author.create" || span.name === "GET /_outbound"));
  });

  it("exports over OTLP/HTTP to a receiver that decodes the protobuf", async () => {
    const { exported, lines } = await intoReceiver;
    assert.deepEqual(exported.spans, [], "the in-memory exporter is not used");
    assert.ok(lines.every((line) => line.path === "/v1/traces" && line.content_type === "application/x-protobuf"));
    const names = lines.flatMap((line) => line.spans.map((span) => span.name));
    assert.ok(names.includes("author.create") && names.includes("POST /authors"), names.join(", "));
    assert.ok(lines.flatMap((line) => line.spans).every((span) => span.service === "blog-api"));
  });
});
