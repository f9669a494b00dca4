"""Authentication of the blog example: the functions the auth configs name.

* ``verify_credentials`` (``verify_credentials_fn`` in config/auth.jsonnet) checks a
  username and password for the generated token endpoint and returns the user's subject,
  the ``sub`` claim of the token it issues.
* ``verify_login`` (config/sessions.jsonnet) checks the same, and returns the user: the
  token endpoint then also writes the user's ``groups`` into the token's groups claim.
* ``LoginCredentials``, ``Session``, ``validate_login`` and ``revocations`` are kiln's
  login (config/kiln.jsonnet): a JSON body in place of the form, the session the token
  carries, and the store told at logout.
* ``current_user`` (``get_current_user_fn`` in config/auth_custom.jsonnet) replaces the
  generated JWT flow: it accepts opaque API tokens sent as
  ``Authorization: Bearer <token>``.

The users live in a small in-memory table so that the example runs without migrations;
a real application keeps them in its database. Demo logins:
``ada`` / ``analytical-engine`` and ``grace`` / ``compiler-1952``; demo API tokens:
``blog-demo-token-ada`` and ``blog-demo-token-grace``. Only password hashes (scrypt)
and token hashes (SHA-256) are stored.
"""

import hashlib
import hmac
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel


@dataclass(frozen=True)
class User:
    """A user of the blog."""

    subject: str
    """Stable identifier: the ``sub`` claim of the user's tokens."""
    name: str
    groups: frozenset[str] = frozenset()
    """The user's roles (config/authz.jsonnet's groups)."""


@dataclass(frozen=True)
class _Login:
    user: User
    salt: bytes
    password_hash: bytes


_ADA = User("ada", "Ada Lovelace", frozenset({"writer"}))
_GRACE = User("grace", "Grace Hopper", frozenset({"editor"}))

_LOGINS = {
    "ada": _Login(
        _ADA,
        salt=bytes.fromhex("b01f707275221fe85a307ac3fe2b2c9d"),
        password_hash=bytes.fromhex(
            "75f38e7fe5b0f80266fef66c6222ee38a312b34c1a130991f8d54f33b6c08d56"
        ),
    ),
    "grace": _Login(
        _GRACE,
        salt=bytes.fromhex("d8e68909955a0aa327af08b69800fdfa"),
        password_hash=bytes.fromhex(
            "b5c976704b61274bf705782b4d980bc2a25b8ecb73eab8c7d7aa212076e7060f"
        ),
    ),
}

# SHA-256 of each API token -> its user.
_API_TOKENS = {
    "4575d5860ecd866e53701ee8a8a708bd8e72fc2fbc89a7ef40da0507f7145af4": _ADA,
    "06cdadd83b99d67abd150b2f1811eb5a6fe5abc0c171caa5278b9e5760eee4a2": _GRACE,
}

# Hashed for unknown usernames too, so that the answer takes as long as for known ones.
_UNKNOWN = _Login(User("", ""), b"\0" * 16, b"\0" * 32)


def _scrypt(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


def verify_login(username: str, password: str) -> User | None:
    """The user *username* when *password* is theirs, else None.

    A plain function: the generated token endpoint runs it in a worker thread, so the
    deliberately slow hash does not block the event loop.
    """
    login = _LOGINS.get(username, _UNKNOWN)
    matches = hmac.compare_digest(_scrypt(password, login.salt), login.password_hash)
    return login.user if matches and login is not _UNKNOWN else None


def verify_credentials(username: str, password: str) -> str | None:
    """The subject of the user *username* when *password* is theirs, else None."""
    user = verify_login(username, password)
    return None if user is None else user.subject


class LoginCredentials(BaseModel):
    """kiln's login body."""

    username: str
    password: str


class Session(BaseModel):
    """What a token from kiln's login carries."""

    sub: str
    name: str
    jti: str | None = None
    """The token's id: what ``revocations`` keys."""


def validate_login(credentials: LoginCredentials) -> Session | None:
    """The session of the user the credentials are right for, else None."""
    user = verify_login(credentials.username, credentials.password)
    return None if user is None else Session(sub=user.subject, name=user.name)


class Revocations:
    """kiln's session store: the sessions logged out of, in memory."""

    def __init__(self) -> None:
        self.revoked: set[str] = set()

    async def is_revoked(self, session: Session) -> bool:
        return session.jti in self.revoked

    async def revoke(self, session: Session) -> None:
        if session.jti is not None:
            self.revoked.add(session.jti)


revocations = Revocations()


_bearer = HTTPBearer(auto_error=False)


async def current_user(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> User:
    """FastAPI dependency: the user whose API token the request carries, or 401."""
    if credentials is not None:
        digest = hashlib.sha256(credentials.credentials.encode()).hexdigest()
        user = _API_TOKENS.get(digest)
        if user is not None:
            return user
    raise HTTPException(
        status.HTTP_401_UNAUTHORIZED,
        detail="A valid API token is required",
        headers={"WWW-Authenticate": "Bearer"},
    )
