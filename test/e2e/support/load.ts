/**
 * A bounded HTTP load generator for tests: `clients` concurrent keep-alive clients, each
 * sending one request after another until `durationMs` has passed, against 127.0.0.1.
 * It records every request's status (or network error) and latency, so a test can assert
 * on 5xx counts and report throughput and percentiles.
 */
import { readFile } from "node:fs/promises";
import { Agent, request } from "node:http";

/** One request a client sends. */
export interface LoadRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Called with the answer, e.g. to remember a created key. */
  onReply?: (status: number, body: string) => void;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Answers per second. */
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Count of each HTTP status; `0` counts network errors (refused, reset, timed out). */
  statuses: Map<number, number>;
  /** Answers with a status of 500 or more, other than 503. */
  serverErrors: number;
  /** CPU seconds the server process used during the run, when its pid was given. */
  serverCpuSeconds: number | undefined;
}

/** Keep-alive connections for `clients` concurrent clients, to share between runs; `destroy()` it after the last. */
export function loadAgent(clients: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: clients });
}

/** Sends `next()`'s requests from `clients` concurrent clients for `durationMs`. */
export async function runLoad(options: {
  baseUrl: string;
  clients: number;
  durationMs: number;
  next: (client: number) => LoadRequest;
  /** A request that takes longer than this counts as a network error (a hang). */
  timeoutMs?: number;
  /** The server's process id: its CPU time during the run is measured (Linux). */
  serverPid?: number;
  /**
   * Keep-alive connections to reuse, from `loadAgent`: a run measured after another on
   * the same agent finds its connections open. Default: a fresh agent, closed after the run.
   */
  agent?: Agent;
}): Promise<LoadResult> {
  const url = new URL(options.baseUrl);
  const agent = options.agent ?? loadAgent(options.clients);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const cpuBefore = options.serverPid === undefined ? 0 : await cpuSeconds(options.serverPid);
  const started = performance.now();
  const deadline = started + options.durationMs;
  const timeoutMs = options.timeoutMs ?? 30_000;

  const send = (job: LoadRequest): Promise<void> =>
    new Promise((resolve) => {
      const body = job.body === undefined ? undefined : JSON.stringify(job.body);
      const begin = performance.now();
      const finish = (status: number, text: string) => {
        latencies.push(performance.now() - begin);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        job.onReply?.(status, text);
        resolve();
      };
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: job.method,
          path: job.path,
          agent,
          timeout: timeoutMs,
          headers: { ...job.headers, ...(body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString()));
          res.on("error", () => finish(0, ""));
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", () => finish(0, ""));
      req.end(body);
    });

  const client = async (index: number) => {
    while (performance.now() < deadline) await send(options.next(index));
  };
  await Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  if (options.agent === undefined) agent.destroy();

  const seconds = (performance.now() - started) / 1000;
  const serverCpuSeconds = options.serverPid === undefined ? undefined : (await cpuSeconds(options.serverPid)) - cpuBefore;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  let serverErrors = 0;
  for (const [status, count] of statuses) if (status >= 500 && status !== 503) serverErrors += count;
  return {
    requests: latencies.length,
    seconds,
    throughput: latencies.length / seconds,
    p50Ms: percentile(50),
    p99Ms: percentile(99),
    maxMs: latencies[latencies.length - 1] ?? 0,
    statuses,
    serverErrors,
    serverCpuSeconds,
  };
}

/** User plus system CPU time of process `pid`, in seconds, from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of stat(5), counted in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `12,345 requests in 15.0 s: 823/s, p50 12.1 ms, p99 80.3 ms (201: 2,000, 200: 10,345)`. */
export function describeLoad(result: LoadResult): string {
  const statuses = [...result.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status === 0 ? "network error" : status}: ${count}`);
  const cpu = result.serverCpuSeconds === undefined ? "" : `, ${(result.requests / result.serverCpuSeconds).toFixed(0)} per server CPU second`;
  return (
    `${result.requests} requests in ${result.seconds.toFixed(1)} s: ${result.throughput.toFixed(0)}/s${cpu}, ` +
    `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(0)} ms (${statuses.join(", ")})`
  );
}
