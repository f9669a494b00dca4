"""Credentials check of shop: yours to write.

config/project.jsonnet names ``verify_credentials`` as the ``auth`` block's
``verify_credentials_fn``. The generated token endpoint (``POST /auth/token``) calls it
with the username and password of the form; a plain function runs in a worker thread, an
``async def`` one is awaited.

``codegen dev`` lets one development user in: it sets ``CODEGEN_DEV_USER`` and
``CODEGEN_DEV_PASSWORD`` (kept in ``.codegen/dev-password``) and prints them at start.
Nothing else sets them, so in production only your own check decides.
"""

import hmac
import os


def development_user(username: str, password: str) -> str | None:
    """The development user's subject, when ``codegen dev`` set it and these match."""
    user = os.environ.get("CODEGEN_DEV_USER")
    secret = os.environ.get("CODEGEN_DEV_PASSWORD")
    if not user or not secret:
        return None
    if hmac.compare_digest(username.encode(), user.encode()) and hmac.compare_digest(
        password.encode(), secret.encode()
    ):
        return user
    return None


def verify_credentials(username: str, password: str) -> str | None:
    """The user's subject (the token's ``sub`` claim) for a right password, else None.

    Until you write it, only ``codegen dev``'s development user can sign in. Look
    the user up, compare the password with its stored hash (``hashlib.scrypt`` or a
    library such as argon2-cffi, with ``hmac.compare_digest``), and return a stable
    id such as ``str(user.id)``.
    """
    return development_user(username, password)
