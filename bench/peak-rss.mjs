// Preloaded (`node --import ./bench/peak-rss.mjs dist/cli.js …`) when /usr/bin/time is
// missing: on exit, writes the process's peak resident set size in KiB to $BENCH_RSS_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => writeFileSync(file, `${process.resourceUsage().maxRSS}\n`));
}
