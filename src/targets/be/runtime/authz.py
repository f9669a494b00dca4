"""Authorization helpers of generated routes: the 403 answer and groups.

Copied into a generated tree when its config sets ``groups``, ``can`` or ``visible``.
``forbidden()`` is the one 403 of the routes; ``groups_in_claim`` reads a token claim
as a set of groups.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import HTTPException, status


def forbidden(detail: str = "You are not allowed to do this") -> HTTPException:
    """The 403 of an authenticated user whom a group check or a guard refuses."""
    return HTTPException(status.HTTP_403_FORBIDDEN, detail=detail)


def groups_in_claim(claims: Mapping[str, Any], claim: str) -> frozenset[str]:
    """The groups a token's *claim* holds: a list of strings, or one string.

    A missing claim means no groups; values that are not strings are ignored, so a
    malformed claim grants nothing.
    """
    value = claims.get(claim)
    if isinstance(value, str):
        return frozenset((value,))
    if isinstance(value, list):
        return frozenset(item for item in value if isinstance(item, str))
    return frozenset()


def require_membership(groups: Iterable[str], allowed: frozenset[str]) -> None:
    """Raise 403 unless *groups* and *allowed* share a group."""
    if allowed.isdisjoint(groups):
        names = ", ".join(sorted(allowed))
        raise forbidden(f"Only members of these groups may do this: {names}")
