"""Filter discovery: what every filtered list accepts, and values to offer for it.

``GET /_filters`` describes each filtered list: its path, its filter fields with their
operators and where their values come from, its order and whether it searches.
``POST /_values`` gives values for one field: enum choices, booleans, the distinct
values of a column, or (for a field holding a key) rows of the resource it refers to,
labelled by that resource's link and found through its search. Front ends build their
filter controls from these two answers.

The values come from sessions opened with the caller's ``session_info``: the
generated route passes its request, so row visibility hides what the user may not
see (runtime/visibility.py).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any, Literal, Protocol
from uuid import UUID

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import String, cast, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .filters import Operator
from .ordering import ColumnLike, as_expression
from .search import Search

Sessions = Callable[[], async_sessionmaker[AsyncSession]]
"""The session factory of a resource's database (``get_sessionmaker``)."""

LiteralType = Literal["str", "int", "float", "date", "datetime", "uuid"]


class Choice(BaseModel):
    """One value to offer, and how to show it."""

    value: str | int | float | bool
    label: str


class EnumValues(BaseModel):
    """Values of an enum: its members, listed here and by ``/_values``."""

    kind: Literal["enum"] = "enum"
    choices: list[Choice]


class BoolValues(BaseModel):
    """``true`` or ``false``."""

    kind: Literal["bool"] = "bool"


class RefValues(BaseModel):
    """Keys of another resource's rows: ``/_values`` finds them by their label."""

    kind: Literal["ref"] = "ref"
    resource: str


class SelfValues(BaseModel):
    """Keys of this resource's own rows: ``/_values`` finds them by their label."""

    kind: Literal["self"] = "self"
    resource: str


class FreeTextValues(BaseModel):
    """Any text: ``/_values`` suggests values the column holds."""

    kind: Literal["free_text"] = "free_text"


class LiteralValues(BaseModel):
    """A typed value the client enters (a number, a date…)."""

    kind: Literal["literal"] = "literal"
    type: LiteralType


Values = Annotated[
    EnumValues | BoolValues | RefValues | SelfValues | FreeTextValues | LiteralValues,
    Field(discriminator="kind"),
]


class FilterInfo(BaseModel):
    """One filterable field of a list."""

    field: str
    operators: list[Operator]
    values: Values


class OrderInfo(BaseModel):
    """The fields a list sorts by (``order_by``) and its order when none is given."""

    fields: list[str]
    default: list[str]


class ListInfo(BaseModel):
    """One filtered list."""

    resource: str
    name: str
    path: str
    search_path: str
    search: bool
    order: OrderInfo | None
    filters: list[FilterInfo]


class FilterCatalog(BaseModel):
    """Every filtered list of the API (``GET /_filters``)."""

    lists: list[ListInfo]


class ValuesOptions(BaseModel):
    """What every ``POST /_values`` body holds besides its resource and field: typed
    text and how many values. The generated ``discovery.py`` declares one body per
    filtered resource on this base (``ArticleValues``), whose ``resource`` and ``field``
    are literals: the schema names exactly the pairs that are answered."""

    model_config = ConfigDict(extra="forbid")

    q: str | None = None
    limit: int = Field(default=20, ge=1, le=100)


class ValuesRequest(Protocol):
    """Body of ``POST /_values``: a resource, one of its filter fields, typed text."""

    @property
    def resource(self) -> str: ...

    @property
    def field(self) -> str: ...

    @property
    def q(self) -> str | None: ...

    @property
    def limit(self) -> int: ...


class ValuesPage(BaseModel):
    """Values for one filter field, best first."""

    values: list[Choice]


@dataclass(frozen=True)
class Rows:
    """How rows of a resource are offered: key, label, search, database."""

    key: ColumnLike
    label: ColumnLike
    sessions: Sessions
    search: Search | None = None


@dataclass(frozen=True)
class EnumSource:
    enum: type[Enum]


@dataclass(frozen=True)
class BoolSource:
    pass


@dataclass(frozen=True)
class RefSource:
    resource: str
    rows: Rows


@dataclass(frozen=True)
class SelfSource:
    resource: str
    rows: Rows


@dataclass(frozen=True)
class FreeTextSource:
    column: ColumnLike
    sessions: Sessions


@dataclass(frozen=True)
class LiteralSource:
    type: LiteralType
    column: ColumnLike
    sessions: Sessions


Source = (
    EnumSource | BoolSource | RefSource | SelfSource | FreeTextSource | LiteralSource
)


@dataclass(frozen=True)
class FilterSpec:
    """A filterable field: its operators and where its values come from."""

    name: str
    operators: tuple[Operator, ...]
    source: Source


@dataclass(frozen=True)
class ListSpec:
    """One filtered list, as discovery describes it."""

    resource: str
    name: str
    path: str
    search_path: str
    filters: Sequence[FilterSpec]
    search: bool = False
    order: OrderInfo | None = None


