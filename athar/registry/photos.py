"""Photos of the person alive: kept in the media store by content (never rewritten), with a
viewing copy and a thumbnail without metadata."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from athar.archive.imaging import THUMB_MAX, VIEW_MAX, ImageProblem, _fit, decode_image, save_derivative, upright
from athar.archive.storage import MediaStore
from athar.registry.models import Report, ReportPhoto

MAX_PHOTO_BYTES = 40 * 1024 * 1024


def check_photo(path: Path) -> bytes:
    """The bytes of a photo file, refused with a reason when missing, too large or not an image."""
    if not path.is_file():
        raise ValueError(f"photo {path.name!r} not found next to the file")
    if path.stat().st_size > MAX_PHOTO_BYTES:
        raise ValueError(f"photo {path.name!r} is larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB")
    data = path.read_bytes()
    try:
        decode_image(data, settings.ATHAR_MAX_IMAGE_PIXELS)
    except ImageProblem as exc:
        raise ValueError(f"photo {path.name!r}: {exc}") from exc
    return data


def store_photo(report: Report, path: Path, data: bytes) -> ReportPhoto:
    """Keep the original by sha256 and make the view and thumbnail copies."""
    store = MediaStore(settings.MEDIA_ROOT)
    sha256 = hashlib.sha256(data).hexdigest()
    store.store_original(data, sha256)
    image = upright(decode_image(data, settings.ATHAR_MAX_IMAGE_PIXELS)).convert("RGB")
    view = _fit(image, VIEW_MAX)
    derivatives = {kind: save_derivative(img, sha256, kind, store).relpath
                   for kind, img in (("view", view), ("thumb", _fit(view, THUMB_MAX)))}
    return ReportPhoto.objects.create(report=report, sha256=sha256, original_name=path.name[:512],
                                      size=len(data), derivatives=derivatives)


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
