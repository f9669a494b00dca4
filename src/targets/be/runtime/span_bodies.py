"""What a handler's span may record of a body: redacted JSON, cut to a size.

``BodyPolicy.text`` is the one way a body reaches a span. It takes what a handler
received or returned (the body validated into its schema, the answer), never the raw
request, so headers, cookies and fields the schema does not declare cannot reach it.
Every value under a key that names a credential, at any depth, and every string that
is itself a credential (an ``Authorization`` value, a JWT) becomes ``[redacted]``
before the text is cut to ``max_bytes``.
"""

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Self

from pydantic_core import to_jsonable_python

REDACTED = "[redacted]"

# A key names a credential when, lowercased and without separators, it contains one of
# these: ``newPassword``, ``X-Api-Key`` and ``refresh_token`` all do.
CREDENTIAL_WORDS = (
    "apikey",
    "authorization",
    "cookie",
    "credential",
    "passphrase",
    "passwd",
    "password",
    "privatekey",
    "secret",
    "session",
    "signature",
    "token",
)

# Strings that are credentials under any key: an Authorization value, a JWT.
_CREDENTIAL_VALUE = re.compile(
    r"^\s*(bearer|basic|digest)\s|^eyJ[\w-]*\.[\w-]+\.[\w-]*$", re.IGNORECASE
)


def _bare(key: str) -> str:
    return re.sub(r"[^a-z0-9]", "", key.lower())


def _type_only(value: Any) -> str:
    # A value JSON cannot show is recorded by its type, never by its text.
    return f"<{type(value).__name__}>"


@dataclass(frozen=True)
class BodyPolicy:
    """How much of a body a span records, and which fields it shows as ``[redacted]``.

    *redact* names more fields to hide, matched whatever their case and separators
    (``"pin"`` hides ``PIN`` and ``p_i_n``, not ``shipping``).
    """

    max_bytes: int = 2048
    redact: frozenset[str] = frozenset()

    @classmethod
    def of(cls, max_bytes: int, redact: Iterable[str] = ()) -> Self:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, got {max_bytes}")
        return cls(max_bytes, frozenset(_bare(name) for name in redact))

    def hides(self, key: str) -> bool:
        """Whether the value under *key* is a credential (or named in *redact*)."""
        bare = _bare(key)
        return bare in self.redact or any(word in bare for word in CREDENTIAL_WORDS)

    def redacted(self, data: Any) -> Any:
        """*data* (JSON values) with every credential replaced, at any depth."""
        if isinstance(data, dict):
            return {
                key: REDACTED if self.hides(str(key)) else self.redacted(value)
                for key, value in data.items()
            }
        if isinstance(data, list):
            return [self.redacted(item) for item in data]
        if isinstance(data, str) and _CREDENTIAL_VALUE.search(data):
            return REDACTED
        return data

    def text(self, value: Any) -> tuple[str, bool]:
        """The JSON text a span records of *value*, and whether it was cut."""
        data = self.redacted(to_jsonable_python(value, fallback=_type_only))
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if len(encoded) <= self.max_bytes:
            return encoded.decode(), False
        # Cut on a character boundary: a partial UTF-8 sequence at the end is dropped.
        return encoded[: self.max_bytes].decode(errors="ignore"), True
