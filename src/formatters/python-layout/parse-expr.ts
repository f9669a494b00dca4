// A recursive-descent parser for Python expressions (3.11 grammar minus yield and t-strings),
// keeping what layout needs: source parentheses around nodes and magic trailing commas.
// Anything outside the grammar throws `Unsupported`.

import type { Argument, Expr, Keyword, Parameter, Parameters } from "./ast.js";
import { bracesAtom, forClauses, listAtom, parenthesizedAtom, withLeading } from "./parse-displays.js";
import { KEYWORDS, type TokenStream } from "./stream.js";
import { Unsupported } from "./tokens.js";

const COMPARE_OPS = new Set(["==", "!=", "<", ">", "<=", ">="]);
/** Binding strength of the binary operators below comparisons (all left-associative). */
const BINARY_LEVEL = new Map<string, number>([
  ["|", 0], ["^", 1], ["&", 2], ["<<", 3], [">>", 3], ["+", 4], ["-", 4], ["*", 5], ["/", 5], ["//", 5], ["%", 5], ["@", 5],
]);

/** Parses expressions from a token stream positioned where one starts. */
export class ExprParser {
  constructor(readonly s: TokenStream) {}

  /** `a`, `a, b`, `*a, b` (a tuple without parentheses when there is a comma). */
  starExpressions(): Expr {
    const first = this.starExpression();
    if (!this.s.at(",")) return first;
    const elts = [first];
    let trailingComma = false;
    while (this.s.eat(",")) {
      if (this.endsList()) {
        trailingComma = true;
        break;
      }
      elts.push(this.starExpression());
    }
    return { k: "tuple", elts, parenthesized: false, trailingComma, parens: 0 };
  }

  /** Targets of `for` and comprehensions: stops before `in`. */
  targets(): Expr {
    const first = this.target();
    if (!this.s.at(",")) return first;
    const elts = [first];
    let trailingComma = false;
    while (this.s.eat(",")) {
      if (this.s.at("in") || this.s.at("=")) {
        trailingComma = true;
        break;
      }
      elts.push(this.target());
    }
    return { k: "tuple", elts, parenthesized: false, trailingComma, parens: 0 };
  }

  /** One assignment target (`a`, `a.b`, `a[0]`, `(a, b)`), as after `with ... as`. */
  target(): Expr {
    if (this.s.eat("*")) return { k: "starred", value: this.binary(0), parens: 0 };
    return this.binary(0);
  }

  private endsList(): boolean {
    const token = this.s.peek();
    return token === undefined || [")", "]", "}", "=", ":", ";"].includes(token.text) || this.s.at("in");
  }

  starExpression(): Expr {
    if (this.s.eat("*")) return { k: "starred", value: this.binary(0), parens: 0 };
    return this.namedExpression();
  }

  namedExpression(): Expr {
    if (this.s.atName() && this.s.at(":=", 1)) {
      const target: Expr = { k: "name", id: this.s.name(), parens: 0 };
      this.s.expect(":=");
      return { k: "named", target, value: this.expression(), parens: 0 };
    }
    return this.expression();
  }

  expression(): Expr {
    if (this.s.at("lambda")) return this.lambda();
    const body = this.disjunction();
    if (!this.s.at("if")) return body;
    this.s.expect("if");
    const test = this.disjunction();
    this.s.expect("else");
    return { k: "ifexp", body, test, orelse: this.expression(), parens: 0 };
  }

  /** An expression without conditional or lambda (comprehension `if` clauses). */
  disjunction(): Expr {
    return this.boolean("or", () => this.boolean("and", () => this.inversion()));
  }

  private boolean(op: "and" | "or", operand: () => Expr): Expr {
    const first = operand();
    if (!this.s.at(op)) return first;
    const values = [first];
    while (this.s.eat(op)) values.push(operand());
    return { k: "boolop", op, values, parens: 0 };
  }

  private inversion(): Expr {
    if (this.s.eat("not")) return { k: "unary", op: "not", operand: this.inversion(), parens: 0 };
    return this.comparison();
  }

