/**
 * Reads a V8 CPU profile (`node --cpu-prof`) of one `codegen generate --timings json` run and
 * says where each phase spent its time: every sample is attributed to the phase whose span
 * holds its timestamp (profiles and `--timings json` share the monotonic clock), then the
 * self time of each function is summed per phase.
 */
import { readFile } from "node:fs/promises";

/** One phase span as `--timings json` prints it (µs on the monotonic clock). */
export interface Span {
  phase: string;
  startUs: number;
  endUs: number;
}

/** The `codegen-timings` line of a run's stderr. */
export interface RunTimings {
  startupMs: number;
  spans: Span[];
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A function's self time within one phase. */
export interface HotItem {
  name: string;
  ms: number;
}

/** Parses the `codegen-timings {…}` line out of a run's stderr. */
export function parseTimings(stderr: string): RunTimings {
  const line = stderr.split("\n").find((candidate) => candidate.startsWith("codegen-timings "));
  if (!line) throw new Error(`no codegen-timings line in the run's stderr:\n${stderr}`);
  return JSON.parse(line.slice("codegen-timings ".length)) as RunTimings;
}

/** Milliseconds per phase (a phase timed twice adds up). */
export function phaseTotals(timings: RunTimings): Map<string, number> {
  const totals = new Map<string, number>();
  for (const span of timings.spans) totals.set(span.phase, (totals.get(span.phase) ?? 0) + (span.endUs - span.startUs) / 1000);
  return totals;
}

/** The `top` functions by self time in each phase of the profiled run; samples before the first phase count as `start-up`. */
export async function hotItemsByPhase(profileFile: string, timings: RunTimings, top = 5): Promise<Map<string, HotItem[]>> {
  const profile = JSON.parse(await readFile(profileFile, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const spans = [...timings.spans].sort((a, b) => a.startUs - b.startUs);
  const byPhase = new Map<string, Map<string, number>>();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    const delta = profile.timeDeltas[index + 1] ?? 0;
    const span = spans.find((candidate) => candidate.startUs <= time && time < candidate.endUs);
    const phase = span?.phase ?? (spans.length > 0 && time < spans[0]!.startUs ? "start-up" : "after");
    const name = describe(nodes.get(id)!);
    const items = byPhase.get(phase) ?? new Map<string, number>();
    items.set(name, (items.get(name) ?? 0) + delta / 1000);
    byPhase.set(phase, items);
  });
  const result = new Map<string, HotItem[]>();
  for (const [phase, items] of byPhase) {
    const sorted = [...items].sort((a, b) => b[1] - a[1]).slice(0, top);
    result.set(phase, sorted.map(([name, ms]) => ({ name, ms })));
  }
  return result;
}

/** `fn (dist/codegen/writer.js:12)`, shortened to the package-relative path. */
function describe(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || "(anonymous)";
  if (!url) return name;
  const short = url.replace(/^file:\/\//, "").replace(/^.*?\/(node_modules|dist|src)\//, "$1/");
  return `${name} (${short}:${lineNumber + 1})`;
}

/** A V8 CPU profile as the inspector's `Profiler.stop` returns it (the in-process benches). */
export interface InspectorProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Prints the `count` functions with the most self time over `profiles`, in ms per pass (of `passes`), one per line. */
export function printTopSelfTime(profiles: readonly InspectorProfile[], count: number, passes: number): void {
  const selfTime = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    (profile.samples ?? []).forEach((id, index) => {
      const name = describe(nodes.get(id)!);
      const delta = profile.timeDeltas?.[index] ?? 0;
      selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
      total += delta;
    });
  }
  for (const [name, micros] of [...selfTime].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${(micros / 1000 / passes).toFixed(0).padStart(6)} ms/pass ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
}
