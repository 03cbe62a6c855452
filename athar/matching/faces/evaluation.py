"""Identification metrics shared by the benchmark and the `athar eval faces` command.

The question a family asks is "where does my relative's case rank, and would athar
have said 'likely match'?". So we report ranks of the true case among all cases,
and, for people who are not in the archive, how often the top case was still
declared a likely match (false-match rate).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from .combine import DEFAULT_METHOD, Method, score_case
from .datatypes import FloatArray
from .images import ImageError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".heic", ".heif", ".webp", ".bmp", ".tif", ".tiff"}


def score_matrix(
    probes: Sequence[FloatArray], cases: Sequence[FloatArray], method: Method = DEFAULT_METHOD
) -> FloatArray:
    """probes × cases matrix of case scores; an empty probe or case scores −1."""
    out = np.full((len(probes), len(cases)), -1.0, dtype=np.float32)
    if method == "mean-max":  # vectorised: one matrix product over all case faces
        owner = np.concatenate([np.full(len(c), j) for j, c in enumerate(cases)]) if cases else np.array([])
        faces = [c for c in cases if len(c)]
        flat = np.concatenate(faces).astype(np.float32) if faces else np.zeros((0, 1), np.float32)
        for i, p in enumerate(probes):
            if len(p) and len(flat):
                q = np.asarray(p, np.float32).mean(0)
                sims = flat @ (q / max(float(np.linalg.norm(q)), 1e-12))
                np.maximum.at(out[i], owner.astype(int), sims)
        return out
    for i, p in enumerate(probes):
        for j, c in enumerate(cases):
            if len(p) and len(c):
                out[i, j] = score_case(p, c, method)
    return out


def identification_metrics(
    scores: FloatArray,
    true_case: Sequence[int],
    probe_found: Sequence[bool],
    is_likely: Callable[[float], bool],
) -> dict[str, float]:
    """Rank metrics for present probes, false-match rate for absent ones (true_case −1).

    A present probe with no face found counts as ranked last.
    """
    n_cases = scores.shape[1]
    ranks, hits1_declared, false_matches = [], [], []
    for i, t in enumerate(true_case):
        top = int(np.argmax(scores[i])) if n_cases else -1
        top_score = float(scores[i, top]) if n_cases else -1.0
        if t < 0:
            false_matches.append(bool(probe_found[i]) and is_likely(top_score))
            continue
        rank = n_cases if not probe_found[i] else 1 + int((scores[i] > scores[i, t]).sum())
        ranks.append(rank)
        hits1_declared.append(rank == 1 and is_likely(top_score))
    r = np.array(ranks, dtype=np.float64)
    return {
        "rank1": float((r <= 1).mean()) if len(r) else 0.0,
        "rank5": float((r <= 5).mean()) if len(r) else 0.0,
        "rank10": float((r <= 10).mean()) if len(r) else 0.0,
        "median_rank": float(np.median(r)) if len(r) else 0.0,
        "mrr": float((1 / r).mean()) if len(r) else 0.0,
        "true_match_rate": float(np.mean(hits1_declared)) if hits1_declared else 0.0,
        "false_match_rate": float(np.mean(false_matches)) if false_matches else 0.0,
        "probes": float(len(r)),
        "absent_probes": float(len(false_matches)),
        "cases": float(n_cases),
    }


def _photos(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def _identity_vectors(folder: Path, embed: Callable[[Path], list[FloatArray]], family: bool) -> FloatArray:
    vecs: list[FloatArray] = []
    for photo in _photos(folder):
        try:
            faces = embed(photo)
        except ImageError:
            continue
        # A family photo contributes its main face; an archive photo all of its faces.
        vecs.extend(faces[:1] if family else faces)
    return np.array(vecs, dtype=np.float32).reshape(len(vecs), -1)


def evaluate_dirs(
    gallery_dir: Path,
    probes_dir: Path,
    embed: Callable[[Path], list[FloatArray]] | None = None,
    is_likely: Callable[[float], bool] | None = None,
    method: Method = DEFAULT_METHOD,
) -> dict[str, float]:
    """Metrics for ``G/<identity>/*`` (cases) against ``P/<identity>/*`` (families).

    ``embed(path)`` returns a photo's face vectors, the family's default face first
    (default: the default FacePipeline, faces in ``family_order``). A probe identity without a gallery folder is an absent person.
    """
    if embed is None or is_likely is None:
        from .calibration import load_calibration
        from .pipeline import FacePipeline, family_order

        pipe = FacePipeline()
        embed = embed or (lambda p: [f.embedding for f in family_order(pipe.analyse(p))])
        is_likely = is_likely or load_calibration(pipe.model_name).likely_match
    start, n_photos = time.perf_counter(), 0
    case_names = sorted(d.name for d in Path(gallery_dir).iterdir() if d.is_dir())
    cases = [_identity_vectors(Path(gallery_dir) / n, embed, family=False) for n in case_names]
    probe_names = sorted(d.name for d in Path(probes_dir).iterdir() if d.is_dir())
    probes = [_identity_vectors(Path(probes_dir) / n, embed, family=True) for n in probe_names]
    n_photos = sum(len(_photos(Path(gallery_dir) / n)) for n in case_names)
    n_photos += sum(len(_photos(Path(probes_dir) / n)) for n in probe_names)
    index = {n: j for j, n in enumerate(case_names)}
    true_case = [index.get(n, -1) for n in probe_names]
    found = [len(p) > 0 for p in probes]
    metrics = identification_metrics(score_matrix(probes, cases, method), true_case, found, is_likely)
    metrics["no_face_archive"] = float(sum(len(c) == 0 for c in cases))
    metrics["no_face_probes"] = float(sum(not f for f in found))
    metrics["seconds_per_photo"] = (time.perf_counter() - start) / max(n_photos, 1)
    return metrics
