"""PostgreSQL on this machine (127.0.0.1:5432, trust auth): scratch databases for subprocess tests."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

SERVER = "postgres://postgres@127.0.0.1:5432"


def _server_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        parsed = urlparse(url)
        return f"{parsed.scheme}://{parsed.netloc}"
    return SERVER


def pg_url(database: str) -> str:
    return f"{_server_url()}/{database}"


def pg_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(pg_url("postgres"), connect_timeout=3):
            return True
    except Exception:  # noqa: BLE001 - any failure means: not available here
        return False


@contextmanager
def scratch_database(prefix: str = "athar_sec") -> Iterator[str]:
    """A new, empty database; dropped afterwards. Yields its URL."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(pg_url("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield pg_url(name)
    finally:
        with psycopg.connect(pg_url("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
