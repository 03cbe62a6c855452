"""Benchmark: link new reports one at a time against a store of N reports (the worker's incremental
linkage, athar/registry/incremental.py).

    nice .venv/bin/python benchmarks/registry/incremental.py --reports 100000 --home /tmp/bench-100k --new 200 --json

Steps, each resumable (a marker file in ``--home``; a second call goes straight to the timing):

1. fill (not timed): the synthetic generator writes N reports, ``athar registry import`` loads them
   (benchmarks/registry/link_store.py, the same store: a store filled by it is reused);
2. full run (not timed, fresh process): ``link_all``, which also writes the block index;
3. add (not timed): the generator's next ``--new`` reports (same seed: later persons, some of them
   persons of the store) imported as one file;
4. link (timed): each added report linked in turn (``registry.incremental.link_one``: its own
   transaction, keys → candidates → Splink's scores → persons → link, keys and review pairs written),
   the earlier ones already in the store. A repeated call first takes the added reports' links and
   keys out again.

Prints p50 / p95 / p99 / max seconds per report (wall clock; and the process's CPU seconds, less
sensitive to a shared machine's load), the job's set-up (the scoring SQL generated once per
process, decisions read, store counted), candidates per report and how many joined a person.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["ATHAR_HOME"] = str(home)
    env["PYTHONPATH"] = str(REPO)
    return env


def _setup(home: Path) -> None:
    os.environ["ATHAR_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()


def full_run(home: Path) -> dict[str, object]:
    """In this process: a full run (block index included) unless the current run has its index."""
    _setup(home)
    from athar.registry.incremental import index_current_run, store_model
    from athar.registry.linkage import link_all
    from athar.registry.lookup import current_run

    run = current_run()
    if store_model(run) is not None:
        return {}
    started = time.perf_counter()
    if run is not None and run.parameters.get("algorithm"):  # linked by link_store.py: its index only
        index_current_run()
        return {"index_seconds": round(time.perf_counter() - started, 1)}
    result = link_all()
    return {"full_run_seconds": round(time.perf_counter() - started, 1),
            "index_seconds": result.get("index_seconds")}


def add(home: Path, reports: int, new: int, seed: int) -> None:
    """Import the generator's reports number N+1 … N+new (as a file of their own)."""
    from athar.matching.linkage import write_template_csv

    marker = home / f"added-{new}"
    if marker.exists():
        return
    every = home / f"next-{new}.csv"
    write_template_csv(every, reports + new, seed=seed)
    with every.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    where = header.index("source")
    for row in body:
        row[where] = "added"
    with every.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(body[reports:])
    subprocess.run([sys.executable, "-m", "athar.cli", "registry", "import", str(every), "--json"],
                   env=_env(home), check=True, stdout=subprocess.DEVNULL)
    marker.write_text("ok")


def link(home: Path) -> dict[str, object]:
    """In this process: each added report linked in turn, timed."""
    _setup(home)
    from django.db import transaction

    from athar.registry.decisions import decisions_in_force
    from athar.registry.incremental import _grown, link_one, store_model
    from athar.registry.lookup import current_run
    from athar.registry.models import LinkageKey, Report, ReportLink

    run = current_run()
    added = list(Report.objects.current_kept().filter(source="added").order_by("pk").values_list("pk", flat=True))
    with transaction.atomic():  # a repeated call: the added reports wait again
        ReportLink.objects.filter(run=run, report_id__in=added).delete()
        LinkageKey.objects.filter(report_id__in=added).delete()
    started = time.perf_counter()
    state = _grown(store_model(run), Report.objects.current_kept().count())
    decisions = decisions_in_force()
    setup = time.perf_counter() - started
    seconds, cpu, candidates, joined, reclustered = [], [], [], 0, 0
    for uid in added:
        started, used = time.perf_counter(), time.process_time()
        done = link_one(run, state, uid, decisions)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        if done:
            candidates.append(done["candidates"])
            joined += int(not done["new"])
            reclustered += int(done.get("reclustered", False))
    first, rest, rest_cpu = seconds[0], sorted(seconds[1:]), sorted(cpu[1:])

    def pct(q: float, values: list[float] = rest) -> float:
        return round(values[min(len(values) - 1, int(q * len(values)))], 3)

    return {"store_reports": state.n_rows, "new_reports": len(added), "setup_seconds": round(setup, 3),
            "first_report_seconds": round(first, 3), "p50_seconds": pct(0.50), "p95_seconds": pct(0.95),
            "p99_seconds": pct(0.99), "max_seconds": round(rest[-1], 3),
            "cpu_p50_seconds": pct(0.50, rest_cpu), "cpu_p95_seconds": pct(0.95, rest_cpu),
            "mean_candidates": round(statistics.mean(candidates), 1), "max_candidates": max(candidates),
            "joined_a_person": joined, "clustered_again": reclustered, "load_average": round(os.getloadavg()[0], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, required=True)
    parser.add_argument("--home", type=Path, required=True, help="the store (kept: a second call reuses it)")
    parser.add_argument("--new", type=int, default=200, help="reports linked one at a time")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="one JSON line")
    parser.add_argument("--step", choices=("full", "link"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        out = full_run(args.home) if args.step == "full" else link(args.home)
        print(json.dumps(out))
        return
    from benchmarks.registry.link_store import fill

    built: dict[str, object] = dict(fill(args.home, args.reports, args.seed))
    for step in ("full", "link"):
        if step == "link":
            add(args.home, args.reports, args.new, args.seed)
        proc = subprocess.run([sys.executable, __file__, "--reports", str(args.reports), "--home", str(args.home),
                               "--step", step], env=_env(args.home), check=True, stdout=subprocess.PIPE, text=True)
        built.update(json.loads(proc.stdout.strip().splitlines()[-1]))
    result = {"reports_requested": args.reports, **built}
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main()
