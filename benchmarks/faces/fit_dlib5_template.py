"""Fit where dlib's 5 landmarks sit in the ArcFace 112×112 frame (prints constants).

For each clean LFW photo: detect (ONNX), align with the 68-point ONNX model to the
ArcFace template, map dlib's 5 points through the same transform, and average.
Result goes into onnx_models.DLIB5_IN_ARCFACE_112.

    cd /tmp && npm pack faceplugin-face-recognition-js@0.0.1 && mkdir -p fp && tar xzf faceplugin-*.tgz -C fp
    nice .venv/bin/python benchmarks/faces/fit_dlib5_template.py --n 400
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np

from athar.matching.faces.align import ARCFACE_112, similarity_matrix
from athar.matching.faces.dlib_models import Dlib5Landmarker
from athar.matching.faces.images import load_image
from athar.matching.faces.onnx_models import Onnx68Landmarker, OnnxDetector

LFW = Path(__file__).resolve().parents[3] / "shared" / "data" / "faces" / "lfw-dev"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--lfw", type=Path, default=LFW)
    ap.add_argument(
        "--landmark-model",
        type=Path,
        default=Path("/tmp/fp/package/model/fr_landmark.onnx"),
        help="fr_landmark.onnx from `npm pack faceplugin-face-recognition-js@0.0.1` (not vendored)",
    )
    args = ap.parse_args()
    files = sorted(args.lfw.glob("*/*.jpg"))
    random.Random(7).shuffle(files)
    det, lm68, lm5 = OnnxDetector(), Onnx68Landmarker(args.landmark_model), Dlib5Landmarker()
    mapped = []
    for path in files[: args.n]:
        rgb = np.asarray(load_image(path))
        dets = det.detect(rgb)
        if not dets:
            continue
        box = max(dets, key=lambda d: d.box.area).box
        m = similarity_matrix(lm68.landmarks(rgb, box), ARCFACE_112)
        pts = lm5.landmarks(rgb, box)
        mapped.append(pts @ m[:, :2].T + m[:, 2])
    arr = np.array(mapped)
    print(f"faces used: {len(arr)}")
    print("mean:\n", np.round(arr.mean(0), 1).tolist())
    print("std:\n", np.round(arr.std(0), 1).tolist())


if __name__ == "__main__":
    main()
