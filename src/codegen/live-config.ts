// The config of a watch, kept alive from run to run: each run's freshly validated config is
// patched into it in place, so every object keeps its identity (outputs and caches that hold
// a piece of it see the new values) and the patch knows exactly which properties changed.
// Only plain objects and arrays are patched into; any other value is replaced when it differs.

import { isDeepStrictEqual } from "node:util";

import { ANY_KEY, isPlainContainer } from "./read-tracking.js";

/** A property that a patch changed (added, removed, or set to another value); `ANY_KEY` when the object's keys changed. */
export type ChangedProperty = readonly [target: object, key: PropertyKey];

/** Two values a patch can merge in place: plain objects, or arrays, both, the live one not frozen or sealed (it is replaced then). */
function mergeable(a: unknown, b: unknown): a is object {
  return isPlainContainer(a) && isPlainContainer(b) && Array.isArray(a) === Array.isArray(b) && Object.getPrototypeOf(a) === Object.getPrototypeOf(b) && Object.isExtensible(a);
}

/** What a patch needs to know of `next` besides its values. */
export interface PatchOptions {
  /**
   * Objects of the live config that `next` holds again, reused whole (a watch's validation
   * reuses the parse of an unchanged list item): they are put where `next` has them and are
   * never merged into, so an earlier place of theirs in `live` gets the new value instead.
   */
  reused?: ReadonlySet<object>;
  /**
   * Told where objects of `next` ended up: merged into an object of `live` (its counterpart),
   * or put into `live` as they are (themselves), placed or found already in place. Objects
   * inside a placed one are not told of.
   */
  landed?: (next: object, live: object) => void;
}

/**
 * Makes `live` equal to `next` in place, keeping every object of `live` that has a counterpart
 * in `next`; returns what changed. Both must be plain objects (or arrays) of the same kind.
 * Non-enumerable properties (a record kept on an object under a symbol) are patched too.
 * @example patchInPlace(liveConfig, validatedAgain) // [[resource, "default_page_size"]]
 */
export function patchInPlace(live: object, next: object, options: PatchOptions = {}): ChangedProperty[] {
  const changed: ChangedProperty[] = [];
  const reused = options.reused ?? new Set<object>();
  const landed = options.landed;

  const patch = (live: Record<PropertyKey, unknown>, next: Record<PropertyKey, unknown>): void => {
    landed?.(next, live);
    if (Array.isArray(live)) {
      const nextList = next as unknown as unknown[];
      const liveList = live as unknown as unknown[];
      const common = Math.min(liveList.length, nextList.length);
      const place = (value: unknown): void => {
        liveList.push(value);
        if (typeof value === "object" && value !== null) landed?.(value, value);
      };
      for (let index = 0; index < common; index++) patchProperty(live, String(index), liveList[index], nextList[index]);
      if (liveList.length !== nextList.length) {
        for (let index = common; index < Math.max(liveList.length, nextList.length); index++) changed.push([live, String(index)]);
        liveList.length = common;
        for (let index = common; index < nextList.length; index++) place(nextList[index]);
        changed.push([live, "length"], [live, ANY_KEY]);
      }
      return;
    }
    const liveKeys = Reflect.ownKeys(live);
    const nextKeys = Reflect.ownKeys(next);
    let sameKeys = liveKeys.length === nextKeys.length;
    for (let index = 0; sameKeys && index < liveKeys.length; index++) sameKeys = liveKeys[index] === nextKeys[index];
    if (sameKeys) {
      for (const key of nextKeys) patchProperty(live, key, live[key], next[key]);
      return;
    }
    for (const key of liveKeys) {
      if (Object.hasOwn(next, key)) continue;
      delete live[key];
      changed.push([live, key]);
    }
    for (const key of nextKeys) {
      if (Object.hasOwn(live, key)) patchProperty(live, key, live[key], next[key]);
      else {
        Object.defineProperty(live, key, Object.getOwnPropertyDescriptor(next, key)!);
        changed.push([live, key]);
        const value = next[key];
        if (typeof value === "object" && value !== null) landed?.(value, value);
      }
    }
    // Listing the keys must give next's order, as a fresh config would: re-insert them so.
    const descriptors = nextKeys.map((key) => [key, Object.getOwnPropertyDescriptor(live, key)!] as const);
    for (const key of Reflect.ownKeys(live)) delete live[key];
    for (const [key, descriptor] of descriptors) Object.defineProperty(live, key, descriptor);
    changed.push([live, ANY_KEY]);
  };

  const patchProperty = (owner: Record<PropertyKey, unknown>, key: PropertyKey, was: unknown, now: unknown): void => {
    if (was === now) {
      if (typeof now === "object" && now !== null && reused.has(now)) landed?.(now, now);
      return;
    }
    const moves = typeof was === "object" && typeof now === "object" && ((was !== null && reused.has(was)) || (now !== null && reused.has(now)));
    if (!moves && mergeable(was, now)) {
      patch(was as Record<PropertyKey, unknown>, now as Record<PropertyKey, unknown>);
      return;
    }
    // NaN equals itself here, as JSON would have it; any other value differs unless deeply equal.
    if (!moves && (Object.is(was, now) || (typeof was === "object" && typeof now === "object" && isDeepStrictEqual(was, now)))) return;
    owner[key] = now;
    changed.push([owner, key]);
    if (typeof now === "object" && now !== null) landed?.(now, now);
  };

  patch(live as Record<PropertyKey, unknown>, next as Record<PropertyKey, unknown>);
  return changed;
}
