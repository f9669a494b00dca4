/**
 * HTTP requests sent from a chosen local address (`127.0.0.2`, …): a client the server
 * sees as another machine, for limits keyed by the client address. Linux routes all of
 * 127.0.0.0/8 to the loopback interface, so any of its addresses can be a source.
 */
import { request } from "node:http";

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: any;
}

/** `method url` with `headers` and `body`, from `localAddress`; rejects after `timeoutMs`. */
export function requestFrom(
  localAddress: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, localAddress, timeout: options.timeoutMs ?? 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = text === "" ? undefined : JSON.parse(text);
        } catch {
          // Not JSON: keep the text.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${url} from ${localAddress}: no answer in ${options.timeoutMs ?? 60_000} ms`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** The OAuth2 password-flow form `username`/`password` posted to `tokenUrl` from `localAddress`. */
export function postLoginFrom(localAddress: string, tokenUrl: string, username: string, password: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return requestFrom(localAddress, tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ username, password }).toString(),
  });
}
