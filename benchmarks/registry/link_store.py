"""Benchmark: link N synthetic reports already in the store (import excluded, write-back included).

    nice .venv/bin/python benchmarks/registry/link_store.py --reports 100000 --home /tmp/bench-100k

1. fill (not timed, separate process): the synthetic generator of athar.matching.linkage writes
   N reports in the import template; ``athar registry import`` loads them into a fresh store;
2. link (timed, fresh process): ``athar.registry.linkage.link_all`` reads the current reports,
   links them (Splink, DuckDB) and writes persons, links and review pairs in one transaction.
Prints one JSON line: seconds per step, peak resident memory of the linking process (MB), and
pairwise / B-cubed scores against the generator's truth.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


CHUNK = 100_000


def split(path: Path, folder: Path, rows: int) -> list[Path]:
    """The CSV cut into files of ``rows`` data rows, each with the header."""
    folder.mkdir(exist_ok=True)
    parts: list[Path] = []
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        writer, out = None, None
        for index, row in enumerate(reader):
            if index % rows == 0:
                if out:
                    out.close()
                parts.append(folder / f"part-{len(parts):03d}.csv")
                out = parts[-1].open("w", encoding="utf-8", newline="")
                writer = csv.writer(out)
                writer.writerow(header)
            writer.writerow(row)  # type: ignore[union-attr]
        if out:
            out.close()
    return parts


def fill(home: Path, reports: int, seed: int) -> dict[str, float]:
    """Generate and import the reports (skipped when the store already holds them)."""
    from athar.matching.linkage import write_template_csv

    marker = home / f"filled-{reports}-{seed}"
    truth = home / "reports.csv"
    if marker.exists():
        return {}
    home.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    write_template_csv(truth, reports, seed=seed)
    generated = time.perf_counter() - started
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["ATHAR_HOME"] = str(home)
    started = time.perf_counter()
    for part in split(truth, home / "parts", CHUNK):  # the importer holds one file in memory
        subprocess.run([sys.executable, "-m", "athar.cli", "registry", "import", str(part), "--json"],
                       env=env, check=True, stdout=subprocess.DEVNULL)
        part.unlink()
    marker.write_text("ok")
    return {"generate_seconds": round(generated, 1), "import_seconds": round(time.perf_counter() - started, 1)}


def link(home: Path, engine: str) -> dict[str, object]:
    """In this process: link everything and score it."""
    os.environ["ATHAR_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from athar.matching.linkage import evaluate_clusters
    from athar.registry.linkage import link_all
    from athar.registry.models import ReportLink

    started = time.perf_counter()
    result = link_all(engine=engine)
    total = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    peak_mb = usage.ru_maxrss / 1024
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    persons = dict(ReportLink.objects.filter(run__is_current=True)
                   .values_list("report__report_id", "person_id").iterator(chunk_size=50_000))
    with (home / "reports.csv").open(encoding="utf-8") as handle:
        truth = {row["report_id"]: row["person_id"] for row in csv.DictReader(handle)}
    keys = [k for k in truth if k in persons]
    scores = evaluate_clusters([persons[k] for k in keys], [truth[k] for k in keys])
    return {**result, "total_seconds": round(total, 1), "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
            "load_average": os.getloadavg()[0], "peak_rss_mb": round(peak_mb),
            "peak_child_rss_mb": round(children_mb), **{k: round(v, 4) for k, v in scores.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, required=True)
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--engine", default="duckdb", choices=("duckdb", "spark"))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--link-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.link_only:
        print(json.dumps(link(args.home, args.engine)))
        return
    filled = fill(args.home, args.reports, args.seed)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    out = subprocess.run([sys.executable, __file__, "--reports", str(args.reports), "--home", str(args.home),
                          "--engine", args.engine, "--link-only"], env=env, check=True,
                         stdout=subprocess.PIPE, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    print(json.dumps({"reports_requested": args.reports, **filled, **result}))


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    main()
