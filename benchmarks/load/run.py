"""Bounded load test on loopback: builds a scratch site through athar's own functions, serves it as
the deployment guide does, and runs locust headless with every role's real flows.

    .venv/bin/python benchmarks/load/run.py [--users 50] [--seconds 60] [--workers 2]
        [--postgres postgres://postgres@127.0.0.1:5432/test] [--server athar|gunicorn] [--json]

The site: a synthetic archive ingested by ``athar ingest``; families registered, taken on by their
caseworker with the family's agreement code, each with a filed report; rankings computed by
``athar worker --once``; claims awaiting review; API tokens (benchmarks/load/setup_data.py).
The flows (benchmarks/load/locustfile.py): families (home, candidate list, a candidate, the
report), caseworkers (home, their families' reports, a ranked list), reviewers (queue, a
comparison), API clients (report and claim lists, candidates) with a token.

Prints p50/p95/p99 latency and errors per page and in all, and requests/s, measured once every
user has signed in (the locustfile resets them then; ``--include-ramp`` keeps the sign-in burst). An error is
any answer other than the page's expected status (200): a redirect to the sign-in page or a 404
counts. When a flow meets 403 or 404 the data set or a permission is broken, and the run exits 1
naming the page, so figures of empty pages are never reported as a success.
With ``--postgres URL`` a scratch database is created on that server and dropped afterwards.
Nothing leaves 127.0.0.1. Rate limits per address are raised through ATHAR_RATE_LIMITS (every
simulated person shares one address); the counters still run.
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
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIN = Path(sys.executable).parent
HIGH = "1000000/m"
# Every simulated person shares 127.0.0.1; the API clients and caseworkers share a few accounts.
LOOPBACK_LIMITS = {"login": {"rate": "10/5m", "address_rate": "100000/5m", "methods": ["POST"]},
                   "candidates": {"rate": "600/m", "address_rate": HIGH},
                   "photo": {"rate": "600/m", "address_rate": HIGH},
                   "api": {"rate": HIGH, "address_rate": HIGH}}
TARGET_P95_MS, TARGET_P99_MS = 300, 1000


def main() -> None:
    args = _arguments()
    home = Path(tempfile.mkdtemp(prefix="athar-load-"))
    env = {**os.environ, "ATHAR_HOME": str(home), "ATHAR_ENV": "development",
           "ATHAR_RATE_LIMITS": json.dumps(LOOPBACK_LIMITS), "ATHAR_LOG_LEVEL": "ERROR",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
    env.pop("DATABASE_URL", None)
    try:
        with _database(args.postgres, keep=args.keep) as url:
            if url:
                env["DATABASE_URL"] = url
            say = (lambda text: sys.stderr.write(text + "\n")) if args.json else print
            built = prepare(home, env, args, say)
            load_before = os.getloadavg()
            with _server(home, env, args) as server:
                server_cpu, client_cpu = run_locust(home, env, args, server.pid)
            result = summarise(home, args, built, load_before, server_cpu, client_cpu)
    finally:
        if args.keep:
            sys.stderr.write(f"kept: ATHAR_HOME={home} (accounts.json)\n")
        else:
            shutil.rmtree(home, ignore_errors=True)
    report(result, args.json)
    if result["broken_flows"]:
        sys.exit(1)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=60, help="measured, from the moment every user has signed in")
    parser.add_argument("--workers", type=int, default=0,
                        help="gunicorn worker processes, 4 threads each (default: athar serve's, two per core)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--cases-per-facility", type=int, default=40, help="synthetic archive: 5 facilities")
    parser.add_argument("--server", choices=("athar", "gunicorn"), default="athar",
                        help="`athar serve` (with its supervised worker) or gunicorn as in docs/deployment.md")
    parser.add_argument("--include-ramp", action="store_true",
                        help="keep the sign-in ramp (one Argon2 check per user) in the figures")
    parser.add_argument("--postgres", default="", metavar="URL",
                        help="a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/test): a scratch "
                             "database is made there and dropped afterwards (default: SQLite in the scratch home)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch site (its path goes to stderr)")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object on the last line")
    args = parser.parse_args()
    if not args.workers:  # the same number `athar serve` chooses (this checkout's athar)
        sys.path.insert(0, str(ROOT))
        from athar.ops.server import default_workers

        args.workers = default_workers()
    return args


@contextmanager
def _database(server_url: str, keep: bool = False) -> Any:
    """A scratch PostgreSQL database for the run (None: SQLite); ``keep`` leaves it for ``pages.py``."""
    if not server_url:
        yield None
        return
    import psycopg

    name = f"athar_load_{os.getpid()}"
    parts = urlsplit(server_url)
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(parts._replace(path=f"/{name}"))
    try:
        yield url
    finally:
        if keep:
            sys.stderr.write(f"kept: DATABASE_URL={url}\n")
        else:
            with psycopg.connect(server_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _athar(env: dict[str, str], *arguments: str) -> dict[str, Any]:
    done = subprocess.run([str(BIN / "athar"), *arguments, "--json"], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"athar {' '.join(arguments)} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def prepare(home: Path, env: dict[str, str], args: argparse.Namespace, say: Any) -> dict[str, Any]:
    """The site, built as people build it (see setup_data.py); returns what was made."""
    sys.path.insert(0, str(ROOT))
    from athar.archive.synthetic import make_archive

    started = time.monotonic()
    made = make_archive(home / "archive", cases_per_facility=args.cases_per_facility, photos_per_case=2)
    ingest = _athar(env, "ingest", str(home / "archive"), "--archive", "Load", "--no-faces")
    say(f"archive: {made.cases} cases, {ingest.get('photos_added')} photos ingested")
    accounts = home / "accounts.json"
    subprocess.run([sys.executable, str(HERE / "setup_data.py"), "accounts", str(args.users), str(accounts)],
                   env=env, check=True, stdout=sys.stderr)
    ranked = _athar(env, "worker", "--once")
    subprocess.run([sys.executable, str(HERE / "setup_data.py"), "claims", str(accounts)], env=env, check=True,
                   stdout=sys.stderr)
    again = _athar(env, "worker", "--once")  # a claimed case is ranked again
    say(f"worker: {ranked.get('done')} + {again.get('done')} jobs done, "
        f"{ranked.get('failed', 0) + again.get('failed', 0)} failed")
    subprocess.run([sys.executable, str(HERE / "setup_data.py"), "urls", str(accounts)], env=env, check=True,
                   stdout=sys.stderr)
    built = json.loads(accounts.read_text(encoding="utf-8"))
    return {"cases": made.cases, "families": len(built["family"]), "caseworkers": len(built["caseworker"]),
            "reviewers": len(built["reviewer"]), "ranking_jobs": ranked.get("done", 0) + again.get("done", 0),
            "setup_seconds": round(time.monotonic() - started, 1)}


@contextmanager
def _server(home: Path, env: dict[str, str], args: argparse.Namespace) -> Any:
    if args.server == "athar":
        command = [str(BIN / "athar"), "serve", "--host", "127.0.0.1", "--port", str(args.port),
                   "--workers", str(args.workers)]
    else:  # docs/deployment.md, "The application server"
        subprocess.run([str(BIN / "athar"), "collectstatic", "--noinput"], env=env, check=True, capture_output=True)
        command = [str(BIN / "gunicorn"), "athar.wsgi", "--bind", f"127.0.0.1:{args.port}", "--workers",
                   str(args.workers), "--threads", "4", "--worker-class", "gthread", "--keep-alive", "0", "--timeout", "60",
                   "--worker-tmp-dir", str(home), "--control-socket", str(home / "gunicorn.ctl")]
    log = open(home / "server.log", "wb")  # noqa: SIM115 - closed below, after the server
    server = subprocess.Popen(command, env=env, stdout=log, stderr=log, cwd=home)
    try:
        wait_for(f"http://127.0.0.1:{args.port}/en/", server, home / "server.log")
        yield server
    finally:
        server.terminate()
        try:  # gunicorn lets open connections finish, the worker its job
            server.wait(timeout=120)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


def wait_for(url: str, server: subprocess.Popen[bytes], log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped:\n{log.read_text(errors='replace')[-2000:]}")
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.5)
    raise SystemExit(f"server did not start: {url}")


def run_locust(home: Path, env: dict[str, str], args: argparse.Namespace,
               server_pid: int) -> tuple[float | None, float | None]:
    """Run locust; returns the CPU seconds the server (gunicorn and its workers) and the load generator
    (locust, on the same machine) spent in the measured window (from the moment every user had signed
    in), each None when psutil is missing."""
    spawn = max(10, args.users // 10)
    mark = home / "signed-in.mark"
    locust = subprocess.Popen(
        [str(BIN / "locust"), "-f", str(HERE / "locustfile.py"), "--headless", "-u", str(args.users),
         # the locustfile stops --seconds after the last sign-in; -t is only a safety net
         "-r", str(spawn), "-t", f"{args.seconds + 900}s", "--host", f"http://127.0.0.1:{args.port}",
         "--csv", str(home / "locust"), "--only-summary", "--stop-timeout", "5"],
        env={**env, "ATHAR_LOAD_ACCOUNTS": str(home / "accounts.json"),
             "ATHAR_LOAD_KEEP_RAMP": "1" if args.include_ramp else "0", "ATHAR_LOAD_SECONDS": str(args.seconds),
             "ATHAR_LOAD_BROKEN": str(home / "broken.txt"), "ATHAR_LOAD_MARK": str(mark)},
        stdout=subprocess.DEVNULL, stderr=open(home / "locust.log", "wb"))  # noqa: SIM115
    cpu_at_mark = client_at_mark = client_at_end = None
    while locust.poll() is None:
        if cpu_at_mark is None and mark.exists():
            cpu_at_mark, client_at_mark = _tree_cpu(server_pid), _tree_cpu(locust.pid)
        client_at_end = _tree_cpu(locust.pid) or client_at_end  # read while it runs: gone once it ends
        time.sleep(0.2)
    cpu_at_end = _tree_cpu(server_pid)
    server = None if cpu_at_mark is None or cpu_at_end is None else cpu_at_end - cpu_at_mark
    client = None if client_at_mark is None or client_at_end is None else client_at_end - client_at_mark
    return server, client


def _tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of a process (the server, locust) and every process under it."""
    try:
        import psutil
    except ImportError:
        return None
    try:
        root = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return None
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + (times.children_user + times.children_system if process is root else 0)
    return total


