"""Schemathesis hooks of the e2e tests: an ``Idempotency-Key`` of its own per request.

A client picks a new key for each logical request and reuses it only to retry that one.
Schemathesis draws short keys (``"0"``) for unrelated requests, which would then be
answered with one another's stored answers (by design of the header), so that a
resource created, then deleted, then "created" again by a replay looks lost. Replays
are tested where they are meant: test/targets/be/runtime/test_idempotency.py and the
blog and load e2e tests.
"""

import uuid
from typing import Any

import schemathesis


@schemathesis.hook
def map_headers(context: Any, headers: dict[str, Any] | None) -> dict[str, Any] | None:
    if headers is not None:
        for name in list(headers):
            if name.lower() == "idempotency-key":
                headers[name] = uuid.uuid4().hex
    return headers
