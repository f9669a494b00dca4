// What the backend says the reader may call (its permissions routes, or each row's `actions`):
// the pages offer those operations and hide the others. Only where the backend says so: a page
// of a resource without permissions, or a permissions route not asked (it needs a signed-in
// reader, and nobody is), shows what the reader's groups allow.

import type { ReactNode } from "react";

/** The names of the operations the reader may call; empty while the answer is on its way. */
export type Permitted = ReadonlySet<string>;

/** The names of `refs` (a permissions answer, or a row's `actions`); none while there is no answer. */
export function permittedOf(refs: readonly { name: string }[] | undefined): Permitted {
  return new Set((refs ?? []).map((ref) => ref.name));
}

/** A permissions route's answer; undefined when the route is not `asked`. */
export function permittedBy(answer: readonly { name: string }[] | undefined, asked: boolean): Permitted | undefined {
  return asked ? permittedOf(answer) : undefined;
}

/** Whether the reader may call one of `names`; undefined permissions say nothing against it. */
export function permits(permitted: Permitted | undefined, names: string | readonly string[]): boolean {
  return permitted === undefined || (typeof names === "string" ? [names] : names).some((name) => permitted.has(name));
}

/** `children` when the reader may call one of `names` (an operation, or any of a section's). */
export function Permitted({ by, names, children }: { by: Permitted | undefined; names: string | readonly string[]; children: ReactNode }) {
  return permits(by, names) ? <>{children}</> : null;
}
