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

  /** The same problems attributed to `file` (the engine finds them; the loader knows the file). */
  withFile(file: string): ConfigError {
    return this.file ? this : new ConfigError(this.summary, { file, issues: this.issues });
  }

  private static format(message: string, file: string | undefined, issues: readonly ConfigIssue[]): string {
    const head = file ? `${file}: ${message}` : message;
    const lines = issues.map((issue) => `  ${issue.path || "(root)"}: ${issue.message}`);
    return [head, ...lines].join("\n");
  }
}

/** File generation fails because of bad config semantics (conflicting fragments, escaping paths, ...). */
export class GenerationError extends CLIError {
  override name = "GenerationError";
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
