// Parameter lists of `def` and `lambda`. A `def` with one parameter gets a trailing comma
// when its signature breaks (black's rule: the parameter list has no group of its own);
// lambda parameters never break, while a lambda body parenthesizes itself when it splits.

import type { Expr, Lambda, Parameter, Parameters } from "./ast.js";
import { type DocBuilder, PAREN, isParenthesizedLevel } from "./doc.js";
import { HARD, LINE, propagatesExpand, removeSoftLines } from "./ir.js";
import { formatExpr } from "./expr.js";
import { lambdaBodySplitsInBrackets, hasOwnParentheses } from "./needs.js";
import { emptyParenthesized, parenthesizeIfExpands } from "./parentheses.js";
import { Unsupported } from "./tokens.js";

function parameter(f: DocBuilder, p: Parameter): void {
  f.text(p.name);
  if (p.annotation) {
    f.text(":");
    f.space();
    formatExpr(f, p.annotation);
  }
  if (p.default) {
    f.text(p.annotation ? " = " : "=");
    formatExpr(f, p.default);
  }
}

function entries(p: Parameters): Array<(f: DocBuilder) => void> {
  const list: Array<(f: DocBuilder) => void> = [];
  for (const param of p.posonly) list.push((f) => parameter(f, param));
  if (p.posonly.length > 0) list.push((f) => f.text("/"));
  for (const param of p.args) list.push((f) => parameter(f, param));
  const vararg = p.vararg;
  if (vararg) {
    list.push((f) => {
      f.text("*");
      parameter(f, vararg);
    });
  } else if (p.kwonly.length > 0) list.push((f) => f.text("*"));
  for (const param of p.kwonly) list.push((f) => parameter(f, param));
  const kwarg = p.kwarg;
  if (kwarg) {
    list.push((f) => {
      f.text("**");
      parameter(f, kwarg);
    });
  }
  return list;
}

/** `(a, b=1, *args, **kwargs)` of a `def`. */
export function parameters(f: DocBuilder, p: Parameters): void {
  const inner = () => {
    entries(p).forEach((entry, index) => {
      if (index > 0) {
        f.text(",");
        if (isParenthesizedLevel(f.level)) f.softLineOrSpace();
        else f.space();
      }
      entry(f);
    });
    f.ifBreaks(() => f.text(","));
    if (p.trailingComma) f.hardLine();
  };
  const count = p.posonly.length + p.args.length + p.kwonly.length + (p.vararg ? 1 : 0) + (p.kwarg ? 1 : 0);
  f.withLevel(PAREN, () => {
    if (count === 0) return emptyParenthesized(f, "(", ")");
    f.text("(");
    if (count === 1 && p.posonly.length === 0 && p.kwonly.length === 0) f.softBlockIndent(inner);
    else f.softBlockIndent(() => f.group(inner));
    f.text(")");
  });
}

export function lambda(f: DocBuilder, e: Lambda): void {
  f.text("lambda");
  if (e.params) {
    f.space();
    // Lambda parameters never break: every soft line in them prints flat.
    const params = e.params;
    const flat = removeSoftLines(f.capture(() => lambdaParameters(f, params)));
    // Only a comment (in a default value) puts a hard line break there.
    if (flat.some((e) => e.kind === LINE && e.width >= HARD)) throw new Unsupported("a comment inside a statement");
    f.emit(flat);
  }
  f.text(":");
  f.space();
  const body = () => lambdaBody(f, e.body);
  // As an assignment's value, the body parenthesizes itself before the whole lambda does.
  if (e.assignmentValue) f.fitsExpanded(null, body);
  else body();
}

function lambdaParameters(f: DocBuilder, p: Parameters): void {
  entries(p).forEach((entry, index) => {
    if (index > 0) f.text(", ");
    entry(f);
  });
  if (p.trailingComma) f.text(",");
}

/** A call or subscript body: flat, else split in its brackets, else parenthesized; others parenthesize when they break. */
function lambdaBody(f: DocBuilder, body: Expr): void {
  if (lambdaBodySplitsInBrackets(body)) {
    const formatted = f.capture(() => formatExpr(f, body, "never"));
    // The best-fitting variants would hide a forced break (a magic trailing comma) from the
    // enclosing groups: pass it on where it would otherwise have reached them.
    if (propagatesExpand(formatted)) f.expandParent();
    f.bestFitting([
      () => f.emit(formatted),
      () => f.group(() => f.emit(formatted), { expand: true }),
      () => {
        f.text("(");
        f.blockIndent(() => f.emit(formatted));
        f.text(")");
      },
    ]);
  } else if (body.k !== "call" && body.k !== "subscript" && hasOwnParentheses(body) !== undefined) formatExpr(f, body);
  else parenthesizeIfExpands(f, () => formatExpr(f, body, "never"));
}
