/**
 * `npm run bench:lists`: how a generated list's latency grows with the page's depth.
 *
 * Generates bench/lists (one table of 100,000 rows served by a keyset list and an offset
 * list, 20 rows a page), serves it with uvicorn against a real PostgreSQL (embedded) with
 * the indexes the generated `indexes.py` recommends, then times page 1 and page 1,000 of
 * each list, by key and by `order_by=-rating` (ten ratings: long runs of ties). The
 * cursor of page 1,000 is reached by walking the 999 pages before it. Page 1 and page
 * 1,000 are requested alternately, `--runs` times each (default 100) after 5 warm-ups, so
 * both see the same machine load; the table shows the median (p50) milliseconds,
 * measured around each HTTP request with a monotonic clock.
 */
import { rm } from "node:fs/promises";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { prepareProject, serveBlog } from "../test/e2e/support/blog.js";
import { startPostgres } from "../test/support/postgres.js";
import { ensureVenv } from "../test/support/venv.js";
import { median } from "../test/support/stats.js";

const PROJECT = resolve(fileURLToPath(import.meta.url), "../lists");
const PAGE = 20;
const DEEP = 1000;

async function get(url: string): Promise<{ ms: number; body: any }> {
  const start = process.hrtime.bigint();
  const response = await fetch(url);
  const body = await response.json();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

/** p50 of `first` and of `deep`, requested alternately so both see the same machine load. */
async function p50s(first: string, deep: string, runs: number): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) await Promise.all([get(first), get(deep)]);
  const [a, b]: number[][] = [[], []];
  for (let i = 0; i < runs; i++) {
    a.push((await get(first)).ms);
    b.push((await get(deep)).ms);
  }
  return [median(a), median(b)];
}

/** The URL of keyset page `DEEP` of `base`, reached by following cursors. */
async function deepKeysetUrl(base: string, query: string): Promise<string> {
  let cursor: string | null = null;
  for (let page = 1; page < DEEP; page++) {
    const url: string = `${base}?${query}limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    cursor = (await get(url)).body.next_cursor;
    if (cursor === null) throw new Error(`${base} ended before page ${DEEP}`);
  }
  return `${base}?${query}limit=${PAGE}&cursor=${encodeURIComponent(cursor!)}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "100" } } });
  const runs = Number(values.runs);
  const venv = await ensureVenv();
  const dir = await prepareProject(PROJECT, "benchlist.jsonnet", "benchlist");
  const postgres = await startPostgres();
  try {
    process.stderr.write("seeding 100,000 rows and creating the recommended indexes…\n");
    const server = await serveBlog(dir, venv, postgres.asyncUrl, {}, { pkg: "benchlist" });
    try {
      const rows: string[] = [];
      for (const [label, query] of [
        ["by key", ""],
        ["order_by=-rating", "order_by=-rating&"],
      ]) {
        const [keysetFirst, keysetDeep] = await p50s(`${server.baseUrl}/items?${query}limit=${PAGE}`, await deepKeysetUrl(`${server.baseUrl}/items`, query), runs);
        const offset = `${server.baseUrl}/items-offset?${query}limit=${PAGE}&offset=`;
        const [offsetFirst, offsetDeep] = await p50s(`${offset}0`, `${offset}${(DEEP - 1) * PAGE}`, runs);
        const ratio = (deep: number, first: number) => `${(deep / first).toFixed(2)}×`;
        rows.push(
          `| keyset | ${label} | ${keysetFirst.toFixed(2)} | ${keysetDeep.toFixed(2)} | ${ratio(keysetDeep, keysetFirst)} |`,
          `| offset | ${label} | ${offsetFirst.toFixed(2)} | ${offsetDeep.toFixed(2)} | ${ratio(offsetDeep, offsetFirst)} |`,
        );
      }
      process.stdout.write(
        [
          `| pagination | order | page 1 p50 ms | page ${DEEP.toLocaleString("en")} p50 ms | page ${DEEP.toLocaleString("en")} / page 1 |`,
          "|---|---|---:|---:|---:|",
          ...rows,
          "",
          `100,000 rows, ${PAGE} a page, p50 of ${runs} requests each; node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}).`,
          "",
        ].join("\n"),
      );
    } finally {
      await server.process.stop();
    }
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
