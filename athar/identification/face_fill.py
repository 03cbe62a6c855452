"""Filling in face vectors the stores do not have yet, with the face pipeline
(athar.matching.faces): archive photos without ``Face`` rows, and photos of the person alive without
``ReportPhoto.faces``. Used by ``athar eval identify`` and as a fallback until ingest and import index
faces themselves. ``cache_dir`` (optional) reuses vectors computed before for the same photo bytes.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction

from athar.archive.models import Face, Photo
from athar.archive.storage import MediaStore
from athar.registry.models import ReportPhoto
from athar.registry.photos import read_photo


def _pipeline(model: str) -> Any:
    from athar.matching.faces.pipeline import FacePipeline

    return FacePipeline(model)


def _vectors(pipe: Any, path: Path | bytes, sha256: str, family: bool, cache_dir: Path | None) -> tuple[np.ndarray, list[Any]]:
    """(vectors, detected faces or [] when read from the cache)."""
    from athar.matching.faces.errors import FaceError
    from athar.matching.faces.pipeline import family_face

    folder = f"{pipe.model_name}@{pipe.model_version}".replace("/", "_")
    key = cache_dir / folder / f"{sha256}{'-f' if family else ''}.npy" if cache_dir else None
    if key is not None and key.exists():
        return np.load(key), []
    faces = pipe.analyse(path)
    if family:
        try:
            faces = [family_face(faces)]
        except FaceError:
            faces = []
    vecs = np.array([f.embedding for f in faces], np.float32).reshape(-1, pipe.model.dim)
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        np.save(key, vecs)
    return vecs, faces


def index_archive_photos(model: str, cache_dir: Path | None = None,
                         progress: Callable[[int], None] | None = None) -> dict[str, int]:
    """Embed every archive photo not yet indexed; one ``Face`` row per face found."""
    pipe, store = _pipeline(model), MediaStore(settings.MEDIA_ROOT)
    counts = {"photos": 0, "faces": 0}
    for photo in Photo.objects.filter(faces_indexed=False, viewable=True).order_by("id").iterator(chunk_size=200):
        vecs, faces = _vectors(pipe, store.original_path(photo.sha256), photo.sha256, False, cache_dir)
        with transaction.atomic():
            Face.objects.bulk_create([Face(
                photo=photo, case_id=photo.case_id, index=i,
                box=[round(v, 1) for v in (faces[i].box.left, faces[i].box.top, faces[i].box.right, faces[i].box.bottom)]
                if faces else [], rotation=faces[i].rotation if faces else 0,
                quality=float(faces[i].quality) if faces else 0.0, embedding=vec.astype(np.float32).tobytes(),
                model_name=pipe.model_name, model_version=pipe.model_version) for i, vec in enumerate(vecs)],
                ignore_conflicts=True)
            Photo.objects.filter(pk=photo.pk).update(faces_indexed=True)
        counts["photos"] += 1
        counts["faces"] += len(vecs)
        if progress:
            progress(1)
    return counts


def index_report_photos(model: str, cache_dir: Path | None = None) -> dict[str, int]:
    """The family's face in every photo of the person alive that has none recorded for ``model``."""
    pipe = _pipeline(model)
    counts = {"photos": 0, "faces": 0}
    for photo in ReportPhoto.objects.select_related("report").order_by("id").iterator(chunk_size=200):
        if any(f.get("model") == pipe.model_name and f.get("version") == pipe.model_version for f in photo.faces or []):
            continue
        try:  # the family uploads store holds them sealed: unsealed in memory only
            data = read_photo(photo, "original")
        except (OSError, ValueError):
            counts["unreadable"] = counts.get("unreadable", 0) + 1
            continue
        vecs, faces = _vectors(pipe, data, photo.sha256, True, cache_dir)
        entries = [{"box": [faces[0].box.left, faces[0].box.top, faces[0].box.right, faces[0].box.bottom] if faces else [],
                    "quality": float(faces[0].quality) if faces else None,
                    "embedding_b64": base64.b64encode(vec.astype(np.float32).tobytes()).decode("ascii"),
                    "model": pipe.model_name, "version": pipe.model_version} for vec in vecs[:1]]
        older = [f for f in photo.faces or [] if f.get("model") != pipe.model_name]  # other versions: stale
        ReportPhoto.objects.filter(pk=photo.pk).update(faces=[*older, *entries])
        counts["photos"] += 1
        counts["faces"] += len(entries)
    return counts
