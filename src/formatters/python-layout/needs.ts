// When ruff adds parentheses around an expression: each kind's `needs_parentheses`, the
// `can_omit_optional_parentheses` heuristic (split inside the last call's brackets instead),
// call-chain fluency, and which expressions have brackets of their own or can split at all.

import type { Expr } from "./ast.js";

export type Parentheses = "preserve" | "always" | "never";
export type Parenthesize = "optional" | "ifBreaks" | "ifRequired" | "ifBreaksParenthesized" | "ifBreaksParenthesizedNested";
export type NeedsParentheses = "multiline" | "always" | "bestFit" | "never";
/** What encloses an expression, as far as `needs_parentheses` cares. */
export type Parent = "await" | "returnAnnotationNoParams" | "returnAnnotation" | "other";

export function needsParentheses(e: Expr, parent: Parent): NeedsParentheses {
  switch (e.k) {
    case "name":
      return "bestFit";
    case "literal":
      if (e.parts) return "multiline";
      return e.kind === "string" && e.text.includes("\n") ? "never" : "bestFit";
    case "attr":
    case "call":
    case "subscript": {
      if (callChainLayout(e) === "fluent") return "multiline";
      const inner = e.k === "call" ? e.func : e.value;
      if (inner.parens > 0) return "never";
      const needs = needsParentheses(inner, "other");
      if (e.k !== "subscript" || needs !== "bestFit") return needs;
      if (parent === "returnAnnotationNoParams") return "multiline";
      return parent === "returnAnnotation" ? "never" : "bestFit";
    }
    case "binop":
    case "compare":
    case "boolop":
    case "ifexp":
      return parent === "await" ? "always" : "multiline";
    case "lambda":
      return parent === "await" ? "always" : "multiline";
    case "unary":
      if (parent === "await") return "always";
      return e.operand.parens > 0 ? "never" : needsParentheses(e.operand, "other");
    case "await":
      // An awaited annotation always gets parentheses.
      if (parent === "await" || parent === "returnAnnotation" || parent === "returnAnnotationNoParams") return "always";
      return e.value.parens > 0 ? "never" : needsParentheses(e.value, "await");
    case "generator":
      return parent === "await" ? "always" : "never";
    case "starred":
    case "named":
      return "multiline";
    default:
      return "never";
  }
}

/** A lambda body that is a call or subscript (not a fluent chain), laid out by best fit. */
export function lambdaBodySplitsInBrackets(body: Expr): boolean {
  return (body.k === "call" || body.k === "subscript") && callChainLayout(body) !== "fluent";
}

export type ChainLayout = "default" | "fluent" | "nonFluent";

/** Ruff's call-chain heuristic: fluent style from two attribute accesses on calls or subscripts. */
export function callChainLayout(e: Expr): "fluent" | "nonFluent" {
  let count = 0;
  let expr = e;
  for (;;) {
    if (expr.k === "attr") {
      if (expr.value.parens > 0) {
        count++;
        break;
      }
      if (expr.value.k === "call" || expr.value.k === "subscript") count++;
      expr = expr.value;
    } else if (expr.k === "call" || expr.k === "subscript") {
      const inner = expr.k === "call" ? expr.func : expr.value;
      if (inner.parens > 0) break;
      expr = inner;
    } else {
      if (expr.parens > 0) count++;
      break;
    }
  }
  return count < 2 ? "nonFluent" : "fluent";
}

export type OwnParentheses = "empty" | "nonEmpty" | undefined;

export function hasOwnParentheses(e: Expr): OwnParentheses {
  switch (e.k) {
    case "listcomp":
    case "setcomp":
    case "dictcomp":
    case "subscript":
      return "nonEmpty";
    case "generator":
      return e.parenthesized ? "nonEmpty" : undefined;
    case "list":
    case "set":
      return e.elts.length > 0 ? "nonEmpty" : "empty";
    case "tuple":
      if (!e.parenthesized) return undefined;
      return e.elts.length > 0 ? "nonEmpty" : "empty";
    case "dict":
      return e.items.length > 0 ? "nonEmpty" : "empty";
    case "call":
      return e.args.length > 0 ? "nonEmpty" : "empty";
    default:
      return undefined;
  }
}

export function hasParentheses(e: Expr): OwnParentheses {
  const own = hasOwnParentheses(e);
  if (own === "nonEmpty") return own;
  return e.parens > 0 ? "nonEmpty" : own;
}

const PRECEDENCE: Record<string, number> = {
  attribute: 1, "**": 2, invert: 3, "*": 4, "/": 4, "//": 4, "%": 4, "@": 4, "+": 5, "-": 5, "<<": 6, ">>": 6,
  "&": 7, "^": 8, "|": 9, comparator: 10, boolean: 11, and: 11, or: 11, conditional: 12,
};

