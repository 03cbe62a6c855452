"""The family's face in each photo of the person alive, embedded by the worker before ranking.

The web finds faces with the detector only, so the family can say which face is the person sought
(``ReportPhoto.faces`` entries with ``"source": "web-detector"`` and boxes in the viewing copy's
pixels, one of them ``"chosen"``). Embedding is slower and never runs inside a web request: the
worker calls ``ensure_family_vectors`` for a subject's reports before ranking it. Each photo then
holds one entry per face model: ``{model, version, box, quality, embedding_b64, chosen}``; an
entry of another version of the same model is stale and replaced.

Which face: the one the family chose (the detected face that overlaps the chosen box most); when
the family chose none, the largest upright face (as ``athar faces search`` does). When the family
chose a face the pipeline cannot find, the photo gives no vector rather than somebody else's face.
Reports whose family refused or withdrew consent to face processing are never embedded.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings

from athar.archive.storage import MediaStore
from athar.registry.models import Report, ReportPhoto

log = logging.getLogger(__name__)
MIN_OVERLAP = 0.3  # intersection over union between the family's chosen box and a detected face


def consented(reports: Iterable[Report]) -> list[Report]:
    """Reports whose face processing is not refused (imported lists carry no consent record)."""
    return [r for r in reports if (r.consent or {}).get("face_processing", True) is not False and not r.erased_at]


def ensure_family_vectors(reports: Iterable[Report], pipeline_name: str = "arcface") -> dict[str, int]:
    """Embed every photo of these reports that has no vector of the current model version."""
    from athar.archive.face_indexing import pipeline

    pipe = pipeline(pipeline_name)
    counts = {"photos": 0, "faces": 0, "no_face": 0}
    for photo in ReportPhoto.objects.filter(report__in=consented(reports)).order_by("id"):
        if _current(photo, pipe.model_name, pipe.model_version):
            continue
        entry = _embed(pipe, photo)
        kept = [f for f in photo.faces or [] if f.get("model") != pipe.model_name]
        ReportPhoto.objects.filter(pk=photo.pk).update(faces=[*kept, entry])
        counts["photos"] += 1
        counts["faces" if entry.get("embedding_b64") else "no_face"] += 1
    return counts


def _current(photo: ReportPhoto, model: str, version: str) -> bool:
    return any(f.get("model") == model and f.get("version") == version for f in photo.faces or [])


def _embed(pipe: Any, photo: ReportPhoto) -> dict[str, Any]:
    """One entry for this photo: the family's face with its vector, or a "no face" marker (so the
    worker does not try again until the model changes)."""
    from athar.matching.faces import ImageError, load_image
    from athar.matching.faces.errors import FaceError
    from athar.matching.faces.pipeline import family_face

    entry: dict[str, Any] = {"model": pipe.model_name, "version": pipe.model_version}
    try:
        image = load_image(MediaStore(settings.MEDIA_ROOT).original_path(photo.sha256))
        faces = pipe.analyse(image)
        chosen_box = _chosen_box(photo, image.width)
        face = _matching(faces, chosen_box) if chosen_box else family_face(faces)
    except (ImageError, FaceError, OSError) as exc:
        log.info("report photo %s: no family face (%s)", photo.pk, type(exc).__name__)
        return {**entry, "no_face": True}
    if face is None:
        return {**entry, "no_face": True, "reason": "the chosen face was not found"}
    box = face.box
    return {**entry, "box": [round(box.left, 1), round(box.top, 1), round(box.right, 1), round(box.bottom, 1)],
            "quality": round(float(face.quality), 3), "chosen": True,
            "embedding_b64": base64.b64encode(face.embedding.astype("float32").tobytes()).decode("ascii")}


def _chosen_box(photo: ReportPhoto, original_width: int) -> list[float] | None:
    """The family's chosen box, in the original's pixels (the web's boxes are in the viewing copy's)."""
    chosen = next((f for f in photo.faces or [] if f.get("chosen") and f.get("source") == "web-detector"), None)
    if chosen is None or not chosen.get("box"):
        return None
    scale = original_width / max(_view_width(photo) or original_width, 1)
    return [float(v) * scale for v in chosen["box"]]


def _view_width(photo: ReportPhoto) -> int | None:
    from PIL import Image

    relpath = (photo.derivatives or {}).get("view")
    if not relpath:
        return None
    try:
        with Image.open(MediaStore(settings.MEDIA_ROOT).path(relpath)) as img:
            return int(img.width)
    except OSError:
        return None


def _matching(faces: list[Any], box: list[float]) -> Any:
    """The detected face that overlaps the family's chosen box most (None below MIN_OVERLAP)."""
    best, best_iou = None, MIN_OVERLAP
    for face in faces:
        iou = _iou(box, [face.box.left, face.box.top, face.box.right, face.box.bottom])
        if iou >= best_iou:
            best, best_iou = face, iou
    return best


def _iou(a: list[float], b: list[float]) -> float:
    width = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    height = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = width * height
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
