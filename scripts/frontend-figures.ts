/**
 * `npm run frontend:figures`: what a reader of the blog's generated front end waits for, measured
 * on the stack the browser test runs (the front end built for production and served by the
 * backend, on embedded PostgreSQL with seeded articles):
 * - the production bundle: every file of dist/assets, raw and gzipped (gzip's default level);
 * - the first row: from the start of the navigation to the first row of /articles in the
 *   page, on a cold load (the browser's cache off), read in the page itself (performance.now()
 *   when a row is first seen), median of RUNS loads; on this machine as it is, and under a
 *   phone profile: Chromium's CPU slowed 4× (CDP Emulation.setCPUThrottlingRate) and the
 *   network at 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up
 *   (Network.emulateNetworkConditions), at 390×844.
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { launchChromium } from "../test/support/chromium.js";
import { withServedBlogFrontend } from "../test/e2e/support/frontend.js";

const RUNS = 5;
const PHONE = { cpu: 4, latencyMs: 150, downBitsPerSecond: 1.6e6, upBitsPerSecond: 750e3 };

await withServedBlogFrontend(async (frontend, base) => {
  const assets = join(frontend.frontendDir, "dist", "assets");
  let raw = 0;
  let gzipped = 0;
  for (const name of await readdir(assets)) {
    const bytes = await readFile(join(assets, name));
    raw += bytes.length;
    gzipped += gzipSync(bytes).length;
    console.log(`asset ${name}: ${kB(bytes.length)} raw, ${kB(gzipSync(bytes).length)} gzipped`);
  }
  console.log(`bundle: ${kB(raw)} raw, ${kB(gzipped)} gzipped`);

  for (const profile of ["local", "phone"] as const) {
    const viewport = profile === "phone" ? { width: 390, height: 844 } : { width: 1280, height: 800 };
    const browser = await launchChromium({ viewport });
    try {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const page = await browser.context.newPage();
        const cdp = await browser.context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
        if (profile === "phone") {
          await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpu });
          await cdp.send("Network.emulateNetworkConditions", {
            offline: false,
            latency: PHONE.latencyMs,
            downloadThroughput: PHONE.downBitsPerSecond / 8,
            uploadThroughput: PHONE.upBitsPerSecond / 8,
          });
        }
        await page.goto(`${base}/articles`, { waitUntil: "commit" });
        const firstRow = await page.waitForFunction(
          "document.querySelector('table tbody tr td') === null ? false : performance.now()",
          undefined,
          { polling: "raf", timeout: 60_000 },
        );
        times.push(Number(await firstRow.jsonValue()));
        await page.close();
      }
      times.sort((a, b) => a - b);
      console.log(`first row, ${profile}: median ${Math.round(times[Math.floor(RUNS / 2)]!)} ms over ${RUNS} cold loads (${times.map(Math.round).join(", ")} ms)`);
    } finally {
      await browser.close();
    }
  }
});

function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
