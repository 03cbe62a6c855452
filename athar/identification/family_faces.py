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

from athar.matching.faces.datatypes import Box
from athar.registry.models import Report, ReportPhoto
from athar.registry.photos import read_photo, view_size

log = logging.getLogger(__name__)
MIN_OVERLAP = 0.3  # intersection over union between the family's chosen box and a detected face


def rank_report_again(report: Report) -> None:
    """A photo was added, its face chosen, or the consent to face processing changed (the web's
    photo, face and consent pages, the API's photo upload): the worker ranks the report again, with
    every photo it has — the family's face query is the mean of all of them — or, without consent,
    none. Nothing else would: the worker's sweep notices new reports and cases, not new photos."""
    from athar.identification.jobs import enqueue_for_report  # here: jobs → ranking → this module

    enqueue_for_report(report.pk)


def consented(reports: Iterable[Report]) -> list[Report]:
    """Reports whose face processing is not refused (imported lists carry no consent record)."""
    return [r for r in reports if (r.consent or {}).get("face_processing", True) is not False and not r.erased_at]


def ensure_family_vectors(reports: Iterable[Report], pipeline_name: str = "arcface") -> dict[str, int]:
    """Embed every photo of these reports that has no vector of the current model version."""
    from athar.archive.face_indexing import pipeline

    counts = {"photos": 0, "faces": 0, "no_face": 0}
    photos = list(ReportPhoto.objects.filter(report__in=consented(reports)).order_by("id"))
    if not photos:
        return counts  # most reports have no photo: do not load the face models for them
    pipe = pipeline(pipeline_name)
    for photo in photos:
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
        image = load_image(read_photo(photo, "original"))  # from the family uploads store, unsealed
        faces = pipe.analyse(image)
        chosen_box = _chosen_box(photo, image.width)
        face = _matching(faces, chosen_box) if chosen_box else family_face(faces)
    except (ImageError, FaceError, OSError, ValueError) as exc:  # ValueError: unreadable (key shredded)
        log.info("report photo %s: no family face (%s)", photo.pk, type(exc).__name__)
        return {**entry, "no_face": True}
    if face is None:
        return {**entry, "no_face": True, "reason": "the chosen face was not found"}
    box = face.box
    return {**entry, "box": [round(box.left, 1), round(box.top, 1), round(box.right, 1), round(box.bottom, 1)],
            "quality": round(float(face.quality), 3), "chosen": True,
            "embedding_b64": base64.b64encode(face.embedding.astype("float32").tobytes()).decode("ascii")}


def _chosen_box(photo: ReportPhoto, original_width: int) -> Box | None:
    """The family's chosen box, in the original's pixels (the web's boxes are in the viewing copy's)."""
    chosen = next((f for f in photo.faces or [] if f.get("chosen") and f.get("source") == "web-detector"), None)
    if chosen is None or not chosen.get("box"):
        return None
    size = view_size(photo)
    scale = original_width / max(size[0] if size else original_width, 1)
    return Box(*(float(v) * scale for v in chosen["box"]))


def _matching(faces: list[Any], box: Box) -> Any:
    """The detected face that overlaps the family's chosen box most (None below MIN_OVERLAP)."""
    best = max(faces, key=lambda face: face.box.iou(box), default=None)
    return best if best is not None and best.box.iou(box) >= MIN_OVERLAP else None