  private comparison(): Expr {
    const left = this.binary(0);
    const ops: string[] = [];
    const comparators: Expr[] = [];
    for (;;) {
      const op = this.compareOperator();
      if (!op) break;
      ops.push(op);
      comparators.push(this.binary(0));
    }
    return ops.length === 0 ? left : { k: "compare", left, ops, comparators, parens: 0 };
  }

  private compareOperator(): string | undefined {
    const token = this.s.peek();
    if (!token) return undefined;
    if (token.kind === "op" && COMPARE_OPS.has(token.text)) return this.s.tokens[this.s.pos++].text;
    if (this.s.eat("in")) return "in";
    if (this.s.at("not") && this.s.at("in", 1)) {
      this.s.pos += 2;
      return "not in";
    }
    if (this.s.eat("is")) return this.s.eat("not") ? "is not" : "is";
    return undefined;
  }

  /** Operands joined by binary operators binding at least as tightly as `level` (precedence climbing). */
  /** `a | b`, the loosest binary operators, and everything tighter. */
  bitwiseOr(): Expr {
    return this.binary(0);
  }

  private binary(level: number): Expr {
    let left = this.factor();
    for (;;) {
      const token = this.s.peek();
      const opLevel = token?.kind === "op" ? BINARY_LEVEL.get(token.text) : undefined;
      if (opLevel === undefined || opLevel < level) return left;
      this.s.pos++;
      left = { k: "binop", op: token!.text, left, right: this.binary(opLevel + 1), parens: 0 };
    }
  }

  private factor(): Expr {
    const token = this.s.peek();
    if (token?.kind === "op" && (token.text === "-" || token.text === "+" || token.text === "~")) {
      this.s.pos++;
      return { k: "unary", op: token.text, operand: this.factor(), parens: 0 };
    }
    const base = this.awaitPrimary();
    if (!this.s.eat("**")) return base;
    return { k: "binop", op: "**", left: base, right: this.factor(), parens: 0 };
  }

  private awaitPrimary(): Expr {
    if (this.s.eat("await")) return { k: "await", value: this.primary(), parens: 0 };
    return this.primary();
  }

  private primary(): Expr {
    let expr = this.atom();
    for (;;) {
      if (this.s.eat(".")) expr = { k: "attr", value: expr, attr: this.s.name(), parens: 0 };
      else if (this.s.at("(")) expr = this.call(expr);
      else if (this.s.eat("[")) {
        expr = { k: "subscript", value: expr, slice: this.slices(), parens: 0 };
        this.s.expect("]");
      } else return expr;
    }
  }

  call(func: Expr): Expr & { k: "call" } {
    this.s.expect("(");
    const args: Argument[] = [];
    let trailingComma = false;
    while (!this.s.at(")")) {
      const comments = this.s.comments();
      if (this.s.eat("*")) args.push({ k: "arg", value: withLeading<Expr>({ k: "starred", value: this.expression(), parens: 0 }, comments) });
      else if (this.s.eat("**")) args.push(withLeading<Keyword>({ k: "keyword", name: null, value: this.expression() }, comments));
      else if (this.s.atName() && this.s.at("=", 1)) {
        const name = this.s.name();
        this.s.expect("=");
        args.push(withLeading<Keyword>({ k: "keyword", name, value: this.expression() }, comments));
      } else {
        const value = this.namedExpression();
        if (this.s.at("for") || this.s.at("async")) {
          if (comments) throw new Unsupported("a comment inside a statement");
          args.push({ k: "arg", value: { k: "generator", elt: value, generators: forClauses(this), parenthesized: false, parens: 0 } });
        } else args.push({ k: "arg", value: withLeading(value, comments) });
      }
      if (!this.s.eat(",")) break;
      if (this.s.at(")")) trailingComma = true;
    }
    // Comments before `)` of an empty call are not laid out (and so not taken).
    const closingComments = args.length > 0 ? this.s.comments() : undefined;
    this.s.expect(")");
    return closingComments ? { k: "call", func, args, trailingComma, closingComments, parens: 0 } : { k: "call", func, args, trailingComma, parens: 0 };
  }

