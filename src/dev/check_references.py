"""``codegen check``: the config's references to the models, checked in the project's Python.

Reads a JSON list of references on stdin, each ``{"path", "model"}`` with an optional
``"attribute"`` and ``"relationship"``; imports each model class and looks the attribute
up on it. Prints one line per problem, ``<config path>: <what is wrong>``; exits 1 when
there is any.
"""

import importlib
import json
import sys
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.exc import NoInspectionAvailable


def model_class(dotted: str) -> tuple[Any, str | None]:
    module_name, _, class_name = dotted.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        return None, f"{dotted}: no module {error.name}"
    found = getattr(module, class_name, None)
    if found is None:
        return None, f"{dotted}: module {module_name} has no {class_name}"
    return found, None


def problem(reference: dict[str, Any]) -> str | None:
    cls, error = model_class(reference["model"])
    attribute = reference.get("attribute")
    if error is not None:
        # Said once, at the model's own path.
        return error if attribute is None else None
    if attribute is None:
        return None
    try:
        relationships = inspect(cls).relationships
    except NoInspectionAvailable:
        return f"{reference['model']} is not a SQLAlchemy model"
    if reference.get("relationship"):
        if attribute not in relationships:
            return f"{reference['model']} has no relationship {attribute}"
    elif not hasattr(cls, attribute):
        return f"{reference['model']} has no column or attribute {attribute}"
    return None


def main() -> None:
    sys.path.insert(0, ".")
    problems = [
        f"{reference['path']}: {found}"
        for reference in json.load(sys.stdin)
        if (found := problem(reference)) is not None
    ]
    for line in problems:
        sys.stdout.write(line + "\n")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
