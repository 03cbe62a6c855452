"""Counters and one-time markers that hold under concurrency: the rate limits' windows and the
"this code was used" markers.

Never Django's file cache: it has no atomic increment and evicts random entries past its limit, so a
flood could erase counters and markers. The default store is a database table (``core_counter``),
written by ONE ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` statement (SQLite ≥ 3.35 and
PostgreSQL alike); with ``ATHAR_REDIS_URL`` set, Redis (``INCR`` + ``EXPIRE … NX`` in one
``MULTI``; ``SET NX EX`` for markers).
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any, Protocol

from django.conf import settings
from django.db import connection, transaction

from athar.core.models import Counter

PURGE_ONE_IN = 500  # about one call in this many also deletes expired rows


class AtomicStore(Protocol):
    def incr(self, key: str, ttl: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key`` (a new or expired key starts at it, living ``ttl`` seconds); the new count."""

    def add(self, key: str, ttl: int) -> bool:
        """Set ``key`` for ``ttl`` seconds if it is not set; True for the first caller only."""

    def incr_many(self, items: list[tuple[str, int, int]]) -> list[int]:
        """``incr`` of each (key, ttl, amount), in one transaction or round trip; the new counts."""


class DatabaseStore:
    """The ``core_counter`` table; one statement per counter, so concurrent callers never lose a count."""

    def incr(self, key: str, ttl: int, amount: int = 1) -> int:
        return self.incr_many([(key, ttl, amount)])[0]

    def incr_many(self, items: list[tuple[str, int, int]]) -> list[int]:
        """One write transaction for all of them: a rate-limited request counts its account and its
        address under one lock of SQLite's database, not two."""
        now = time.time()
        table = connection.ops.quote_name("core_counter")
        sql = (f"INSERT INTO {table} (key, count, expires_at) VALUES (%s, %s, %s) "
               f"ON CONFLICT (key) DO UPDATE SET "
               f"count = CASE WHEN {table}.expires_at <= %s THEN excluded.count ELSE {table}.count + excluded.count END, "
               f"expires_at = CASE WHEN {table}.expires_at <= %s THEN excluded.expires_at "
               f"ELSE {table}.expires_at END RETURNING count")
        own = connection.vendor == "postgresql" and not connection.in_atomic_block
        counts = []
        with transaction.atomic(), connection.cursor() as cursor:
            if own:  # a counter of its own transaction need not survive a crash: no wait for fsync
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            for key, ttl, amount in items:
                cursor.execute(sql, [key, amount, now + ttl, now, now])
                counts.append(int(cursor.fetchone()[0]))
        if random.randrange(PURGE_ONE_IN) == 0:  # noqa: S311 - not a secret
            self.purge(now)
        return counts

    def add(self, key: str, ttl: int) -> bool:
        return self.incr(key, ttl) == 1

    def purge(self, now: float | None = None) -> int:
        return Counter.objects.filter(expires_at__lte=time.time() if now is None else now).delete()[0]


class RedisStore:
    """Redis at ``ATHAR_REDIS_URL`` (shared by every worker and machine)."""

    def __init__(self, url: str) -> None:
        import redis

        self.client: Any = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def incr(self, key: str, ttl: int, amount: int = 1) -> int:
        return self.incr_many([(key, ttl, amount)])[0]

    def incr_many(self, items: list[tuple[str, int, int]]) -> list[int]:
        pipe = self.client.pipeline(transaction=True)
        for key, ttl, amount in items:
            pipe.incrby(f"athar:{key}", amount)
            pipe.expire(f"athar:{key}", ttl, nx=True)
        replies = pipe.execute()
        return [int(count) for count in replies[::2]]

    def add(self, key: str, ttl: int) -> bool:
        return bool(self.client.set(f"athar:{key}", 1, nx=True, ex=ttl))


@lru_cache(maxsize=4)
def _redis(url: str) -> RedisStore:
    return RedisStore(url)


def store() -> AtomicStore:
    """Redis when ``ATHAR_REDIS_URL`` is set, else the database table."""
    url = str(getattr(settings, "ATHAR_REDIS_URL", "") or "")
    return _redis(url) if url else DatabaseStore()


def incr(key: str, ttl: int, amount: int = 1) -> int:
    return store().incr(key, ttl, amount)


def incr_many(items: list[tuple[str, int, int]]) -> list[int]:
    """Several counters at once (key, ttl, amount): one transaction, or one Redis round trip."""
    return store().incr_many(items) if items else []


def add(key: str, ttl: int) -> bool:
    return store().add(key, ttl)
