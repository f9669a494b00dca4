// Parses the bracketed displays of Python expressions: parenthesized expressions and tuples,
// lists, sets, dicts and their comprehensions, keeping magic trailing commas, whether a
// generator has parentheses of its own, and own-line comments before an element or before
// the closing bracket (the only places where comments are taken).

import type { DictItem, Expr, ForClause } from "./ast.js";
import type { ExprParser } from "./parse-expr.js";
import { Unsupported } from "./tokens.js";

/** Comments before a construct that does not lay them out (a parenthesized expression, a comprehension). */
function refuseComments(comments: string[] | undefined): void {
  if (comments) throw new Unsupported("a comment inside a statement");
}

/** `expr` with `comments` as its leading comments. */
export function withLeading<T extends { leading?: string[] }>(expr: T, comments: string[] | undefined): T {
  if (comments) expr.leading = comments;
  return expr;
}

export function parenthesizedAtom(p: ExprParser): Expr {
  p.s.expect("(");
  if (p.s.eat(")")) return { k: "tuple", elts: [], parenthesized: true, trailingComma: false, parens: 0 };
  if (p.s.at("yield")) throw new Unsupported("yield expressions");
  const comments = p.s.comments();
  const first = p.starExpression();
  if (p.s.at("for") || p.s.at("async")) {
    refuseComments(comments);
    const generators = forClauses(p);
    p.s.expect(")");
    return { k: "generator", elt: first, generators, parenthesized: true, parens: 0 };
  }
  if (p.s.eat(")")) {
    refuseComments(comments);
    first.parens++;
    return first;
  }
  return { k: "tuple", ...sequenceRest(p, withLeading(first, comments), ")"), parenthesized: true, parens: 0 };
}

/** The elements after `first` up to and including `close`. */
function sequenceRest(p: ExprParser, first: Expr, close: string): { elts: Expr[]; trailingComma: boolean; closingComments?: string[] } {
  const elts = [first];
  let trailingComma = false;
  while (p.s.eat(",")) {
    if (p.s.at(close)) {
      trailingComma = true;
      break;
    }
    const comments = p.s.comments();
    elts.push(withLeading(p.starExpression(), comments));
  }
  const closingComments = p.s.comments();
  p.s.expect(close);
  return closingComments ? { elts, trailingComma, closingComments } : { elts, trailingComma };
}

export function listAtom(p: ExprParser): Expr {
  p.s.expect("[");
  if (p.s.eat("]")) return { k: "list", elts: [], trailingComma: false, parens: 0 };
  const comments = p.s.comments();
  const first = p.starExpression();
  if (p.s.at("for") || p.s.at("async")) {
    refuseComments(comments);
    const generators = forClauses(p);
    p.s.expect("]");
    return { k: "listcomp", elt: first, generators, parenthesized: true, parens: 0 };
  }
  return { k: "list", ...sequenceRest(p, withLeading(first, comments), "]"), parens: 0 };
}

export function bracesAtom(p: ExprParser): Expr {
  p.s.expect("{");
  if (p.s.eat("}")) return { k: "dict", items: [], trailingComma: false, parens: 0 };
  const comments = p.s.comments();
  if (p.s.eat("**")) return dictRest(p, withLeading<DictItem>({ key: null, value: p.bitwiseOr() }, comments));
  const first = p.starExpression();
  if (p.s.eat(":")) {
    const value = p.expression();
    if (p.s.at("for") || p.s.at("async")) {
      refuseComments(comments);
      const generators = forClauses(p);
      p.s.expect("}");
      return { k: "dictcomp", key: first, value, generators, parens: 0 };
    }
    return dictRest(p, { key: withLeading(first, comments), value });
  }
  if (p.s.at("for") || p.s.at("async")) {
    refuseComments(comments);
    const generators = forClauses(p);
    p.s.expect("}");
    return { k: "setcomp", elt: first, generators, parenthesized: true, parens: 0 };
  }
  return { k: "set", ...sequenceRest(p, withLeading(first, comments), "}"), parens: 0 };
}

/** The rest of a dict display whose first item has been read. */
function dictRest(p: ExprParser, first: DictItem): Expr {
  const items: DictItem[] = [first];
  let trailingComma = false;
  while (p.s.eat(",")) {
    if (p.s.at("}")) {
      trailingComma = true;
      break;
    }
    const comments = p.s.comments();
    if (p.s.eat("**")) items.push(withLeading<DictItem>({ key: null, value: p.bitwiseOr() }, comments));
    else {
      const key = withLeading(p.expression(), comments);
      p.s.expect(":");
      items.push({ key, value: p.expression() });
    }
  }
  const closingComments = p.s.comments();
  p.s.expect("}");
  return closingComments ? { k: "dict", items, trailingComma, closingComments, parens: 0 } : { k: "dict", items, trailingComma, parens: 0 };
}

export function forClauses(p: ExprParser): ForClause[] {
  const clauses: ForClause[] = [];
  while (p.s.at("for") || p.s.at("async")) {
    const isAsync = p.s.eat("async");
    p.s.expect("for");
    const target = p.targets();
    p.s.expect("in");
    const iter = p.disjunction();
    const ifs: Expr[] = [];
    while (p.s.eat("if")) ifs.push(p.disjunction());
    clauses.push({ isAsync, target, iter, ifs });
  }
  return clauses;
}