def summarise(home: Path, args: argparse.Namespace, built: dict[str, Any],
              load_before: tuple[float, float, float], server_cpu: float | None,
              client_cpu: float | None = None) -> dict[str, Any]:
    pages, total = [], {}
    if not (home / "locust_stats.csv").exists():
        raise SystemExit("locust wrote no figures:\n" + (home / "locust.log").read_text(errors="replace")[-3000:])
    with open(home / "locust_stats.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            figures = {"page": row["Name"], "requests": int(row["Request Count"]),
                       "errors": int(row["Failure Count"]), "p50_ms": _ms(row["50%"]), "p95_ms": _ms(row["95%"]),
                       "p99_ms": _ms(row["99%"]), "requests_per_s": round(float(row["Requests/s"]), 1)}
            if row["Name"] == "Aggregated":
                total = figures
            elif figures["requests"]:  # the sign-in rows are empty once the figures were reset
                pages.append(figures)
    failures = []
    with open(home / "locust_failures.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            failures.append({"page": row["Name"], "error": row["Error"], "count": int(row["Occurrences"])})
    broken = [f for f in failures if any(code in f["error"] for code in ("403", "404", "sign-in failed: 2"))]
    sign_ins = (home / "broken.txt").read_text(encoding="utf-8").splitlines() if (home / "broken.txt").exists() else []
    # a sign-in refused means a broken data set; one never answered (three tries) means an overloaded server
    broken += [{"page": "sign-in", "error": line, "count": 1} for line in sign_ins if "no answer" not in line]
    unanswered = sum("no answer" in line for line in sign_ins)
    met = bool(total) and total["errors"] == 0 and not unanswered and total["p95_ms"] <= TARGET_P95_MS and total["p99_ms"] <= TARGET_P99_MS
    return {"database": "postgresql" if args.postgres else "sqlite", "server": args.server, "users": args.users,
            "seconds": args.seconds, "gunicorn_workers": args.workers, **built,
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 1),
            "server_cpu_ms_per_request": None if not server_cpu or not total.get("requests")
            else round(1000 * server_cpu / total["requests"], 1),
            # the load generator shares the machine's cores with the server
            "client_cpu_seconds": None if client_cpu is None else round(client_cpu, 1),
            "server_log": _server_log_problems(home / "server.log"),
            "pages": pages, "total": total, "failures": failures, "broken_flows": broken,
            "sign_ins_never_answered": unanswered,
            "target": {"p95_ms": TARGET_P95_MS, "p99_ms": TARGET_P99_MS, "errors": 0, "met": met}}


