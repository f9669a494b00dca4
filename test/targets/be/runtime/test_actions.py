"""``call_action`` calls plain and ``async`` functions alike, returning their result."""

import pytest
from runtime.actions import call_action

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_plain_function_runs_inline_with_args_and_keywords() -> None:
    def add(a: int, b: int, *, scale: int) -> int:
        return (a + b) * scale

    assert await call_action(add, 1, 2, scale=10) == 30


async def test_async_function_is_awaited() -> None:
    async def greet(name: str) -> str:
        return f"hello {name}"

    assert await call_action(greet, "ada") == "hello ada"


async def test_errors_propagate() -> None:
    def fail() -> None:
        raise LookupError("nope")

    with pytest.raises(LookupError, match="nope"):
        await call_action(fail)
