"""Photos of the person alive: kept in the family uploads store (``registry/uploads.py``: per
report lineage, sealed with its data key, apart from the archive's evidence), with a viewing copy
and a thumbnail without metadata."""

from __future__ import annotations

import hashlib
import io
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from athar.archive.imaging import (
    THUMB_MAX,
    VIEW_MAX,
    ImageProblem,
    _fit,
    decode_image,
    encode_jpeg,
    upright,
)
from athar.archive.verify import StoreReport
from athar.core import counters
from athar.core.errors import UserError
from athar.core.findings import Finding
from athar.registry.models import Report, ReportPhoto
from athar.registry.uploads import FamilyUploads

MAX_PHOTO_BYTES = 40 * 1024 * 1024
QUOTA_TTL = 2 * 24 * 60 * 60  # a day's counters outlive the day


def check_photo(path: Path) -> bytes:
    """The bytes of a photo file, refused with a reason when missing, too large or not an image."""
    if not path.is_file():
        raise UserError(f"photo {path.name!r} not found next to the file")
    if path.stat().st_size > MAX_PHOTO_BYTES:
        raise UserError(f"photo {path.name!r} is larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB")
    data = path.read_bytes()
    try:
        decode_image(data, settings.ATHAR_MAX_IMAGE_PIXELS)
    except ImageProblem as exc:
        raise UserError(f"photo {path.name!r}: {exc}") from exc
    return data


def store_photo(report: Report, path: Path, data: bytes) -> ReportPhoto:
    """Check first, then keep: the bytes must decode within the pixel limit (``load()`` catches a
    truncated file) before anything is written; then the original, the view and thumbnail copies
    (sealed, in the report lineage's folder of the family uploads store), and the row. A failure
    after writing removes what this call wrote, so a refused or failed photo never stays in the
    store. The archive's evidence store is never written nor read here. ImageProblem when refused."""
    image = upright(decode_image(data, settings.ATHAR_MAX_IMAGE_PIXELS)).convert("RGB")
    store, lineage = FamilyUploads(), report.lineage
    sha256 = hashlib.sha256(data).hexdigest()
    written: list[str] = []
    try:
        view = _fit(image, VIEW_MAX)
        files = {"original": (store.original_relpath(lineage, sha256), data)}
        files.update({kind: (store.derivative_relpath(lineage, sha256, kind), encode_jpeg(img))
                      for kind, img in (("view", view), ("thumb", _fit(view, THUMB_MAX)))})
        for relpath, content in files.values():
            if not store.exists(lineage, relpath):
                written.append(relpath)
                store.write(lineage, relpath, content)
        derivatives = {kind: files[kind][0] for kind in ("view", "thumb")}
        with transaction.atomic():
            return ReportPhoto.objects.create(report=report, sha256=sha256, original_name=path.name[:512],
                                              size=len(data), derivatives=derivatives)
    except BaseException:
        _remove(store, lineage, written)
        raise


def _remove(store: FamilyUploads, lineage: str, relpaths: list[str]) -> None:
    for relpath in relpaths:
        store.remove_file(lineage, relpath)


class UploadRefused(ValueError):
    """An upload athar does not keep, with a reason people can act on: ``code`` says which (its
    message in the reader's language: ``refusal_message``), the text the technical detail (English,
    for logs and the API's ``reason``)."""

    def __init__(self, detail: str, code: str = "unreadable") -> None:
        super().__init__(detail)
        self.code = code


REFUSAL_MESSAGES = {
    "too_large": gettext_lazy("%(name)s is larger than %(mb)s MB. Please choose a smaller photo."),
    "daily_limit": gettext_lazy("Today's upload limit is reached, so %(name)s was not added. Please try again "
                                "tomorrow, or ask your caseworker."),
    "unreadable": gettext_lazy("This file could not be read as a photo: %(name)s"),
}


