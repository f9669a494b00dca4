"""Read replicas: the routes that only read use one while it keeps up with its primary.

A database with replicas has a second session factory, for the routes that only read
(``get``, lists, search, discovery). Its sessions are of ``read_session_class``, which
picks the connection of each statement (``get_bind``):

- a write (a flush, an ``insert``, ``update`` or ``delete``, ``SELECT … FOR UPDATE``,
  text SQL: anything but a plain select) goes to the primary, and so does every
  statement of the session after it, so a request reads its own writes;
- a select goes to the replica the session chose on its first read, at random among
  those keeping up, whose connection it opens there: a replica that refuses it is
  marked down and the session reads from the primary, so a replica that stops costs
  no request (one that stops in the middle of a request makes that request a 503);
- with no replica keeping up, reads go to the primary (``fallback="primary"``), or are
  answered 503 with ``Retry-After`` (``"unavailable"``, which keeps the primary for
  writes).

Each process checks each replica at most every ``check_interval`` seconds, in the
background, while reads need it: whether it receives WAL from its primary, and how far
it is behind (0 when it replayed all it received, else the age of the last transaction
it replayed). One more than ``max_lag`` seconds behind, or not receiving, is skipped
until a check finds it caught up; a replica's first check is awaited before its first
read. A read may so be up to ``max_lag`` + ``check_interval`` seconds stale. A URL of a
server that is no replica (a primary, in development) counts as caught up.
The replicas' URLs come from an environment variable, commas between them; without
it, reads use the primary. Subclassing the session class given keeps its events: row
visibility applies to reads from a replica as to any other.
"""

import asyncio
import logging
import os
import random
import time
from collections.abc import Callable, Iterable
from typing import Any, Literal

from fastapi import HTTPException, status
from sqlalchemy import event, text
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Session
from sqlalchemy.sql.selectable import GenerativeSelect
from sqlalchemy.util import await_only

from .errors import RETRY_AFTER_SECONDS

Fallback = Literal["primary", "unavailable"]
"""What reads do while no replica keeps up: read the primary, or answer 503."""

_log = logging.getLogger(__name__)

# A replica that refuses a connection, or times out, is down until a check says not.
_UNREACHABLE = (OSError, TimeoutError, DBAPIError, PoolTimeoutError)

# Whether the server replays WAL it receives from a primary, and how far behind it is.
_LAG = text(
    "SELECT pg_is_in_recovery() AS standby,"
    " EXISTS (SELECT FROM pg_stat_wal_receiver) AS receiving,"
    " CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
    " ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())"
    " END AS lag"
)

# Keys of ``Session.info``: the session writes (reads the primary from then on), and
# the bind its reads use once chosen.
_PRIMARY_ONLY = "replicas.primary_only"
_READS_FROM = "replicas.reads_from"


