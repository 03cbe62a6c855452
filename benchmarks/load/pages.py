"""Where a page's time goes, one request at a time: SQL queries, their time, and CPU time per page
of the load test's flows, in-process, on a site kept by ``run.py --keep``. CPU time is little
affected by other work on the machine, unlike the latency under load.

Each request goes through Django's WSGI handler with the session cookie of a signed-in account, as
gunicorn calls it: the request's start and end signals close or keep the database connection as in
serving (``ATHAR_DB_CONN_MAX_AGE``). Django's test client keeps one connection open whatever that
setting says, so it never showed what a new connection per request cost (3–6 ms on SQLite).

    ATHAR_HOME=/tmp/athar-load-… [DATABASE_URL=…] .venv/bin/python benchmarks/load/pages.py [--repeat 5] [--json]

On PostgreSQL on this machine it also reads the CPU time of the server process that serves the
connection (``database cpu``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    accounts = json.loads((Path(os.environ["ATHAR_HOME"]) / "accounts.json").read_text(encoding="utf-8"))
    rows = []
    for name, role, path in _pages(accounts):
        rows.append(_measure(name, role, path, accounts, args.repeat))
    for row in rows:
        db = "" if row["db_cpu_ms"] is None else f"  database cpu {row['db_cpu_ms']:>5.1f} ms"
        print(f"{row['page']:<26} status {row['status']}  queries {row['queries']:>4}  "
              f"sql {row['sql_ms']:>6.1f} ms  cpu {row['cpu_ms']:>6.1f} ms  wall {row['wall_ms']:>6.1f} ms{db}")
    if args.json:
        print(json.dumps(rows))


def _pages(accounts: dict[str, Any]) -> list[tuple[str, str, str]]:
    family = next(a for a in accounts["family"] if a["candidate"])
    caseworker, reviewer = accounts["caseworker"][0], accounts["reviewer"][0]
    f, c, r = family["login"], caseworker["login"], reviewer["login"]
    return [("family home", f, family["home"]), ("family candidate list", f, family["candidates"]),
            ("family candidate", f, family["candidate"][0]), ("family report", f, family["report"]),
            ("caseworker home", c, caseworker["home"]), ("caseworker report", c, caseworker["reports"][0]),
            ("caseworker ranked list", c, caseworker["ranked"][0]),
            ("reviewer queue", r, reviewer["queue"]), ("reviewer comparison", r, reviewer["compare"][0]),
            *[(f"api {p.split('?')[0][:30]} ({c['role']})", f"api:{i}", p)
              for i, c in enumerate(accounts["api"]) for p in c["paths"][:3]]]


def _measure(name: str, who: str, path: str, accounts: dict[str, Any], repeat: int) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from athar.accounts.models import User

    headers = {}
    if who.startswith("api:"):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {accounts['api'][int(who[4:])]['token']}"}
    else:
        client = Client()
        client.force_login(User.objects.get(login=who))
        headers = {"HTTP_COOKIE": "; ".join(f"{k}={v.value}" for k, v in client.cookies.items())}
    _get(path, headers)  # warm: templates, caches
    # The database server's share, when the connection is kept between requests (PostgreSQL on this
    # machine): the CPU time of the one server process that served them all.
    backend = _backend_pid(connection) if connection.connection is not None else None
    db_started = _process_cpu_ms(backend)
    cpu, wall, sql, queries, status = [], [], [], 0, 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            status = _get(path, headers)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        queries = len(captured.captured_queries)
        sql.append(sum(float(q["time"]) for q in captured.captured_queries) * 1000)
    same = backend is not None and connection.connection is not None and _backend_pid(connection) == backend
    db_cpu = (_process_cpu_ms(backend) - db_started) / repeat if same else None
    return {"page": name, "status": status, "queries": queries, "sql_ms": statistics.median(sql),
            "cpu_ms": statistics.median(cpu), "wall_ms": statistics.median(wall), "db_cpu_ms": db_cpu}


@lru_cache(maxsize=1)
def _handler() -> Any:
    """The WSGI application gunicorn serves (built once: middleware, URL patterns)."""
    from django.core.handlers.wsgi import WSGIHandler

    return WSGIHandler()


def _get(path: str, headers: dict[str, str]) -> int:
    """One GET through the WSGI handler, as gunicorn calls it; the status code."""
    route, _, query = path.partition("?")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": route, "QUERY_STRING": query, "SERVER_NAME": "127.0.0.1",
               "SERVER_PORT": "8000", "HTTP_HOST": "127.0.0.1:8000", "REMOTE_ADDR": "127.0.0.1",
               "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(b""), "wsgi.errors": sys.stderr,
               "wsgi.version": (1, 0), "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
               **headers}
    statuses: list[str] = []
    body = _handler()(environ, lambda status, _headers, *_: statuses.append(status))
    try:
        b"".join(body)
    finally:
        body.close()
    return int(statuses[0].split()[0])


def _backend_pid(connection: Any) -> int | None:
    """The PostgreSQL server process serving this connection, when it runs on this machine (its CPU
    time is the database's share of a page; SQLite's is in ``cpu_ms`` already)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = int(cursor.fetchone()[0])
    return pid if Path(f"/proc/{pid}/stat").exists() else None


def _process_cpu_ms(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
