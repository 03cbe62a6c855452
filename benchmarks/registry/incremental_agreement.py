"""Benchmark: does the worker's incremental linkage give the persons of a full run (issue 28: "a full
re-run stays available and gives the same persons")?

    nice .venv/bin/python benchmarks/registry/incremental_agreement.py FILE.csv [FILE.csv ...] --json

Each FILE is a dev set written by ``python -m benchmarks.linkage.bench_devsets SET --write FOLDER``
(the import template with a ``person_id`` column). In a fresh store (a temporary ``ATHAR_HOME``,
SQLite): the first half of the rows is imported and linked by a full run (``link_all``), then the
second half is imported and linked report by report by the worker's step (``link_waiting``);
then a full run over all. Prints, per file, the pairwise agreement of the two partitions (F1 of
one against the other: 1.0 is the same persons), and each partition's pairwise precision and
recall against ``person_id``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
import time
from pathlib import Path


def _persons() -> dict[str, int]:
    from athar.registry.models import ReportLink

    return {str(r): p for r, p in ReportLink.objects.filter(run__is_current=True, report__is_current=True)
            .values_list("report__report_id", "person_id")}


def _explanations() -> dict[str, object]:
    """Each current link's explanation, the report it was linked with named by its report id."""
    from athar.registry.models import Report, ReportLink

    names = dict(Report.objects.values_list("pk", "report_id"))
    out: dict[str, object] = {}
    for report, why in ReportLink.objects.filter(run__is_current=True, report__is_current=True).values_list(
            "report__report_id", "explanation"):
        why = dict(why or {})
        if "linked_with" in why:
            why["linked_with"] = names.get(why["linked_with"], why["linked_with"])
        out[str(report)] = why
    return out


def _half(rows: list[dict[str, str]], header: list[str], path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


def measure(path: Path, dump: Path | None = None) -> dict[str, object]:
    from django.core.management import call_command

    from athar.matching.linkage import evaluate_clusters
    from athar.registry.importing import import_reports
    from athar.registry.incremental import link_waiting
    from athar.registry.linkage import link_all

    call_command("flush", interactive=False, verbosity=0)
    with path.open(encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = list(reader.fieldnames or [])
        rows = list(reader)
    truth = {r["report_id"]: r["person_id"] for r in rows}
    work = Path(tempfile.mkdtemp(prefix="agreement-"))
    middle = len(rows) // 2
    _half(rows[:middle], header, work / "first.csv")
    _half(rows[middle:], header, work / "second.csv")
    import_reports(work / "first.csv", source="first", ignore_columns={"person_id"})
    link_all()
    import_reports(work / "second.csv", source="second", ignore_columns={"person_id"})
    start = time.time()
    linked = 0
    while (done := link_waiting(limit=len(rows))) is not None and done["reports"]:  # the worker would run a full linkage above its limit
        linked += int(done["reports"])
    seconds = time.time() - start
    incremental = _persons()
    why = _explanations() if dump is not None else {}
    link_all()
    full = _persons()
    keys = sorted(full)
    if dump is not None:  # both partitions, for reading the pairs they disagree on
        dump.mkdir(parents=True, exist_ok=True)
        (dump / f"{path.stem}.json").write_text(json.dumps(
            {k: [incremental[k], full[k], truth[k], why.get(k)] for k in keys}), encoding="utf-8")
    agreement = evaluate_clusters([incremental[k] for k in keys], [full[k] for k in keys])
    scores = {name: evaluate_clusters([part[k] for k in keys], [truth[k] for k in keys])
              for name, part in (("incremental", incremental), ("full", full))}
    return {"file": path.name, "reports": len(rows), "linked_incrementally": linked,
            "seconds_incremental": round(seconds, 1),
            "agreement_f1": round(agreement["pairwise_f1"], 4),
            **{f"{name}_{k}": round(v[f"pairwise_{k}"], 4) for name, v in scores.items()
               for k in ("precision", "recall")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--dump", type=Path, help="write each file's two partitions (report -> [worker's, full run's, true person, worker's explanation]) here")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="athar-agreement-"))
    os.environ["ATHAR_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    results = []
    for path in args.files:
        result = measure(path, args.dump)
        results.append(result)
        print(json.dumps(result), file=sys.stderr if args.json else sys.stdout, flush=True)
    if args.json:
        print(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
