// Formats an expression node the way ruff's `FormatExpr` does: source parentheses kept or
// dropped as asked, then the node's own layout; `maybeParenthesize` decides the optional
// parentheses a statement or parent puts around it.

import type { Expr } from "./ast.js";
import { binaryLike, ifExpression, slice, unary } from "./binary.js";
import { attribute, call, subscript } from "./chain.js";
import { comprehension, dict, generator, sequence, tuple } from "./collections.js";
import { leadingComments } from "./comments.js";
import { type DocBuilder, EXPRESSION, isParenthesizedLevel } from "./doc.js";
import { lambda } from "./parameters.js";
import { implicitString } from "./strings.js";
import { canOmitOptionalParentheses, type Parent, type Parentheses, type Parenthesize, needsParentheses } from "./needs.js";
import { optionalParentheses, parenthesized, parenthesizeIfExpands } from "./parentheses.js";

export function formatExpr(f: DocBuilder, e: Expr, parens: Parentheses = "preserve"): void {
  if (e.leading) leadingComments(f, e.leading);
  if (parens === "preserve" ? e.parens > 0 : parens === "always") {
    parenthesized(f, "(", () => fields(f, e), ")");
    return;
  }
  const saved = f.level;
  if (saved.k === "top") f.level = EXPRESSION;
  fields(f, e);
  f.level = saved;
}

/** The node's own layout, without any parentheses around it. */
export function fields(f: DocBuilder, e: Expr): void {
  switch (e.k) {
    case "name":
      return f.text(e.id);
    case "literal":
      return e.parts ? implicitString(f, e) : f.text(e.text);
    case "attr":
      return attribute(f, e, "default");
    case "call":
      return call(f, e, "default");
    case "subscript":
      return subscript(f, e, "default");
    case "slice":
      return slice(f, e);
    case "binop":
    case "compare":
    case "boolop":
      return binaryLike(f, e);
    case "unary":
      return unary(f, e);
    case "ifexp":
      return ifExpression(f, e, false);
    case "lambda":
      return lambda(f, e);
    case "await":
      f.text("await");
      f.space();
      return maybeParenthesize(f, e.value, "await", "ifBreaks");
    case "starred":
      f.text("*");
      return formatExpr(f, e.value);
    case "named":
      formatExpr(f, e.target);
      f.text(" := ");
      return formatExpr(f, e.value);
    case "tuple":
      return tuple(f, e, "default");
    case "list":
      return sequence(f, "[", e, "]");
    case "set":
      return sequence(f, "{", e, "}");
    case "dict":
      return dict(f, e);
    case "listcomp":
    case "setcomp":
    case "dictcomp":
      return comprehension(f, e);
    case "generator":
      return generator(f, e, false);
  }
}

/** Ruff's `maybe_parenthesize_expression`: optional parentheses where a statement (or parent) allows them. */
export function maybeParenthesize(f: DocBuilder, e: Expr, parent: Parent, mode: Parenthesize): void {
  // Ruff keeps an expression with leading comments in parentheses.
  if ((mode === "optional" && e.parens > 0) || e.leading) return formatExpr(f, e, "always");
  const needs = needsParentheses(e, parent);
  const unparenthesized = () => formatExpr(f, e, "never");
  if (needs !== "always" && isParenthesizedLevel(f.level)) {
    if (mode === "ifBreaksParenthesizedNested") return parenthesizeIfExpands(f, unparenthesized);
    return unparenthesized();
  }
  switch (needs) {
    case "multiline":
      if (mode === "ifRequired") return unparenthesized();
      return canOmitOptionalParentheses(e) ? optionalParentheses(f, unparenthesized) : parenthesizeIfExpands(f, unparenthesized);
    case "bestFit": {
      if (mode === "ifBreaksParenthesized" || mode === "ifBreaksParenthesizedNested") {
        return canOmitOptionalParentheses(e) ? optionalParentheses(f, unparenthesized) : parenthesizeIfExpands(f, unparenthesized);
      }
      if (mode !== "ifBreaks") return unparenthesized();
      const id = f.groupId();
      return f.withLevel({ k: "expr", id }, () => f.bestFitParenthesize(id, unparenthesized));
    }
    case "never":
      return unparenthesized();
    case "always":
      return formatExpr(f, e, "always");
  }
}
