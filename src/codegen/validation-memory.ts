// A watch's validation, redoing only the items of scoped lists (apps, resources, operations…)
// whose text changed. zod parses an item from that item's input alone, so an item written
// exactly as in the last good run parses to what it parsed to then; the watch's live config
// (live-config.ts) holds that result, patched in place ever since, and the parse gives it back
// without running. Refinements and transforms of the lists and of everything above them run
// as always, over every item.
//
// This reaches into zod's internals (`_zod.run`, which an array calls for each item): a zod
// upgrade that changes them fails test/codegen/incremental.test.ts, whose warm builds must
// equal fresh ones.

import type { z } from "zod";

import { validateConfig } from "./config.js";
import { discoverScopes } from "./scopes.js";
import type { Target } from "./target.js";

type Run = z.core.$ZodType["_zod"]["run"];

let active: ValidationMemory | undefined;
const wrapped = new WeakSet<object>();
// Target schemas whose item schemas are wrapped.
const prepared = new WeakSet<object>();

/** Makes `schema`'s parse of one item ask the active memory first; once per schema. */
function remembering(schema: z.core.$ZodType): void {
  if (wrapped.has(schema)) return;
  wrapped.add(schema);
  const internals = schema._zod;
  const run: Run = internals.run.bind(internals);
  internals.run = ((payload, ctx) => {
    const memory = active;
    if (memory === undefined) return run(payload, ctx);
    const input: unknown = payload.value;
    const place = memory.enter(schema);
    try {
      const known = memory.reuse(place, input);
      if (known !== undefined) {
        payload.value = known;
        return payload;
      }
      const result = run(payload, ctx);
      if (!(result instanceof Promise) && result.issues.length === 0 && typeof result.value === "object" && result.value !== null) {
        memory.parsed(place, input, result.value);
      }
      return result;
    } finally {
      memory.leave();
    }
  }) as Run;
}

/**
 * Where an item sits in the config: the places of the items around it and its index among
 * its schema's items there (`/0:2/1:5`: the sixth resource of the third app). zod parses a
 * list's items once each, in order, so the count is the index.
 */
type Place = string;

/** One watch's memory of its last good validation, for one target. */
export class ValidationMemory {
  // Per place: the item's input last time, and the object of the live config holding its parse.
  #known = new Map<Place, { input: unknown; live: object }>();
  // This run: the items being parsed (innermost last) and the count of each schema's items
  // within each, what each parsed item became (reused or not), the reused objects and places.
  #schemas = new Map<object, number>();
  #open: { place: Place; counts: Map<object, number> }[] = [];
  #parsed: [Place, unknown, object][] = [];
  #reused = new Set<object>();
  #reusedPlaces = new Set<Place>();

  /**
   * `validateConfig`, reusing the parse of every scoped item whose input is the same as the
   * input at its place in the last good run (an item inserted early in a list makes the later
   * ones miss, which costs time, never correctness).
   */
  validate<C>(raw: unknown, target: Target<C>, file: string): C {
    if (!prepared.has(target.schema)) {
      for (const scope of discoverScopes(target.schema)) if (scope.itemSchema) remembering(scope.itemSchema);
      prepared.add(target.schema);
    }
    this.#open = [{ place: "", counts: new Map() }];
    this.#parsed = [];
    this.#reused = new Set();
    this.#reusedPlaces = new Set();
    active = this;
    try {
      return validateConfig(raw, target, file);
    } finally {
      active = undefined;
    }
  }

  /** The objects this run's validation reused from the live config, for its patch (`PatchOptions.reused`). */
  get reused(): ReadonlySet<object> {
    return this.#reused;
  }

  /** What the patch of this run's config into the live one is to say where this run's parses landed (`PatchOptions.landed`). */
  landing(): { landed: (parsed: object, live: object) => void; settle: () => void } {
    const parses = new Set(this.#parsed.map(([, , parsed]) => parsed));
    const liveOf = new Map<object, object>();
    return {
      landed: (parsed, live) => {
        if (parses.has(parsed)) liveOf.set(parsed, live);
      },
      // From now on each place stands for the live object holding its parse; a parse that did
      // not land in the live config (a transform above it copied it) is forgotten.
      // Items inside a reused one were not parsed, and are as they were: they stay known.
      settle: () => {
        const known = new Map<Place, { input: unknown; live: object }>();
        for (const [place, entry] of this.#known) if (this.#insideReused(place)) known.set(place, entry);
        for (const [place, input, parsed] of this.#parsed) {
          const live = liveOf.get(parsed);
          if (live !== undefined) known.set(place, { input, live });
        }
        this.#known = known;
        this.#parsed = [];
      },
    };
  }

  /** An item of `schema` starts parsing: its place. */
  enter(schema: object): Place {
    let id = this.#schemas.get(schema);
    if (id === undefined) this.#schemas.set(schema, (id = this.#schemas.size));
    const around = this.#open[this.#open.length - 1]!;
    const index = around.counts.get(schema) ?? 0;
    around.counts.set(schema, index + 1);
    const place = `${around.place}/${id}:${index}`;
    this.#open.push({ place, counts: new Map() });
    return place;
  }

  /** The item last entered is parsed. */
  leave(): void {
    this.#open.pop();
  }

  reuse(place: Place, input: unknown): object | undefined {
    const known = this.#known.get(place);
    if (known === undefined || !sameJson(known.input, input)) return undefined;
    this.#reused.add(known.live);
    this.#reusedPlaces.add(place);
    this.#parsed.push([place, input, known.live]);
    return known.live;
  }

  #insideReused(place: Place): boolean {
    for (let end = place.lastIndexOf("/"); end > 0; end = place.lastIndexOf("/", end - 1)) {
      if (this.#reusedPlaces.has(place.slice(0, end))) return true;
    }
    return false;
  }

  parsed(place: Place, input: unknown, value: object): void {
    this.#parsed.push([place, input, value]);
  }
}

/** Deep equality of two JSON values (as `JSON.parse` makes them), key order included. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
