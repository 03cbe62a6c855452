"""Identification benchmark on degraded LFW: rank of the true case, false matches.

    nice .venv/bin/python benchmarks/faces/identification.py --model arcface --split dev \
        --conditions clean archive blur ...

Embeddings are cached under /tmp/athar-face-cache (never in the repository).
Prints one line of metrics per condition, using the same core functions as
``athar.matching.faces.evaluation``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from identity_split import Split, make_split  # noqa: E402

from athar.matching.faces.calibration import load_calibration  # noqa: E402
from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: E402
from athar.matching.faces.models_registry import FaceModel, get_face_model  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline, family_order  # noqa: E402

CACHE = Path("/tmp/athar-face-cache")
ALL_CONDITIONS = ["clean", "archive", "archive_spec", *degrade.SINGLE]


def _seed(*parts: str) -> int:
    return int(hashlib.sha256("/".join(parts).encode()).hexdigest()[:12], 16)


def _embed_all(pipe: FacePipeline, images: list[Image.Image]) -> tuple[list[np.ndarray], float]:
    start, out = time.perf_counter(), []
    for img in images:
        # Faces in family order: for a probe, the first is the family's default face.
        faces = family_order(pipe.analyse(img))
        out.append(np.array([f.embedding for f in faces], dtype=np.float32).reshape(-1, pipe.model.dim))
    return out, (time.perf_counter() - start) / max(len(images), 1)


def cache_dir(model: FaceModel) -> Path:
    """Cached vectors per model name and pipeline version (a new recipe never reads old vectors).

    The feature-norm floor changes which faces are kept, not their vectors: it is part of the key.
    """
    floor = model.min_feature_norm
    key = model.version if floor is None else f"{model.version}|min-feature-norm={floor}"
    return CACHE / model.name / hashlib.sha256(key.encode()).hexdigest()[:12]


def cached_vectors(key: str, pipe: FacePipeline, make_images: Callable[[], list[Image.Image]]) -> list[np.ndarray]:
    """Per-photo face vectors, cached as one npz (vectors + owner index, no pickles)."""
    path = cache_dir(pipe.model) / f"{key}.npz"
    if path.exists():
        z = np.load(path)
        return [z["vecs"][z["owner"] == i] for i in range(int(z["n"]))]
    vecs, spp = _embed_all(pipe, make_images())
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = np.concatenate([np.full(len(v), i) for i, v in enumerate(vecs)]) if vecs else np.zeros(0)
    flat = np.concatenate(vecs) if vecs else np.zeros((0, pipe.model.dim), np.float32)
    np.savez(path, vecs=flat, owner=owner, n=len(vecs), seconds_per_photo=spp)
    return vecs


def case_images(s: Split, condition: str) -> list[Image.Image]:
    others = [Image.open(p).convert("RGB") for _, p in s.distractors[-20:]]
    items = [(n, c) for n, _, c in s.present] + list(s.distractors)
    out = []
    for i, (name, path) in enumerate(items):
        rng = random.Random(_seed(name, condition))
        out.append(degrade.apply(condition, Image.open(path).convert("RGB"), rng, others[i % len(others)]))
    return out


def probe_images(s: Split) -> list[Image.Image]:
    return [Image.open(p).convert("RGB") for _, p, _ in s.present] + [Image.open(p).convert("RGB") for _, p in s.absent]


def load_sets(pipe: FacePipeline, split: str, condition: str, s: Split) -> tuple[list[np.ndarray], list[np.ndarray]]:
    tag = f"{split}-{len(s.present) + len(s.absent)}-{len(s.distractors)}"
    probes = cached_vectors(f"{tag}-probes", pipe, lambda: probe_images(s))
    cases = cached_vectors(f"{tag}-{condition}", pipe, lambda: case_images(s, condition))
    return [p[:1] for p in probes], cases


def make_pipeline(model: str, recipe: str | None = None) -> FacePipeline:
    """The product pipeline, or the same model with another embedding recipe (for comparison)."""
    face_model = get_face_model(model)
    return FacePipeline(face_model if recipe is None else dataclasses.replace(face_model, recipe=recipe))


def run(model: str, split: str, conditions: list[str], mated: int, distractors: int, recipe: str | None = None) -> list[dict[str, object]]:
    pipe = make_pipeline(model, recipe)
    s = make_split(split, mated, distractors)
    try:
        cal = load_calibration(pipe.model_name)
        is_likely = cal.likely_match
        if cal.model_version != pipe.model_version:
            print(f"warning: calibration fitted for {cal.model_version}, not {pipe.model_version}", file=sys.stderr)
    except FileNotFoundError:
        is_likely = lambda score: False  # noqa: E731  (before the first calibration fit)
    rows = []
    for cond in conditions:
        probes, cases = load_sets(pipe, split, cond, s)
        true_case = list(range(len(s.present))) + [-1] * len(s.absent)
        m = identification_metrics(score_matrix(probes, cases), true_case, [len(p) > 0 for p in probes], is_likely)
        m["no_face_archive"] = float(sum(len(c) == 0 for c in cases))
        m["no_face_probes"] = float(sum(len(p) == 0 for p in probes))
        row = {"model": model, "recipe": pipe.model.recipe, "split": split, "condition": cond, **{k: round(v, 4) for k, v in m.items()}}
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default="arcface")
    ap.add_argument("--split", default="dev", choices=("dev", "test"))
    ap.add_argument("--conditions", nargs="*", default=["clean", "archive"])
    ap.add_argument("--mated", type=int, default=300)
    ap.add_argument("--distractors", type=int, default=400)
    ap.add_argument("--recipe", default=None, help="embedding recipe (default: the model's own)")
    args = ap.parse_args()
    conds = ALL_CONDITIONS if args.conditions == ["all"] else args.conditions
    run(args.model, args.split, conds, args.mated, args.distractors, args.recipe)


if __name__ == "__main__":
    main()
