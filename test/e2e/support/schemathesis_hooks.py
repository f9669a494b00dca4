"""Schemathesis hooks of the e2e tests: an ``Idempotency-Key`` of its own per request,
and the keys of existing rows besides drawn ones.

A client picks a new key for each logical request and reuses it only to retry that one.
Schemathesis draws short keys (``"0"``) for unrelated requests, which would then be
answered with one another's stored answers (by design of the header), so that a
resource created, then deleted, then "created" again by a replay looks lost. Replays
are tested where they are meant: test/targets/be/runtime/test_idempotency.py and the
blog and load e2e tests.

Drawn keys name no row, so a row route would only ever answer 404. When
``SCHEMATHESIS_KNOWN_ROWS`` holds ``{"paths": {"/articles": [keys]}, "fields":
{"author_id": [keys]}}``, a row route's ``{pk}`` and a body's reference fields are
also drawn from those keys: the requests then reach rows that exist, and that the
signed-in user may or may not see, own or change.
"""

import json
import os
import uuid
from typing import Any

import schemathesis
from hypothesis import strategies as st

_KNOWN: dict[str, dict[str, list[Any]]] = json.loads(
    os.environ.get("SCHEMATHESIS_KNOWN_ROWS", "{}")
)
_PATHS = _KNOWN.get("paths", {})
_FIELDS = _KNOWN.get("fields", {})


@schemathesis.hook
def map_headers(context: Any, headers: dict[str, Any] | None) -> dict[str, Any] | None:
    if headers is not None:
        for name in list(headers):
            if name.lower() == "idempotency-key":
                headers[name] = uuid.uuid4().hex
    return headers


@schemathesis.hook
def before_generate_path_parameters(context: Any, strategy: Any) -> Any:
    path: str = context.operation.path
    keys = _PATHS.get(path.split("/{pk}")[0]) if "/{pk}" in path else None
    if not keys:
        return strategy
    return st.one_of(strategy, st.sampled_from(keys).map(lambda key: {"pk": key}))


def _with_known_references(body: Any) -> Any:
    names = [name for name in body if name in _FIELDS] if isinstance(body, dict) else []
    if not names:
        return st.just(body)
    known = st.fixed_dictionaries({name: st.sampled_from(_FIELDS[name]) for name in names})
    return known.map(lambda keys: {**body, **keys})


@schemathesis.hook
def before_generate_body(context: Any, strategy: Any) -> Any:
    if not _FIELDS:
        return strategy
    return st.one_of(strategy, strategy.flatmap(_with_known_references))
