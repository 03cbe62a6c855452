"""Named face models: a detector, a landmarker and an embedder that work together.

``arcface`` is the default (measured in docs/faces.md): faceplugin's ArcFace-style embedder
fine-tuned by athar for archive photos (``fr_feature_archive.onnx``, benchmarks/faces/finetune);
``arcface-original`` is the same embedder with its published weights; ``dlib`` keeps dlib's
public-domain ResNet embedder as the alternative with the same detector; ``dlib-hog``
is an all-dlib stack (no ONNX at all). Every embedding records the embedder's
name and version, so vectors from different models are never compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .datatypes import Detector, Embedder, Landmarker

DEFAULT_MODEL = "arcface"
MODEL_NAMES = ("arcface", "arcface-original", "dlib", "dlib-hog")


# How an aligned crop becomes the stored vector (pipeline.embed_crop). The recipe is part
# of the recorded version: vectors made with another recipe are not comparable.
RECIPES = ("plain", "grey-mirror")


@dataclass(frozen=True)
class FaceModel:
    """The three pieces of a face model; swap any of them to plug in a stronger one.

    ``recipe`` says how the aligned crop is embedded: "plain" (one embedding of the colour
    crop) or "grey-mirror" (mean of the embeddings of the grey crop and of its mirror image;
    measured in docs/faces.md).

    ``min_feature_norm``: a crop whose raw embedding (before normalisation) is shorter than this
    is not kept as a face. The detector fires on texture (a floor, a blanket, a body bag) on large
    photos, and those crops come out of an ArcFace-style network with a short vector; real faces,
    even damaged archive faces, come out longer. The floor is measured per embedder version
    (benchmarks/faces/feature_norm.py, docs/faces.md); ``None`` keeps every detected face.
    """

    detector: Detector
    landmarker: Landmarker
    embedder: Embedder
    recipe: str = "plain"
    min_feature_norm: float | None = None

    @property
    def name(self) -> str:
        return self.embedder.name

    @property
    def version(self) -> str:
        """Embedder version plus the embedding recipe: recorded with every vector."""
        return self.embedder.version if self.recipe == "plain" else f"{self.embedder.version}+{self.recipe}"

    @property
    def dim(self) -> int:
        return self.embedder.dim


@cache
def get_face_model(name: str = DEFAULT_MODEL) -> FaceModel:
    """Build (once per process) the named model; model files are loaded from disk only."""
    from .dlib_models import Dlib5Landmarker, DlibEmbedder, HogDetector
    from .onnx_models import (
        ARCHIVE_EMBEDDER_FILE,
        ARCHIVE_EMBEDDER_VERSION,
        ARCHIVE_MIN_FEATURE_NORM,
        OnnxArcFaceEmbedder,
        OnnxDetector,
    )

    if name == "arcface":
        embedder = OnnxArcFaceEmbedder(ARCHIVE_EMBEDDER_FILE, ARCHIVE_EMBEDDER_VERSION)
        return FaceModel(OnnxDetector(), Dlib5Landmarker(), embedder, recipe="grey-mirror", min_feature_norm=ARCHIVE_MIN_FEATURE_NORM)
    if name == "arcface-original":
        return FaceModel(OnnxDetector(), Dlib5Landmarker(), OnnxArcFaceEmbedder(), recipe="grey-mirror")
    if name == "dlib":
        return FaceModel(OnnxDetector(), Dlib5Landmarker(), DlibEmbedder())
    if name == "dlib-hog":
        return FaceModel(HogDetector(upsample=1), Dlib5Landmarker(), DlibEmbedder())
    raise ValueError(f"unknown face model {name!r}; choose one of {', '.join(MODEL_NAMES)}")
