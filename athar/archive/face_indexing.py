"""Faces of archive photos: found, embedded, stored (rows, crops) and indexed for search.

The database is the truth (every face row holds its embedding, model name and version); the
FAISS index on disk is a derived cache, rebuilt from the rows whenever it disagrees with them.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from PIL import Image

from athar.archive.imaging import blur, save_derivative
from athar.archive.models import Derivative, Face, Photo
from athar.archive.signals import faces_indexed
from athar.archive.storage import MediaStore
from athar.core.batching import batches
from athar.matching.faces import (
    DEFAULT_MODEL,
    FaceIndex,
    FacePipeline,
    ImageError,
    load_image,
)
from athar.matching.faces.rotation import turn_cw_any

BATCH = 32
SAVE_EVERY_BATCHES = 50  # the index is a cache of the face rows: rebuilt if a crash leaves it behind
CROP_MARGIN = 0.35
CROP_MAX = 224


@lru_cache(maxsize=2)
def pipeline(model: str = DEFAULT_MODEL) -> FacePipeline:
    """One pipeline per process (loading the models costs a fraction of a second)."""
    return FacePipeline(model)


@dataclass
class FoundFace:
    box: list[float]
    rotation: int
    quality: float
    embedding: bytes
    crop_jpeg: bytes


def upright_crop(image: Image.Image, box: Any, rotation: int) -> Image.Image:
    """A loose crop around the face, turned upright, small: what a reviewer is shown."""
    width, height = box.right - box.left, box.bottom - box.top
    mx, my = width * CROP_MARGIN, height * CROP_MARGIN
    crop = image.crop((int(max(0, box.left - mx)), int(max(0, box.top - my)),
                       int(min(image.width, box.right + mx)), int(min(image.height, box.bottom + my))))
    if rotation:  # the clockwise turn that makes it upright; between quarter turns, no black corners
        crop = turn_cw_any(crop, rotation)
    crop.thumbnail((CROP_MAX, CROP_MAX))
    return crop


def analyse_original(path: str, model: str = DEFAULT_MODEL) -> list[FoundFace]:
    """Worker-side: every face of one stored original (empty when none or unreadable)."""
    try:
        image = load_image(path)
    except ImageError:
        return []
    faces = []
    for face in pipeline(model).analyse(image):
        crop = upright_crop(image, face.box, face.rotation)
        buffer = io.BytesIO()
        crop.convert("RGB").save(buffer, "JPEG", quality=85)
        box = [float(face.box.left), float(face.box.top), float(face.box.right), float(face.box.bottom)]
        faces.append(FoundFace(box, int(face.rotation), float(face.quality),
                               np.asarray(face.embedding, dtype=np.float32).tobytes(), buffer.getvalue()))
    return faces


def model_identity(model: str = DEFAULT_MODEL) -> tuple[str, str, int]:
    pipe = pipeline(model)
    return pipe.model_name, pipe.model_version, int(pipe.model.dim)


def index_dir(model_name: str) -> Path:
    return Path(settings.INDEX_ROOT) / f"faces-{model_name}"


def stale_photo_ids(model: str = DEFAULT_MODEL) -> list[int]:
    """Photos whose faces were embedded by another version of the model's pipeline (the
    version is recorded with every face row): their vectors must not be mixed with new ones."""
    name, version, _ = model_identity(model)
    stale = Face.objects.filter(model_name=name).exclude(model_version=version)
    return sorted(set(stale.values_list("photo_id", flat=True)))


def stale_face_count(model: str = DEFAULT_MODEL) -> int:
    name, version, _ = model_identity(model)
    return Face.objects.filter(model_name=name).exclude(model_version=version).count()


def reset_stale_photos(model: str = DEFAULT_MODEL) -> int:
    """Drop the out-of-date face rows and crops of stale photos and mark them unindexed, so the
    next ``athar faces index`` (or ingest) embeds them again with the current pipeline."""
    ids = stale_photo_ids(model)
    if not ids:
        return 0
    name = model_identity(model)[0]
    with transaction.atomic():
        Face.objects.filter(photo_id__in=ids, model_name=name).delete()
        Derivative.objects.filter(photo_id__in=ids, kind__in=["face", "face_blur"]).delete()
        Photo.objects.filter(pk__in=ids).update(faces_indexed=False)
    return len(ids)


def pending_photos(photo_ids: Iterable[int] | None = None, model: str = DEFAULT_MODEL,
                   redo: bool = False) -> list[tuple[int, str]]:
    """Photos still to (re-)embed: never indexed, or indexed by an older pipeline version;
    with ``redo``, every viewable photo."""
    query = Photo.objects.filter(viewable=True, faces_indexed=False)
    if redo:
        query = Photo.objects.filter(viewable=True)
    elif stale := stale_photo_ids(model):
        query = Photo.objects.filter(viewable=True).filter(Q(faces_indexed=False) | Q(pk__in=stale))
    if photo_ids is not None:
        query = query.filter(pk__in=list(photo_ids))
    return list(query.order_by("pk").values_list("pk", "sha256"))


def index_photos(photo_ids: Iterable[int] | None = None, progress: Callable[[int], None] | None = None,
                 workers: int = 0, model: str = DEFAULT_MODEL, redo: bool = False) -> dict[str, Any]:
    """Find and embed faces of photos not yet indexed (resumable: done photos are skipped).

    Photos embedded by an older version of the pipeline are embedded again first.

    ``redo`` embeds every photo again, for a change to what the pipeline keeps as a face or at
    which turn (the feature-norm floor, the turn's second opinion, faces at any angle) that left
    the vectors comparable and so the version unchanged: each photo's old faces are replaced by its new ones in one transaction, so
    a search never misses a photo and an interrupted run leaves every photo with a full set."""
    restaled = reset_stale_photos(model)
    todo = pending_photos(photo_ids, model, redo)
    store = MediaStore(settings.MEDIA_ROOT)
    name, version, _ = model_identity(model)
    index = load_index(model)
    counts = {"photos": 0, "faces": 0, "photos_without_face": 0, "photos_re_embedded_for_new_version": restaled}
    if redo:
        counts["faces_replaced"] = 0
    for number, batch in enumerate(batches(_analyse_all(todo, store, workers, model), BATCH), start=1):
        new_ids, new_vectors, old_ids = _write_faces(batch, store, name, version, counts, redo)
        if old_ids:
            index.remove(np.array(old_ids, dtype=np.int64))
        if new_ids:
            index.add(np.array(new_ids, dtype=np.int64), np.vstack(new_vectors))
        if number % SAVE_EVERY_BATCHES == 0:
            index.save(index_dir(name))
        if progress:
            progress(len(batch))
    index.save(index_dir(name))
    if counts["faces"] or counts.get("faces_replaced"):  # the worker ranks again (identification listens)
        faces_indexed.send(sender=Photo, faces=counts["faces"])
    return {**counts, "model": name, "model_version": version, "index_size": len(index)}


def _analyse_all(todo: list[tuple[int, str]], store: MediaStore, workers: int,
                 model: str) -> Iterator[tuple[int, list[FoundFace]]]:
    paths = [str(store.original_path(sha)) for _, sha in todo]
    workers = workers or min(2, os.cpu_count() or 1)
    if workers <= 1 or len(todo) < 4:
        for (pk, _), path in zip(todo, paths):
            yield pk, analyse_original(path, model)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for (pk, _), faces in zip(todo, pool.map(analyse_original, paths, [model] * len(paths), chunksize=4)):
            yield pk, faces


def _write_faces(batch: list[tuple[int, list[FoundFace]]], store: MediaStore, name: str, version: str,
                 counts: dict[str, int], redo: bool = False) -> tuple[list[int], list[np.ndarray], list[int]]:
    """Store the faces of a batch of photos; with ``redo``, in place of the faces they had.
    Returns the new face ids, their vectors and the ids of the replaced faces."""
    ids: list[int] = []
    vectors: list[np.ndarray] = []
    replaced: list[int] = []
    with transaction.atomic():
        for photo_id, faces in batch:
            photo = Photo.objects.select_for_update().get(pk=photo_id)
            if redo:
                dropped = _drop_faces(photo, name)
                replaced += dropped
                counts["faces_replaced"] += len(dropped)
            elif photo.faces_indexed:  # another indexer got here first
                continue
            for i, found in enumerate(faces):
                face = Face.objects.create(photo=photo, case_id=photo.case_id, index=i, box=found.box,
                                           rotation=found.rotation, quality=found.quality,
                                           embedding=found.embedding, model_name=name, model_version=version)
                _save_crops(photo, i, found.crop_jpeg, store)
                ids.append(face.pk)
                vectors.append(np.frombuffer(found.embedding, dtype=np.float32))
            photo.faces_indexed = True
            photo.save(update_fields=["faces_indexed"])
            counts["photos"] += 1
            counts["faces"] += len(faces)
            counts["photos_without_face"] += int(not faces)
    return ids, vectors, replaced


def _drop_faces(photo: Photo, model_name: str) -> list[int]:
    """Delete a photo's face rows of a model and its face crops (inside the caller's transaction)."""
    old = Face.objects.filter(photo=photo, model_name=model_name)
    old_ids = list(old.values_list("pk", flat=True))
    old.delete()
    Derivative.objects.filter(photo=photo, kind__in=["face", "face_blur"]).delete()
    return old_ids


def _save_crops(photo: Photo, index: int, jpeg: bytes, store: MediaStore) -> None:
    crop = Image.open(io.BytesIO(jpeg)).convert("RGB")
    for kind, image in (("face", crop), ("face_blur", blur(crop, crop.size))):
        file = save_derivative(image, photo.sha256, kind, store, index + 1)
        Derivative.objects.update_or_create(photo=photo, kind=kind, face_index=index, defaults={
            "path": file.relpath, "sha256": file.sha256, "width": file.width, "height": file.height})


def face_rows(model_name: str, model_version: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(face ids, case ids (-1 for none), vectors) of every stored face of a model (of one
    pipeline version when given: vectors of two versions are not comparable)."""
    query = Face.objects.filter(model_name=model_name)
    if model_version is not None:
        query = query.filter(model_version=model_version)
    rows = list(query.order_by("pk").values_list("pk", "case_id", "embedding"))
    if not rows:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 0), np.float32)
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    cases = np.array([r[1] if r[1] is not None else -1 for r in rows], dtype=np.int64)
    vectors = np.vstack([np.frombuffer(bytes(r[2]), dtype=np.float32) for r in rows])
    return ids, cases, vectors


