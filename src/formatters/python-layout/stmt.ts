// Lays out one statement, or a compound statement's header, as ruff does: which expression
// gets optional parentheses and how (`raise` keeps source parentheses, `assert` splits its
// message first, `with` parenthesizes its items, `def` groups parameters with the return type).

import { assignment } from "./assign.js";
import type { Alias, Expr, Stmt, WithItem } from "./ast.js";
import { callArguments } from "./chain.js";
import { CommaJoiner, joinExprs, tuple } from "./collections.js";
import type { DocBuilder } from "./doc.js";
import { formatExpr, maybeParenthesize } from "./expr.js";
import { parameters } from "./parameters.js";
import { canOmitOptionalParentheses } from "./needs.js";
import { optionalParentheses, parenthesizeIfExpands } from "./parentheses.js";

const ARITHMETIC_LIKE = new Set(["|", "^", "<<", ">>", "+", "-"]);

export function statement(f: DocBuilder, stmt: Stmt): void {
  switch (stmt.k) {
    case "assign":
    case "annassign":
    case "augassign":
    case "return":
      return assignment(f, stmt);
    case "expr":
      if (stmt.value.k === "binop" && ARITHMETIC_LIKE.has(stmt.value.op)) return maybeParenthesize(f, stmt.value, "other", "optional");
      return formatExpr(f, stmt.value);
    case "raise":
      f.text("raise");
      if (stmt.exc) {
        f.space();
        maybeParenthesize(f, stmt.exc, "other", "optional");
      }
      if (stmt.cause) {
        f.text(" from ");
        maybeParenthesize(f, stmt.cause, "other", "optional");
      }
      return;
    case "assert":
      f.text("assert ");
      maybeParenthesize(f, stmt.test, "other", "ifBreaks");
      if (stmt.msg) {
        f.text(", ");
        maybeParenthesize(f, stmt.msg, "other", "ifBreaksParenthesized");
      }
      return;
    case "del":
      f.text("del ");
      if (stmt.targets.length === 1 && !stmt.trailingComma) return maybeParenthesize(f, stmt.targets[0], "other", "ifBreaks");
      return parenthesizeIfExpands(f, () => joinExprs(f, stmt.targets, stmt.trailingComma));
    case "keyword":
      return f.text(stmt.word);
    case "import":
      return f.text(`import ${stmt.names.map(aliasText).join(", ")}`);
    case "importfrom":
      return importFrom(f, stmt);
    case "global":
      return globalNames(f, stmt.word, stmt.names);
    case "decorator":
      f.text("@");
      return maybeParenthesize(f, stmt.expr, "other", "optional");
    default:
      header(f, stmt);
      f.text(":");
      if ((stmt.k === "def" || stmt.k === "class") && stmt.stub) f.text(" ...");
  }
}

function aliasText(alias: Alias): string {
  return alias.asname ? `${alias.name} as ${alias.asname}` : alias.name;
}

function importFrom(f: DocBuilder, stmt: Stmt & { k: "importfrom" }): void {
  f.text(`from ${".".repeat(stmt.level)}${stmt.module ?? ""} import `);
  const names = stmt.names;
  if (names === "*") return f.text("*");
  parenthesizeIfExpands(f, () => {
    const joiner = new CommaJoiner(f);
    for (const name of names) joiner.entry(() => f.text(aliasText(name)));
    joiner.finish(stmt.trailingComma, true);
  });
}

function globalNames(f: DocBuilder, word: string, names: readonly string[]): void {
  f.text(`${word} `);
  f.group(() => {
    f.ifBreaks(() => f.text("\\"));
    f.softLine();
    f.softBlockIndent(() =>
      names.forEach((name, index) => {
        if (index > 0) {
          f.text(", ");
          f.ifBreaks(() => f.text("\\"));
          f.softLine();
        }
        f.text(name);
      }),
    );
  });
}

/** A compound statement's header, without its colon. */
function header(f: DocBuilder, stmt: Stmt): void {
  switch (stmt.k) {
    case "def":
      f.text(`${stmt.isAsync ? "async " : ""}def ${stmt.name}`);
      return f.group(() => {
        parameters(f, stmt.params);
        const returns = stmt.returns;
        if (!returns) return;
        f.text(" -> ");
        if (returns.k === "tuple") return formatExpr(f, returns, "never");
        const noParameters = stmt.params.posonly.length + stmt.params.args.length + stmt.params.kwonly.length === 0 && !stmt.params.vararg && !stmt.params.kwarg;
        maybeParenthesize(f, returns, noParameters ? "returnAnnotationNoParams" : "returnAnnotation", noParameters ? "ifBreaksParenthesized" : "ifBreaks");
      });
    case "class":
      f.text(`class ${stmt.name}`);
      if (stmt.args && stmt.args.args.length > 0) callArguments(f, stmt.args);
      return;
    case "test":
      f.text(`${stmt.word} `);
      return maybeParenthesize(f, stmt.test, "other", "ifBreaks");
    case "for":
      f.text(`${stmt.isAsync ? "async " : ""}for `);
      if (stmt.target.k === "tuple") tuple(f, stmt.target, "neverPreserve");
      else maybeParenthesize(f, stmt.target, "other", "ifBreaks");
      f.text(" in ");
      return maybeParenthesize(f, stmt.iter, "other", "ifBreaks");
    case "with":
      f.text(`${stmt.isAsync ? "async " : ""}with `);
      return withItems(f, stmt.items, stmt.trailingComma);
    case "except":
      f.text(stmt.star ? "except*" : "except");
      if (!stmt.type) return;
      f.space();
      maybeParenthesize(f, stmt.type, "other", "ifBreaks");
      if (stmt.name) f.text(` as ${stmt.name}`);
      return;
    case "clause":
      return f.text(stmt.word);
    default:
      throw new Error(`python formatter bug: ${stmt.k} is not a compound statement`);
  }
}

function withItems(f: DocBuilder, items: readonly WithItem[], trailingComma: boolean): void {
  const [single] = items;
  const expandable = () =>
    parenthesizeIfExpands(f, () => {
      const joiner = new CommaJoiner(f);
      for (const item of items) joiner.entry(() => withItem(f, item, false));
      joiner.finish(trailingComma);
    });
  if (trailingComma || items.length > 1) return expandable();
  if (single.expr.parens > 0 || !single.vars) return withItem(f, single, true);
  if (canOmitOptionalParentheses(single.expr)) return optionalParentheses(f, () => withItem(f, single, false));
  expandable();
}

/** `expr as vars`; `alone` when it is the only item and decides its own parentheses. */
function withItem(f: DocBuilder, item: WithItem, alone: boolean): void {
  const expr: Expr = item.expr;
  if (alone) maybeParenthesize(f, expr, "other", "ifBreaks");
  else if (expr.parens > 0) maybeParenthesize(f, expr, "other", "ifBreaksParenthesizedNested");
  else formatExpr(f, expr, "never");
  if (!item.vars) return;
  f.text(" as ");
  formatExpr(f, item.vars);
}
