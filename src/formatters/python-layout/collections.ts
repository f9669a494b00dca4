// Tuples, lists, sets, dicts and comprehensions. Elements join with `,` and a break that
// prints as a space when flat; a trailing comma appears when the group breaks, and a magic
// trailing comma (or an own-line comment) in the source keeps the group broken.

import type { Comprehension, Dict, DictComp, Expr, ForClause, List, SetExpr, Tuple } from "./ast.js";
import { closingComments, leadingComments } from "./comments.js";
import type { DocBuilder } from "./doc.js";
import { formatExpr } from "./expr.js";
import { emptyParenthesized, optionalParentheses, parenthesized, parenthesizeIfExpands } from "./parentheses.js";
import { Unsupported } from "./tokens.js";

/** Ruff's `join_comma_separated`. */
export class CommaJoiner {
  private count = 0;
  constructor(private readonly f: DocBuilder) {}

  entry(content: () => void, separator: () => void = () => this.f.softLineOrSpace()): void {
    if (this.count > 0) {
      this.f.text(",");
      separator();
    }
    this.count++;
    content();
  }

  /** The trailing comma: shown when the group breaks (always for `oneOrMore`, else from two entries). */
  finish(magicTrailingComma: boolean, oneOrMore = false): void {
    if (this.count === 0) return;
    if (magicTrailingComma || oneOrMore || this.count > 1) this.f.ifBreaks(() => this.f.text(","));
    if (magicTrailingComma) this.f.expandParent();
  }
}

export function joinExprs(f: DocBuilder, elts: readonly Expr[], magicTrailingComma: boolean, closing?: readonly string[]): void {
  const joiner = new CommaJoiner(f);
  for (const elt of elts) joiner.entry(() => formatExpr(f, elt));
  joiner.finish(magicTrailingComma);
  closingComments(f, closing);
}

/** `[a, b]` and `{a, b}`. */
export function sequence(f: DocBuilder, open: string, e: List | SetExpr, close: string): void {
  if (e.elts.length === 0) return emptyParenthesized(f, open, close);
  parenthesized(f, open, () => joinExprs(f, e.elts, e.trailingComma, e.closingComments), close);
}

/** Whether a tuple holds comments, which only its own parentheses can. */
function hasComments(e: Tuple): boolean {
  return e.closingComments !== undefined || e.elts.some((elt) => elt.leading !== undefined);
}

/** Ruff's `TupleParentheses`: where a tuple keeps, gains or never gets parentheses. */
export type TupleLayout = "default" | "preserve" | "optionalParentheses" | "never" | "neverPreserve";

export function tuple(f: DocBuilder, e: Tuple, layout: TupleLayout): void {
  const elts = e.elts;
  const items = () => joinExprs(f, elts, e.trailingComma, e.closingComments);
  if (elts.length === 0) return emptyParenthesized(f, "(", ")");
  const ownParentheses = elts.length === 1 ? e.parenthesized || layout !== "preserve" : e.parenthesized && layout !== "neverPreserve";
  if (!ownParentheses && hasComments(e)) throw new Unsupported("a comment inside a statement");
  if (elts.length === 1) {
    if (!ownParentheses) {
      formatExpr(f, elts[0]);
      if (e.trailingComma) f.text(",");
      return;
    }
    return parenthesized(
      f,
      "(",
      () => {
        formatExpr(f, elts[0]);
        f.text(",");
        closingComments(f, e.closingComments);
      },
      ")",
    );
  }
  if (ownParentheses) return parenthesized(f, "(", items, ")");
  switch (layout) {
    case "never":
      elts.forEach((elt, index) => {
        if (index > 0)
          f.group(() => {
            f.text(",");
            f.space();
          });
        formatExpr(f, elt);
      });
      return;
    case "preserve":
      return f.group(items);
    case "neverPreserve":
      return optionalParentheses(f, items);
    case "optionalParentheses":
      if (elts.length === 2) return optionalParentheses(f, items);
      return parenthesizeIfExpands(f, items);
    case "default":
      return parenthesizeIfExpands(f, items);
  }
}

export function dict(f: DocBuilder, e: Dict): void {
  if (e.items.length === 0) return emptyParenthesized(f, "{", "}");
  parenthesized(
    f,
    "{",
    () => {
      const joiner = new CommaJoiner(f);
      for (const item of e.items) {
        joiner.entry(() => {
          leadingComments(f, item.leading);
          f.group(() => {
            if (item.key === null) f.text("**");
            else {
              formatExpr(f, item.key);
              f.text(":");
              f.space();
            }
            formatExpr(f, item.value);
          });
        });
      }
      joiner.finish(e.trailingComma);
      closingComments(f, e.closingComments);
    },
    "}",
  );
}

function forClauses(f: DocBuilder, clauses: readonly ForClause[]): void {
  clauses.forEach((clause, index) => {
    if (index > 0) f.softLineOrSpace();
    if (clause.isAsync) f.text("async ");
    f.text("for");
    f.space();
    if (clause.target.k === "tuple") tuple(f, clause.target, "never");
    else formatExpr(f, clause.target);
    f.space();
    f.text("in");
    f.space();
    formatExpr(f, clause.iter);
    if (clause.ifs.length === 0) return;
    f.softLineOrSpace();
    clause.ifs.forEach((condition, ifIndex) => {
      if (ifIndex > 0) f.softLineOrSpace();
      f.text("if");
      f.space();
      formatExpr(f, condition);
    });
  });
}

/** `[elt for ...]`, `{elt for ...}`, `{key: value for ...}`: the element, then one clause per line. */
export function comprehension(f: DocBuilder, e: Comprehension | DictComp): void {
  const [open, close] = e.k === "listcomp" ? ["[", "]"] : ["{", "}"];
  parenthesized(
    f,
    open,
    () =>
      f.group(() => {
        if (e.k === "dictcomp") {
          f.group(() => formatExpr(f, e.key));
          f.text(":");
          f.space();
          formatExpr(f, e.value);
        } else f.group(() => formatExpr(f, e.elt));
        f.softLineOrSpace();
        forClauses(f, e.generators);
      }),
    close,
  );
}

/** A generator; `bare` when it is a call's only argument without its own parentheses. */
export function generator(f: DocBuilder, e: Comprehension, bare: boolean): void {
  const content = () => {
    f.group(() => formatExpr(f, e.elt));
    f.softLineOrSpace();
    forClauses(f, e.generators);
  };
  if (bare && !e.parenthesized) return content();
  parenthesized(f, "(", () => f.group(content), ")");
}
