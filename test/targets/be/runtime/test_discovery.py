"""Filter discovery on a real table: ``describe`` lists every list and field, and
``values`` answers for enum, bool, ref, self, free-text and literal fields."""

from datetime import date

import pytest
from fastapi.exceptions import RequestValidationError
from items import OWNERS, Item, Owner, Status, seed_items
from runtime.discovery import (
    BoolSource,
    Catalog,
    EnumSource,
    FilterSpec,
    FreeTextSource,
    ListSpec,
    LiteralSource,
    OrderInfo,
    RefSource,
    Rows,
    SelfSource,
    ValuesOptions,
)
from runtime.search import TrigramSearch
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

SEED = seed_items()


def catalog(sessions: async_sessionmaker[AsyncSession]) -> Catalog:
    def factory() -> async_sessionmaker[AsyncSession]:
        return sessions

    owners = Rows(Owner.id, Owner.name, factory, search=TrigramSearch(Owner.name))
    items = Rows(Item.id, Item.name, factory)
    return Catalog(
        ListSpec(
            "item",
            "list",
            "/items",
            "/items/search",
            [
                FilterSpec("status", ("eq", "in"), EnumSource(Status)),
                FilterSpec("active", ("eq",), BoolSource()),
                FilterSpec("owner_id", ("eq", "in"), RefSource("owner", owners)),
                FilterSpec("id", ("eq", "in"), SelfSource("item", items)),
                FilterSpec("name", ("contains",), FreeTextSource(Item.name, factory)),
                FilterSpec(
                    "made_on",
                    ("gte", "lte"),
                    LiteralSource("date", Item.made_on, factory),
                ),
            ],
            search=True,
            order=OrderInfo(fields=["rating"], default=["-rating"]),
        )
    )


def test_describe_lists_every_field(items: async_sessionmaker[AsyncSession]) -> None:
    described = catalog(items).describe().model_dump()
    (listed,) = described["lists"]
    assert listed["path"] == "/items" and listed["search"] is True
    assert listed["order"] == {"fields": ["rating"], "default": ["-rating"]}
    values = {item["field"]: item["values"] for item in listed["filters"]}
    assert values["status"] == {
        "kind": "enum",
        "choices": [
            {"value": "draft", "label": "Draft"},
            {"value": "in_review", "label": "In review"},
            {"value": "live", "label": "Live"},
        ],
    }
    assert values["active"] == {"kind": "bool"}
    assert values["owner_id"] == {"kind": "ref", "resource": "owner"}
    assert values["id"] == {"kind": "self", "resource": "item"}
    assert values["name"] == {"kind": "free_text"}
    assert values["made_on"] == {"kind": "literal", "type": "date"}


class AnyValues(ValuesOptions):
    """A ``POST /_values`` body naming any resource and field (generated bodies name
    theirs as literals; the catalog still refuses pairs it does not know)."""

    resource: str
    field: str


async def values(
    sessions: async_sessionmaker[AsyncSession],
    field: str,
    q: str | None = None,
    limit: int = 20,
) -> list[tuple[object, str]]:
    request = AnyValues(resource="item", field=field, q=q, limit=limit)
    page = await catalog(sessions).values(request)
    return [(choice.value, choice.label) for choice in page.values]


async def test_values_of_every_kind(items: async_sessionmaker[AsyncSession]) -> None:
    assert await values(items, "status", "REV") == [("in_review", "In review")]
    assert await values(items, "active") == [(True, "true"), (False, "false")]
    assert await values(items, "owner_id", "grace hoper") == [
        (str(OWNERS[1].id), "Grace Hopper")
    ]
    assert [label for _, label in await values(items, "owner_id")] == sorted(
        o.name for o in OWNERS
    )
    assert (await values(items, "id", "piano"))[0][1].startswith("Tuning a piano")
    names = await values(items, "name", "pasta", limit=3)
    assert [label for _, label in names] == sorted(
        {item.name for item in SEED if "pasta" in item.name.lower()}
    )[:3]
    dates = await values(items, "made_on", "2024-01-1")
    assert dates == [
        (day.isoformat(), day.isoformat())
        for day in sorted({item.made_on for item in SEED})
        if day >= date(2024, 1, 10)
    ]


async def test_values_reject_unknown_resources_and_fields(
    items: async_sessionmaker[AsyncSession],
) -> None:
    for resource, field, loc in (
        ("nope", "status", "resource"),
        ("item", "rating", "field"),
    ):
        with pytest.raises(RequestValidationError) as caught:
            await catalog(items).values(AnyValues(resource=resource, field=field))
        assert caught.value.errors()[0]["loc"] == ("body", loc)