def _plain(value: Any) -> str | int | float | bool:
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID | Decimal):
        return str(value)
    return str(value)


def enum_label(member: Enum) -> str:
    """``in_review`` → ``In review``."""
    return member.name.replace("_", " ").capitalize()


def _describe(
    source: Source,
) -> EnumValues | BoolValues | RefValues | SelfValues | FreeTextValues | LiteralValues:
    if isinstance(source, EnumSource):
        return EnumValues(
            choices=[
                Choice(value=_plain(member), label=enum_label(member))
                for member in source.enum
            ]
        )
    if isinstance(source, BoolSource):
        return BoolValues()
    if isinstance(source, RefSource):
        return RefValues(resource=source.resource)
    if isinstance(source, SelfSource):
        return SelfValues(resource=source.resource)
    if isinstance(source, FreeTextSource):
        return FreeTextValues()
    return LiteralValues(type=source.type)


def _unknown(name: str, value: str, message: str) -> RequestValidationError:
    return RequestValidationError(
        [{"type": "value_error", "loc": ("body", name), "msg": message, "input": value}]
    )


class Catalog:
    """The filtered lists of an API, and the values of their fields."""

    def __init__(self, *lists: ListSpec) -> None:
        """*lists* in the order ``/_filters`` shows them."""
        self._lists = lists

    def describe(self) -> FilterCatalog:
        """The answer of ``GET /_filters``."""
        return FilterCatalog(
            lists=[
                ListInfo(
                    resource=spec.resource,
                    name=spec.name,
                    path=spec.path,
                    search_path=spec.search_path,
                    search=spec.search,
                    order=spec.order,
                    filters=[
                        FilterInfo(
                            field=item.name,
                            operators=list(item.operators),
                            values=_describe(item.source),
                        )
                        for item in spec.filters
                    ],
                )
                for spec in self._lists
            ]
        )

    def _field(self, request: ValuesRequest) -> tuple[ListSpec, FilterSpec]:
        lists = [spec for spec in self._lists if spec.resource == request.resource]
        if not lists:
            known = ", ".join(sorted({spec.resource for spec in self._lists}))
            raise _unknown(
                "resource",
                request.resource,
                f"No filtered list of this resource; known: {known}",
            )
        for spec in lists:
            for item in spec.filters:
                if item.name == request.field:
                    return spec, item
        known = ", ".join(
            sorted({item.name for spec in lists for item in spec.filters})
        )
        raise _unknown(
            "field",
            request.field,
            f"Not a filter field of {request.resource}; known: {known}",
        )

    async def values(
        self, request: ValuesRequest, *, session_info: Mapping[str, Any] | None = None
    ) -> ValuesPage:
        """The answer of ``POST /_values``: at most ``limit`` values, best first.

        *session_info* is the ``info`` of the sessions it reads with.
        """
        _, item = self._field(request)
        info = dict(session_info or {})
        text = (request.q or "").strip()
        source = item.source
        if isinstance(source, EnumSource):
            choices = [
                Choice(value=_plain(member), label=enum_label(member))
                for member in source.enum
            ]
            wanted = text.casefold()
            matching = [
                c
                for c in choices
                if wanted in c.label.casefold() or wanted in str(c.value).casefold()
            ]
            return ValuesPage(values=matching[: request.limit])
        if isinstance(source, BoolSource):
            return ValuesPage(
                values=[
                    Choice(value=True, label="true"),
                    Choice(value=False, label="false"),
                ]
            )
        if isinstance(source, RefSource | SelfSource):
            rows = await _labelled(source.rows, text, request.limit, info)
            return ValuesPage(values=rows)
        column = as_expression(source.column)
        statement = select(column).where(column.is_not(None))
        if text and isinstance(source, FreeTextSource):
            statement = statement.where(column.icontains(text, autoescape=True))
        elif text:
            statement = statement.where(
                cast(column, String).startswith(text, autoescape=True)
            )
        statement = statement.group_by(column).order_by(column).limit(request.limit)
        async with source.sessions()(info=info) as session:
            found = (await session.scalars(statement)).all()
        return ValuesPage(
            values=[
                Choice(value=_plain(value), label=str(_plain(value))) for value in found
            ]
        )


async def _labelled(
    rows: Rows, text: str, limit: int, info: dict[str, Any]
) -> list[Choice]:
    key, label = as_expression(rows.key), as_expression(rows.label)
    statement = select(key, label)
    if text and rows.search is not None:
        statement = statement.where(rows.search.match(text)).order_by(
            rows.search.rank(text).desc(), label, key
        )
    elif text:
        statement = statement.where(label.icontains(text, autoescape=True)).order_by(
            label, key
        )
    else:
        statement = statement.order_by(label, key)
    async with rows.sessions()(info=info) as session:
        found = (await session.execute(statement.limit(limit))).all()
    return [Choice(value=_plain(row[0]), label=str(row[1])) for row in found]
