// Phase timings of one run, on the monotonic clock: how long loading the config, validating
// it, building, rendering and writing took. `codegen generate --timings` prints them; the
// benchmark reads their absolute times to attribute CPU-profile samples to phases.

/** The phases of a run, in order. */
export const PHASES = ["load config", "validate", "build", "render", "format", "write"] as const;

/** One phase of a run. `write` is planning against the disk plus writing (or only planning, for `--check`). */
export type Phase = (typeof PHASES)[number];

/** One timed stretch of a phase. Times are µs on the clock of `process.hrtime` (the one V8's CPU profiles use). */
export interface PhaseSpan {
  phase: Phase;
  startUs: number;
  endUs: number;
}

/**
 * Records how long each phase of a run takes; a phase timed twice adds up.
 * @example const timer = new PhaseTimer(); await timer.time("load config", () => load());
 */
export class PhaseTimer {
  readonly spans: PhaseSpan[] = [];
  /** A word on how a phase ran, by phase (which formatter ran `format`). */
  readonly notes = new Map<Phase, string>();

  /** Runs `fn` as (part of) `phase`, recording its duration even when it throws. */
  async time<T>(phase: Phase, fn: () => Promise<T> | T): Promise<T> {
    const startUs = nowUs();
    try {
      return await fn();
    } finally {
      this.spans.push({ phase, startUs, endUs: nowUs() });
    }
  }

  /** Milliseconds spent in each phase, in phase order; phases never timed are absent. */
  totals(): Map<Phase, number> {
    const totals = new Map<Phase, number>();
    for (const phase of PHASES) {
      const spans = this.spans.filter((span) => span.phase === phase);
      if (spans.length > 0) totals.set(phase, spans.reduce((sum, span) => sum + (span.endUs - span.startUs) / 1000, 0));
    }
    return totals;
  }
}

/** Now, in µs of the monotonic clock. */
export function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** What {@link timed} reads of a run's options. */
export interface PhaseOptions {
  timer?: PhaseTimer;
  signal?: AbortSignal;
  /** Called as each phase starts (the CLI collects garbage before `render` and `format`, cli-v8-flags.ts). */
  beforePhase?: (phase: Phase) => void;
}

/** Runs one phase of a run, timed when the run has a timer; an aborted run stops before the phase starts. */
export function timed<T>(options: PhaseOptions, phase: Phase, fn: () => Promise<T> | T): Promise<T> {
  options.signal?.throwIfAborted();
  options.beforePhase?.(phase);
  return options.timer ? options.timer.time(phase, fn) : Promise.resolve().then(fn);
}
