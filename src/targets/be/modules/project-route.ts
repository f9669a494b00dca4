// A route of a project-wide module (discovery's `/_filters` and `/_values`, the auth
// package's token, logout and session endpoints). The operation that writes the module
// declares role `ENDPOINT` at project scope and yields one per route, so the project's rate
// limit attaches to it as `rate_limit` attaches to an entry's handler (`limitRate`); the
// module reads what was attached when it renders.

import { type BuildStore, Handle, ImportCollector } from "../../../codegen/index.js";
import type { ErrorStatus, HttpMethod, RouteLimiter } from "./handler.js";

export class ProjectRoute extends Handle {
  /** The handler's function name, e.g. `issue_access_token`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** The path as mounted, e.g. `/auth/token`. */
  readonly path: string;
  /** The module's name among rate-limit counters, e.g. `auth` (the counter is `auth.issue_access_token`). */
  readonly group: string;
  /** Whether a limit keyed by the user can count the route's requests (it takes the user). */
  readonly userKeyed: boolean;
  /**
   * The module of the project's limiters when the route's module may not import it at import
   * time (it imports the route's package: the auth package's routes); the route then depends
   * on a function of its own module that imports its limiter when first called.
   */
  readonly limitersImportedLate: string | undefined;
  /** What the route's decorator imports: its module's collector, or one the module merges when it renders. */
  readonly imports: ImportCollector;
  /** Whether the route is written in the build of `store` (discovery's only when some list filters). */
  readonly presentIn: (store: BuildStore) => boolean;
  readonly #errors: Set<ErrorStatus>;
  readonly #responses: string;
  #limiter: RouteLimiter | undefined;

  constructor(options: {
    name: string;
    method: HttpMethod;
    path: string;
    group: string;
    userKeyed: boolean;
    limitersImportedLate?: string;
    /** The runtime `responses` module, where `error_responses` lives. */
    responses: string;
    imports?: ImportCollector;
    /** The error statuses the route's own code answers. */
    errors?: readonly ErrorStatus[];
    presentIn?: (store: BuildStore) => boolean;
  }) {
    super();
    this.name = options.name;
    this.method = options.method;
    this.path = options.path;
    this.group = options.group;
    this.userKeyed = options.userKeyed;
    this.limitersImportedLate = options.limitersImportedLate;
    this.imports = options.imports ?? new ImportCollector();
    this.#responses = options.responses;
    this.#errors = new Set(options.errors ?? []);
    this.presentIn = options.presentIn ?? (() => true);
  }

  /**
   * Augmentation point of the project's rate limit: the route runs `limiter` first, and
   * documents its 429, and the 503 of its counters' database.
   */
  limitRate(limiter: RouteLimiter): void {
    if (this.#limiter !== undefined) throw new Error(`bug: ${this.name} already has a rate limit`);
    this.#limiter = limiter;
    this.#errors.add(429).add(503);
    this.imports.addFrom("fastapi", "Depends").addFrom(this.#responses, "error_responses");
    if (this.limitersImportedLate === undefined) this.imports.update(limiter.imports);
    else this.imports.addFrom("fastapi", "Request", "Response");
  }

  get limiter(): RouteLimiter | undefined {
    return this.#limiter;
  }

  /** The function importing the limiter when first called (`limitersImportedLate`), once limited: its name, the limiter's and their module. */
  get lateLimiter(): { wrapper: string; limiter: string; module: string } | undefined {
    if (this.#limiter === undefined || this.limitersImportedLate === undefined) return undefined;
    return { wrapper: `_${this.#limiter.name}`, limiter: this.#limiter.name, module: this.limitersImportedLate };
  }

  /** `dependencies=[Depends(limit_…)]`, or empty without a limit. */
  get dependencies(): string {
    if (this.#limiter === undefined) return "";
    return `dependencies=[Depends(${this.lateLimiter?.wrapper ?? this.#limiter.name})]`;
  }

  /** The statuses for `error_responses(…)`, sorted and comma-separated (empty for none). */
  get errors(): string {
    return [...this.#errors].sort((a, b) => a - b).join(", ");
  }
}
