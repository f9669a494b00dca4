// Errors of the engine. `CLIError` subclasses are user mistakes the CLI prints as
// `<prefix>: <message>` without a stack trace; anything else is a bug and crashes loudly.
// `ValueError`, `LookupError` and `KeyError` mirror the Python names SPEC uses.

/** Base class for errors the CLI renders cleanly as `<prefix>: <message>`. */
export class CLIError extends Error {
  /** Label the CLI prints before the message. @default "Error" */
  readonly prefix: string = "Error";
  override name = "CLIError";
}

/** One problem found in a config file, at a config path such as `resources[2].fields[0].type`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** A config file cannot be loaded or is invalid. Lists every problem found, each with its config path. */
export class ConfigError extends CLIError {
  override readonly prefix = "Error loading config";
  override name = "ConfigError";
  readonly summary: string;
  readonly file: string | undefined;
  readonly issues: readonly ConfigIssue[];

  constructor(summary: string, options: { file?: string; issues?: readonly ConfigIssue[] } = {}) {
    super(ConfigError.format(summary, options.file, options.issues ?? []));
    this.summary = summary;
    this.file = options.file;
    this.issues = options.issues ?? [];
  }

  private static format(message: string, file: string | undefined, issues: readonly ConfigIssue[]): string {
    const head = file ? `${file}: ${message}` : message;
    const lines = issues.map((issue) => `  ${issue.path || "(root)"}: ${issue.message}`);
    return [head, ...lines].join("\n");
  }
}

/** Where a generation problem came from, as far as the engine can tell. */
export interface GenerationErrorOptions {
  /** The config file of the run. */
  file?: string;
  /** Config paths of the scope instances whose outputs are involved, e.g. `people[1]`. */
  sources?: readonly string[];
  /** Output paths (as generated, relative to the output directory) the problem is about. */
  outputPaths?: readonly string[];
}

/**
 * File generation fails because of bad config semantics (conflicting fragments, escaping
 * paths, ...) or a bad output directory. The message names the config file and the config
 * paths involved when they are known:
 * `conflict.json: greetings/ada.ts: fragments … disagree on context key "lines" (generated for people[0] and people[1])`.
 */
export class GenerationError extends CLIError {
  override name = "GenerationError";
  /** The message without the config file and sources. */
  readonly problem: string;
  readonly file: string | undefined;
  readonly sources: readonly string[];
  readonly outputPaths: readonly string[];

  constructor(problem: string, options: GenerationErrorOptions = {}) {
    const sources = [...new Set((options.sources ?? []).filter((source) => source !== ""))];
    super(GenerationError.format(problem, options.file, sources));
    this.problem = problem;
    this.file = options.file;
    this.sources = sources;
    this.outputPaths = options.outputPaths ?? [];
  }

  /** The same problem with the config file and, when it has none yet, the sources filled in. */
  withContext(context: { file?: string; sources?: readonly string[] }): GenerationError {
    return new GenerationError(this.problem, {
      file: this.file ?? context.file,
      sources: this.sources.length > 0 ? this.sources : context.sources,
      outputPaths: this.outputPaths,
    });
  }

  private static format(problem: string, file: string | undefined, sources: readonly string[]): string {
    const head = file ? `${file}: ${problem}` : problem;
    return sources.length === 0 ? head : `${head} (generated for ${listOf(sources)})`;
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listOf(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A value has the right type but is unacceptable (Python's `ValueError`). */
export class ValueError extends Error {
  override name = "ValueError";
}

/** A lookup found nothing (Python's `LookupError`). */
export class LookupError extends Error {
  override name = "LookupError";
}

/** A key is missing from a mapping (Python's `KeyError`). */
export class KeyError extends LookupError {
  override name = "KeyError";
}

/**
 * `fn`'s result. A GenerationError it throws about output paths is the config's doing: it gains
 * the config file and the config paths that produced those outputs (`originsOf`).
 */
export async function blamingConfig<T>(configFile: string, originsOf: (outputPath: string) => readonly string[], fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof GenerationError && error.outputPaths.length > 0) {
      throw error.withContext({ file: configFile, sources: error.outputPaths.flatMap(originsOf) });
    }
    throw error;
  }
}
