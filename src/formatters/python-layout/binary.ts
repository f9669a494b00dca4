// Operators: binary, comparison and boolean chains split before their lowest-precedence
// operators (all of them or none), recursing into higher-precedence runs; conditional
// expressions split before `if` and `else`; unary operators and simple slices never split.

import type { BinOp, BoolOp, Compare, Expr, IfExp, Slice, UnaryOp } from "./ast.js";
import type { DocBuilder } from "./doc.js";
import { fields, formatExpr } from "./expr.js";
import { precedence } from "./needs.js";
import { inParenthesesOnlyGroup, inParenthesesOnlyIfBreaks, inParenthesesOnlySoftLine, inParenthesesOnlySoftLineOrSpace } from "./parentheses.js";
import { Unsupported } from "./tokens.js";

/** A binary chain flattened to operand, operator, operand, ... (parenthesized operands stay whole). */
type Part = { operand: Expr } | { op: string };

function flatten(e: Expr, parts: Part[]): void {
  if (e.parens > 0 || (e.k !== "binop" && e.k !== "compare" && e.k !== "boolop")) {
    if (e.k === "literal" && e.parts && e.parens === 0) throw new Unsupported("an implicitly concatenated string as an operand");
    parts.push({ operand: e });
    return;
  }
  if (e.k === "binop") {
    flatten(e.left, parts);
    parts.push({ op: e.op });
    flatten(e.right, parts);
  } else if (e.k === "compare") {
    flatten(e.left, parts);
    e.ops.forEach((op, index) => {
      parts.push({ op });
      flatten(e.comparators[index], parts);
    });
  } else {
    e.values.forEach((value, index) => {
      if (index > 0) parts.push({ op: e.op });
      flatten(value, parts);
    });
  }
}

export function binaryLike(f: DocBuilder, e: BinOp | Compare | BoolOp): void {
  const parts: Part[] = [];
  // The root is flattened even when parenthesized: its parentheses belong to the caller.
  if (e.k === "binop") flatten({ ...e, parens: 0 }, parts);
  else flatten({ ...e, parens: 0 }, parts);
  inParenthesesOnlyGroup(f, () => formatParts(f, parts));
}

function operandOf(part: Part): Expr {
  if (!("operand" in part)) throw new Error("python formatter bug: expected an operand");
  return part.operand;
}

function opOf(part: Part): string {
  if (!("op" in part)) throw new Error("python formatter bug: expected an operator");
  return part.op;
}

function formatOperand(f: DocBuilder, e: Expr): void {
  formatExpr(f, e, e.parens > 0 ? "always" : "never");
}

function formatParts(f: DocBuilder, parts: Part[]): void {
  if (parts.length === 1) return formatOperand(f, operandOf(parts[0]));
  let lowest = 0;
  for (let index = 1; index < parts.length; index += 2) lowest = Math.max(lowest, precedence(opOf(parts[index])));
  const run = (slice: Part[]) => (slice.length === 1 ? formatOperand(f, operandOf(slice[0])) : inParenthesesOnlyGroup(f, () => formatParts(f, slice)));
  let lastOperator = -1;
  for (let index = 1; index < parts.length; index += 2) {
    const op = opOf(parts[index]);
    if (precedence(op) !== lowest) continue;
    const left = parts.slice(lastOperator + 1, index);
    const isPow = op === "**" && isSimplePower(operandOf(left[left.length - 1]), operandOf(parts[index + 1]));
    run(left);
    if (isPow) inParenthesesOnlySoftLine(f);
    else inParenthesesOnlySoftLineOrSpace(f);
    f.text(op);
    if (isPow) inParenthesesOnlyIfBreaks(f, () => f.space());
    else f.space();
    lastOperator = index;
  }
  run(parts.slice(lastOperator + 1));
}

/** Black's "simple" power operands (`x**2`, `a.b**-1`) hug the operator. */
function isSimplePower(left: Expr, right: Expr): boolean {
  return left.parens === 0 && right.parens === 0 && isSimplePowerOperand(left) && isSimplePowerOperand(right);
}

function isSimplePowerOperand(e: Expr): boolean {
  if (e.k === "unary") return e.op !== "not" && isSimplePowerOperand(e.operand);
  if (e.k === "literal") return e.kind === "number" || e.kind === "none" || e.kind === "bool";
  if (e.k === "name") return true;
  if (e.k === "attr") return isSimplePowerOperand(e.value);
  return false;
}

export function unary(f: DocBuilder, e: UnaryOp): void {
  f.text(e.op);
  if (e.op === "not") f.space();
  const operand = e.operand;
  formatExpr(f, operand, operand.k === "binop" && operand.op === "**" ? "always" : "preserve");
}

/** `body if test else orelse`; a chained `else` conditional continues at the same level. */
export function ifExpression(f: DocBuilder, e: IfExp, nested: boolean): void {
  const inner = () => {
    formatExpr(f, e.body);
    inParenthesesOnlySoftLineOrSpace(f);
    f.text("if");
    f.space();
    formatExpr(f, e.test);
    inParenthesesOnlySoftLineOrSpace(f);
    f.text("else");
    f.space();
    const orelse = e.orelse;
    if (orelse.k === "ifexp" && orelse.parens === 0) ifExpression(f, orelse, true);
    else inParenthesesOnlyGroup(f, () => formatExpr(f, orelse));
  };
  if (nested) inner();
  else inParenthesesOnlyGroup(f, inner);
}

/** `a[lower:upper:step]` with simple bounds (names, numbers); others are not laid out here. */
export function slice(f: DocBuilder, e: Slice): void {
  const bounds = [e.lower, e.upper, e.step];
  if (!bounds.every((bound) => bound === null || isSimpleSliceBound(bound))) throw new Unsupported("a slice with complex bounds");
  if (e.lower) fields(f, e.lower);
  f.text(":");
  if (e.upper) fields(f, e.upper);
  if (e.hasStepColon) f.text(":");
  if (e.step) fields(f, e.step);
}

function isSimpleSliceBound(e: Expr): boolean {
  if (e.parens > 0) return false;
  if (e.k === "unary") return e.op !== "not" && isSimpleSliceBound(e.operand);
  return e.k === "name" || (e.k === "literal" && (e.kind === "number" || e.kind === "none"));
}
