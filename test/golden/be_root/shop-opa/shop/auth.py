"""Credentials check of shop: yours to write.

config/project.jsonnet names ``verify_credentials`` as the ``auth`` block's
``verify_credentials_fn``. The generated token endpoint (``POST /auth/token``) calls it
with the username and password of the form; a plain function runs in a worker thread, an
``async def`` one is awaited.
"""


def verify_credentials(username: str, password: str) -> str | None:
    """The user's subject (the token's ``sub`` claim) for a right password, else None.

    Until you write it, nobody can sign in. Look the user up, compare the password with
    its stored hash (``hashlib.scrypt`` or a library such as argon2-cffi, with
    ``hmac.compare_digest``), and return a stable id such as ``str(user.id)``.
    """
    return None
