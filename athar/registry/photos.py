"""Photos of the person alive: kept in the media store by content (never rewritten), with a
viewing copy and a thumbnail without metadata."""

from __future__ import annotations

import hashlib
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
    save_derivative,
    upright,
)
from athar.archive.storage import MediaStore
from athar.core import counters
from athar.core.errors import UserError
from athar.registry.models import Report, ReportPhoto

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
    truncated file) before anything is written; then the original by sha256, the view and
    thumbnail copies, and the row. A failure after writing removes what this call wrote, so a
    refused or failed photo never stays in the store. ImageProblem when refused."""
    image = upright(decode_image(data, settings.ATHAR_MAX_IMAGE_PIXELS)).convert("RGB")
    store = MediaStore(settings.MEDIA_ROOT)
    sha256 = hashlib.sha256(data).hexdigest()
    written: list[Path] = []
    try:
        if store.store_original(data, sha256):
            written.append(store.original_path(sha256))
        view = _fit(image, VIEW_MAX)
        derivatives = {}
        for kind, img in (("view", view), ("thumb", _fit(view, THUMB_MAX))):
            relpath = store.derivative_relpath(sha256, kind)
            if not store.path(relpath).exists():
                written.append(store.path(relpath))
            derivatives[kind] = save_derivative(img, sha256, kind, store).relpath
        with transaction.atomic():
            return ReportPhoto.objects.create(report=report, sha256=sha256, original_name=path.name[:512],
                                              size=len(data), derivatives=derivatives)
    except BaseException:
        _remove(written)
        raise


def _remove(paths: list[Path]) -> None:
    for path in paths:
        if path.exists():
            path.chmod(0o600)
            path.unlink()


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
    files = counters.incr(f"upload-files:{uploader.pk}:{day}", QUOTA_TTL)
    total = counters.incr(f"upload-bytes:{uploader.pk}:{day}", QUOTA_TTL, max(size, 0))
    if files > settings.ATHAR_UPLOAD_DAILY_FILES or total > settings.ATHAR_UPLOAD_DAILY_MB * 1024 * 1024:
        raise UploadRefused("daily upload limit reached", code="daily_limit")


def remove_photo_files(photo: ReportPhoto) -> int:
    """Delete a photo's original and derivatives unless another report keeps the same bytes."""
    if ReportPhoto.objects.filter(sha256=photo.sha256).exclude(pk=photo.pk).exists():
        return 0
    store = MediaStore(settings.MEDIA_ROOT)
    removed = 0
    for path in [store.original_path(photo.sha256), *(store.path(p) for p in photo.derivatives.values())]:
        if path.exists():
            path.chmod(0o600)
            path.unlink()
            removed += 1
    return removed


def media_paths(store: MediaStore) -> Iterator[str]:
    """Every media-store path a report photo keeps (for ``athar verify``'s orphan report)."""
    for sha, derivatives in ReportPhoto.objects.values_list("sha256", "derivatives").iterator():
        yield store.original_relpath(sha)
        yield from (derivatives or {}).values()


def view_size(photo: ReportPhoto) -> tuple[int, int] | None:
    """Width and height of a report photo's viewing copy (reads the header only); None when it
    is missing or unreadable. The web's face boxes are in these pixels."""
    from PIL import Image

    relpath = (photo.derivatives or {}).get("view")
    if not relpath:
        return None
    try:
        with Image.open(MediaStore(settings.MEDIA_ROOT).path(relpath)) as img:
            return (int(img.width), int(img.height))
    except OSError:
        return None
