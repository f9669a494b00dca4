"""Call user action functions, whether they are plain or ``async`` functions."""

import inspect
from collections.abc import Callable
from typing import Any, ParamSpec

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
