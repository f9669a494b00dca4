// Random Python of the class formatPython lays out: statements and compound headers built
// from names, literals, calls, chains, subscripts, collections, comprehensions, operators,
// conditionals, lambdas and awaits, own-line comments in displays and calls, with identifier
// lengths that put lines around 88 columns.
// Expressions carry their precedence so that parentheses appear only where Python needs them.

import fc from "fast-check";

/** Python's binding strength, loosest first; an operand looser than its slot gets parentheses. */
const enum Prec {
  Lambda = 0,
  IfExp = 1,
  Or = 2,
  And = 3,
  Not = 4,
  Compare = 5,
  BitOr = 6,
  BitXor = 7,
  BitAnd = 8,
  Shift = 9,
  Arith = 10,
  Term = 11,
  Unary = 12,
  Power = 13,
  Await = 14,
  Primary = 15,
}

interface Py {
  text: string;
  prec: Prec;
}

const KEYWORDS = new Set(["and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield", "None", "True", "False", "match", "case", "type"]);

const at = (py: Py, min: Prec): string => (py.prec >= min ? py.text : `(${py.text})`);
const py = (text: string, prec: Prec): Py => ({ text, prec });

export const identifier: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_"), fc.stringMatching(/^[a-z0-9_]{0,22}$/))
  .map(([head, tail]) => (KEYWORDS.has(head + tail) ? `${head}${tail}_x` : head + tail));

