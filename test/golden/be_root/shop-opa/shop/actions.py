"""Actions of shop: functions of yours that routes call, named in the config.

config/project.jsonnet exposes ``pin_note`` as ``POST /notes/{pk}/pin``, its body
``{"pinned": false}`` optional. The generated handler loads the note, calls the function
with the note first, then the action's params by keyword and the request's ``session``,
and commits once it returns: raise to roll everything back. Plain and ``async def``
functions both work; a plain one runs on the event loop, so it must not block.
"""

from sqlalchemy.ext.asyncio import AsyncSession

from shop.models import Note


def pin_note(note: Note, *, pinned: bool = True, session: AsyncSession) -> None:
    """Pin a note, or unpin it with ``pinned=False``; the route answers with the
    note.
    """
    note.pinned = pinned
