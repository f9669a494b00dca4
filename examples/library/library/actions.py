"""Actions of the library example, called by the generated routes.

The calling convention is the blog's (see ``blog/actions.py``): the instance first,
the typed params by keyword, then ``session=``; actions never commit.
"""

from datetime import UTC, date, datetime
from typing import Any
from uuid import UUID

from sqlalchemy import func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from library.models import Book, Copy, Loan, book_genres


async def lend_copy(
    copy: Copy, *, member_id: UUID, due_on: date, session: AsyncSession
) -> None:
    """Lend *copy* to the member *member_id* until *due_on*.

    An unknown member is refused by the foreign key (409).
    """
    session.add(Loan(copy_id=copy.id, member_id=member_id, due_on=due_on))
    await session.flush()


def return_loan(loan: Loan, *, session: AsyncSession) -> None:
    """Record that the copy of *loan* came back now."""
    if loan.returned_at is None:
        loan.returned_at = datetime.now(UTC)


async def add_genre(book: Book, *, genre_code: str, session: AsyncSession) -> None:
    """File *book* under *genre_code*; an unknown or repeated genre conflicts (409)."""
    await session.execute(
        insert(book_genres).values(book_id=book.id, genre_code=genre_code)
    )


async def count_books(*, text: str, session: AsyncSession) -> dict[str, Any]:
    """How many books have *text* in their title or ISBN."""
    pattern = f"%{text}%"
    count = await session.scalar(
        select(func.count())
        .select_from(Book)
        .where(or_(Book.title.ilike(pattern), Book.isbn.ilike(pattern)))
    )
    return {"text": text, "books": count or 0}