class Replica:
    """One replica: its engine, and what the last check found."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.usable = False
        self.known = False
        """Whether a check has ended: before, ``usable`` says nothing yet."""
        self.checked_at = 0.0
        """``time.monotonic()`` when the last check began."""
        self.check: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return f"Replica({self.engine.url.render_as_string(hide_password=True)!r})"

    def set_usable(self, usable: bool, why: str) -> None:
        if usable != self.usable:
            log = _log.info if usable else _log.warning
            log("%s %s: %s", self, "back in use" if usable else "not used", why)
        self.usable = usable


class Replicas:
    """The replicas of one database, in the environment variable *urls_env*.

    *connect* makes the engine of a URL (the primary's settings); *max_lag*,
    *check_interval* and *fallback* as the module says.
    """

    def __init__(
        self,
        urls_env: str,
        connect: Callable[[str], AsyncEngine],
        *,
        max_lag: float,
        check_interval: float,
        fallback: Fallback = "primary",
    ) -> None:
        self.urls_env = urls_env
        self.max_lag = max_lag
        self.check_interval = check_interval
        self.fallback: Fallback = fallback
        self._connect = connect
        self._replicas: list[Replica] | None = None

    @property
    def replicas(self) -> list[Replica]:
        """The replicas named in the environment, their engines made on first use."""
        if self._replicas is None:
            urls = os.environ.get(self.urls_env, "").split(",")
            self._replicas = [self._replica(url.strip()) for url in urls if url.strip()]
        return self._replicas

    def engines(self) -> Iterable[AsyncEngine]:
        """The engines made so far, to close them."""
        return [replica.engine for replica in self._replicas or ()]

    def read_session_class(self, base: type[Session] = Session) -> type[Session]:
        """A subclass of *base* whose selects use a replica until the session writes."""
        replicas = self

        class ReadSession(base):
            """A session whose selects use a replica until it writes."""

            def get_bind(
                self, mapper: Any = None, *, clause: Any = None, **kw: Any
            ) -> Any:
                primary = super().get_bind(mapper, clause=clause, **kw)
                return replicas.bind_for(self, primary, clause)

        return ReadSession

    def bind_for(self, session: Session, primary: Any, clause: Any) -> Any:
        """The bind of *session*'s statement *clause*: *primary* or a replica's."""
        info = session.info
        if info.get(_PRIMARY_ONLY) or session._flushing or not _reads_only(clause):
            info[_PRIMARY_ONLY] = True
            return primary
        chosen = info.get(_READS_FROM)
        if chosen is None:
            chosen = info[_READS_FROM] = self._choose(session, primary)
        return chosen

    def _choose(self, session: Session, primary: Any) -> Any:
        replicas = self.replicas
        if not replicas:
            return primary
        for replica in replicas:
            self._check_when_due(replica)
        usable = [replica for replica in replicas if replica.usable]
        random.shuffle(usable)
        for replica in usable:
            bind = replica.engine.sync_engine
            try:
                # Opened now, so a replica that went away is noticed here, not later.
                session.connection(bind_arguments={"bind": bind})
            except _UNREACHABLE as error:
                replica.set_usable(False, f"no connection: {error}")
                continue
            return bind
        if self.fallback == "unavailable":
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE,
                detail="No replica of the database is up to date; retry shortly.",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
        return primary

    def _check_when_due(self, replica: Replica) -> None:
        """Start a check of *replica* when its last is old; await its first."""
        now = time.monotonic()
        running = replica.check is not None and not replica.check.done()
        if not running and (
            not replica.known or now - replica.checked_at >= self.check_interval
        ):
            replica.checked_at = now
            replica.check = asyncio.get_running_loop().create_task(self._check(replica))
        if not replica.known and replica.check is not None:
            await_only(asyncio.shield(replica.check))

    async def _check(self, replica: Replica) -> None:
        try:
            await self._measure(replica)
        finally:
            replica.known = True

    async def _measure(self, replica: Replica) -> None:
        try:
            async with replica.engine.connect() as connection:
                found = (await connection.execute(_LAG)).one()
        except _UNREACHABLE as error:
            replica.set_usable(False, f"no answer: {error}")
            return
        if not found.standby:
            replica.set_usable(True, "not a replica: nothing to catch up with")
        elif not found.receiving:
            replica.set_usable(False, "it receives no WAL from its primary")
        elif found.lag is None or found.lag > self.max_lag:
            lag = "unknown" if found.lag is None else f"{float(found.lag):.1f} s"
            replica.set_usable(False, f"{lag} behind, more than {self.max_lag} s")
        else:
            replica.set_usable(True, f"{float(found.lag):.1f} s behind")

    def _replica(self, url: str) -> Replica:
        replica = Replica(self._connect(url))

        def lost(context: ExceptionContext) -> None:
            # A statement lost its connection: the replica is down until a check.
            if context.is_disconnect:
                replica.set_usable(
                    False, f"connection lost: {context.original_exception}"
                )

        event.listen(replica.engine.sync_engine, "handle_error", lost)
        return replica


def _reads_only(clause: Any) -> bool:
    """Whether *clause* is a select that locks nothing: what a replica can run."""
    return isinstance(clause, GenerativeSelect) and clause._for_update_arg is None
