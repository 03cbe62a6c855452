"""``athar eval faces``: the face benchmark through the product's own path.

``G/<identity>/*`` are archive photos (one case per identity), ``P/<identity>/*`` family photos; a
probe identity without a folder in G is a person who is not in the archive. G is ingested into a
scratch store (same ingest, detection, embedding and index as production) and every probe photo is
searched with the same scorer and decision as ``athar faces search``.
"""

from __future__ import annotations

import csv
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from athar.archive.face_indexing import pipeline
from athar.archive.face_search import CaseScorer, query_faces
from athar.archive.ingest import IngestOptions, ingest
from athar.archive.models import Case
from athar.matching.faces import load_calibration
from athar.matching.faces.evaluation import IMAGE_SUFFIXES

EVAL_FACILITY = "eval"


def _photos(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def _identities(root: Path) -> list[Path]:
    if not root.is_dir():
        raise FileNotFoundError(f"folder not found: {root}")
    return sorted(p for p in root.iterdir() if p.is_dir())


def write_manifest(gallery: Path, path: Path) -> int:
    """A manifest placing ``G/<identity>/<photo>`` in case <identity> of one facility."""
    count = 0
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["path", "facility", "case", "photographed", "kind", "note"])
        for identity in _identities(gallery):
            for photo in _photos(identity):
                writer.writerow([f"{identity.name}/{photo.name}", EVAL_FACILITY, identity.name, "", "", ""])
                count += 1
    return count


def evaluate(gallery: Path, probes: Path, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.csv"
        gallery_photos = write_manifest(gallery, manifest)
        summary, archive = ingest(IngestOptions(root=gallery, archive="eval-gallery", manifest=manifest, numbers=False),
                                  face_progress=progress)
    case_by_label = dict(Case.objects.filter(archive=archive).values_list("label", "pk"))
    scorer = CaseScorer()
    calibration = load_calibration(pipeline().model_name)
    ranks, true_hits, false_matches, no_face_probes = [], [], [], 0
    probe_photos = 0
    for identity in _identities(probes):
        true_case = case_by_label.get(identity.name)
        for photo in _photos(identity):
            probe_photos += 1
            query = query_faces([photo])
            scores = scorer.scores(query.vectors)
            if not query.vectors:
                no_face_probes += 1
            top = max(scores.values()) if scores else None
            likely = top is not None and calibration.likely_match(top)
            if true_case is None:
                false_matches.append(likely)
                continue
            rank = _rank(scores, true_case, len(case_by_label))
            ranks.append(rank)
            true_hits.append(rank == 1 and likely)
            if progress:
                progress(1)
    faces_per_case = Case.objects.filter(archive=archive, faces__isnull=False).distinct().count()
    seconds = time.perf_counter() - started
    return _metrics(ranks, true_hits, false_matches) | {
        "cases": len(case_by_label), "no_face_archive": len(case_by_label) - faces_per_case,
        "no_face_probes": no_face_probes,
        "seconds_per_photo": round(seconds / max(gallery_photos + probe_photos, 1), 4),
        "model": calibration.model_name, "model_version": calibration.model_version,
    }


def _rank(scores: dict[int, float], true_case: int, n_cases: int) -> int:
    """1 + the number of cases scoring strictly higher; a true case without a face ranks last."""
    if true_case not in scores:
        return n_cases
    target = scores[true_case]
    return 1 + sum(1 for s in scores.values() if s > target)


def _metrics(ranks: list[int], true_hits: list[bool], false_matches: list[bool]) -> dict[str, Any]:
    r = np.array(ranks, dtype=np.float64)
    has = len(r) > 0
    return {
        "rank1": round(float((r <= 1).mean()), 4) if has else 0.0,
        "rank5": round(float((r <= 5).mean()), 4) if has else 0.0,
        "rank10": round(float((r <= 10).mean()), 4) if has else 0.0,
        "median_rank": float(np.median(r)) if has else 0.0,
        "mrr": round(float((1 / r).mean()), 4) if has else 0.0,
        "true_match_rate": round(float(np.mean(true_hits)), 4) if true_hits else 0.0,
        "false_match_rate": round(float(np.mean(false_matches)), 4) if false_matches else 0.0,
        "probes": len(ranks), "absent_probes": len(false_matches),
    }
