"""Measure how to combine several family photos and several archive faces per case.

Dev identities with ≥ 4 photos: photos 1–2 are the family's (clean), photos 3–4 the
case (each degraded with 'archive'). Other dev cases from identification.py's cache
(single archive photos) are distractors. Prints rank-1 / rank-10 / MRR per method,
and for one family photo only.

    nice .venv/bin/python benchmarks/faces/combine_bench.py --model arcface
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from identification import cache_dir, cached_vectors  # noqa: E402
from identity_split import LFW, _bucket  # noqa: E402

from athar.matching.faces.evaluation import identification_metrics, score_matrix  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="arcface")
    ap.add_argument("--people", type=int, default=120)
    args = ap.parse_args()
    pipe = FacePipeline(args.model)
    people = sorted((d for d in LFW.iterdir() if d.is_dir() and _bucket(d.name) % 2 == 0), key=lambda d: _bucket(d.name))
    multi = [sorted(d.glob("*.jpg"))[:4] for d in people if len(list(d.glob("*.jpg"))) >= 4][: args.people]
    other = Image.open(multi[-1][0]).convert("RGB")

    def seed(p: Path) -> int:
        return int(hashlib.sha256(str(p.name).encode()).hexdigest()[:12], 16)

    fam = cached_vectors(f"combine-{len(multi)}-family", pipe, lambda: [Image.open(f[i]).convert("RGB") for f in multi for i in (0, 1)])
    arc = cached_vectors(
        f"combine-{len(multi)}-archive",
        pipe,
        lambda: [degrade.apply("archive", Image.open(f[i]).convert("RGB"), random.Random(seed(f[i])), other) for f in multi for i in (2, 3)],
    )
    z = np.load(cache_dir(pipe.model) / "dev-300-400-archive.npz")
    distract = [z["vecs"][z["owner"] == i] for i in range(int(z["n"]))][-400:]
    fam2 = [np.concatenate([fam[2 * k][:1], fam[2 * k + 1][:1]]) for k in range(len(multi))]
    fam1 = [fam[2 * k][:1] for k in range(len(multi))]
    case2 = [np.concatenate([arc[2 * k], arc[2 * k + 1]]) for k in range(len(multi))] + distract
    case1 = [arc[2 * k] for k in range(len(multi))] + distract
    truth = list(range(len(multi)))
    never = lambda s: False  # noqa: E731
    for label, probes, cases, methods in [
        ("1 family photo, 1 archive photo", fam1, case1, ["mean-max"]),
        ("1 family photo, 2 archive photos", fam1, case2, ["mean-max", "mean-cos", "mean-mean"]),
        ("2 family photos, 1 archive photo", fam2, case1, ["mean-max", "max-max", "mean-cos"]),
        ("2 family photos, 2 archive photos", fam2, case2, ["mean-max", "max-max", "mean-cos", "mean-mean"]),
    ]:
        for method in methods:
            m = identification_metrics(score_matrix(probes, cases, method), truth, [len(p) > 0 for p in probes], never)
            print(f"{label:36s} {method:9s} rank1={m['rank1']:.3f} rank10={m['rank10']:.3f} mrr={m['mrr']:.3f} cases={int(m['cases'])}")


if __name__ == "__main__":
    main()
