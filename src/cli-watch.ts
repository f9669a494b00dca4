// `codegen generate --watch` in the CLI: runs the watch until SIGINT or SIGTERM, printing a
// summary line per run (and its phases with `--timings`), and a failing run's error.

import type { GenerateOptions } from "./codegen/generate.js";
import { files, reportError, reportKept, reportRecovery, reportTimings, reportWarnings } from "./cli-report.js";

/**
 * `--watch`: regenerate on every change until SIGINT or SIGTERM; a failing run is reported and
 * the watch goes on. The first signal stops the run in progress at its next phase boundary (a
 * write completes and releases the lock) and exits 0; a second one exits at once with 130.
 */
export async function watchForever(options: GenerateOptions, timings: true | string | undefined): Promise<number> {
  const stop = new AbortController();
  const onSignal = (): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
  const [{ watchGeneration }, { countActions }] = await Promise.all([import("./codegen/watch.js"), import("./codegen/generate.js")]);
  let first = true;
  const watcher = await watchGeneration(
    { ...options, signal: stop.signal },
    {
      onRun(result, run) {
        reportWarnings(result, options.configFile);
        reportRecovery(result.recovered, result.outDir);
        reportKept(result);
        const counts = countActions(result.plan);
        process.stdout.write(
          `codegen: ${files(counts.create + counts.overwrite)} written, ${counts.unchanged} unchanged, ${counts.delete} deleted, ` +
            `in ${result.outDir} (${run.ms.toFixed(0)} ms); watching for changes\n`,
        );
        if (timings !== undefined) reportTimings(run.timer, timings === "json", first ? undefined : run.ms);
        first = false;
      },
      async onError(error) {
        await reportError(error, process.argv.includes("--verbose"));
        process.stderr.write("codegen: the output was left as it was; watching for changes\n");
        first = false;
      },
    },
  );
  if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener("abort", resolve, { once: true }));
  watcher.close();
  await watcher.idle();
  process.stderr.write("codegen: stopped watching\n");
  return 0;
}
