// What a watch remembers of its last successful build so that the next one redoes only the
// work whose inputs changed. The config lives on from run to run (live-config.ts): each run
// patches the new config into it and learns which properties changed. Every piece of work a
// build tracked (an engine unit, the render of one output) left a frame of what it read
// (read-tracking.ts); the frames that read a changed property, or used a cached computation
// that did, are dirty, and only their work runs again. Everything else is replayed: the same
// output objects into the new store, the same fragments into the assembler.
//
// Memory is committed only when a run succeeds: a failed run leaves the last good build's
// frames in place, and the changes it saw stay pending for the next run.

import type { Instance, KeptSubtrees } from "./engine.js";
import type { Fragment } from "./fragments.js";
import type { GeneratedFile } from "./writer.js";
import { type ChangedProperty, type PatchOptions, patchInPlace } from "./live-config.js";
import { ANY_KEY, type Frame, type NotedQuery, startTrackedRun, tracked, trackedRun } from "./read-tracking.js";
import { sameItems } from "./store.js";

/** A unit of the engine's last good build: what it planned, read, and added to the store. */
export interface UnitMemory {
  /**
   * The unit's instance, then those it plans: id, config path and config object (live, so
   * compared by identity) of each. A different list means different work.
   */
  instances: readonly InstanceKey[];
  /** The config objects of its instance's ancestors: one replaced, not patched, holds reads no longer tracked. */
  above: readonly unknown[];
  /** Each instance's planned runs (validated options), in the order of its instances. */
  runs: unknown[];
  /** What planning and validating the unit read. */
  planned: Frame;
  /** What building it read and asked of the store. */
  built: Frame;
  /** Every `store.add` of the unit that added something, in order. */
  adds: [id: string, opName: string, items: unknown[]][];
}

/** Where an instance stood, and its config object. */
export type InstanceKey = readonly [id: string, configPath: string, value: unknown];

/** A unit's instance subtree as collected (its root's id and path say where it stood), and the config objects that shaped it. */
interface KeptSubtree {
  root: Instance;
  shapedBy: readonly object[];
}

/** The last good render of one output. */
export interface RenderMemory {
  env: object;
  frame: Frame;
  fragments: Fragment[];
}

/** The last good assembly of one file: from which fragments, with what template environment and settings. */
export interface FileMemory {
  env: object;
  /** The assembler's other inputs (language, import options), as JSON. */
  settings: string;
  frame: Frame;
  fragments: readonly unknown[];
  file: GeneratedFile;
}

/**
 * One watch's memory of builds, for one target. `begin` starts a run; the engine and the
 * renderer ask it what they can reuse and tell it what they redid; `commit` keeps it.
 */
export class BuildMemory {
  #live: object | undefined;
  #environment: readonly unknown[] = [];
  // Changes since the last committed run, and the frames that read each property.
  #pending: ChangedProperty[] = [];
  // By object, not by key, to keep the index small: each frame knows the keys it read.
  #readers = new WeakMap<object, Set<Frame>>();
  // Frames registered in #readers and how many committed users each cached frame has.
  #users = new Map<Frame, number>();
  #units = new Map<string, UnitMemory>();
  #renders = new Map<object, RenderMemory>();
  #files = new Map<string, FileMemory>();
  // The instance subtree of each unit of the last good build, by the config object at its
  // root; the objects that shaped each, to the roots they shaped; this run's kept subtrees,
  // and the roots whose subtree a pending change reshaped.
  #subtrees = new Map<object, KeptSubtree>();
  #shapedBy = new WeakMap<object, object[]>();
  #nextSubtrees = new Map<object, KeptSubtree>();
  #reshaped = new Set<object>();
  // Where each fragment rendered by this watch came from (the config path of its instance):
  // a reused render's fragments keep theirs, since their unit, ids and paths are the same.
  readonly #origins = new WeakMap<Fragment, string>();
  // This run: the frames that read a changed property, and what it redid (committed by `commit`).
  #hit = new Set<Frame>();
  #settled = new Map<NotedQuery, boolean>();
  #nextUnits = new Map<string, UnitMemory>();
  #nextRenders = new Map<object, RenderMemory>();
  #nextFiles = new Map<string, FileMemory>();