  private slices(): Expr {
    const first = this.slice();
    if (!this.s.at(",")) return first;
    const elts = [first];
    let trailingComma = false;
    while (this.s.eat(",")) {
      if (this.s.at("]")) {
        trailingComma = true;
        break;
      }
      elts.push(this.slice());
    }
    return { k: "tuple", elts, parenthesized: false, trailingComma, parens: 0 };
  }

  private slice(): Expr {
    if (this.s.at("*")) return this.starExpression();
    const lower = this.s.at(":") ? null : this.namedExpression();
    if (!this.s.eat(":")) return lower!;
    const upper = this.s.at(":") || this.s.at("]") || this.s.at(",") ? null : this.expression();
    const hasStepColon = this.s.eat(":");
    const step = hasStepColon && !this.s.at("]") && !this.s.at(",") ? this.expression() : null;
    return { k: "slice", lower, upper, step, hasStepColon, parens: 0 };
  }

  private atom(): Expr {
    const token = this.s.peek();
    if (!token) throw new Unsupported("an expression ends early");
    if (token.kind === "number") {
      this.s.pos++;
      return { k: "literal", kind: "number", text: token.text, parens: 0 };
    }
    if (token.kind === "string") {
      this.s.pos++;
      if (this.s.peek()?.kind !== "string") return { k: "literal", kind: "string", text: token.text, parens: 0 };
      const parts = [token.text];
      let partsOnSeveralLines = false;
      for (let next = this.s.peek(); next?.kind === "string"; next = this.s.peek()) {
        partsOnSeveralLines ||= next.afterNewline;
        parts.push(next.text);
        this.s.pos++;
      }
      return { k: "literal", kind: "string", text: parts.join(" "), parts, partsOnSeveralLines, parens: 0 };
    }
    if (token.kind === "name") {
      if (token.text === "None") return this.keywordLiteral("none");
      if (token.text === "True" || token.text === "False") return this.keywordLiteral("bool");
      if (KEYWORDS.has(token.text)) throw new Unsupported(`the keyword ${JSON.stringify(token.text)} in an expression`);
      this.s.pos++;
      return { k: "name", id: token.text, parens: 0 };
    }
    if (token.text === "...") return this.keywordLiteral("ellipsis");
    if (token.text === "(") return parenthesizedAtom(this);
    if (token.text === "[") return listAtom(this);
    if (token.text === "{") return bracesAtom(this);
    throw new Unsupported(`unexpected ${JSON.stringify(token.text)}`);
  }

  private keywordLiteral(kind: "none" | "bool" | "ellipsis"): Expr {
    return { k: "literal", kind, text: this.s.tokens[this.s.pos++].text, parens: 0 };
  }

  private lambda(): Expr {
    this.s.expect("lambda");
    const params = this.s.at(":") ? null : this.parameters(":", false);
    this.s.expect(":");
    return { k: "lambda", params, body: this.expression(), parens: 0 };
  }

  /** Parameters up to (not including) `close`; `annotated` for `def`, not for `lambda`. */
  parameters(close: string, annotated: boolean): Parameters {
    const params: Parameters = { posonly: [], args: [], vararg: null, kwonly: [], kwarg: null, trailingComma: false };
    let afterStar = false;
    while (!this.s.at(close)) {
      if (this.s.eat("/")) {
        params.posonly = params.args;
        params.args = [];
      } else if (this.s.eat("**")) params.kwarg = this.parameter(annotated, false);
      else if (this.s.eat("*")) {
        afterStar = true;
        if (!this.s.at(",") && !this.s.at(close)) params.vararg = this.parameter(annotated, false);
      } else (afterStar ? params.kwonly : params.args).push(this.parameter(annotated, true));
      if (!this.s.eat(",")) break;
      if (this.s.at(close)) params.trailingComma = true;
    }
    return params;
  }

  private parameter(annotated: boolean, withDefault: boolean): Parameter {
    const name = this.s.name();
    const annotation = annotated && this.s.eat(":") ? this.expression() : null;
    const value = withDefault && this.s.eat("=") ? this.expression() : null;
    return { name, annotation, default: value };
  }
}
