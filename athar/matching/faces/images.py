"""Loading photos safely: one entry point for family uploads and archive files.

Families send phone photos (JPEG, PNG, HEIC, often with an EXIF orientation tag);
archives hold old JPEGs, some damaged. Every loader path ends in a decoded RGB image
or a clear :class:`ImageError`, never in a half-decoded picture or a crash later on.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import ExifTags, Image, UnidentifiedImageError

# Pillow warns at MAX_IMAGE_PIXELS and raises at twice that. We set it deliberately:
# 100 megapixels is above any phone camera or archive scan we expect (a 12 MP photo is
# 12e6), and far below what it takes to exhaust memory on a small server.
MAX_PIXELS = 100_000_000
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

_heif_registered = False

ImageSource = str | os.PathLike[str] | bytes | bytearray


class ImageError(ValueError):
    """The file is not a usable image; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _register_heif() -> None:
    """Teach Pillow HEIC/HEIF (iPhone photos) once, lazily, so import stays cheap."""
    global _heif_registered
    if not _heif_registered:
        from pillow_heif import register_heif_opener

        register_heif_opener()
        _heif_registered = True


def _open(source: ImageSource) -> Image.Image:
    if isinstance(source, (bytes, bytearray)):
        if not source:
            raise ImageError("the file is empty")
        return Image.open(io.BytesIO(bytes(source)))
    path = Path(source)
    if not path.is_file():
        raise ImageError(f"no such file: {path}")
    return Image.open(path)


_TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
              5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
              8: Image.Transpose.ROTATE_90}


def _upright(img: Image.Image) -> Image.Image:
    """Turned as the EXIF orientation tag says; unreadable EXIF means no turn. (Pillow's
    ``ImageOps.exif_transpose`` also rewrites all the EXIF and raises TypeError on a malformed
    value: found by fuzz/fuzz_images.py. The archive's loader has the same rule.)"""
    try:
        orientation = int(img.getexif().get(ExifTags.Base.Orientation, 1))
    except Exception:  # noqa: BLE001 - a malformed EXIF block must not refuse the photo
        return img
    method = _TRANSPOSE.get(orientation)
    return img.transpose(method) if method is not None else img


def load_image(source: ImageSource) -> Image.Image:
    """Decode a photo into an upright RGB image.

    EXIF orientation is applied (phones store pictures sideways and set a tag), the
    whole image is decoded now (``load()``; ``verify()`` misses truncated JPEGs) and
    a pixel limit stops decompression bombs.
    """
    _register_heif()
    try:
        with _open(source) as img:
            if img.width * img.height > MAX_PIXELS:
                raise ImageError(f"image too large ({img.width}×{img.height} pixels)")
            img.load()
            rgb = _upright(img).convert("RGB")
            rgb.load()
            return rgb
    except ImageError:
        raise
    except Image.DecompressionBombError as exc:
        raise ImageError(f"image too large (possible decompression bomb): {exc}") from exc
    except UnidentifiedImageError as exc:
        raise ImageError("not an image file, or a format athar cannot read") from exc
    except (OSError, SyntaxError, ValueError, EOFError, RuntimeError) as exc:
        # RuntimeError: pillow-heif's libheif errors (a HEIC whose stored size is not the size
        # it decodes to); EOFError: some truncated files. Found by fuzz/fuzz_images.py.
        raise ImageError(f"the image is damaged or truncated: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - Pillow's format plugins raise other types on malformed
        # files (a TIFF whose strip offsets are fractions: TypeError; found by fuzz/fuzz_images.py)
        raise ImageError(f"the image is damaged and cannot be read ({type(exc).__name__}: {exc})") from exc
