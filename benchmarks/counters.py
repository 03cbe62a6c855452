"""Rate-limit counter throughput: the core_counter table (SQLite file, PostgreSQL) and Redis.

Each request to a limited view costs two increments (account and address). Prints increments per
second from N threads, each on a fresh scratch store, and checks no count was lost.

    python benchmarks/counters.py --threads 4 --per-thread 500 [--postgres URL] [--redis URL]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _django(database_url: str) -> None:
    os.environ["ATHAR_HOME"] = tempfile.mkdtemp(prefix="athar-bench-counters-")
    os.environ.setdefault("ATHAR_ENV", "development")
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "athar.settings"
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", "core", verbosity=0)


def run(store_factory, threads: int, per_thread: int) -> tuple[float, bool]:
    from django.db import connection

    key, seen, lock = f"bench:{time.time_ns()}", [], threading.Lock()

    def work() -> None:
        store = store_factory()
        mine = [store.incr(key, 600) for _ in range(per_thread)]
        with lock:
            seen.extend(mine)
        connection.close()

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    return threads * per_thread / elapsed, sorted(seen) == list(range(1, threads * per_thread + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--per-thread", type=int, default=500)
    parser.add_argument("--postgres", default="", help="a scratch database URL (its core table is used)")
    parser.add_argument("--redis", default="", help="e.g. redis://127.0.0.1:6379/15")
    args = parser.parse_args()
    _django(args.postgres)
    from athar.core.counters import DatabaseStore, RedisStore

    engine = "postgresql" if args.postgres else "sqlite"
    rate, exact = run(DatabaseStore, args.threads, args.per_thread)
    print(f"database ({engine}): {rate:,.0f} increments/s, every count once: {exact}")
    if args.redis:
        rate, exact = run(lambda: RedisStore(args.redis), args.threads, args.per_thread)
        print(f"redis: {rate:,.0f} increments/s, every count once: {exact}")


if __name__ == "__main__":
    main()
