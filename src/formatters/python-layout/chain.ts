// Attribute access, calls and subscripts, including ruff's fluent layout for call chains
// (`select(X)\n.where(...)\n.options(...)` inside parentheses, one call per line) and call
// arguments, which hug their brackets on one indented line before going one per line.

import type { Attribute, Call, Expr, Keyword, Subscript } from "./ast.js";
import { CommaJoiner, generator, tuple } from "./collections.js";
import { closingComments, leadingComments } from "./comments.js";
import { type DocBuilder, isParenthesizedLevel } from "./doc.js";
import { formatExpr } from "./expr.js";
import { type ChainLayout, callChainLayout } from "./needs.js";
import { emptyParenthesized, parenthesized } from "./parentheses.js";

/** Ruff's `CallChainLayout::apply_in_node`: the root decides, inside parentheses only. */
function applyInNode(layout: ChainLayout, e: Expr, f: DocBuilder): ChainLayout {
  if (layout !== "default") return layout;
  return isParenthesizedLevel(f.level) ? callChainLayout(e) : "nonFluent";
}

/** The value left of `.`, `(` or `[`, passing the chain layout down a chain. */
function chainValue(f: DocBuilder, value: Expr, chain: ChainLayout): void {
  if (value.parens > 0) formatExpr(f, value, "always");
  else if (value.k === "attr") attribute(f, value, chain);
  else if (value.k === "call") call(f, value, chain);
  else if (value.k === "subscript") subscript(f, value, chain);
  else formatExpr(f, value, "never");
}

/** Wraps the root of a fluent chain in a group, so that the chain breaks as a whole. */
function asChainRoot(f: DocBuilder, layout: ChainLayout, chain: ChainLayout, content: () => void): void {
  if (layout === "default" && chain === "fluent") f.group(content);
  else content();
}

export function attribute(f: DocBuilder, e: Attribute, layout: ChainLayout): void {
  const chain = applyInNode(layout, e, f);
  asChainRoot(f, layout, chain, () => {
    const value = e.value;
    const parenthesizeValue = value.parens > 0 || isBaseTenNumber(value);
    if (chain === "fluent" && !parenthesizeValue) chainValue(f, value, chain);
    else formatExpr(f, value, parenthesizeValue ? "always" : "never");
    if (chain === "fluent" && (parenthesizeValue || value.k === "call" || value.k === "subscript")) f.softLine();
    f.text(".");
    f.text(e.attr);
  });
}

/** `1 .real` would read as a float: decimal integers and floats get parentheses before `.`. */
function isBaseTenNumber(e: Expr): boolean {
  return e.k === "literal" && e.kind === "number" && !/^0[xXoObB]/.test(e.text) && !/[jJ]$/.test(e.text);
}

export function call(f: DocBuilder, e: Call, layout: ChainLayout): void {
  const chain = applyInNode(layout, e, f);
  asChainRoot(f, layout, chain, () => {
    chainValue(f, e.func, chain);
    callArguments(f, e);
  });
}

export function subscript(f: DocBuilder, e: Subscript, layout: ChainLayout): void {
  const chain = applyInNode(layout, e, f);
  asChainRoot(f, layout, chain, () => {
    chainValue(f, e.value, chain);
    parenthesized(f, "[", () => (e.slice.k === "tuple" ? tuple(f, e.slice, "preserve") : formatExpr(f, e.slice)), "]");
  });
}

/** `(args)`: flat, else hugging one indented line, else one per line with a trailing comma. */
export function callArguments(f: DocBuilder, e: Call): void {
  if (e.args.length === 0) return emptyParenthesized(f, "(", ")");
  parenthesized(f, "(", () => f.group(() => argumentList(f, e)), ")");
}

/**
 * The comma-separated arguments. A function of its own, not a closure made per call: on
 * Node 20 each new closure re-entered the optimized code an earlier one had deoptimized
 * ("wrong map"), up to 2,000 deopts in a fresh process's first pass (bench/format.ts).
 */
function argumentList(f: DocBuilder, e: Call): void {
  const joiner = new CommaJoiner(f);
  const [only] = e.args;
  if (e.args.length === 1 && only.k === "arg") {
    const value = only.value;
    if (value.k === "generator") joiner.entry(() => generator(f, value, true));
    else joiner.entry(() => formatExpr(f, value, value.parens > 0 ? "always" : "never"));
  } else {
    for (const arg of e.args) joiner.entry(() => (arg.k === "arg" ? formatExpr(f, arg.value) : keyword(f, arg)));
  }
  joiner.finish(e.trailingComma);
  closingComments(f, e.closingComments);
}

function keyword(f: DocBuilder, arg: Keyword): void {
  leadingComments(f, arg.leading);
  f.text(arg.name === null ? "**" : `${arg.name}=`);
  formatExpr(f, arg.value);
}