def load_index(model: str = DEFAULT_MODEL) -> FaceIndex:
    """The persisted index, or one rebuilt from the face rows when missing or out of step."""
    name, version, dim = model_identity(model)
    folder = index_dir(name)
    expected = Face.objects.filter(model_name=name, model_version=version).count()
    try:
        index = FaceIndex.load(folder, name)
        if len(index) == expected and index.model_version == version:
            return index
    except (FileNotFoundError, ValueError, RuntimeError, KeyError, OSError):
        pass
    return rebuild_index(model)


def rebuild_index(model: str = DEFAULT_MODEL) -> FaceIndex:
    name, version, dim = model_identity(model)
    ids, _, vectors = face_rows(name, version)
    index = FaceIndex.for_size(name, version, vectors.shape[1] if len(ids) else dim, len(ids))
    if len(ids):
        index.add(ids, vectors)
    index.save(index_dir(name))
    return index


def check_index() -> list[str]:
    """For ``athar verify``: the index on disk must hold exactly the stored faces' vectors."""
    problems = []
    for name in Face.objects.values_list("model_name", flat=True).distinct():
        try:
            index = FaceIndex.load(index_dir(name), name)
        except (FileNotFoundError, ValueError, RuntimeError, KeyError, OSError) as exc:
            problems.append(f"face index {name} cannot be read ({exc}); run 'athar faces index --rebuild'")
            continue
        current_name, current_version, _ = model_identity()
        version = current_version if name == current_name else index.model_version
        stale = Face.objects.filter(model_name=name).exclude(model_version=version).count()
        if stale:
            problems.append(f"{stale} faces of model {name} were embedded by another pipeline version than the "
                            f"current one ({version}); run 'athar faces index' to embed them again")
        ids, _, vectors = face_rows(name, index.model_version)
        if len(index) != len(ids):
            problems.append(f"face index {name} holds {len(index)} faces, the database {len(ids)}")
            continue
        if len(ids):
            found, sims = index.search(vectors, 1)
            wrong = int((found[:, 0] != ids).sum() - ((found[:, 0] != ids) & (sims[:, 0] > 0.9999)).sum())
            if wrong:
                problems.append(f"face index {name}: {wrong} vectors differ from the stored embeddings")
    return problems
