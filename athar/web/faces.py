"""Finding the faces in a family's photo so the family can say which one is the person sought.

Runs the face detector only (a few milliseconds); embedding is the face work's job, and it
reads the chosen face from ``ReportPhoto.faces[i]["chosen"]``. Called only after consent.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import numpy as np
from PIL import Image

from athar.matching.faces.models_registry import get_face_model
from athar.registry.photos import read_photo
from athar.registry.photos import view_size as stored_view_size

log = logging.getLogger(__name__)


def detect_faces(photo: Any) -> list[dict[str, Any]]:
    """Boxes (in the viewing copy's pixels) of the faces in a report photo; [] when none or unavailable."""
    if not (photo.derivatives or {}).get("view"):
        return []
    try:
        with Image.open(io.BytesIO(read_photo(photo, "view"))) as img:
            arr = np.asarray(img.convert("RGB"))
        detections = get_face_model().detector.detect(arr)
    except Exception:  # noqa: BLE001 - a missing model must not break the family's page
        log.warning("face detection unavailable for report photo %s", photo.pk, exc_info=True)
        return []
    faces: list[dict[str, Any]] = [{"box": [round(d.box.left), round(d.box.top), round(d.box.right), round(d.box.bottom)],
              "score": round(float(d.score), 3), "source": "web-detector"} for d in detections]
    faces.sort(key=lambda f: f["box"][0])
    if len(faces) == 1:
        faces[0]["chosen"] = True
    return faces


def view_size(photo: Any) -> tuple[int, int]:
    """Width and height of a report photo's viewing copy; 800×800 when it cannot be read."""
    return stored_view_size(photo) or (800, 800)
