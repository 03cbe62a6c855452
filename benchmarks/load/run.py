"""Bounded load test on loopback: builds a scratch site, serves it with gunicorn, runs locust headless.

    .venv/bin/python benchmarks/load/run.py [--users 50] [--seconds 60] [--workers 2]

Prints p50/p95 latency and errors per page and in total, measured after every user has signed in
(locust --reset-stats; --include-ramp keeps the sign-in burst in the figures).
Nothing leaves 127.0.0.1. The rate limits
are raised for this run through ATHAR_RATE_LIMITS (every simulated family shares one address).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN = Path(sys.executable).parent
LOOPBACK_LIMITS = {"login": {"rate": "10/5m", "address_rate": "100000/5m", "methods": ["POST"]},
                   "candidates": {"rate": "120/m", "address_rate": "1000000/m"}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--include-ramp", action="store_true",
                        help="keep the sign-in ramp (50 Argon2 checks at once) in the figures")
    parser.add_argument("--database-url", default="", help="PostgreSQL URL (default: SQLite in the scratch home)")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="athar-load-"))
    env = {**os.environ, "ATHAR_HOME": str(home), "ATHAR_ENV": "development",
           "ATHAR_RATE_LIMITS": json.dumps(LOOPBACK_LIMITS), "ATHAR_LOG_LEVEL": "ERROR"}
    env.pop("DATABASE_URL", None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    try:
        prepare(home, env, args.users)
        server = subprocess.Popen([str(BIN / "athar"), "serve", "--host", "127.0.0.1", "--port", str(args.port),
                                   "--workers", str(args.workers)], env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        try:
            wait_for(f"http://127.0.0.1:{args.port}/en/")
            run_locust(home, env, args)
        finally:
            server.terminate()
            server.wait(timeout=30)
        report(home / "locust_stats.csv")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def prepare(home: Path, env: dict[str, str], users: int) -> None:
    sys.path.insert(0, str(ROOT))
    from athar.archive.synthetic import make_archive

    make_archive(home / "archive", cases_per_facility=10, photos_per_case=2)
    subprocess.run([str(BIN / "athar"), "ingest", str(home / "archive"), "--archive", "Load"], env=env,
                   check=True, capture_output=True)
    subprocess.run([sys.executable, str(HERE / "setup_data.py"), str(users), str(home / "accounts.json")],
                   env=env, check=True)


def wait_for(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.5)
    raise SystemExit(f"server did not start: {url}")


def run_locust(home: Path, env: dict[str, str], args: argparse.Namespace) -> None:
    subprocess.run([str(BIN / "locust"), "-f", str(HERE / "locustfile.py"), "--headless", "-u", str(args.users),
                    "-r", "10", "-t", f"{args.seconds}s", "--host", f"http://127.0.0.1:{args.port}",
                    "--csv", str(home / "locust"), "--only-summary", "--stop-timeout", "5",
                    *([] if args.include_ramp else ["--reset-stats"])],
                   env={**env, "ATHAR_LOAD_ACCOUNTS": str(home / "accounts.json")}, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def report(stats: Path) -> None:
    print(f"{'page':<22} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'rps':>6}")
    with open(stats, newline="") as handle:
        for row in csv.DictReader(handle):
            print(f"{row['Name']:<22} {row['Request Count']:>8} {row['Failure Count']:>6} {row['50%']:>7} "
                  f"{row['95%']:>7} {row['99%']:>7} {float(row['Requests/s']):>6.1f}")


if __name__ == "__main__":
    main()