const word = fc.stringMatching(/^[a-z]{1,12}$/);
const stringLiteral = fc.oneof(
  { weight: 8, arbitrary: fc.array(word, { minLength: 0, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.array(word, { minLength: 10, maxLength: 16 }) },
).map((words) => `"${words.join(" ")}"`);
const fString = fc.tuple(word, identifier, word).map(([before, name, after]) => `f"${before} {${name}} ${after}"`);
const number = fc.oneof(fc.integer({ min: 0, max: 100000 }).map(String), fc.constantFrom("1.5", "0x1F", "1_000"));

const leaf: fc.Arbitrary<Py> = fc.oneof(
  { weight: 6, arbitrary: identifier.map((name) => py(name, Prec.Primary)) },
  { weight: 2, arbitrary: stringLiteral.map((text) => py(text, Prec.Primary)) },
  { weight: 1, arbitrary: fString.map((text) => py(text, Prec.Primary)) },
  { weight: 1, arbitrary: number.map((text) => py(text, Prec.Primary)) },
  { weight: 1, arbitrary: fc.constantFrom("None", "True", "False", "...").map((text) => py(text, Prec.Primary)) },
);

const BINARY: ReadonlyArray<[string, Prec]> = [["+", Prec.Arith], ["-", Prec.Arith], ["*", Prec.Term], ["/", Prec.Term], ["//", Prec.Term], ["%", Prec.Term], ["@", Prec.Term], ["|", Prec.BitOr], ["&", Prec.BitAnd], ["^", Prec.BitXor], ["<<", Prec.Shift], ["**", Prec.Power]];
const COMPARE = ["==", "!=", "<", ">=", "in", "not in", "is", "is not"];

function binary(left: Py, [op, prec]: [string, Prec], right: Py): Py {
  // Left-associative except `**`; a unary operand on the right of `**` needs no parentheses.
  if (op === "**") return py(`${at(left, Prec.Await)} ** ${at(right, Prec.Unary)}`, Prec.Power);
  return py(`${at(left, prec)} ${op} ${at(right, prec + 1)}`, prec);
}

/** A comment as written (`# words`) or to be normalized (`#words`). */
const comment = fc.tuple(fc.boolean(), fc.array(word, { minLength: 1, maxLength: 8 })).map(([spaced, words]) => `#${spaced ? " " : ""}${words.join(" ")}`);

const primary = (p: Py) => (p.prec >= Prec.Primary && !/^\d/.test(p.text) ? p.text : `(${p.text})`);

interface Exprs {
  expr: fc.Arbitrary<Py>;
  primary: fc.Arbitrary<Py>;
  disjunction: fc.Arbitrary<Py>;
  /** A display or call with own-line comments (see `commentedDisplay`). */
  commented: fc.Arbitrary<Py>;
}

/**
 * A display or call with own-line comments before elements and before the closing bracket,
 * written expanded (magic trailing commas) as ruff keeps it. Only where no enclosing group has
 * to expand with it (a statement's value, an element of another) do its lines survive the
 * canonicalization, so other expressions never contain one.
 */
function commentedDisplay(element: fc.Arbitrary<Py>, callee: fc.Arbitrary<Py>): fc.Arbitrary<Py> {
  return fc
    .tuple(fc.constantFrom("(", "[", "{", "call"), callee, fc.array(fc.tuple(fc.option(comment, { nil: undefined }), element), { minLength: 1, maxLength: 3 }), fc.option(comment, { nil: undefined }))
    .map(([open, func, elts, closing]) => {
      const lines = elts.flatMap(([before, e]) => [...(before ? [before] : []), `${at(e, open === "{" ? Prec.Or : Prec.Lambda)},`]);
      if (closing) lines.push(closing);
      const [start, end] = open === "call" ? [`${primary(func)}(`, ")"] : [open, open === "(" ? ")" : open === "[" ? "]" : "}"];
      return py(`${start}\n${lines.join("\n")}\n${end}`, Prec.Primary);
    });
}

const levels: Exprs[] = [];

/** Expressions nested at most `depth` deep (0: leaves only), so that lines stay around a few hundred columns. */
function exprsAt(depth: number): Exprs {
  if (levels[depth]) return levels[depth];
  if (depth === 0) return (levels[0] = { expr: leaf, primary: leaf, disjunction: leaf, commented: commentedDisplay(leaf, leaf) });
  const sub = exprsAt(depth - 1);
  const expr = sub.expr;
  const small = sub.primary;
  const argument = fc.oneof(
    { weight: 5, arbitrary: expr.map((e) => at(e, Prec.Lambda)) },
    { weight: 2, arbitrary: fc.tuple(identifier, expr).map(([name, e]) => `${name}=${at(e, Prec.Lambda)}`) },
    { weight: 1, arbitrary: small.map((e) => `*${at(e, Prec.BitOr)}`) },
    { weight: 1, arbitrary: small.map((e) => `**${at(e, Prec.BitOr)}`) },
  );
  // Positional arguments (and `*args`) first, keywords (and `**kwargs`) after.
  const isKeyword = (a: string) => /^\w+=|^\*\*/.test(a);
  const argumentList = fc.array(argument, { maxLength: 3 }).map((args) => [...args.filter((a) => !isKeyword(a)), ...args.filter(isKeyword)].join(", "));
  const comprehension = fc.tuple(expr, identifier, sub.disjunction, fc.option(sub.disjunction, { nil: undefined }));
  const forClause = ([, target, iter, cond]: [Py, string, Py, Py | undefined]) => `for ${target} in ${at(iter, Prec.Or)}${cond ? ` if ${at(cond, Prec.Or)}` : ""}`;
  const primaryArb: fc.Arbitrary<Py> = fc.oneof(
    { weight: 3, arbitrary: leaf },
    fc.tuple(small, identifier).map(([value, attr]) => py(`${primary(value)}.${attr}`, Prec.Primary)),
    { weight: 3, arbitrary: fc.tuple(small, argumentList).map(([func, args]) => py(`${primary(func)}(${args})`, Prec.Primary)) },
    fc.tuple(small, fc.array(expr, { minLength: 1, maxLength: 3 })).map(([value, index]) => py(`${primary(value)}[${index.map((e) => at(e, Prec.Or)).join(", ")}]`, Prec.Primary)),
    // Method chains, the fluent style's subject.
    fc.tuple(identifier, fc.array(fc.tuple(identifier, argumentList), { minLength: 2, maxLength: 4 })).map(([root, calls]) => py(`${root}${calls.map(([name, args]) => `.${name}(${args})`).join("")}`, Prec.Primary)),
    comprehension.map((c) => py(`any(${at(c[0], Prec.Or)} ${forClause(c)})`, Prec.Primary)),
    comprehension.map((c) => py(`[${at(c[0], Prec.Or)} ${forClause(c)}]`, Prec.Primary)),
    comprehension.map((c) => py(`{${at(c[0], Prec.Or)}: ${at(c[0], Prec.Or)} ${forClause(c)}}`, Prec.Primary)),
    fc.array(fc.tuple(expr, fc.boolean()), { maxLength: 4 }).map((elts) => py(`[${elts.map(([e, star]) => (star && e.prec >= Prec.BitOr ? `*${e.text}` : at(e, Prec.Lambda))).join(", ")}]`, Prec.Primary)),
    comprehension.map((c) => py(`{${at(c[0], Prec.Or)} ${forClause(c)}}`, Prec.Primary)),
    comprehension.map((c) => py(`(${at(c[0], Prec.Or)} ${forClause(c)})`, Prec.Primary)),
    fc.tuple(small, fc.array(fc.tuple(expr, expr), { maxLength: 2 })).map(([spread, items]) => py(`{**${primary(spread)}${items.map(([k, v]) => `, ${at(k, Prec.Or)}: ${at(v, Prec.Lambda)}`).join("")}}`, Prec.Primary)),
    fc.array(expr, { minLength: 2, maxLength: 4 }).map((elts) => py(`(${elts.map((e) => at(e, Prec.Lambda)).join(", ")})`, Prec.Primary)),
    expr.map((e) => py(`(${at(e, Prec.Lambda)},)`, Prec.Primary)),
    fc.array(fc.tuple(expr, expr), { maxLength: 3 }).map((items) => py(`{${items.map(([k, v]) => `${at(k, Prec.Or)}: ${at(v, Prec.Lambda)}`).join(", ")}}`, Prec.Primary)),
    fc.array(expr, { minLength: 1, maxLength: 3 }).map((elts) => py(`{${elts.map((e) => at(e, Prec.Or)).join(", ")}}`, Prec.Primary)),
  );
  const operand = fc.oneof(primaryArb, sub.disjunction);
  const disjunction: fc.Arbitrary<Py> = fc.oneof(
    { weight: 4, arbitrary: primaryArb },
    fc.tuple(operand, fc.constantFrom(...BINARY), operand).map(([a, op, b]) => binary(a, op, b)),
    fc.tuple(operand, fc.constantFrom(...COMPARE), operand).map(([a, op, b]) => py(`${at(a, Prec.BitOr)} ${op} ${at(b, Prec.BitOr)}`, Prec.Compare)),
    fc.tuple(operand, fc.constantFrom("and", "or"), operand).map(([a, op, b]) => {
      const prec = op === "and" ? Prec.And : Prec.Or;
      return py(`${at(a, prec)} ${op} ${at(b, prec + 1)}`, prec);
    }),
    operand.map((e) => py(`not ${at(e, Prec.Not)}`, Prec.Not)),
    fc.tuple(fc.constantFrom("-", "+", "~"), small).map(([op, e]) => py(`${op}${at(e, Prec.Unary)}`, Prec.Unary)),
    fc.tuple(operand, operand, operand).map(([a, b, c]) => py(`${at(a, Prec.BitOr)} < ${at(b, Prec.BitOr)} <= ${at(c, Prec.BitOr)}`, Prec.Compare)),
    // Not `await (x for x in y)`: ruff's layout of it is not stable across line widths.
    small.filter((e) => !e.text.startsWith("(")).map((e) => py(`await ${primary(e)}`, Prec.Await)),
  );
  const exprArb: fc.Arbitrary<Py> = fc.oneof(
    { weight: 6, arbitrary: disjunction },
    fc.tuple(sub.disjunction, sub.disjunction, sub.expr).map(([body, test, orelse]) => py(`${at(body, Prec.Or)} if ${at(test, Prec.Or)} else ${at(orelse, Prec.IfExp)}`, Prec.IfExp)),
    fc.tuple(fc.array(identifier, { maxLength: 3 }), fc.option(sub.primary, { nil: undefined }), fc.boolean(), sub.expr).map(([params, fallback, star, body]) => {
      const all = [...params, ...(fallback ? [`fallback=${fallback.text}`] : []), ...(star ? ["*rest", "**options"] : [])];
      return py(`lambda${all.length ? ` ${all.join(", ")}` : ""}: ${at(body, Prec.Lambda)}`, Prec.Lambda);
    }),
  );
  const commented = commentedDisplay(fc.oneof({ weight: 4, arbitrary: exprArb }, sub.commented), small);
  return (levels[depth] = { expr: exprArb, primary: primaryArb, disjunction, commented });
}

const exprs = fc.constantFrom(1, 1, 1, 2, 2, 2, 3).chain((depth) => fc.constant(exprsAt(depth)));
const exprsOf = <T>(pick: (level: Exprs) => fc.Arbitrary<T>): fc.Arbitrary<T> => exprs.chain(pick);
const exprsShape = { expr: exprsOf((l) => l.expr), primary: exprsOf((l) => l.primary), disjunction: exprsOf((l) => l.disjunction), commented: exprsOf((l) => l.commented) };

const expr = exprsShape.expr;
const target = fc.oneof(
  identifier,
  fc.tuple(exprsShape.primary, identifier).map(([value, attr]) => `${primary(value)}.${attr}`),
  fc.tuple(exprsShape.primary, expr).map(([value, index]) => `${primary(value)}[${at(index, Prec.Or)}]`),
);
const value = expr.map((e) => at(e, Prec.Lambda));
const call = fc.tuple(exprsShape.primary, fc.array(value, { maxLength: 3 })).map(([func, args]) => `${primary(func)}(${args.join(", ")})`);

/** Annotations are never lambdas or conditionals (ruff's layout of those is not stable). */
const annotation = exprsShape.disjunction;
const parameter = fc.tuple(identifier, fc.option(annotation, { nil: undefined }), fc.option(expr, { nil: undefined })).map(([name, hint, fallback]) => {
  const text = hint ? `${name}: ${at(hint, Prec.Or)}` : name;
  return { text: fallback ? `${text}${hint ? " = " : "="}${at(fallback, Prec.Lambda)}` : text, hasDefault: fallback !== undefined };
});
const parameters = fc.tuple(fc.array(parameter, { maxLength: 4 }), fc.boolean(), fc.boolean()).map(([params, varargs, kwargs]) => {
  // Parameters with defaults must follow those without.
  const sorted = [...params.filter((p) => !p.hasDefault), ...params.filter((p) => p.hasDefault)].map((p) => p.text);
  return [...sorted, ...(varargs ? ["*args"] : []), ...(kwargs ? ["**kwargs"] : [])].join(", ");
});

/** One case: a complete module whose interesting line is `line`, inside `context`. */
export interface Case {
  /** Lines before the statement (function wrappers, preceding clauses), each with its indent. */
  before: string[];
  line: string;
  after: string[];
}

const indent = (depth: number) => "    ".repeat(depth);

function inFunction(line: string, isAsync: boolean, depth: number): Case {
  const before = [`${isAsync ? "async " : ""}def f():`];
  for (let level = 1; level < depth; level++) before.push(`${indent(level)}if True:`);
  return { before, line: `${indent(Math.max(depth, 1))}${line}`, after: [] };
}

function header(line: string, depth: number, before: string[] = []): Case {
  const wrap: string[] = [];
  for (let level = 0; level < depth; level++) wrap.push(`${indent(level)}if True:`);
  return { before: [...wrap, ...before.map((text) => indent(depth) + text)], line: indent(depth) + line, after: [`${indent(depth + 1)}pass`] };
}

const depth = fc.integer({ min: 0, max: 3 });

/** `async for` and `async with` need an enclosing `async def`. */
function inAsync(c: Case, isAsync: boolean): Case {
  if (!isAsync) return c;
  return { before: ["async def f():", ...c.before.map((line) => `    ${line}`)], line: `    ${c.line}`, after: c.after.map((line) => `    ${line}`) };
}

const simpleStatement = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(target, exprsShape.commented).map(([t, v]) => `${t} = ${v.text}`) },
  { weight: 2, arbitrary: exprsShape.commented.map((v) => `return ${v.text}`) },
  fc.tuple(target, value).map(([t, v]) => `${t} = ${v}`),
  fc.tuple(target, target, value).map(([a, b, v]) => `${a} = ${b} = ${v}`),
  fc.array(identifier, { minLength: 1, maxLength: 6 }).map((names) => `global ${[...new Set(names)].join(", ")}`),
  fc.constant("raise"),
  fc.tuple(identifier, identifier, value).map(([a, b, v]) => `${a}, ${b} = ${v}`),
  fc.tuple(identifier, annotation, fc.option(value, { nil: undefined })).map(([t, hint, v]) => `${t}: ${at(hint, Prec.Or)}${v ? ` = ${v}` : ""}`),
  fc.tuple(target, fc.constantFrom("+=", "-=", "|="), value).map(([t, op, v]) => `${t} ${op} ${v}`),
  value.map((v) => `return ${v}`),
  fc.array(value, { minLength: 2, maxLength: 3 }).map((vs) => `return ${vs.join(", ")}`),
  fc.tuple(call, fc.option(identifier, { nil: undefined })).map(([c, cause]) => `raise ${c}${cause ? ` from ${cause}` : ""}`),
  fc.tuple(exprsShape.disjunction, fc.option(value, { nil: undefined })).map(([test, msg]) => `assert ${at(test, Prec.Or)}${msg ? `, ${msg}` : ""}`),
  call,
  call.map((c) => `await ${c}`),
  fc.array(target, { minLength: 1, maxLength: 3 }).map((ts) => `del ${ts.join(", ")}`),
  fc.tuple(fc.array(identifier, { minLength: 1, maxLength: 3 }), fc.array(identifier, { minLength: 1, maxLength: 8 })).map(([module, names]) => `from ${module.join(".")} import ${[...new Set(names)].join(", ")}`),
);

