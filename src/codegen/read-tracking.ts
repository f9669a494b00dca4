// Which parts of the config a piece of work read, for the incremental rebuilds of watch mode
// (incremental.ts). The config a watched build sees is wrapped in proxies that note every
// property read, key listing and `in` test into the current frame: the work being tracked (a
// unit of the engine, the render of one output, a cached computation). Outside a frame, reads
// are not noted. The proxies never let a build write to the config: a write would change what
// the next run compares against.

/** The key noted when the keys of an object are listed (`Object.keys`, spread, `for … in`). */
export const ANY_KEY: unique symbol = Symbol("any key");

/** A store query made inside a frame, with its answer; checked again before the frame's work is reused. */
export interface NotedQuery {
  /** Asks the query again of another store (the next run's) and says whether the answer is the same. */
  sameIn(store: unknown): boolean;
  /** The answer cannot change while a build runs (it asks about instances, all registered first): one check per run does. */
  readonly settled?: boolean;
}

/** What one piece of tracked work read: config properties, store queries, and cached work it reused. */
export class Frame {
  /** Config objects (unproxied) and the keys read of each. */
  readonly reads = new Map<object, Set<PropertyKey>>();
  /** Frames of cached computations whose answers this work used (a `WeakCache` hit). */
  readonly includes = new Set<Frame>();
  readonly queries: NotedQuery[] = [];
  /** Outputs this frame added to the store, so its own queries can tell them from others'. */
  readonly added: Set<unknown>;
  /**
   * The id of the engine unit whose work this is (a build of the unit, a render of one of its
   * outputs), if it is a subtree: only that unit adds outputs below it, so queries there ask
   * about the work itself and are not noted.
   */
  readonly home: string | undefined;
  /** The tracked run that last judged the frame (incremental.ts), and its verdict: dirty or not. */
  judgedIn = -1;
  dirty = false;

  /**
   * @param options.added the outputs set of the frame this one computes for (a cached computation's). @default a new set
   * @param options.home @default none: every query is noted
   */
  constructor(options: { added?: Set<unknown>; home?: string } = {}) {
    this.added = options.added ?? new Set();
    this.home = options.home;
  }

  /** Whether a query of the outputs at or below `ancestorId` asks about this frame's own unit. */
  isHome(ancestorId: string): boolean {
    const { home } = this;
    return home !== undefined && (ancestorId === home || (ancestorId.startsWith(home) && ancestorId.charAt(home.length) === "."));
  }

  /** Whether the work read nothing, asked nothing and used no cached answer. */
  get isEmpty(): boolean {
    return this.reads.size === 0 && this.queries.length === 0 && this.includes.size === 0;
  }

  read(target: object, key: PropertyKey): void {
    const keys = this.reads.get(target);
    if (keys) keys.add(key);
    else this.reads.set(target, new Set([key]));
  }
}

let current: Frame | undefined;
let runs = 0;

/** Counts the tracked runs of this process: cached answers last one run (weak-cache.ts). */
export function trackedRun(): number {
  return runs;
}

/** A tracked run starts: answers cached before it are stale (the config they read may have changed since). */
export function startTrackedRun(): void {
  runs++;
}

let judge: ((frame: Frame) => boolean) | undefined;

/**
 * Whether work an earlier run remembered with `frame` may be reused now: only while a
 * watch's render runs ({@link judgingReuse}), whose memory knows what changed since.
 */
export function reusable(frame: Frame): boolean {
  return judge?.(frame) ?? false;
}

/** Runs `work` with `isReusable` answering {@link reusable}, then restores the previous judge. */
export function judgingReuse<T>(isReusable: (frame: Frame) => boolean, work: () => T): T {
  const previous = judge;
  judge = isReusable;
  try {
    return work();
  } finally {
    judge = previous;
  }
}

/** The frame reads are noted into now, if any. */
export function currentFrame(): Frame | undefined {
  return current;
}

/** Runs `work` with `frame` as the current frame (undefined: reads go unnoted), then restores the previous one. */
export function inFrame<T>(frame: Frame | undefined, work: () => T): T {
  const previous = current;
  current = frame;
  try {
    return work();
  } finally {
    current = previous;
  }
}

/**
 * An array, or an object of no class (`{}` or `Object.create(null)`): what JSON and zod make,
 * and what is wrapped here and patched in place (live-config.ts). A class instance (a Map, a
 * Date) keeps internal slots a proxy cannot reach.
 */
export function isPlainContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const proxyOf = new WeakMap<object, object>();
const targetOf = new WeakMap<object, object>();

function readOnly(): never {
  throw new TypeError("the config is read-only while a build runs: copy what you change");
}

const noting: ProxyHandler<object> = {
  get(target, key) {
    current?.read(target, key);
    return tracked(Reflect.get(target, key));
  },
  has(target, key) {
    current?.read(target, key);
    return Reflect.has(target, key);
  },
  ownKeys(target) {
    current?.read(target, ANY_KEY);
    return Reflect.ownKeys(target);
  },
  getOwnPropertyDescriptor(target, key) {
    current?.read(target, key);
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    // A non-configurable property must report its own value (a proxy invariant): array lengths, primitives.
    if (descriptor && "value" in descriptor && descriptor.configurable) descriptor.value = tracked(descriptor.value);
    return descriptor;
  },
  set: readOnly,
  defineProperty: readOnly,
  deleteProperty: readOnly,
  setPrototypeOf: readOnly,
};

/** `value` wrapped so reads are noted (the same proxy every time for the same object); primitives as they are. */
export function tracked<T>(value: T): T {
  if (!isPlainContainer(value) || targetOf.has(value)) return value;
  let proxy = proxyOf.get(value);
  if (!proxy) {
    proxy = new Proxy(value, noting);
    proxyOf.set(value, proxy);
    targetOf.set(proxy, value);
  }
  return proxy as T;
}

/** The object behind a tracking proxy (for comparing and patching); anything else as it is. */
export function untracked<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  return (targetOf.get(value) as T | undefined) ?? value;
}
