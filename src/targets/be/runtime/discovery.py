"""Filter discovery: what every filtered list accepts, and values to offer for it.

``GET /_filters`` describes each filtered list: its path, its filter fields with their
operators and where their values come from, its order and whether it searches.
``POST /_filters`` (kiln's) describes the same per resource, for the resources a body
names, and ``POST /_filters/fields`` the fields it names. ``POST /_values`` gives values
for one field: enum choices, booleans, the distinct values of a column, or (for a field
holding a key) rows of the resource it refers to, labelled by that resource's link and
found through its search. Front ends build their filter controls from these answers.

The values come from sessions opened with the caller's ``session_info``: the
generated route passes its request, so row visibility hides what the user may not
see (runtime/visibility.py).

``link_page`` answers a searchable resource's ``POST {prefix}/_values`` (kiln's): its
rows as links, a page at a time, read through the route's own session.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from inspect import isawaitable
from typing import Annotated, Any, Generic, Literal, Protocol, TypeVar
from uuid import UUID

from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import ColumnElement, Select, String, cast, select
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


class ResourceInfo(BaseModel):
    """One resource's filter fields, over all its filtered lists (``POST
    /_filters``)."""

    resource: str
    filters: list[FilterInfo]
    supports_search: bool


class ResourceCatalog(BaseModel):
    """The resources a ``POST /_filters`` body named, in its order."""

    resources: list[ResourceInfo]


class FieldCatalog(BaseModel):
    """The fields a ``POST /_filters/fields`` body named, in its order."""

    fields: list[FilterInfo]


class FieldRef(Protocol):
    """A filter field of a resource, as a ``POST /_filters/fields`` body names it."""

    @property
    def resource(self) -> str: ...

    @property
    def field(self) -> str: ...


class FieldOptions(BaseModel):
    """A filter field of a resource. The generated ``discovery.py`` declares one class
    per filtered resource on this base (``ArticleField``), whose ``resource`` and
    ``field`` are literals: the schema names exactly the pairs that are answered."""

    model_config = ConfigDict(extra="forbid")


class ValuesOptions(BaseModel):
    """What every ``POST /_values`` body holds besides its resource and field: typed
    text and how many values. The generated ``discovery.py`` declares one body per
    filtered resource on this base and the resource's field class
    (``ArticleValues``)."""

    model_config = ConfigDict(extra="forbid")

    q: str | None = None
    limit: int = Field(default=20, ge=1, le=100)


class ValuesRequest(FieldRef, Protocol):
    """Body of ``POST /_values``: a resource, one of its filter fields, typed text."""

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


def _info(item: FilterSpec) -> FilterInfo:
    return FilterInfo(
        field=item.name, operators=list(item.operators), values=_describe(item.source)
    )


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
                    filters=[_info(item) for item in spec.filters],
                )
                for spec in self._lists
            ]
        )

    def resources(self, names: Sequence[str] | None) -> ResourceCatalog:
        """The answer of ``POST /_filters``: each resource of *names* (every one when
        ``None``), its filter fields over all its lists, the first list's where two
        filter one field."""
        known = list(dict.fromkeys(spec.resource for spec in self._lists))
        infos = []
        for name in known if names is None else names:
            lists = [spec for spec in self._lists if spec.resource == name]
            fields: dict[str, FilterSpec] = {}
            for spec in lists:
                for item in spec.filters:
                    fields.setdefault(item.name, item)
            infos.append(
                ResourceInfo(
                    resource=name,
                    filters=[_info(item) for item in fields.values()],
                    supports_search=any(spec.search for spec in lists),
                )
            )
        return ResourceCatalog(resources=infos)

    def fields(self, refs: Sequence[FieldRef]) -> FieldCatalog:
        """The answer of ``POST /_filters/fields``: each field *refs* names, in
        order."""
        return FieldCatalog(fields=[_info(self._field(ref)[1]) for ref in refs])

    def _field(self, request: FieldRef) -> tuple[ListSpec, FilterSpec]:
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


StatementT = TypeVar("StatementT", bound=Select[*tuple[Any, ...]])


def _found(
    statement: StatementT,
    key: ColumnElement[Any],
    label: ColumnElement[Any],
    search: Search | None,
    text: str,
) -> StatementT:
    """*statement* narrowed to rows whose search matches *text* (else whose label holds
    it), best first, then by label and key; every row by label and key without text."""
    if text and search is not None:
        return statement.where(search.match(text)).order_by(
            search.rank(text).desc(), label, key
        )
    if text:
        statement = statement.where(label.icontains(text, autoescape=True))
    return statement.order_by(label, key)


async def _labelled(
    rows: Rows, text: str, limit: int, info: dict[str, Any]
) -> list[Choice]:
    key, label = as_expression(rows.key), as_expression(rows.label)
    statement = _found(select(key, label), key, label, rows.search, text)
    async with rows.sessions()(info=info) as session:
        found = (await session.execute(statement.limit(limit))).all()
    return [Choice(value=_plain(row[0]), label=str(row[1])) for row in found]


LinkT = TypeVar("LinkT")


class LinkSearch(BaseModel):
    """Body of a searchable resource's ``POST {prefix}/_values`` (kiln's): typed text,
    how many rows, and where the last page ended."""

    model_config = ConfigDict(extra="forbid")

    q: str | None = Field(default=None, max_length=200)
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(
        default=None,
        pattern=r"^[0-9]{1,9}$",
        description="The ``next_cursor`` of the page before; none for the first.",
    )


class LinkPage(BaseModel, Generic[LinkT]):
    """Rows of a resource as links, best first; ``next_cursor`` is ``None`` on the last
    page."""

    results: list[LinkT]
    next_cursor: str | None


async def link_page(
    session: AsyncSession,
    body: LinkSearch,
    rows: Select[Any],
    *,
    key: ColumnLike,
    label: ColumnLike,
    link: Callable[[Any], Any],
    search: Search | None = None,
) -> LinkPage[Any]:
    """The answer of ``POST {prefix}/_values``: the rows of *rows* that *search* finds
    for ``q`` (without a search, whose *label* holds it), best first, each made a link
    by *link* (awaited when it is async). The rows are read through *session*, the
    route's, so row visibility hides what the user may not see, from *link* too when it
    reads through the row's session (``async_object_session``)."""
    start = int(body.cursor or 0)
    key_column, label_column = as_expression(key), as_expression(label)
    text = (body.q or "").strip()
    statement = _found(rows, key_column, label_column, search, text)
    found = (await session.scalars(statement.offset(start).limit(body.limit + 1))).all()
    results = []
    for row in found[: body.limit]:
        value = link(row)
        results.append(await value if isawaitable(value) else value)
    more = len(found) > body.limit
    return LinkPage[Any](
        results=results, next_cursor=str(start + body.limit) if more else None
    )
