"""Running one piece of work from several connections at once: the tests of invariants that live in
the database (constraints, row locks, conditional updates), on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, connection


def in_threads(n: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in n threads started together; each returns its result or the exception."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=60)
            results[i] = retrying(lambda: work(i))
        except Exception as exc:  # noqa: BLE001 — the outcome is what the test counts
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def retrying(call: Callable[[], Any], patience: float = 30.0) -> Any:
    """A client that tries again when the database says it is busy (SQLite's shared in-memory test
    database refuses a concurrent writer at once instead of waiting): the invariant is about what
    is stored, whatever the timing. It keeps trying for ``patience`` seconds, so that a loaded
    machine (other test processes on the same cores) does not turn a wait into a failure."""
    deadline = time.monotonic() + patience
    attempt = 0
    while True:
        try:
            return call()
        except OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            attempt += 1
            time.sleep(0.02 * (1 + attempt % 5))
