"""Throughput (photos/s, detection + embedding) of FacePipeline vs a naive dlib loop.

Baseline, as specified: one photo at a time, one process, dlib HOG with upsample 1
at all four orientations, 5-point landmarks and the dlib ResNet on every face found
(no de-duplication). Photos: LFW dev photos with the 'archive' degradation.

    nice .venv/bin/python benchmarks/faces/throughput.py --n 60
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import degrade  # noqa: E402
from identity_split import make_split  # noqa: E402

from athar.matching.faces.dlib_models import _dlib, dlib_model_path  # noqa: E402
from athar.matching.faces.pipeline import FacePipeline  # noqa: E402
from athar.matching.faces.rotation import ROTATIONS, rotate_cw  # noqa: E402


def baseline(images: list[Image.Image]) -> tuple[float, float, int]:
    d = _dlib()
    det = d.get_frontal_face_detector()
    sp = d.shape_predictor(str(dlib_model_path("shape_predictor_5_face_landmarks.dat")))
    net = d.face_recognition_model_v1(str(dlib_model_path("dlib_face_recognition_resnet_model_v1.dat")))
    faces, start, cpu = 0, time.perf_counter(), time.process_time()
    for img in images:
        for r in ROTATIONS:
            arr = np.asarray(rotate_cw(img, r))
            for rect in det(arr, 1):
                net.compute_face_descriptor(arr, sp(arr, rect))
                faces += 1
    return len(images) / (time.perf_counter() - start), len(images) / (time.process_time() - cpu), faces


def pipeline(images: list[Image.Image], model: str) -> tuple[float, float, int]:
    pipe = FacePipeline(model)
    pipe.analyse(images[0])  # load models outside the timing
    faces, start, cpu = 0, time.perf_counter(), time.process_time()
    for img in images:
        faces += len(pipe.analyse(img))
    return len(images) / (time.perf_counter() - start), len(images) / (time.process_time() - cpu), faces


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=60)
    args = ap.parse_args()
    s = make_split("dev", args.n, 0)
    other = Image.open(s.present[-1][1]).convert("RGB")
    images = [degrade.apply("archive", Image.open(c).convert("RGB"), random.Random(i), other) for i, (_, _, c) in enumerate(s.present[: args.n])]
    images = images[: args.n // 2] + [Image.open(p).convert("RGB") for _, p, _ in s.present[: args.n - args.n // 2]]
    # Wall-clock photos/s depends on other jobs sharing the cores; photos per CPU-second
    # (process time, one thread) is the comparable figure on a shared machine.
    b, bc, bf = baseline(images)
    print(f"baseline dlib HOG×4 + embed all: {b:.2f} photos/s wall, {bc:.2f} photos/CPU-s ({bf} faces embedded)")
    for model in ("arcface", "dlib"):
        p, pc, pf = pipeline(images, model)
        print(f"FacePipeline[{model}]: {p:.2f} photos/s wall, {pc:.2f} photos/CPU-s ({pf} faces embedded), {pc / bc:.1f}× baseline (CPU)")


if __name__ == "__main__":
    main()
