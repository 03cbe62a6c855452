"""Faces at any angle: a head shot from above lies at any angle, not only at the quarter turns.

For each of ``--n`` dev benchmark people, their archive-side photo (the second LFW photo; clean, or
degraded first with ``--condition`` and the identification benchmark's seeds) is turned clockwise
by each angle (the frame enlarged to hold it, new corners grey) and analysed by the product
pipeline. Against the same photo analysed upright:

- found: at least one face kept;
- recovered: a kept face's vector has cosine > 0.5 with the upright photo's own face (the same
  face, turned back and aligned well enough to be itself);
- cos: mean of that best cosine (photos without a face count 0);
- family: mean best cosine to the person's *family* photo (the first LFW photo, clean), what a
  search actually compares.

    nice .venv/bin/python benchmarks/faces/rotations.py --n 80
    nice .venv/bin/python benchmarks/faces/rotations.py --n 80 --condition archive_spec

People whose upright photo yields no face are left out (counted in the first line). One JSON line
per angle.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
import identification as idn  # noqa: E402
from identity_split import make_split  # noqa: E402

from athar.matching.faces.pipeline import FacePipeline, family_face  # noqa: E402

ANGLES = [0, 15, 30, 45, 60, 90, 120, 135, 150, 180, 210, 225, 270, 315]
FILL = (90, 90, 90)


def _vectors(pipe: FacePipeline, image: Image.Image) -> np.ndarray:
    faces = pipe.analyse(image)
    return np.stack([f.embedding for f in faces]) if faces else np.zeros((0, pipe.model.dim), np.float32)


def archive_photo(name: str, path: Path, condition: str, second_body: Image.Image) -> Image.Image:
    """The photo as identification.py builds the case (same seed, same second body)."""
    image = Image.open(path).convert("RGB")
    if condition == "clean":
        return image
    return degrade.apply(condition, image, random.Random(idn._seed(name, condition)), second_body)


def run(n: int, condition: str, angles: list[int]) -> None:
    pipe = FacePipeline()
    split = make_split("dev", 300, 400)
    people = split.present[:n]
    others = [Image.open(p).convert("RGB") for _, p in split.distractors[-20:]]
    subjects = []
    for i, (name, family_path, case_path) in enumerate(people):
        photo = archive_photo(name, case_path, condition, others[i % len(others)])
        upright = _vectors(pipe, photo)
        if len(upright):
            family = family_face(pipe.analyse(Image.open(family_path).convert("RGB"))).embedding
            subjects.append((photo, upright, family))
    print(json.dumps({"condition": condition, "people": len(people), "upright_photo_without_face": len(people) - len(subjects)}),
          flush=True)
    for angle in angles:
        found = recovered = 0
        cos, fam = [], []
        start = time.process_time()
        for photo, upright, family in subjects:
            turned = photo.rotate(-angle, expand=True, resample=Image.Resampling.BILINEAR, fillcolor=FILL)
            vectors = _vectors(pipe, turned)
            best = float((vectors @ upright.T).max()) if len(vectors) else 0.0
            found += int(len(vectors) > 0)
            recovered += int(best > 0.5)
            cos.append(best)
            fam.append(float((vectors @ family).max()) if len(vectors) else 0.0)
        print(json.dumps({"condition": condition, "angle": angle, "photos": len(subjects), "found": found,
                          "recovered": recovered, "cos": round(float(np.mean(cos)), 3),
                          "family_cos": round(float(np.mean(fam)), 3),
                          "cpu_s_per_photo": round((time.process_time() - start) / max(1, len(subjects)), 3)}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=80, help="dev people (default: %(default)s)")
    ap.add_argument("--condition", default="clean", choices=["clean", "archive_spec", "archive", *degrade.SINGLE])
    ap.add_argument("--angles", type=int, nargs="*", default=ANGLES)
    args = ap.parse_args()
    run(args.n, args.condition, args.angles)


if __name__ == "__main__":
    main()