def refusal_message(exc: Exception, name: str) -> str:
    """Why an upload was refused, in the reader's language (any other error reads as "not a photo")."""
    code = getattr(exc, "code", "unreadable")
    return str(REFUSAL_MESSAGES.get(code, REFUSAL_MESSAGES["unreadable"])) % {
        "name": name, "mb": MAX_PHOTO_BYTES // (1024 * 1024)}


def store_upload(report: Report, upload: Any, uploader: Any) -> ReportPhoto:
    """An uploaded photo: the uploader's daily quota, streamed to a private temporary file (size
    checked while streaming), decoded within the pixel limit, then stored by content. Nothing of a
    refused upload is kept. UploadRefused with the reason."""
    _charge_quota(uploader, int(getattr(upload, "size", 0) or 0))
    with tempfile.TemporaryFile(prefix="athar-upload-") as spool:
        size = 0
        for chunk in upload.chunks():
            size += len(chunk)
            if size > MAX_PHOTO_BYTES:
                raise UploadRefused(f"larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB", code="too_large")
            spool.write(chunk)
        spool.seek(0)
        data = spool.read()
    try:
        return store_photo(report, Path(getattr(upload, "name", "") or "photo"), data)
    except ImageProblem as exc:
        raise UploadRefused(str(exc)) from exc


def _charge_quota(uploader: Any, size: int) -> None:
    """Count the upload against a family account's daily quota (files and bytes, atomic counters);
    refused uploads count too, so the quota also bounds the work of checking them."""
    if getattr(uploader, "role", "") != "family":
        return
    day = timezone.now().strftime("%Y%m%d")
    files, total = counters.incr_many([(f"upload-files:{uploader.pk}:{day}", QUOTA_TTL, 1),
                                       (f"upload-bytes:{uploader.pk}:{day}", QUOTA_TTL, max(size, 0))])
    if files > settings.ATHAR_UPLOAD_DAILY_FILES or total > settings.ATHAR_UPLOAD_DAILY_MB * 1024 * 1024:
        raise UploadRefused("daily upload limit reached", code="daily_limit")


def remove_photo_files(photo: ReportPhoto, lineage: str) -> int:
    """Delete a photo's files from its report lineage's folder of the family uploads store, unless
    another version of the report still holds the same bytes. Only that folder: the archive's
    evidence (even of identical bytes) is in another store and out of reach."""
    if ReportPhoto.objects.filter(report__lineage=lineage, sha256=photo.sha256).exclude(pk=photo.pk).exists():
        return 0
    return FamilyUploads().remove_photo(lineage, photo.sha256)


def read_photo(photo: ReportPhoto, kind: str = "original", lineage: str | None = None) -> bytes:
    """The plain bytes of a family photo (``original``, ``view`` or ``thumb``). FileNotFoundError
    when missing, ``DecryptionError`` when unreadable (report erased, file altered)."""
    store = FamilyUploads()
    lineage = lineage or photo.report.lineage
    relpath = store.original_relpath(lineage, photo.sha256) if kind == "original" else (photo.derivatives or {}).get(kind)
    if not relpath:
        raise FileNotFoundError(f"report photo {photo.pk} has no {kind} copy")
    return store.read(lineage, relpath)


def upload_paths() -> Iterator[str]:
    """Every family-uploads path a report photo keeps (for ``athar verify``'s orphan report)."""
    store = FamilyUploads()
    for sha, lineage, derivatives in ReportPhoto.objects.values_list(
            "sha256", "report__lineage", "derivatives").iterator():
        yield store.original_relpath(lineage, sha)
        yield from (derivatives or {}).values()


# What checking the family uploads store can find (English in logs and --json; the reader's
# language on pages); each names its store, as the evidence store's findings do (archive/verify.py).
UPLOAD_MISSING = gettext_lazy("family uploads store: %(kind)s of report photo %(photo)s is missing (%(file)s)")
UPLOAD_UNREADABLE = gettext_lazy("family uploads store: %(kind)s of report photo %(photo)s cannot be opened with "
                                 "its report's data key: altered, moved, or its key is gone (%(file)s)")
UPLOAD_ALTERED = gettext_lazy("family uploads store: original of report photo %(photo)s was altered: sha256 "
                              "%(expected)s expected, %(found)s found")
UPLOAD_ORPHAN = gettext_lazy("family uploads store: %(path)s is there but no report photo points to it")


def verify_uploads() -> StoreReport:
    """``athar verify``'s check of the family uploads store: every report photo's original opens
    with its report's key and hashes to its sha256, its copies open; files no row names are listed."""
    store = FamilyUploads()
    report = StoreReport("family_uploads", str(store.root))
    known: set[str] = set()
    rows = ReportPhoto.objects.values_list("id", "sha256", "report__lineage", "derivatives").order_by("id")
    for pk, sha, lineage, derivatives in rows.iterator():
        files = {"original": store.original_relpath(lineage, sha), **(derivatives or {})}
        for kind, relpath in files.items():
            if relpath in known:  # the same file of another version of the report: checked once
                continue
            known.add(relpath)
            report.files += 1
            report.problems += _check_upload(store, lineage, relpath, kind, pk, sha)
    report.orphans = [path for path in store.files() if path not in known]
    report.warnings = [Finding(UPLOAD_ORPHAN, path=path) for path in report.orphans]
    return report


def _check_upload(store: FamilyUploads, lineage: str, relpath: str, kind: str, pk: int, sha: str) -> list[str]:
    name = Path(relpath).name
    try:
        data = store.read(lineage, relpath)
    except FileNotFoundError:
        return [Finding(UPLOAD_MISSING, kind=kind, photo=pk, file=name)]
    except ValueError:  # DecryptionError, or a path that is not this report's
        return [Finding(UPLOAD_UNREADABLE, kind=kind, photo=pk, file=name)]
    if kind == "original" and (found := hashlib.sha256(data).hexdigest()) != sha:
        return [Finding(UPLOAD_ALTERED, photo=pk, expected=sha, found=found)]
    return []


def view_size(photo: ReportPhoto) -> tuple[int, int] | None:
    """Width and height of a report photo's viewing copy (reads the header only); None when it
    is missing or unreadable. The web's face boxes are in these pixels."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(read_photo(photo, "view"))) as img:
            return (int(img.width), int(img.height))
    except (OSError, ValueError):  # missing, unreadable, or its key shredded (DecryptionError)
        return None
