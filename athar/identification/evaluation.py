"""``athar eval identify``: the identification benchmark contract.

Archive A is ingested and reports R imported by the product's own code in a **scratch store** (a
child process with ``ATHAR_HOME`` set to a new temporary folder and ``DATABASE_URL`` removed, so the
user's database is never touched); faces are indexed, every report is ranked against every case on
its own facts, and the rank of its true case (the truth column names the case folder) is scored.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from athar.core.errors import UserError
from athar.core.scratch import scratch_environment
from athar.matching.scoring import load_algorithm
from athar.matching.scoring.evaluation import (
    Outcome,
    identification_metrics,
    outcome_for,
)
from athar.registry.reading import read_table


def evaluate(archive_dir: Path, reports: Path, truth_column: str, face_cache: Path | None = None) -> dict[str, Any]:
    """Run the child in a scratch store and compute the metrics from its per-report answers."""
    archive_dir, reports = Path(archive_dir).resolve(), Path(reports).resolve()
    if not archive_dir.is_dir():
        raise FileNotFoundError(f"archive folder not found: {archive_dir}")
    if not reports.is_file():
        raise FileNotFoundError(f"reports file not found: {reports}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="athar-eval-identify-") as home:
        out = Path(home) / "outcomes.json"
        env = scratch_environment(home)
        command = [sys.executable, "-m", "athar.identification.evaluation", str(archive_dir), str(reports),
                   truth_column, str(face_cache or ""), str(out)]
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False)
        sys.stderr.write(done.stdout[-20000:])
        if done.returncode != 0:
            raise UserError(f"the scratch ingest, import and ranking failed (exit {done.returncode})")
        child = json.loads(out.read_text(encoding="utf-8"))
    return summarise(child, time.perf_counter() - started)


def summarise(child: dict[str, Any], seconds: float) -> dict[str, Any]:
    combined = [Outcome(o["above"], o["cases"], o["has_photo"], o["likely"], o["top_is_true"], o["tied"])
                for o in child["outcomes"]]
    face = [Outcome(o["face"][0], o["cases"], True, False, tied=o["face"][1])
            for o in child["outcomes"] if o["has_photo"] and o["face"] is not None]
    result = identification_metrics(combined)
    result["face_only"] = identification_metrics(face)["with_photo"]
    result.update(cases=child["cases"], reports_total=len(combined), rejected=child["rejected"],
                  algorithm=child["algorithm"], rank_seconds_per_report=child["rank_seconds_per_report"],
                  seconds=round(seconds, 1))
    return result


def _child(archive_dir: str, reports: str, truth_column: str, face_cache: str, out: str) -> None:
    """In the scratch store: ingest, import (truth column hidden), index faces, rank each report."""
    # The child imports this module before django.setup(): what needs the models is imported after it.
    import django

    django.setup()
    from athar.core.store import ensure_store

    ensure_store()
    from athar.archive.ingest import IngestOptions, ingest
    from athar.identification.face_fill import index_archive_photos, index_report_photos
    from athar.registry.importing import import_reports

    algorithm = load_algorithm()
    pipeline = str(algorithm.face.get("pipeline", "arcface"))
    summary, _ = ingest(IngestOptions(root=Path(archive_dir), archive="eval", faces=False, numbers=False))
    imported = import_reports(Path(reports), source="eval", ignore_columns={truth_column})
    cache = Path(face_cache) if face_cache else None
    sys.stderr.write(f"eval identify: indexing faces ({pipeline})…\n")
    index_archive_photos(pipeline, cache)
    index_report_photos(pipeline, cache)
    truth = _truth(Path(reports), truth_column)
    outcomes, seconds = _rank_all(algorithm, truth)
    rejected = len(summary.rejected) + len(imported["rejected"])
    Path(out).write_text(json.dumps({
        "outcomes": outcomes, "rejected": rejected, "cases": outcomes[0]["cases"] if outcomes else 0,
        "algorithm": f"{algorithm.name} {algorithm.version}", "rank_seconds_per_report": seconds}), encoding="utf-8")


def _truth(path: Path, column: str) -> dict[int, str]:
    table = read_table(path)
    if column not in table.header:
        raise UserError(f"no column {column!r} in {path.name}")
    return {row.number: row.values.get(column, "").strip() for row in table.rows}


def _rank_all(algorithm: Any, truth: dict[int, str]) -> tuple[list[dict[str, Any]], float]:
    # Runs in the child (see _child), which imports this module before django.setup().
    from athar.archive.models import Case
    from athar.identification.faces import face_version, person_vectors
    from athar.identification.facts import case_index, facility_table, person_facts
    from athar.registry.models import Report

    version = face_version(str(algorithm.face.get("pipeline", "arcface")))
    index = case_index(str(algorithm.face.get("model", "")), version)
    ftable = facility_table()
    by_label: dict[str, int] = {}
    for pk, label in Case.objects.values_list("id", "label"):
        by_label.setdefault(label, pk)
    outcomes, spent = [], 0.0
    for report in Report.objects.current().order_by("id"):
        vectors = person_vectors([report], str(algorithm.face.get("model", "")), version)
        facts = person_facts(f"report:{report.pk}", [report], ftable, len(vectors) > 0)
        start = time.perf_counter()
        sims = index.faces.similarities(vectors) if facts.has_photo else None
        ranking = algorithm.rank(facts, index.table, sims, limit=1)
        spent += time.perf_counter() - start
        label = truth.get(report.row_number or -1, "")
        pos = index.table.position.get(by_label[label]) if label in by_label else None
        o = outcome_for(ranking.scores, pos, len(index.table), report.photos.exists(), ranking.likely_match,
                        pos is not None and int(ranking.order[0]) == pos)
        face = None
        if pos is not None:
            f = outcome_for(np.nan_to_num(sims, nan=-2.0) if sims is not None else np.zeros(len(index.table)),
                            pos, len(index.table), True, False)
            face = [f.above, f.tied]
        outcomes.append({"row": report.row_number, "cases": o.cases, "has_photo": o.has_photo, "likely": o.likely_match,
                         "top_is_true": o.top_is_true, "above": o.above, "tied": o.tied, "face": face})
    return outcomes, round(spent / max(len(outcomes), 1), 4)


if __name__ == "__main__":  # the scratch child process
    _child(*sys.argv[1:6])
