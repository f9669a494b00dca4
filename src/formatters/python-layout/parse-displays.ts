// Parses the bracketed displays of Python expressions: parenthesized expressions and tuples,
// lists, sets, dicts and their comprehensions, keeping magic trailing commas and whether a
// generator has parentheses of its own.

import type { DictItem, Expr, ForClause, Tuple } from "./ast.js";
import type { ExprParser } from "./parse-expr.js";
import { Unsupported } from "./tokens.js";

export function parenthesizedAtom(p: ExprParser): Expr {
  p.s.expect("(");
  if (p.s.eat(")")) return { k: "tuple", elts: [], parenthesized: true, trailingComma: false, parens: 0 };
  if (p.s.at("yield")) throw new Unsupported("yield expressions");
  const first = p.starExpression();
  if (p.s.at("for") || p.s.at("async")) {
    const generators = forClauses(p);
    p.s.expect(")");
    return { k: "generator", elt: first, generators, parenthesized: true, parens: 0 };
  }
  if (p.s.eat(")")) {
    first.parens++;
    return first;
  }
  const tuple = sequenceRest(p, first, ")") as Tuple;
  return { k: "tuple", elts: tuple.elts, parenthesized: true, trailingComma: tuple.trailingComma, parens: 0 };
}

/** The elements after `first` up to and including `close`. */
function sequenceRest(p: ExprParser, first: Expr, close: string): { elts: Expr[]; trailingComma: boolean } {
  const elts = [first];
  let trailingComma = false;
  while (p.s.eat(",")) {
    if (p.s.at(close)) {
      trailingComma = true;
      break;
    }
    elts.push(p.starExpression());
  }
  p.s.expect(close);
  return { elts, trailingComma };
}

export function listAtom(p: ExprParser): Expr {
  p.s.expect("[");
  if (p.s.eat("]")) return { k: "list", elts: [], trailingComma: false, parens: 0 };
  const first = p.starExpression();
  if (p.s.at("for") || p.s.at("async")) {
    const generators = forClauses(p);
    p.s.expect("]");
    return { k: "listcomp", elt: first, generators, parenthesized: true, parens: 0 };
  }
  return { k: "list", ...sequenceRest(p, first, "]"), parens: 0 };
}

export function bracesAtom(p: ExprParser): Expr {
  p.s.expect("{");
  if (p.s.eat("}")) return { k: "dict", items: [], trailingComma: false, parens: 0 };
  if (p.s.eat("**")) return dictRest(p, { key: null, value: p.bitwiseOr() });
  const first = p.starExpression();
  if (p.s.eat(":")) {
    const value = p.expression();
    if (p.s.at("for") || p.s.at("async")) {
      const generators = forClauses(p);
      p.s.expect("}");
      return { k: "dictcomp", key: first, value, generators, parens: 0 };
    }
    return dictRest(p, { key: first, value });
  }
  if (p.s.at("for") || p.s.at("async")) {
    const generators = forClauses(p);
    p.s.expect("}");
    return { k: "setcomp", elt: first, generators, parenthesized: true, parens: 0 };
  }
  return { k: "set", ...sequenceRest(p, first, "}"), parens: 0 };
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
    if (p.s.eat("**")) items.push({ key: null, value: p.bitwiseOr() });
    else {
      const key = p.expression();
      p.s.expect(":");
      items.push({ key, value: p.expression() });
    }
  }
  p.s.expect("}");
  return { k: "dict", items, trailingComma, parens: 0 };
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
