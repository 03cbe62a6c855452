"""ONNX pieces from the npm package faceplugin-face-recognition-js 0.0.1 (MIT).

fr_detect.onnx: a 320×240 anchor detector with decoded, normalised boxes.
fr_feature.onnx: an ArcFace-style 512-d embedder on 112×112 aligned RGB faces.
fr_feature_archive.onnx: the same graph with weights fine-tuned by athar for archive photos
(the default embedder; benchmarks/faces/finetune/).
fr_landmark.onnx: 68 points from a 64×64 grey crop. Not vendored and not used by the
product (the 68-point layout comes from iBUG 300-W, whose licence is non-commercial,
and the model's training data is undocumented); only the template-fitting script
uses it from an ``npm pack`` copy. The used files are vendored in ``models/``
(PROVENANCE.md); nothing is downloaded at run time.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageFilter

from .align import ARCFACE_112, align_to_template
from .datatypes import Box, Detection, FloatArray, UInt8Array

MODELS_DIR = Path(__file__).resolve().parent / "models"
ONNX_EMBEDDER_NAME = "faceplugin-arcface-112"
ONNX_EMBEDDER_VERSION = "faceplugin-face-recognition-js@0.0.1/fr_feature.onnx"
# The same network with weights fine-tuned by athar so that degraded (archive-like) crops land
# where the clean crop of the same photo lands under the published weights: the vector space is
# the original's (same model name), the weights are not (another version). How it was made, on
# what data, and its sha256: models/PROVENANCE.md and benchmarks/faces/finetune/.
ARCHIVE_EMBEDDER_FILE = "fr_feature_archive.onnx"
ARCHIVE_EMBEDDER_VERSION = "faceplugin-face-recognition-js@0.0.1/fr_feature.onnx>athar-archive-2"
# Raw output length below which a crop of this embedder is not a face (FaceModel.min_feature_norm;
# benchmarks/faces/feature_norm.py): measured on this version's true faces (archive, clean) and on
# the detector's false faces on textured sheets. Re-measure whenever the weights change.
ARCHIVE_MIN_FEATURE_NORM = 2.0

# dlib's 5 points (two corners per eye, nose base) placed in the ArcFace 112×112 frame:
# the mean over 400 clean LFW faces after aligning each with the 68-point ONNX model
# (benchmarks/faces/fit_dlib5_template.py). Lets the ONNX embedder use dlib's
# public-domain landmarks instead of the 68-point model.
DLIB5_IN_ARCFACE_112 = np.array(
    [
        [79.0, 52.4],
        [66.0, 52.8],
        [32.1, 52.8],
        [45.1, 53.0],
        [55.4, 81.1],
    ],
    dtype=np.float32,
)


def model_file(filename: str) -> Path:
    """A vendored ONNX file; fails clearly if the package was installed without it."""
    path = MODELS_DIR / filename
    if not path.is_file():
        raise FileNotFoundError(f"face model file missing from the athar package: {path}")
    return path


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@cache
def _session(filename: str) -> Any:
    return _session_at(str(model_file(filename)))


@cache
def _session_at(path: str) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    # One thread: the machines are small and shared; parallelism comes from processes.
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(path, opts, providers=["CPUExecutionProvider"])


def _nms(boxes: FloatArray, scores: FloatArray, thresh: float) -> list[int]:
    order = np.argsort(-scores)
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        xx1 = np.maximum(boxes[i, 0], boxes[order[1:], 0])
        yy1 = np.maximum(boxes[i, 1], boxes[order[1:], 1])
        xx2 = np.minimum(boxes[i, 2], boxes[order[1:], 2])
        yy2 = np.minimum(boxes[i, 3], boxes[order[1:], 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        iou = inter / (area[i] + area[order[1:]] - inter + 1e-9)
        order = order[1:][iou < thresh]
    return keep


class OnnxDetector:
    """fr_detect.onnx, letterboxed so faces keep their shape (the JS code stretches)."""

    name = "faceplugin-detect-320x240"
    W, H = 320, 240

    def __init__(self, threshold: float = 0.65, nms: float = 0.4, smooth: float = 0.0) -> None:
        self.threshold = threshold
        self.nms = nms
        self.smooth = smooth  # optional blur at detector resolution (the pipeline blurs first)

    def detect(self, rgb: UInt8Array) -> list[Detection]:
        h, w = rgb.shape[:2]
        scale = min(self.W / w, self.H / h)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        canvas = np.full((self.H, self.W, 3), 127, dtype=np.uint8)
        small = Image.fromarray(rgb).resize((nw, nh), Image.Resampling.BILINEAR)
        if self.smooth > 0:
            small = small.filter(ImageFilter.GaussianBlur(self.smooth))
        canvas[:nh, :nw] = np.asarray(small)
        x = ((canvas.astype(np.float32) - 127.0) / 128.0).transpose(2, 0, 1)[None]
        scores, boxes = _session("fr_detect.onnx").run(None, {"input": x})
        s, b = scores[0, :, 1], boxes[0]
        # log(p1 / p0) from both softmax outputs: p1 saturates at 1.0 in float32, p0 does not.
        logit = np.log(np.maximum(scores[0, :, 1], 1e-30)) - np.log(np.maximum(scores[0, :, 0], 1e-30))
        sel = s >= self.threshold
        s, logit, b = s[sel], logit[sel], b[sel] * np.array([self.W, self.H, self.W, self.H], dtype=np.float32) / scale
        out = []
        for i in _nms(b, s, self.nms):
            x1, y1, x2, y2 = (float(v) for v in b[i])
            x1, y1, x2, y2 = max(0.0, x1), max(0.0, y1), min(float(w), x2), min(float(h), y2)
            if x2 - x1 > 2 and y2 - y1 > 2:
                out.append(Detection(Box(x1, y1, x2, y2), float(s[i]), float(logit[i])))
        return out


class Onnx68Landmarker:
    """fr_landmark.onnx: 68 points, reduced to ArcFace's 5 (as fr_feature.js does).

    Kept for fitting and measurement only; the 68-point layout is iBUG 300-W's and the
    training data of this model is not documented, so the product does not rely on it.
    """

    name = "faceplugin-landmark-68"
    scheme = "arcface5"

    def __init__(self, model_path: Path) -> None:
        self.model_path = str(model_path)

    def landmarks(self, rgb: UInt8Array, box: Box) -> FloatArray:
        side = box.height  # the JS code squares the box on its height
        cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
        x1, y1 = cx - side / 2, cy - side / 2
        grey = Image.fromarray(rgb).convert("L").crop((int(x1), int(y1), int(x1 + side), int(y1 + side)))
        x = (np.asarray(grey.resize((64, 64), Image.Resampling.BILINEAR), dtype=np.float32) / 256.0)[None, None]
        pts = _session_at(self.model_path).run(None, {"input": x})[0].reshape(68, 2)
        pts = pts * np.array([int(x1 + side) - int(x1), int(y1 + side) - int(y1)]) + np.array([int(x1), int(y1)])
        return np.array(
            [
                pts[[37, 38, 40, 41]].mean(0),
                pts[[43, 44, 46, 47]].mean(0),
                pts[30],
                (pts[48] + pts[60]) / 2,
                (pts[54] + pts[64]) / 2,
            ],
            dtype=np.float32,
        )


class OnnxArcFaceEmbedder:
    """fr_feature.onnx (or a fine-tuned copy of it): 512-d ArcFace-style vectors from 112×112
    aligned faces. ``filename`` is a file in ``models/``; ``version`` is recorded with every vector."""

    name = ONNX_EMBEDDER_NAME
    dim = 512
    schemes = ("dlib5", "arcface5")
    crop_size = 112

    def __init__(self, filename: str = "fr_feature.onnx", version: str = ONNX_EMBEDDER_VERSION) -> None:
        self.filename = filename
        self.version = version

    def align(self, image: Image.Image, points: FloatArray, scheme: str = "dlib5") -> Image.Image:
        template = DLIB5_IN_ARCFACE_112 if scheme == "dlib5" else ARCFACE_112
        return align_to_template(image, points, template, self.crop_size)

    def embed(self, crop: Image.Image) -> FloatArray:
        vec = self.embed_raw(crop)
        return vec / max(float(np.linalg.norm(vec)), 1e-12)

    def embed_raw(self, crop: Image.Image) -> FloatArray:
        """The network's output before normalisation: its length says how face-like the crop is
        (pipeline.FacePipeline.analyse drops crops whose length is below the model's floor)."""
        a = np.asarray(crop.convert("RGB").resize((112, 112)), dtype=np.float32)
        x = ((a - 127.0) / 128.0).transpose(2, 0, 1)[None]
        return _session(self.filename).run(None, {"input": x})[0][0].astype(np.float32)
