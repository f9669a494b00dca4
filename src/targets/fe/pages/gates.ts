// Which readers a page shows an operation's button to: those the backend's permissions name
// it for, where the page has them in scope (`Permitted`); else those in its groups
// (`Allowed`, x-groups); else everyone. The backend still checks every request.

import { Imports, groupsArray, jsxAttr, tsString } from "./code.js";
import type { PageOperation } from "./model.js";

/** The element a gated button sits in: `<open>…</close>`. */
export interface Gate {
  open: string;
  close: string;
}

/**
 * The gate of `op`'s button. `permitted` is the variable holding the reader's permissions on
 * the page (`runtime/permissions`), or undefined where the page has none for this operation.
 */
export function gateOf(op: Pick<PageOperation, "name" | "groups"> | undefined, permitted: string | undefined, imports: Imports): Gate | undefined {
  if (permitted !== undefined && op?.name !== undefined) {
    imports.use("runtime/permissions", "Permitted");
    return { open: `Permitted by={${permitted}} ${jsxAttr("names", op.name)}`, close: "Permitted" };
  }
  const groups = groupsArray(op);
  if (groups === "") return undefined;
  imports.use("Login", "Allowed");
  return { open: `Allowed groups={${groups}}`, close: "Allowed" };
}

/**
 * The gate of a section of several operations (the "Actions" heading): shown to readers who
 * may call one of them, so nobody sees a heading over nothing; none when one is open to all.
 */
export function sectionGate(ops: readonly PageOperation[], permitted: string | undefined, imports: Imports): Gate | undefined {
  if (ops.length === 0) return undefined;
  if (permitted !== undefined && ops.every((op) => op.name !== undefined)) {
    imports.use("runtime/permissions", "Permitted");
    return { open: `Permitted by={${permitted}} names={[${ops.map((op) => tsString(op.name!)).join(", ")}]}`, close: "Permitted" };
  }
  if (!ops.every((op) => op.groups !== undefined)) return undefined;
  return gateOf({ groups: [...new Set(ops.flatMap((op) => op.groups!))].sort() }, undefined, imports);
}

/** The statement setting a page's `signedIn`: whether someone is signed in (its session has a user). */
export function signedInStatement(imports: Imports): string {
  return `const signedIn = ${imports.use("session", "useSession")}() != null;`;
}

/**
 * The statements setting a page's `permitted` from a permissions route (`GET …/permissions`):
 * its answer's names, none while it is on its way. A route that needs a user is asked only of a
 * signed-in reader, so nobody is sent to log in by it; not asked, it says nothing (`undefined`).
 */
export function permissionsQuery(op: PageOperation, args: string, auth: boolean, imports: Imports): string[] {
  const options = imports.use("client", `${op.fn}Options`);
  const query = imports.from("@tanstack/react-query", "useQuery");
  if (!(op.secured && auth)) return [`const permitted = ${imports.use("runtime/permissions", "permittedOf")}(${query}(${options}(${args})).data);`];
  return [
    signedInStatement(imports),
    `const permitted = ${imports.use("runtime/permissions", "permittedBy")}(${query}({ ...${options}(${args}), enabled: signedIn }).data, signedIn);`,
  ];
}
