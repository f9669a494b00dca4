"""Actions: calling user functions (plain or ``async``), naming what a user may call."""

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal, ParamSpec, get_args, get_origin

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


class KilnSignature:
    """What kiln reads off an action function's annotations, read once, when the routes
    module that calls the function is imported.

    kiln imports the function when it generates; codegen never imports your code when it
    generates, so an action in kiln's convention whose entry names none of ``body``,
    ``response`` and ``model_param`` has them read here, by kiln's rules:

    - the parameter annotated with the resource's model is given the row, first;
    - a ``type[...]`` parameter of the model (or a base of it) is given the model class;
    - the parameter annotated with another Pydantic model is the request body, which
      FastAPI validates (``body``, the route's dependency) and the function is given as
      ``body=``;
    - the return annotation is the answer: a Pydantic model its schema
      (``response_model``), ``-> None`` no body and ``204`` (``status_code``).

    A function whose parameters disagree with its entry's ``target`` (an instance action
    that takes no row, a collection action that does) stops the import with the reason,
    rather than failing each request.
    """

    def __init__(
        self, function: Callable[..., Any], model: type, *, instance: bool
    ) -> None:
        self._function = function
        self._model = model
        self._model_param: str | None = None
        self._body_model: type[BaseModel] | None = None
        signature = inspect.signature(function)
        takes_row = False
        unresolved = False
        for param in signature.parameters.values():
            annotation = _resolved(function, param.annotation)
            if annotation is _UNRESOLVED:
                unresolved = True
            elif annotation is inspect.Parameter.empty:
                continue
            elif _is_class_of(annotation, model):
                takes_row = True
            elif get_origin(annotation) is type and _is_class_of(
                get_args(annotation)[0], model
            ):
                self._model_param = param.name
            elif inspect.isclass(annotation) and issubclass(annotation, BaseModel):
                if self._body_model is not None:
                    raise TypeError(
                        f"{_name(function)} takes two Pydantic models "
                        f"({self._body_model.__name__}, {annotation.__name__}): "
                        "an action has one request body"
                    )
                self._body_model = annotation
        if not unresolved and takes_row != instance:
            raise TypeError(
                f"{_name(function)} "
                + (
                    f"takes no {model.__name__}, so kiln calls it on the collection: "
                    "give its entry target: 'collection'"
                    if instance
                    else f"takes a {model.__name__}, so kiln calls it on one row: "
                    "give its entry target: 'instance'"
                )
            )
        returns = _resolved(function, signature.return_annotation)
        # No return annotation (``inspect.Signature.empty``): the result as JSON, 200.
        self.response_model: Any = (
            returns
            if inspect.isclass(returns) and issubclass(returns, BaseModel)
            else None
        )
        self.status_code = 204 if returns is None or returns is type(None) else 200
        self.body = _body_dependency(self._body_model)

    async def call(self, *row: Any, db: Any, body: BaseModel | None) -> Any:
        """Call the function kiln's way: the row (instance actions), ``db=``, and the
        body and the model class when it takes them."""
        keywords: dict[str, Any] = {"db": db}
        if self._body_model is not None:
            keywords["body"] = body
        if self._model_param is not None:
            keywords[self._model_param] = self._model
        return await call_action(self._function, *row, **keywords)


_UNRESOLVED = object()
"""An annotation that names what its module does not have at run time (``if
TYPE_CHECKING:`` imports): it says nothing kiln's rules read."""


# What evaluating an annotation raises: a name imported for the type checker only, or no
# expression this module runs. Named, not written in the `except`: ruff formats a tuple
# there without its parentheses for Python 3.14 and with them for older versions.
_UNEVALUABLE = (NameError, AttributeError, SyntaxError, TypeError)


def _resolved(function: Callable[..., Any], annotation: Any) -> Any:
    """*annotation* as a value: modules with ``from __future__ import annotations`` keep
    strings, evaluated here in the function's module as ``typing`` would."""
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, getattr(function, "__globals__", {}))
    except _UNEVALUABLE:
        return _UNRESOLVED


def _is_class_of(annotation: Any, model: type) -> bool:
    """Whether *annotation* is *model* or a class it derives from (``object`` aside)."""
    return (
        inspect.isclass(annotation)
        and annotation is not object
        and issubclass(model, annotation)
    )


def _name(function: Callable[..., Any]) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _body_dependency(
    model: type[BaseModel] | None,
) -> Callable[..., Awaitable[BaseModel | None]]:
    """A FastAPI dependency answering the request body validated as *model*, or ``None``
    (and no body in the route's OpenAPI) when there is no model."""

    async def no_body() -> None:
        return None

    if model is None:
        return no_body

    async def body(body: BaseModel) -> BaseModel:
        return body

    # FastAPI reads a dependency's parameters off its signature: its body is *model*.
    body.__signature__ = inspect.Signature(  # pyright: ignore[reportFunctionMemberAccess]
        [inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=model)]
    )
    return body


class ActionRef(BaseModel):
    """An operation the current user may call: its entry's name, and what it addresses.

    ``scope`` is ``"object"`` for an operation on one row (get, update, delete, instance
    actions) and ``"collection"`` for one on the resource (list, create, collection
    actions), as the permissions routes answer.
    """

    name: str
    scope: Literal["object", "collection"]
