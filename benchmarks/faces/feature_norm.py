"""Where to put a model's feature-norm floor (FaceModel.min_feature_norm): real faces against false ones.

An ArcFace-style embedder gives a long raw vector for a face and a short one for what is not a
face. This measures, with the floor switched off (aligned faces embedded directly):

- ``family``: the family's face in each dev probe photo (clean LFW);
- ``archive`` / ``archive_spec``: the *true* face of each present person's degraded archive photo
  (the face closest to the person's family photo — the face a family needs to find; a case whose
  best face is under 0.3 cosine is counted apart, as ``unmatched``);
- ``sheet_true`` / ``sheet_false``: faces inside / outside the pasted photo on the large textured and
  plain sheets of large_photos.py (1600×1200 and 3000×2000): outside are the detector's false faces.

For each candidate floor it prints how many of each group would be dropped. Pick a floor that
drops no true face with margin and most false ones; write it into the model (onnx_models.py).

    nice .venv/bin/python benchmarks/faces/feature_norm.py --n 150 --sheets 30
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
import identification as idn  # noqa: E402
from identity_split import make_split  # noqa: E402
from large_photos import background  # noqa: E402

from athar.matching.faces.pipeline import AlignedFace, FacePipeline, embed_crop_with_norm, family_order  # noqa: E402

FLOORS = (1.8, 2.0, 2.2, 2.4, 2.6)


def embedded(pipe: FacePipeline, img: Image.Image) -> list[tuple[AlignedFace, np.ndarray, float]]:
    """(aligned face, unit vector, raw norm) for every face, with no floor applied."""
    out = []
    for face in family_order(pipe.aligned_faces(img)):
        vec, norm = embed_crop_with_norm(pipe.model.embedder, face.crop, pipe.model.recipe)
        out.append((face, vec, float(norm if norm is not None else np.nan)))
    return out


def summary(name: str, norms: list[float], extra: dict[str, object] | None = None) -> dict[str, object]:
    a = np.array(norms, dtype=np.float64)
    row: dict[str, object] = {"group": name, "faces": len(a), **(extra or {})}
    if len(a):
        row["percentiles_0_1_5_50"] = [round(float(v), 2) for v in np.percentile(a, [0, 1, 5, 50])]
        row["below"] = {str(f): int((a < f).sum()) for f in FLOORS}
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="arcface")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--n", type=int, default=150, help="present people for the family and archive groups")
    ap.add_argument("--sheets", type=int, default=30, help="people pasted on large sheets")
    args = ap.parse_args()
    pipe = FacePipeline(args.model)
    print(f"{pipe.model_version}; floor in use: {pipe.model.min_feature_norm}", file=sys.stderr)
    s = make_split(args.split, 300, 400)
    people = s.present[: args.n]
    rows, family_vecs, fam_norms = [], [], []
    for _, path, _ in people:
        faces = embedded(pipe, Image.open(path).convert("RGB"))
        family_vecs.append(faces[0][1] if faces else None)
        fam_norms += [faces[0][2]] if faces else []
    rows.append(summary("family", fam_norms))
    # The second body on a sheet: the same photos, in the same order, as identification.case_images.
    second = [Image.open(p).convert("RGB") for _, p in s.distractors[-20:]]
    for cond in ("archive", "archive_spec"):
        true, unmatched, others = [], [], []
        for i, ((name, _, case_path), fam) in enumerate(zip(people, family_vecs)):
            rng = random.Random(idn._seed(name, cond))
            faces = embedded(pipe, degrade.apply(cond, Image.open(case_path).convert("RGB"), rng, second[i % len(second)]))
            if not faces or fam is None:
                continue
            sims = [float(v @ fam) for _, v, _ in faces]
            best = int(np.argmax(sims))
            (true if sims[best] >= 0.3 else unmatched).append(faces[best][2])
            others += [n for i, (_, _, n) in enumerate(faces) if i != best]
        rows.append(summary(cond, true, {"unmatched_norms": sorted(round(v, 2) for v in unmatched)}))
        rows.append(summary(f"{cond}_other_faces", others))
    for kind in ("textured", "plain"):
        inside_n, outside_n = [], []
        for width, height in ((1600, 1200), (3000, 2000)):
            for name, _, case_path in s.present[: args.sheets]:
                rng = random.Random(idn._seed(name, "archive_spec"))
                img = degrade.apply("archive_spec", Image.open(case_path).convert("RGB"), rng, None)
                sheet = background(width, height, kind, rng)
                x, y = rng.randint(0, width - img.width), rng.randint(0, height - img.height)
                sheet.paste(img, (x, y))
                for face, _, norm in embedded(pipe, sheet):
                    cx, cy = (face.box.left + face.box.right) / 2, (face.box.top + face.box.bottom) / 2
                    inside = x <= cx <= x + img.width and y <= cy <= y + img.height
                    (inside_n if inside else outside_n).append(norm)
        rows.append(summary(f"sheet_true_{kind}", inside_n))
        rows.append(summary(f"sheet_false_{kind}", outside_n))
    print(json.dumps({"model_version": pipe.model_version, "groups": {r["group"]: r.get("below") for r in rows}}))


if __name__ == "__main__":
    main()