/** Ruff's operator precedence rank (higher binds looser): `+` is 5, comparisons 10, `and`/`or` 11. */
export function precedence(op: string): number {
  return PRECEDENCE[op] ?? PRECEDENCE.comparator;
}

/**
 * Whether the optional parentheses can be left out because the expression can split inside
 * its own brackets instead (ruff's port of black's `_maybe_split_omitting_optional_parens`).
 */
export function canOmitOptionalParentheses(e: Expr): boolean {
  const v = { maxPrecedence: 0, count: 0, anyParenthesized: false, last: undefined as Expr | undefined, first: undefined as Expr | "token" | undefined };
  const update = (rank: number, count = 1) => {
    if (v.maxPrecedence < rank) {
      v.maxPrecedence = rank;
      v.count = count;
    } else if (v.maxPrecedence === rank) v.count += count;
  };
  const visitExpr = (child: Expr) => {
    v.last = child;
    if (child.parens > 0) v.anyParenthesized = true;
    else visitSub(child);
    v.first ??= child;
  };
  const visitSub = (node: Expr): void => {
    switch (node.k) {
      case "dict":
      case "list":
      case "set":
      case "listcomp":
      case "setcomp":
      case "dictcomp":
        v.anyParenthesized = true;
        return;
      case "tuple":
      case "generator":
        if (node.parenthesized) {
          v.anyParenthesized = true;
          return;
        }
        for (const child of node.k === "tuple" ? node.elts : [node.elt]) visitExpr(child);
        if (node.k === "generator") for (const clause of node.generators) [clause.target, clause.iter, ...clause.ifs].forEach(visitExpr);
        return;
      case "boolop":
        update(PRECEDENCE.boolean, node.values.length - 1);
        return node.values.forEach(visitExpr);
      case "binop":
        update(precedence(node.op));
        visitExpr(node.left);
        return visitExpr(node.right);
      case "ifexp":
        update(PRECEDENCE.conditional, 2);
        return [node.body, node.test, node.orelse].forEach(visitExpr);
      case "compare":
        update(PRECEDENCE.comparator, node.ops.length);
        return [node.left, ...node.comparators].forEach(visitExpr);
      case "call":
      case "subscript":
        v.anyParenthesized = true;
        visitExpr(node.k === "call" ? node.func : node.value);
        v.last = node;
        return;
      case "attr":
        visitExpr(node.value);
        if (hasParentheses(node.value) !== undefined) update(PRECEDENCE.attribute);
        v.last = node;
        return;
      case "named":
        visitExpr(node.target);
        return visitExpr(node.value);
      case "unary":
        if (node.op === "~") update(PRECEDENCE.invert);
        v.first ??= "token";
        return visitExpr(node.operand);
      case "lambda":
        // The body splits inside its own (or added) parentheses, like a call's arguments.
        v.first ??= "token";
        for (const param of lambdaDefaults(node)) visitExpr(param);
        v.anyParenthesized = true;
        v.last = node;
        return;
      case "await":
      case "starred":
        v.first ??= "token";
        return visitExpr(node.value);
      default:
        return;
    }
  };
  visitSub(e);

  if (!v.anyParenthesized) return false;
  if (v.count > 1) return false;
  if (v.maxPrecedence === 0 || v.maxPrecedence === PRECEDENCE.attribute) return true;
  const splits = (node: Expr | "token" | undefined) =>
    node !== undefined && node !== "token" && node.k !== "subscript" && hasParentheses(node) === "nonEmpty";
  return splits(v.last) || splits(v.first);
}

function lambdaDefaults(node: Expr & { k: "lambda" }): Expr[] {
  const p = node.params;
  if (!p) return [];
  return [...p.posonly, ...p.args, ...p.kwonly].flatMap((param) => (param.default ? [param.default] : []));
}

/** Ruff's `is_splittable_expression`: whether the expression has any place to break. */
export function isSplittable(e: Expr): boolean {
  switch (e.k) {
    case "named":
    case "name":
    case "slice":
      return false;
    case "literal":
      return e.parts !== undefined;
    case "compare":
    case "binop":
    case "boolop":
    case "ifexp":
    case "generator":
    case "subscript":
    case "await":
    case "listcomp":
    case "setcomp":
    case "dictcomp":
      return true;
    case "tuple":
    case "list":
    case "set":
      return e.elts.length > 0;
    case "dict":
      return e.items.length > 0;
    case "unary":
      return isSplittable(e.operand);
    case "call":
      return e.args.length > 0 || e.func.parens > 0;
    case "lambda":
      return e.body.parens > 0 || isSplittable(e.body);
    case "starred":
    case "attr":
      return e.value.parens > 0 || isSplittable(e.value);
  }
}
