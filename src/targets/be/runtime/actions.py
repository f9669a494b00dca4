"""Actions: calling user functions (plain or ``async``), naming what a user may call."""

import inspect
from collections.abc import Callable
from typing import Any, Literal, ParamSpec

from pydantic import BaseModel

P = ParamSpec("P")


async def call_action(
    function: Callable[P, Any], /, *args: P.args, **kwargs: P.kwargs
) -> Any:
    """Call *function* and return its result, awaiting it first when it is awaitable.

    Plain functions run inline on the event loop: they get the request's session and
    must not block.
    """
    result = function(*args, **kwargs)
    if inspect.isawaitable(result):
        return await result
    return result


class ActionRef(BaseModel):
    """An operation the current user may call: its entry's name, and what it addresses.

    ``scope`` is ``"object"`` for an operation on one row (get, update, delete, instance
    actions) and ``"collection"`` for one on the resource (list, create, collection
    actions), as the permissions routes answer.
    """

    name: str
    scope: Literal["object", "collection"]
