/**
 * A small JSON-over-HTTP client for driving generated backends in tests.
 *
 * Every reply carries the parsed body and the `X-SQL-Statements` count that the
 * test launcher adds (see test/e2e/support/serve.py); `expectStatus` asserts a reply's
 * status and shows its body when the status is wrong.
 */
import assert from "node:assert/strict";

/** How long a request may wait for its whole answer before the test fails. */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface Reply {
  status: number;
  headers: Headers;
  /**
   * Parsed JSON body (`undefined` when empty), or the text of a body that is not JSON (a
   * server's plain-text error), so the assertion that fails on it shows it. Typed `any`
   * because tests check it field by field.
   */
  body: any;
  /** Statements the request sent to the database, or -1 without the header. */
  statements: number;
}

export class JsonClient {
  /** @param headers sent with every request (e.g. `Authorization`). */
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
  ) {}

  /** The same client, sending `headers` as well on every request. */
  with(headers: Record<string, string>): JsonClient {
    return new JsonClient(this.baseUrl, { ...this.headers, ...headers });
  }

  get(path: string): Promise<Reply> {
    return this.send("GET", path);
  }

  post(path: string, body?: unknown): Promise<Reply> {
    return this.send("POST", path, body);
  }

  patch(path: string, body: unknown): Promise<Reply> {
    return this.send("PATCH", path, body);
  }

  delete(path: string): Promise<Reply> {
    return this.send("DELETE", path);
  }

  async send(method: string, path: string, body?: unknown): Promise<Reply> {
    const url = path.startsWith("http") ? path : `${this.baseUrl}${path}`;
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers: body === undefined ? this.headers : { ...this.headers, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      const why = signal.aborted ? `no answer within ${REQUEST_TIMEOUT_MS} ms` : String(error);
      throw new Error(`${method} ${url}: ${why}`, { cause: error });
    }
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : parsedOrText(text),
      statements: Number(response.headers.get("x-sql-statements") ?? -1),
    };
  }
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Asserts `reply.status`, showing the body when it differs; `what` names the request in the message. */
export function expectStatus(reply: { status: number; body?: unknown }, status: number, what?: string): void {
  const prefix = what === undefined ? "" : `${what}: `;
  assert.equal(reply.status, status, `${prefix}expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
}
