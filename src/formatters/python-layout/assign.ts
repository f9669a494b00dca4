// The last expression of a statement (assignments, `return`): ruff's
// `FormatStatementsLastExpression`. Unsplittable values get parentheses only if that makes
// them fit; a target with brackets is split only when parenthesizing the value cannot help.

import type { Expr, Literal, Stmt } from "./ast.js";
import { tuple } from "./collections.js";
import type { DocBuilder } from "./doc.js";
import { willBreak } from "./ir.js";
import { formatExpr, maybeParenthesize } from "./expr.js";
import { expandedParts, joinedString } from "./strings.js";
import { Unsupported } from "./tokens.js";
import { canOmitOptionalParentheses, hasOwnParentheses, hasParentheses, isSplittable, needsParentheses } from "./needs.js";
import { optionalParentheses, parenthesizeIfExpands } from "./parentheses.js";

function markAssignmentValue(value: Expr): void {
  if (value.k === "lambda") value.assignmentValue = true;
}

function shouldInlineComments(value: Expr): boolean {
  if (value.k === "name") return true;
  if (value.k === "literal") return value.kind !== "ellipsis" && needsParentheses(value, "other") === "bestFit";
  return false;
}

function nonInlineableUsesBestFit(value: Expr): boolean {
  return (value.k === "attr" || value.k === "call" || value.k === "subscript") && needsParentheses(value, "other") === "bestFit";
}

export function hasTargetOwnParentheses(target: Expr): boolean {
  return target.k === "tuple" || hasOwnParentheses(target) !== undefined;
}

function isAttributeWithParenthesizedValue(target: Expr): boolean {
  if (target.k === "attr") return hasParentheses(target.value) !== undefined || isAttributeWithParenthesizedValue(target.value);
  if (target.k === "subscript") return true;
  if (target.k === "call") return target.args.length > 0;
  return false;
}

function shouldParenthesizeTarget(target: Expr): boolean {
  return !(hasTargetOwnParentheses(target) || isAttributeWithParenthesizedValue(target));
}

/** `value` after a keyword or a simple target: split the value, parenthesizing what needs it. */
export function leftToRight(f: DocBuilder, value: Expr): void {
  markAssignmentValue(value);
  const joined = value.k === "literal" && value.parts ? joinedString(value) : undefined;
  if (value.k === "literal" && joined !== undefined) return implicitStringValue(f, value, joined);
  if (!shouldInlineComments(value)) return maybeParenthesize(f, value, "other", "ifBreaks");
  f.bestFitParenthesize(f.groupId(), () => formatExpr(f, value, "never"));
}

/** A joinable implicitly concatenated string: joined, else joined in parentheses, else one part per line. */
function implicitStringValue(f: DocBuilder, value: Literal, joined: string): void {
  const id = f.groupId();
  f.bestFitting(
    [
      () => f.text(joined),
      () =>
        f.group(
          () => {
            f.text("(");
            f.softBlockIndent(() => f.text(joined));
            f.text(")");
          },
          { id, expand: true },
        ),
      () =>
        f.group(
          () => {
            f.text("(");
            f.blockIndent(() => f.withLevel({ k: "expr", id }, () => expandedParts(f, value, false)));
            f.text(")");
          },
          { id, expand: true },
        ),
    ],
    true,
  );
}

/** `before op value` where `before` has brackets: prefer parenthesizing the value over splitting `before`. */
function rightToLeft(f: DocBuilder, before: Expr, op: string, value: Expr): void {
  markAssignmentValue(value);
  if (value.k === "literal" && value.parts && joinedString(value) !== undefined) {
    throw new Unsupported("a joinable implicitly concatenated string assigned to a target with brackets");
  }
  const formatBefore = () => {
    // `x: (await y) = z`: ruff always parenthesizes an awaited annotation.
    if (before.k === "await") formatExpr(f, before, "always");
    else if (!shouldParenthesizeTarget(before)) formatExpr(f, before, "never");
    else if (canOmitOptionalParentheses(before)) optionalParentheses(f, () => formatExpr(f, before, "never"));
    else parenthesizeIfExpands(f, () => formatExpr(f, before, "never"));
  };
  const operator = () => f.text(` ${op} `);
  if (!shouldInlineComments(value) && !nonInlineableUsesBestFit(value)) {
    formatBefore();
    operator();
    return maybeParenthesize(f, value, "other", "ifBreaks");
  }
  const target = f.capture(formatBefore);
  if (willBreak(target)) {
    f.emit(target);
    operator();
    return formatExpr(f, value, "never");
  }
  const formatted = f.capture(() => formatExpr(f, value, "never"));
  const singleLine = () => {
    f.emit(target);
    operator();
    f.emit(formatted);
  };
  const flatTargetParenthesizedValue = () => {
    f.emit(target);
    operator();
    f.text("(");
    f.group(() => f.softBlockIndent(() => f.emit(formatted)), { expand: true });
    f.text(")");
  };
  const splitTargetFlatValue = () => {
    f.group(() => f.emit(target), { expand: true });
    operator();
    f.emit(formatted);
  };
  if (value.k === "call" || value.k === "subscript" || value.k === "attr") {
    const splitValueBrackets = () => {
      f.emit(target);
      operator();
      f.group(() => f.emit(formatted), { expand: true });
    };
    return f.bestFitting([singleLine, splitValueBrackets, flatTargetParenthesizedValue, splitTargetFlatValue]);
  }
  f.bestFitting([singleLine, flatTargetParenthesizedValue, splitTargetFlatValue]);
}

export function assignment(f: DocBuilder, stmt: Stmt & { k: "assign" | "annassign" | "augassign" | "return" }): void {
  switch (stmt.k) {
    case "assign": {
      const [first, ...rest] = stmt.targets;
      if (rest.length > 0) {
        formatExpr(f, first);
        f.text(" = ");
        for (const target of rest.slice(0, -1)) {
          if (shouldParenthesizeTarget(target)) parenthesizeIfExpands(f, () => formatExpr(f, target, "never"));
          else formatExpr(f, target, "never");
          f.text(" = ");
        }
        return rightToLeft(f, rest[rest.length - 1], "=", stmt.value);
      }
      if (hasTargetOwnParentheses(first) && first.parens === 0) return rightToLeft(f, first, "=", stmt.value);
      formatExpr(f, first);
      f.text(" = ");
      return leftToRight(f, stmt.value);
    }
    case "annassign":
      formatExpr(f, stmt.target);
      f.text(": ");
      if (!stmt.value) return stmt.annotation.k === "await" ? formatExpr(f, stmt.annotation, "always") : leftToRight(f, stmt.annotation);
      if (isSplittable(stmt.annotation)) return rightToLeft(f, stmt.annotation, "=", stmt.value);
      formatExpr(f, stmt.annotation, "never");
      f.text(" = ");
      return leftToRight(f, stmt.value);
    case "augassign":
      if (hasTargetOwnParentheses(stmt.target) && stmt.target.parens === 0) return rightToLeft(f, stmt.target, `${stmt.op}=`, stmt.value);
      formatExpr(f, stmt.target);
      f.text(` ${stmt.op}= `);
      return leftToRight(f, stmt.value);
    case "return":
      f.text("return");
      if (!stmt.value) return;
      f.space();
      if (stmt.value.k === "tuple") return tuple(f, stmt.value, "optionalParentheses");
      return leftToRight(f, stmt.value);
  }
}
