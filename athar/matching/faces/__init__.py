"""Face matching core (plain Python, no Django): photos → faces → vectors → ranked cases.

Typical use::

    from athar.matching.faces import FacePipeline, family_face, FaceIndex, load_calibration

    pipe = FacePipeline()                      # default model: ArcFace-style ONNX
    faces = pipe.analyse("archive/0001.jpg")   # every face, any quarter-turn
    query = family_face(pipe.analyse(upload))  # the family's chosen face

See docs/faces.md for the API, the measurements and the model decision.
"""

from .calibration import Calibration, fit_logistic, load_calibration
from .combine import DEFAULT_METHOD, probe_vector, score_case
from .datatypes import Box, DetectedFace, Detection, Detector, Embedder, Landmarker
from .errors import FaceError, FaceNumberOutOfRange, FaceTooSmall, NoFaceFound
from .evaluation import evaluate_dirs, identification_metrics, score_matrix
from .images import ImageError, load_image
from .index import FaceIndex, rank_cases
from .models_registry import DEFAULT_MODEL, MODEL_NAMES, FaceModel, get_face_model
from .pipeline import (
    MIN_FAMILY_FACE_SIDE,
    AlignedFace,
    FacePipeline,
    family_face,
    family_order,
)

__all__ = [
    "AlignedFace",
    "Box",
    "Calibration",
    "DEFAULT_METHOD",
    "DEFAULT_MODEL",
    "DetectedFace",
    "Detection",
    "Detector",
    "Embedder",
    "FaceError",
    "FaceIndex",
    "FaceModel",
    "FaceNumberOutOfRange",
    "FacePipeline",
    "FaceTooSmall",
    "ImageError",
    "Landmarker",
    "MIN_FAMILY_FACE_SIDE",
    "MODEL_NAMES",
    "NoFaceFound",
    "evaluate_dirs",
    "family_face",
    "family_order",
    "fit_logistic",
    "get_face_model",
    "identification_metrics",
    "load_calibration",
    "load_image",
    "probe_vector",
    "rank_cases",
    "score_case",
    "score_matrix",
]
