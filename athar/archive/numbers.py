"""Numbers written in archive photos, read for people to confirm (issue 29).

The recogniser is plain Python in ``athar.matching.numbers``; this module is the archive's side:
which files to read, how a photo that cannot be decoded is reported, and the result's shape.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from PIL import Image, UnidentifiedImageError

from athar.archive.models import Archive, NumberReading, Photo, PhotoNumbersRead
from athar.archive.storage import MediaStore
from athar.audit.chain import record
from athar.core.errors import UserError

if TYPE_CHECKING:
    from athar.matching.numbers.reader import NumberReader

logger = logging.getLogger(__name__)
LOG_EVERY = 100


@cache
def reader() -> NumberReader:
    """One reader per process (its weights are loaded once)."""
    # Here, not at the top: the reader loads SciPy, which the ingest needs only when it reads numbers.
    from athar.matching.numbers.reader import NumberReader

    return NumberReader()


def read_images(paths: list[str]) -> dict[str, Any]:
    """``{"images": [{"path", "numbers": [...]}]}`` for the given photo files, in the given order.

    Only readings at or above the reader's threshold are returned: what athar would suggest to a
    person. A missing path is the user's mistake (nothing is read); a file that is not a readable
    image is reported on its own entry with ``"error"`` and the others are still read.
    """
    missing = [p for p in paths if not Path(p).is_file()]
    if missing:
        raise UserError(f"not a file: {', '.join(missing)}")
    images: list[dict[str, Any]] = []
    for path in paths:
        try:
            with Image.open(path) as image:
                image.load()
                numbers = [r.as_dict() for r in reader().read(image)]
        except (UnidentifiedImageError, OSError) as error:
            images.append({"path": path, "numbers": [], "error": f"not a readable image ({type(error).__name__})"})
            continue
        images.append({"path": path, "numbers": numbers})
    return {"images": images, "threshold": round(reader().threshold, 3)}


@cache
def reader_version() -> str:
    """The reader's identity: its weights' hash, its calibrator's and its threshold. A photo is read
    once per version, so new weights or a new calibrator read the archive again without losing the
    decisions taken on the old readings."""
    from athar.matching.numbers.calibration import CALIBRATOR_PATH
    from athar.matching.numbers.reader import MODEL_PATH

    digest = hashlib.sha256(MODEL_PATH.read_bytes()).hexdigest()[:16]
    calibrated = f"-cal{hashlib.sha256(CALIBRATOR_PATH.read_bytes()).hexdigest()[:12]}" if reader().calibration else ""
    return f"digits-{digest}{calibrated}-t{reader().threshold:.3f}"


def _kind(kind: str | None) -> str:
    return kind if kind in NumberReading.Kind.values else ""


def photos_to_read(archives: list[Archive] | None = None) -> list[tuple[int, str]]:
    """Viewable photos this reader version has not read yet, oldest first (ids, sha256)."""
    query = Photo.objects.filter(viewable=True).exclude(numbers_read__reader_version=reader_version())
    if archives is not None:
        query = query.filter(archive__in=archives)
    return list(query.order_by("pk").values_list("pk", "sha256"))


def index_archive_numbers(archive_name: str | None = None, progress: Callable[[int], None] | None = None,
                          on_total: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Read every photo not yet read by this reader version and store what it would suggest.

    Each photo is read and stored in its own transaction together with the mark that it was read
    (``PhotoNumbersRead``), so a run killed at any point continues where it stopped and never
    stores a photo's readings twice. One audit event for the run: counts and the version only."""
    archives = None
    if archive_name:
        archive = Archive.objects.filter(name=archive_name).first()
        if archive is None:
            raise UserError(f"no archive named {archive_name!r}")
        archives = [archive]
    store = MediaStore(settings.MEDIA_ROOT)
    version = reader_version()
    counts = {"photos_read": 0, "numbers": 0, "unreadable": 0}
    todo = photos_to_read(archives)
    if on_total:
        on_total(len(todo))
    for photo_id, sha in todo:
        found = _read_original(store.original_path(sha))
        stored = _store_readings(photo_id, found, version)
        if stored is not None:
            counts["photos_read"] += 1
            counts["numbers"] += stored
            counts["unreadable"] += found is None
        if progress:
            progress(1)
        done = counts["photos_read"]
        if done and done % LOG_EVERY == 0:
            logger.info("numbers: %d of %d photos read, %d numbers suggested", done, len(todo), counts["numbers"])
    record("numbers.indexed", object_type="archive", object_id=archives[0].pk if archives else "",
           data={**counts, "reader_version": version})
    return {**counts, "reader_version": version, "archive": archive_name or None,
            "pending": len(photos_to_read(archives))}


def read_numbers_after_ingest(archive: Archive, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Ingest's last step (unless ``--no-numbers``): read the numbers of the archive's photos this
    reader version has not read yet — the new ones, and any an interrupted run left — exactly as
    ``athar numbers index --archive`` does (each photo with its read-mark in one transaction, so a
    re-run never reads a photo twice). Returns the counts for the ingest's summary."""
    found = index_archive_numbers(archive.name, progress=progress)
    return {key: found[key] for key in ("photos_read", "numbers", "unreadable", "reader_version")}


def _read_original(path: Path) -> list[dict[str, Any]] | None:
    """The suggestions for one stored original; ``None`` when it cannot be decoded."""
    try:
        with Image.open(path) as image:
            image.load()
            return [r.as_dict() for r in reader().read(image)]
    except (UnidentifiedImageError, OSError):
        return None


def _store_readings(photo_id: int, found: list[dict[str, Any]] | None, version: str) -> int | None:
    """Store one photo's readings and its read-mark at once; ``None`` if another run did it first."""
    try:
        with transaction.atomic():
            PhotoNumbersRead.objects.create(photo_id=photo_id, reader_version=version, readable=found is not None)
            for number in found or []:
                x0, y0, x1, y1 = (int(v) for v in number["box"])
                NumberReading.objects.create(photo_id=photo_id, text=number["text"],
                                             confidence=float(number["confidence"]), x0=x0, y0=y0, x1=x1, y1=y1,
                                             kind=_kind(number.get("kind")), reader_version=version)
    except IntegrityError:
        return None
    return len(found or [])
