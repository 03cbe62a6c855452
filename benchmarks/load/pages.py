"""Where a page's time goes, one request at a time: SQL queries, their time, and CPU time per page
of the load test's flows, in-process (Django's test client), on a site kept by ``run.py --keep``.
CPU time is little affected by other work on the machine, unlike the latency under load.

    ATHAR_HOME=/tmp/athar-load-… [DATABASE_URL=…] .venv/bin/python benchmarks/load/pages.py [--repeat 5] [--json]

On PostgreSQL on this machine it also reads the CPU time of the server process that serves the
connection (``database cpu``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
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

    client, headers = Client(), {}
    if who.startswith("api:"):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {accounts['api'][int(who[4:])]['token']}"}
    else:
        client.force_login(User.objects.get(login=who))
    client.get(path, **headers)  # warm: templates, caches
    backend = _backend_pid(connection)
    cpu, wall, sql, queries, status = [], [], [], 0, 0
    db_started = _process_cpu_ms(backend)
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(path, **headers)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        status, queries = response.status_code, len(captured.captured_queries)
        sql.append(sum(float(q["time"]) for q in captured.captured_queries) * 1000)
    db_cpu = (_process_cpu_ms(backend) - db_started) / repeat if backend else None
    return {"page": name, "status": status, "queries": queries, "sql_ms": statistics.median(sql),
            "cpu_ms": statistics.median(cpu), "wall_ms": statistics.median(wall), "db_cpu_ms": db_cpu}


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
