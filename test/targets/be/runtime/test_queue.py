"""The queue helper's URL conversion: a SQLAlchemy async URL becomes an asyncpg DSN."""

from runtime.queue import worker_dsn


def test_driver_is_dropped_and_the_password_kept() -> None:
    dsn = worker_dsn("postgresql+asyncpg://app:s%40cret@db.example:5433/shop")
    assert dsn == "postgresql://app:s%40cret@db.example:5433/shop"


def test_a_plain_url_is_unchanged() -> None:
    assert worker_dsn("postgresql://u:p@h/d") == "postgresql://u:p@h/d"
