"""Checks generated Python literals: reads JSON lines, answers one JSON line each.

Each input is ``{"kind": "string"|"docstring", "source": ..., "expected": ...}``.
``string``: *source* must be one expression whose value is *expected*.
``docstring``: *source* is a module defining only a function ``f`` whose body is only
its docstring, and that docstring (uncleaned) must be *expected*.
"""

import ast
import json
import sys


def check(case: dict[str, str]) -> str | None:
    try:
        tree = ast.parse(case["source"])
    except SyntaxError as error:
        return f"does not compile: {error}"
    if case["kind"] == "string":
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
            return "is not one expression"
        node = tree.body[0].value
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            return f"is not a string constant: {ast.dump(node)}"
        value = node.value
    else:
        names = [type(node).__name__ for node in tree.body]
        if names != ["FunctionDef"] or len(tree.body[0].body) != 1:
            return f"defines more than one docstring-only function: {names}"
        value = ast.get_docstring(tree.body[0], clean=False) or ""
    if value != case["expected"]:
        return f"reads back as {value!r}, not {case['expected']!r}"
    return None


for line in sys.stdin:
    print(json.dumps(check(json.loads(line))), flush=True)
