"""Plain data shapes shared by detectors, embedders, the pipeline and the index.

Kept free of any model library so callers (the Django side, tests) can use them
without loading dlib or onnxruntime.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt
from PIL import Image

FloatArray = npt.NDArray[np.float32]
UInt8Array = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Box:
    """Axis-aligned face box in pixels: left, top, right, bottom (right/bottom exclusive)."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return max(0.0, self.right - self.left)

    @property
    def height(self) -> float:
        return max(0.0, self.bottom - self.top)

    @property
    def area(self) -> float:
        return self.width * self.height

    def overlap(self, other: Box) -> float:
        """Intersection over the smaller box: a box inside another is the same face."""
        w = min(self.right, other.right) - max(self.left, other.left)
        h = min(self.bottom, other.bottom) - max(self.top, other.top)
        smaller = min(self.area, other.area)
        return max(0.0, w) * max(0.0, h) / smaller if smaller > 0 else 0.0

    def iou(self, other: Box) -> float:
        """Intersection over union: how we decide two detections are one face."""
        w = min(self.right, other.right) - max(self.left, other.left)
        h = min(self.bottom, other.bottom) - max(self.top, other.top)
        inter = max(0.0, w) * max(0.0, h)
        union = self.area + other.area - inter
        return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class Detection:
    """A detector's raw answer, in the coordinates of the image it was given."""

    box: Box
    score: float  # detector confidence in [0, 1]
    logit: float | None = None  # log-odds, when the detector gives them without saturation


@dataclass
class DetectedFace:
    """One face found in one photo, ready to store and index.

    ``box`` and ``landmarks`` are in the coordinates of the upright input image
    (after EXIF orientation), whatever rotation the face was found at. ``rotation``
    is the clockwise turn (0/90/180/270; 45/135/225/315 when the pipeline's diagonal pass found the
    face) that made the face upright, give or take the face's own roll.
    """

    box: Box
    rotation: int
    landmarks: FloatArray  # shape (5, 2), in input-image coordinates
    detector_score: float
    quality: float  # in [0, 1], see quality.py
    embedding: FloatArray  # L2-normalised float32
    crop: Image.Image  # aligned face, for thumbnails and review
    model_name: str
    model_version: str
    quality_parts: dict[str, float] = field(default_factory=dict)
    # Length of the embedder's raw output (mean over the recipe's passes), when the embedder
    # gives it: low on crops that are not faces (models_registry.FaceModel.min_feature_norm).
    feature_norm: float | None = None


class Detector(Protocol):
    """Finds upright faces; the pipeline handles rotations and contrast."""

    name: str

    def detect(self, rgb: UInt8Array) -> list[Detection]: ...


class Landmarker(Protocol):
    """Five points on an upright face, in the order the embedder's template uses."""

    name: str

    def landmarks(self, rgb: UInt8Array, box: Box) -> FloatArray: ...


class Embedder(Protocol):
    """Aligns a face from its five points and turns it into a unit vector."""

    name: str
    version: str
    dim: int

    def align(self, image: Image.Image, points: FloatArray) -> Image.Image: ...

    def embed(self, crop: Image.Image) -> FloatArray: ...
