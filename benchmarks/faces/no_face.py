"""Why cases end without a face, per degradation model, for the product pipeline and the simple baseline.

Reads the vectors ablation.py cached (run it first with the same split and sizes), finds the case
photos that gave no vector, and looks again at each of them:

- product (``P``): *no detection* (the detector fired at no quarter turn, nor at the diagonal
  pass), or *dropped as a non-face* (detections, but each group's evidence — upright logit +
  0.25 × detector logit — under 0). The feature-norm floor never empties a photo (it keeps the
  longest face), so it is never the reason.
- simple baseline (``S``): HOG found nothing at the four turns, at upsample 1 and 2.

For ``archive_b`` the generator's record tells the face's width in the photo and how far its angle
lies from the nearest quarter turn: the likely cause (small face, head between quarter turns).

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/faces/no_face.py --split dev --mated 200 --distractors 200
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ablation import split_from_arguments, variants, vectors  # noqa: E402

import athar.matching.faces.pipeline as pl  # noqa: E402


def product_reason(pipe: pl.FacePipeline, img) -> str:  # type: ignore[no-untyped-def]
    _, seen = pipe.prepare(img.convert("RGB"))
    return "dropped as a non-face" if pipe._candidates(seen) else "no detection"


def main() -> None:
    args, s, photos, tag = split_from_arguments(__doc__)
    pipe = pl.FacePipeline()
    for name in args.variants:
        v = variants()[name]()
        for cond in args.conditions:
            cases, _ = vectors(v, f"{tag}-{cond}", lambda cond=cond: photos.cases(cond), False)
            missing = [i for i, c in enumerate(cases) if len(c) == 0]
            imgs = photos.cases(cond)
            reasons: dict[str, int] = {}
            small, between = 0, 0
            for i in missing:
                why = product_reason(pipe, imgs[i]) if name.startswith("P") else "HOG found nothing (upsample 1 and 2)"
                reasons[why] = reasons.get(why, 0) + 1
                if cond == "archive_b":
                    meta = photos.meta[cond][i]
                    small += meta["face_width"] < 60
                    between += min(meta["angle"] % 90, 90 - meta["angle"] % 90) > 20
            row = {"variant": name, "condition": cond, "cases": len(cases), "without_face": len(missing), "reasons": reasons}
            if cond == "archive_b":
                all_meta = photos.meta[cond]
                row |= {"of_them_face_under_60px": small, "of_them_angle_over_20deg_from_a_quarter_turn": between,
                        "all_cases_face_under_60px": int(np.sum([m["face_width"] < 60 for m in all_meta])),
                        "all_cases_angle_over_20deg": int(np.sum([min(m["angle"] % 90, 90 - m["angle"] % 90) > 20 for m in all_meta]))}
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
