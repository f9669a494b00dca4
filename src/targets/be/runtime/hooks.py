"""Run the ``pre`` and ``post`` hooks of create, update and delete (docs/hooks.md).

A ``pre`` hook runs inside the request's transaction and its errors fail the request; a
``post`` hook runs after the commit, so its errors are logged and the write stands.
"""

import logging
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

from pydantic import BaseModel

from .actions import call_action

P = ParamSpec("P")
Body = TypeVar("Body", bound=BaseModel)

logger = logging.getLogger(__name__)


def _name(hook: Callable[..., Any]) -> str:
    return f"{hook.__module__}.{getattr(hook, '__qualname__', repr(hook))}"


async def before_write(
    hook: Callable[P, Any], /, *args: P.args, **kwargs: P.kwargs
) -> dict[str, Any]:
    """Call a ``pre`` hook, plain or ``async``, and return the values it says to store.

    A hook that returns anything but a mapping is a bug in it: ``TypeError`` names it.
    """
    values = await call_action(hook, *args, **kwargs)
    if not isinstance(values, Mapping):
        raise TypeError(
            f"pre hook {_name(hook)} must return the values to store (a dict), "
            f"not {type(values).__name__}"
        )
    return dict(values)


async def body_from_hook(
    hook: Callable[..., Any], body: Body, /, **kwargs: Any
) -> Body:
    """Call a ``pre`` hook of kiln's signature, ``(body, *, db) -> body``, and return
    the request body it gives back, whose fields are stored.

    A hook that returns anything but the body's model is a bug in it: ``TypeError``
    names it.
    """
    result = await call_action(hook, body, **kwargs)
    if not isinstance(result, type(body)):
        raise TypeError(
            f"pre hook {_name(hook)} must return the request body "
            f"({type(body).__name__}), not {type(result).__name__}"
        )
    return result


async def after_commit(
    hook: Callable[P, Any], /, *args: P.args, **kwargs: P.kwargs
) -> None:
    """Call a ``post`` hook, plain or ``async``, once the write is committed.

    The client is told about the committed write whatever the hook does: an exception
    is logged with its traceback (logger ``<package>.runtime.hooks``), never a 500.
    """
    try:
        await call_action(hook, *args, **kwargs)
    except Exception:
        logger.exception(
            "post hook %s failed; the write it followed is committed", _name(hook)
        )
