/**
 * The S3-compatible server of the tests: Versity's S3 gateway (versitygw) over a directory,
 * a real S3 server that checks SigV4 signatures, presigned URLs included (their signed
 * Content-Type and Content-Length too). Built from the Go module proxy with `go install
 * github.com/versity/versitygw/cmd/versitygw@<VERSITYGW_VERSION>` and cached outside the
 * repository (test/support/cache.ts) as `versitygw-<hash of the version>`, as OPA is: the
 * first build took 3.6 minutes of CPU on 2 cores, later runs reuse the binary; it starts in
 * about a quarter of a second. Its `posix` backend keeps each bucket as a directory, so a
 * bucket exists once its directory does.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oncePerProcess } from "./cache.js";
import { goInstalled } from "./go-install.js";
import { freePort } from "./ports.js";
import { type RunningProcess, startProcess, waitForHttp } from "./processes.js";

/** The versitygw release the tests run; bump it here, and the next run builds it. */
export const VERSITYGW_VERSION = "v1.8.0";

/** The path of the cached `versitygw` binary, built first if missing. */
export const ensureVersitygw = oncePerProcess(() => goInstalled("versitygw", "github.com/versity/versitygw/cmd/versitygw", VERSITYGW_VERSION, "the file tests"));

export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  bucket: string;
  /** The variables a generated app reads its storage and credentials from (runtime/files.py). */
  env: Record<string, string>;
  process: RunningProcess;
  stop(): Promise<void>;
}

/**
 * Start versitygw on 127.0.0.1 and a free port, over a fresh directory holding one empty bucket.
 * `corsOrigin`: the origin whose pages may `PUT` and `GET` through presigned URLs (a browser's
 * cross-origin requests; versitygw's default CORS rule, as a bucket's CORS rules allow one).
 */
export async function startS3(bucket = "files", options: { corsOrigin?: string } = {}): Promise<S3Server> {
  const binary = await ensureVersitygw();
  const root = await mkdtemp(join(tmpdir(), "codegen-s3-"));
  await mkdir(join(root, bucket));
  const port = await freePort();
  const access = "codegen-test";
  const secret = "codegen-test-secret";
  const cors = options.corsOrigin === undefined ? [] : ["--cors-allow-origin", options.corsOrigin];
  const proc = startProcess(binary, ["--port", `127.0.0.1:${port}`, ...cors, "posix", root], {
    env: { ...process.env, ROOT_ACCESS_KEY_ID: access, ROOT_SECRET_ACCESS_KEY: secret },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await proc.stop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    // Any answer means it serves (an unsigned request is refused with a 403).
    await waitForHttp(`${url}/`, proc);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    bucket,
    env: { S3_BUCKET: bucket, S3_ENDPOINT_URL: url, S3_REGION: "us-east-1", AWS_ACCESS_KEY_ID: access, AWS_SECRET_ACCESS_KEY: secret },
    process: proc,
    stop,
  };
}
