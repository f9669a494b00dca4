"""``before_write`` returns what a ``pre`` hook says to store, ``body_from_hook`` the
body a kiln ``pre`` hook gives back; ``after_commit`` logs a failing ``post`` hook
instead of raising."""

import logging
from typing import Any

import pytest
from pydantic import BaseModel
from runtime.hooks import after_commit, before_write, body_from_hook

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_pre_hook_values_are_returned_as_a_new_dict() -> None:
    async def stamp(values: dict[str, Any], *, session: object) -> dict[str, Any]:
        return {**values, "word_count": len(values["body"].split()), "by": session}

    sent = {"body": "one two three"}
    stored = await before_write(stamp, sent, session="s")
    assert stored == {"body": "one two three", "word_count": 3, "by": "s"}
    assert sent == {"body": "one two three"}


async def test_plain_pre_hook_runs_too() -> None:
    def upper(values: dict[str, str]) -> dict[str, str]:
        return {name: value.upper() for name, value in values.items()}

    assert await before_write(upper, {"title": "engines"}) == {"title": "ENGINES"}


async def test_pre_hook_returning_nothing_is_named_in_the_error() -> None:
    def forgot(values: dict[str, Any]) -> None:
        values["title"] = "changed in place"

    with pytest.raises(TypeError, match=r"pre hook .*forgot must return the values"):
        await before_write(forgot, {})


class Draft(BaseModel):
    title: str


async def test_kiln_pre_hook_returns_the_body_to_store() -> None:
    async def tidy(body: Draft, *, db: object) -> Draft:
        return body.model_copy(update={"title": f"{body.title.strip()} by {db}"})

    assert await body_from_hook(tidy, Draft(title=" Engines "), db="s") == Draft(
        title="Engines by s"
    )


async def test_kiln_pre_hook_returning_another_type_is_named_in_the_error() -> None:
    def as_dict(body: Draft, *, db: object) -> dict[str, str]:
        return body.model_dump()

    with pytest.raises(TypeError, match=r"pre hook .*as_dict must return .*\(Draft\)"):
        await body_from_hook(as_dict, Draft(title="x"), db=None)


async def test_pre_hook_errors_propagate() -> None:
    async def refuse(values: dict[str, Any]) -> dict[str, Any]:
        raise PermissionError("no")

    with pytest.raises(PermissionError, match="no"):
        await before_write(refuse, {})


async def test_post_hook_is_called_with_its_arguments() -> None:
    seen: list[tuple[int, str]] = []

    async def record(row: int, *, session: str) -> None:
        seen.append((row, session))

    await after_commit(record, 7, session="s")
    assert seen == [(7, "s")]


async def test_failing_post_hook_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def explode(row: int) -> None:
        raise RuntimeError("mail server down")

    with caplog.at_level(logging.ERROR, logger="runtime.hooks"):
        await after_commit(explode, 7)
    [record] = caplog.records
    assert "explode failed; the write it followed is committed" in record.getMessage()
    assert record.exc_info is not None
    assert "mail server down" in str(record.exc_info[1])