export const caseArbitrary: fc.Arbitrary<Case> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(simpleStatement, depth).map(([line, d]) => inFunction(line, true, d)) },
  { weight: 2, arbitrary: fc.tuple(fc.boolean(), identifier, parameters, fc.option(annotation, { nil: undefined }), depth, fc.boolean()).map(([isAsync, name, params, returns, d, stub]) => {
    const line = `${isAsync ? "async " : ""}def ${name}(${params})${returns ? ` -> ${at(returns, Prec.Or)}` : ""}:`;
    // A body of `...` stays on the header's line.
    return stub ? { ...header(line, d), line: `${indent(d)}${line} ...`, after: [] } : header(line, d);
  }) },
  { weight: 1, arbitrary: fc.tuple(identifier, fc.array(value, { maxLength: 4 }), fc.option(value, { nil: undefined }), depth).map(([name, bases, meta, d]) => {
    const args = [...bases, ...(meta ? [`metaclass=${meta}`] : [])];
    return header(`class ${name}${args.length ? `(${args.join(", ")})` : ""}:`, d);
  }) },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(call, target), depth).map(([decorator, d]) => header("def decorated():", d, [`@${decorator}`])) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("if", "while"), expr, depth).map(([word, test, d]) => header(`${word} ${at(test, Prec.IfExp)}:`, d)) },
  { weight: 1, arbitrary: fc.tuple(expr, depth).map(([test, d]) => header(`elif ${at(test, Prec.IfExp)}:`, d, ["if x:", "    pass"])) },
  { weight: 1, arbitrary: fc.tuple(fc.boolean(), fc.array(identifier, { minLength: 1, maxLength: 3 }), value, depth).map(([isAsync, names, iter, d]) => inAsync(header(`${isAsync ? "async " : ""}for ${names.join(", ")} in ${iter}:`, d), isAsync)) },
  { weight: 1, arbitrary: fc.tuple(fc.boolean(), fc.array(fc.tuple(fc.oneof(call, value), fc.option(identifier, { nil: undefined })), { minLength: 1, maxLength: 3 }), depth).map(([isAsync, items, d]) => inAsync(header(`${isAsync ? "async " : ""}with ${items.map(([c, v]) => (v ? `${c} as ${v}` : c)).join(", ")}:`, d), isAsync)) },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(exprsShape.primary, fc.array(identifier, { minLength: 2, maxLength: 4 }).map((names) => py(`(${names.join(", ")})`, Prec.Primary))), fc.option(identifier, { nil: undefined }), depth).map(([type, name, d]) => header(`except ${primary(type)}${name ? ` as ${name}` : ""}:`, d, ["try:", "    pass"])) },
);

export function caseSource(c: Case): string {
  return [...c.before, c.line, ...c.after].join("\n") + "\n";
}