def _server_log_problems(log: Path) -> list[str]:
    """The server's own words about trouble (worker timeouts, errors), last ones first."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return [line for line in lines if any(w in line for w in ("TIMEOUT", "ERROR", "Error", "died"))][-10:][::-1]


def _ms(value: str) -> int | None:
    return None if value in ("", "N/A") else int(float(value))


def report(result: dict[str, Any], as_json: bool) -> None:
    out = sys.stderr if as_json else sys.stdout
    out.write(f"{result['database']}, {result['users']} users, {result['seconds']} s, {result['server']} "
              f"({result['gunicorn_workers']} workers × 4 threads); load average before "
              f"{result['load_average_before']}, after {result['load_average_after']}\n")
    out.write(f"{'page':<26} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'req/s':>6}\n")
    for row in [*result["pages"], {**result["total"], "page": "all pages"}]:
        if row.get("page"):
            out.write(f"{row['page']:<26} {row['requests']:>8} {row['errors']:>6} {row['p50_ms']!s:>7} "
                      f"{row['p95_ms']!s:>7} {row['p99_ms']!s:>7} {row['requests_per_s']:>6}\n")
    if result["server_cpu_ms_per_request"] is not None:
        out.write(f"server CPU: {result['server_cpu_seconds']} s in the measured window, "
                  f"{result['server_cpu_ms_per_request']} ms per request (gunicorn and its workers)\n")
    if result.get("client_cpu_seconds") is not None:
        out.write(f"load generator CPU (locust, same machine): {result['client_cpu_seconds']} s in the measured window\n")
    for line in result["server_log"]:
        out.write(f"server: {line}\n")
    if result["sign_ins_never_answered"]:
        out.write(f"error: {result['sign_ins_never_answered']} people could not sign in (no answer in three tries): "
                  "the server was overloaded, their pages are missing from the figures\n")
    for failure in result["failures"]:
        out.write(f"error: {failure['page']}: {failure['error']} ×{failure['count']}\n")
    target = result["target"]
    out.write(f"target p95 ≤ {target['p95_ms']} ms, p99 ≤ {target['p99_ms']} ms, 0 errors: "
              f"{'met' if target['met'] else 'NOT met'}\n")
    if result["broken_flows"]:
        out.write("BROKEN: a flow was refused (403/404) or could not sign in — the figures are not valid\n")
    if as_json:
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
