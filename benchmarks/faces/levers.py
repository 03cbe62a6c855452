"""Cheap levers on top of the embedder, measured on the degraded identification benchmark.

Each lever changes only how vectors are compared or how many vectors a face gets, never the
network: score normalisation against the gallery or a clean cohort (hubness), domain
centring, fusion with dlib's embedder on the same faces, the frozen published network for the
family's photo, test-time augmentation of the archive face's alignment, and resolution-matched
family photos (the clean photo shrunk to the archive face's size). docs/history/faces.md gives the
figures; none moved rank-1 by more than about one point, so none is in the product.

    nice .venv/bin/python benchmarks/faces/identification.py --model arcface --split dev --conditions archive
    nice .venv/bin/python benchmarks/faces/identification.py --model arcface --split test --conditions archive
    nice .venv/bin/python benchmarks/faces/identification.py --model dlib --split dev --conditions archive
    nice .venv/bin/python benchmarks/faces/identification.py --model arcface-original --split dev --conditions archive
    nice .venv/bin/python benchmarks/faces/levers.py --split dev     # ~15 min (TTA, shrunk probes)

Prints one JSON line per lever (rank-1, rank-5, rank-10, MRR; 240 present probes, 640 cases).
The cohort for normalisation is the *other* split's clean family photos: people outside the
benchmark, as a shipped cohort would be.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import identification as idn  # noqa: E402
from identity_split import Split, make_split  # noqa: E402

from athar.matching.faces.evaluation import identification_metrics  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline, embed_crop, family_order  # noqa: E402
from athar.matching.faces.rotation import rotate_cw  # noqa: E402

Vectors = list[np.ndarray]
# Alignment jitter for TTA: (scale, dx, dy), shifts in units of the outer-eye distance.
JITTER = [(1.0, 0, 0), (0.93, 0, 0), (1.07, 0, 0), (1.0, 0.04, 0), (1.0, -0.04, 0), (1.0, 0, 0.04), (1.0, 0, -0.04)]
# Family photo shrunk so that its face is roughly 110, 66, 50, 38 px wide (LFW faces ≈ 110 px).
SHRINK = [1.0, 0.6, 0.45, 0.35]


def _norm(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


class Bench:
    """Cached vectors of one split and the metric of any probe × case scoring."""

    def __init__(self, split: str, mated: int = 300, distractors: int = 400) -> None:
        self.split, self.s = split, make_split(split, mated, distractors)
        self.pipe = idn.make_pipeline("arcface")
        probes, self.cases = idn.load_sets(self.pipe, split, "archive", self.s)
        self.found = [len(p) > 0 for p in probes]
        self.probe = np.stack([p[0] if len(p) else np.zeros(self.pipe.model.dim, np.float32) for p in probes])
        self.true = list(range(len(self.s.present))) + [-1] * len(self.s.absent)
        self.owner = np.concatenate([np.full(len(c), j) for j, c in enumerate(self.cases)])
        self.faces = np.concatenate([c for c in self.cases if len(c)])

    def case_scores(self, face_scores: np.ndarray) -> np.ndarray:
        """probes × faces → probes × cases (a case scores its best face; no face: −1)."""
        out = np.full((face_scores.shape[0], len(self.cases)), -1.0, np.float32)
        for j in range(len(self.cases)):
            m = self.owner == j
            if m.any():
                out[:, j] = face_scores[:, m].max(1)
        return out

    def row(self, lever: str, scores: np.ndarray) -> dict[str, object]:
        m = identification_metrics(scores, self.true, self.found, lambda _: False)
        return {"split": self.split, "lever": lever, **{k: round(m[k], 4) for k in ("rank1", "rank5", "rank10", "mrr")}}


def normalisation(b: Bench, cohort: np.ndarray) -> list[dict[str, object]]:
    """Hubness: a degraded face that resembles everybody steals rank 1 from the true case."""
    base = b.probe @ b.faces.T
    rows = [b.row("plain cosine", b.case_scores(base))]
    to_cohort = b.faces @ cohort.T
    to_gallery = b.faces @ b.faces.T
    np.fill_diagonal(to_gallery, -1)
    for k in (10, 50):
        for a in (0.5, 1.0):
            r = np.sort(to_cohort, 1)[:, -k:].mean(1)
            rows.append(b.row(f"CSLS vs clean cohort k={k} a={a}", b.case_scores(base - a * r[None])))
            r = np.sort(to_gallery, 1)[:, -k:].mean(1)
            rows.append(b.row(f"gallery hubness k={k} a={a}", b.case_scores(base - a * r[None])))
    centred = _norm(b.probe - cohort.mean(0)) @ _norm(b.faces - b.faces.mean(0)).T
    rows.append(b.row("domain centring", b.case_scores(centred)))
    return rows


def other_model(b: Bench, model: str) -> tuple[np.ndarray, np.ndarray]:
    """Probe and face vectors of another model with the same detector and landmarks (same faces)."""
    pipe = idn.make_pipeline(model)
    probes, cases = idn.load_sets(pipe, b.split, "archive", b.s)
    assert [len(c) for c in cases] == [len(c) for c in b.cases], "the models found different faces"
    probe = np.stack([p[0] if len(p) else np.zeros(pipe.model.dim, np.float32) for p in probes])
    return probe, np.concatenate([c for c in cases if len(c)])


def fusion(b: Bench) -> list[dict[str, object]]:
    rows = []
    dp, df = other_model(b, "dlib")
    for w in (0.8, 0.6):
        s = w * (b.probe @ b.faces.T) + (1 - w) * (dp @ df.T)
        rows.append(b.row(f"fusion with dlib, weight {w} on arcface", b.case_scores(s)))
    op, _ = other_model(b, "arcface-original")
    rows.append(b.row("family photo by the published weights", b.case_scores(op @ b.faces.T)))
    mix = _norm(0.5 * op + 0.5 * b.probe)
    rows.append(b.row("family photo: mean of both weights", b.case_scores(mix @ b.faces.T)))
    return rows


def _cached(name: str, make: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    path = idn.CACHE / "levers" / f"{name}.npz"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **make())
    return dict(np.load(path))


def _jittered_faces(pipe: FacePipeline, s: Split) -> dict[str, np.ndarray]:
    """Every archive face embedded at each JITTER alignment (faces in the pipeline's order)."""
    crops: list[list[Image.Image]] = []
    align = pipe._align  # the product's alignment, plus jittered copies of the same landmarks

    def _align(img, c, points):  # type: ignore[no-untyped-def]
        face = align(img, c, points)
        turned, centre = rotate_cw(img, c.rotation), points.mean(0)
        eye = max(float(np.linalg.norm(points[0] - points[2])), 10.0)
        crops.append([pipe.model.embedder.align(turned, (points - centre) * sc + centre + np.array([dx, dy]) * eye, "dlib5")
                      for sc, dx, dy in JITTER])
        return face

    pipe._align = _align  # type: ignore[method-assign]
    vecs, owner = [], []
    for i, img in enumerate(idn.case_images(s, "archive")):
        crops.clear()
        pipe.aligned_faces(img)
        for group in crops:
            vecs.append(np.stack([embed_crop(pipe.model.embedder, c, pipe.model.recipe) for c in group]))
            owner.append(i)
    return {"vecs": np.stack(vecs), "owner": np.array(owner)}


def tta(b: Bench) -> list[dict[str, object]]:
    z = _cached(f"tta-{b.split}", lambda: _jittered_faces(FacePipeline(b.pipe.model), b.s))
    assert (z["owner"] == b.owner).all()
    rows = []
    for name, idx in (("TTA: 3 scales", [0, 1, 2]), ("TTA: 4 shifts", [0, 3, 4, 5, 6]), ("TTA: all 7", list(range(7)))):
        rows.append(b.row(name, b.case_scores(b.probe @ _norm(z["vecs"][:, idx].mean(1)).T)))
    return rows


def _shrunk_probes(pipe: FacePipeline, s: Split) -> dict[str, np.ndarray]:
    out = np.zeros((len(s.present) + len(s.absent), len(SHRINK), pipe.model.dim), np.float32)
    for i, img in enumerate(idn.probe_images(s)):
        for k, f in enumerate(SHRINK):
            small = img if f == 1.0 else img.resize((round(img.width * f), round(img.height * f)), Image.Resampling.BILINEAR)
            faces = family_order(pipe.analyse(small))
            if faces:
                out[i, k] = faces[0].embedding
    widths = [min(f.box.width, f.box.height) for img in idn.case_images(s, "archive") for f in pipe.aligned_faces(img)]
    return {"probes": out, "widths": np.array(widths, np.float32)}


def resolution(b: Bench) -> list[dict[str, object]]:
    z = _cached(f"shrunk-{b.split}", lambda: _shrunk_probes(FacePipeline(b.pipe.model), b.s))
    sims = np.einsum("pkd,fd->pkf", z["probes"], b.faces)
    rows = [b.row(f"family photo shrunk to {f:.2f}", b.case_scores(sims[:, k])) for k, f in enumerate(SHRINK)]
    rows.append(b.row("mean over the shrunk family photos", b.case_scores(sims.mean(1))))
    probe_side = np.array([110, 66, 50, 38.0])
    nearest = np.abs(np.log(probe_side[None, :] / z["widths"][:, None])).argmin(1)
    matched = sims[:, nearest, np.arange(len(nearest))]
    rows.append(b.row("family photo shrunk to each archive face's size", b.case_scores(matched)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="dev", choices=("dev", "test"))
    ap.add_argument("--levers", nargs="*", default=["normalisation", "fusion", "tta", "resolution"])
    args = ap.parse_args()
    b = Bench(args.split)
    other = Bench("test" if args.split == "dev" else "dev")
    cohort = other.probe[np.array(other.found)]
    runs = {"normalisation": lambda: normalisation(b, cohort), "fusion": lambda: fusion(b), "tta": lambda: tta(b),
            "resolution": lambda: resolution(b)}
    for name in args.levers:
        for row in runs[name]():
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