  /**
   * Starts a run over `config` (validated afresh): patches it into the live config and finds
   * the frames that read what changed. An `environment` unlike the last run's (another
   * registry, package prefix…) forgets every frame.
   * @returns the live config, wrapped so reads are noted.
   */
  begin(config: object, environment: readonly unknown[], patching: PatchOptions = {}): object {
    if (this.#live === undefined || !sameItems(environment, this.#environment) || Array.isArray(this.#live) !== Array.isArray(config)) {
      this.#forget();
      this.#live = config;
      this.#environment = environment;
      if (patching.landed) landEverything(config, patching.landed);
    } else {
      for (const change of patchInPlace(this.#live, config, patching)) this.#pending.push(change);
    }
    startTrackedRun();
    this.#hit = new Set();
    this.#settled = new Map();
    this.#nextUnits = new Map();
    this.#nextRenders = new Map();
    this.#nextFiles = new Map();
    this.#nextSubtrees = new Map();
    this.#reshaped = new Set();
    for (const [target] of this.#pending) for (const root of this.#shapedBy.get(target) ?? []) this.#reshaped.add(root);
    for (const [target, key] of this.#pending) {
      const readers = this.#readers.get(target);
      if (!readers) continue;
      for (const frame of readers) {
        const keys = frame.reads.get(target)!;
        // Listing an object's keys reads them all; a changed key changes the listing.
        if (keys.has(key) || keys.has(ANY_KEY)) this.#hit.add(frame);
      }
    }
    return tracked(this.#live);
  }

  /**
   * The instance subtrees of the last good build's units (`scope`), for `Engine.prepare`: one
   * stands while its root is the same config object at the same id and path, and nothing
   * that shaped it (a list, an instance's object) changed.
   */
  keptSubtrees(scope: string): KeptSubtrees {
    return {
      scope,
      reuse: (value, id, configPath) => {
        const last = this.#subtrees.get(value);
        if (last === undefined || last.root.id !== id || last.root.configPath !== configPath || this.#reshaped.has(value)) return undefined;
        this.#nextSubtrees.set(value, last);
        return last.root;
      },
      keep: (value, root, shapedBy) => void this.#nextSubtrees.set(value, { root, shapedBy }),
    };
  }

  /** Whether `frame`, or a cached computation it used, read a property that changed since it ran. */
  changed(frame: Frame): boolean {
    const run = trackedRun();
    if (frame.judgedIn === run) return frame.dirty;
    frame.judgedIn = run;
    frame.dirty = false; // a cycle cannot make itself dirty
    let dirty = this.#hit.has(frame);
    for (const include of frame.includes) if (!dirty && this.changed(include)) dirty = true;
    frame.dirty = dirty;
    return dirty;
  }

  /**
   * Whether every store query of `frame`, and of the cached frames it used, answers the same
   * in `store` now. Settled queries are asked once per run, however many frames share them.
   */
  answersHold(frame: Frame, store: object): boolean {
    for (const query of queriesOf(frame)) {
      if (!query.settled) {
        if (!query.sameIn(store)) return false;
        continue;
      }
      let same = this.#settled.get(query);
      if (same === undefined) this.#settled.set(query, (same = query.sameIn(store)));
      if (!same) return false;
    }
    return true;
  }

  /** The unit `key` as the last good build left it. */
  unit(key: string): UnitMemory | undefined {
    return this.#units.get(key);
  }

  /** What this run did for the unit `key` (reused or redone): kept if the run succeeds. */
  keepUnit(key: string, memory: UnitMemory): void {
    this.#nextUnits.set(key, memory);
  }

  /**
   * Whether cached work with `frame` (a `WeakCache` made `acrossRuns`) may be reused: the last
   * good run kept it, nothing it read changed, and its store queries answer the same in `store`.
   */
  reusable(frame: Frame, store: object): boolean {
    return this.#users.has(frame) && !this.changed(frame) && this.answersHold(frame, store);
  }

  /** The last good render of `output` with `env`, if nothing it read changed (its store queries are the caller's to check). */
  render(output: object, env: object): RenderMemory | undefined {
    const memory = this.#renders.get(output);
    return memory !== undefined && memory.env === env && !this.changed(memory.frame) ? memory : undefined;
  }

  /** Notes `origin` as where each of `fragments` (just rendered) came from; returns them. */
  noteOrigins(fragments: Fragment[], origin: string): Fragment[] {
    for (const fragment of fragments) this.#origins.set(fragment, origin);
    return fragments;
  }

  /** Where a fragment this watch rendered came from. */
  originOf(fragment: Fragment): string | undefined {
    return this.#origins.get(fragment);
  }

  /** A render this run did or reused: kept if the run succeeds. */
  keepRender(output: object, memory: RenderMemory): void {
    this.#nextRenders.set(output, memory);
  }

  /** The last good assembly of the file at `path`, if made with `env` and `settings` and nothing it read changed (its fragments are the caller's to compare). */
  file(path: string, env: object, settings: string): FileMemory | undefined {
    const memory = this.#files.get(path);
    return memory !== undefined && memory.env === env && memory.settings === settings && !this.changed(memory.frame) ? memory : undefined;
  }

  /** A file this run assembled or reused: kept if the run succeeds. */
  keepFile(path: string, memory: FileMemory): void {
    this.#nextFiles.set(path, memory);
  }

  /** The run succeeded: its units and renders are what the next run compares against. */
  commit(): void {
    const next = new Set<Frame>();
    for (const unit of this.#nextUnits.values()) next.add(unit.planned).add(unit.built);
    for (const memory of [...this.#nextRenders.values(), ...this.#nextFiles.values()]) next.add(memory.frame);
    const last = new Set<Frame>();
    for (const unit of this.#units.values()) last.add(unit.planned).add(unit.built);
    for (const memory of [...this.#renders.values(), ...this.#files.values()]) last.add(memory.frame);
    for (const frame of last) if (!next.has(frame)) this.#release(frame);
    for (const frame of next) if (!last.has(frame)) this.#retain(frame);
    for (const [value, subtree] of this.#nextSubtrees) {
      if (this.#subtrees.get(value) === subtree) continue;
      for (const shape of subtree.shapedBy) {
        const roots = this.#shapedBy.get(shape);
        if (roots === undefined) this.#shapedBy.set(shape, [value]);
        else if (!roots.includes(value)) roots.push(value);
      }
    }
    this.#subtrees = this.#nextSubtrees;
    this.#nextSubtrees = new Map();
    this.#units = this.#nextUnits;
    this.#renders = this.#nextRenders;
    this.#files = this.#nextFiles;
    this.#pending = [];
    this.#nextUnits = new Map();
    this.#nextRenders = new Map();
    this.#nextFiles = new Map();
  }

  /** Registers `frame`'s reads (and, once, those of the cached frames it used). */
  #retain(frame: Frame): void {
    const users = this.#users.get(frame) ?? 0;
    this.#users.set(frame, users + 1);
    if (users > 0) return;
    for (const target of frame.reads.keys()) {
      const readers = this.#readers.get(target);
      if (readers) readers.add(frame);
      else this.#readers.set(target, new Set([frame]));
    }
    for (const include of frame.includes) this.#retain(include);
  }

  /** Undoes one {@link #retain}; the last one unregisters the frame's reads. */
  #release(frame: Frame): void {
    const users = (this.#users.get(frame) ?? 1) - 1;
    if (users > 0) {
      this.#users.set(frame, users);
      return;
    }
    this.#users.delete(frame);
    for (const target of frame.reads.keys()) this.#readers.get(target)?.delete(frame);
    for (const include of frame.includes) this.#release(include);
  }

  #forget(): void {
    this.#pending = [];
    this.#subtrees = new Map();
    this.#shapedBy = new WeakMap();
    this.#readers = new WeakMap();
    this.#users = new Map();
    this.#units = new Map();
    this.#renders = new Map();
    this.#files = new Map();
  }
}

/** Tells `landed` of every object of a config adopted whole: each is where it lands. */
function landEverything(value: object, landed: (next: object, live: object) => void, seen = new Set<object>()): void {
  if (seen.has(value)) return;
  seen.add(value);
  landed(value, value);
  for (const key of Reflect.ownKeys(value)) {
    const item = (value as Record<PropertyKey, unknown>)[key];
    if (typeof item === "object" && item !== null) landEverything(item, landed, seen);
  }
}

// The store queries of a frame and of every frame it includes, once each. A frame is asked
// only once its work is done, so its list is made once.
const queriesByFrame = new WeakMap<Frame, readonly NotedQuery[]>();

function queriesOf(frame: Frame): readonly NotedQuery[] {
  let queries = queriesByFrame.get(frame);
  if (queries !== undefined) return queries;
  if (frame.includes.size === 0) queries = frame.queries;
  else {
    const all = new Set<NotedQuery>();
    const visit = (at: Frame, seen: Set<Frame>): void => {
      if (seen.has(at)) return;
      seen.add(at);
      for (const query of at.queries) all.add(query);
      for (const include of at.includes) visit(include, seen);
    };
    visit(frame, new Set());
    queries = [...all];
  }
  queriesByFrame.set(frame, queries);
  return queries;
}
