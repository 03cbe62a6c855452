"""The viewing copy of an upright JPEG keeps its compressed picture and loses everything else."""

import io

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from athar.archive.jpeg_strip import jpeg_without_metadata


def _picture(size: tuple[int, int] = (96, 64), seed: int = 3) -> Image.Image:
    rng = np.random.default_rng(seed)
    return Image.fromarray(rng.integers(0, 255, (size[1], size[0], 3), dtype=np.uint8), "RGB")


def _jpeg(image: Image.Image, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, **options)
    return out.getvalue()


def _with_everything(image: Image.Image, **options: object) -> bytes:
    """EXIF with GPS, a comment, an ICC profile, XMP, and bytes after the end of the image."""
    exif = Image.Exif()
    exif[0x010F] = "CameraMaker"
    exif[0x8825] = {1: "N", 2: (33.0, 30.0, 0.0)}
    data = _jpeg(image, exif=exif, comment=b"secret comment", icc_profile=b"ICCPROFILEBYTES" * 8,
                 xmp=b"<x:xmpmeta>where</x:xmpmeta>", **options)
    return data + b"TRAILING-DATA-AFTER-EOI"


def _pixels(data: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


@pytest.mark.parametrize("options", [{}, {"progressive": True}, {"restart_marker_blocks": 2},
                                     {"subsampling": 0}, {"optimize": True}])
def test_the_picture_is_the_same_and_every_metadata_is_gone(options):
    image = _picture()
    data = _with_everything(image, **options)
    stripped = jpeg_without_metadata(data, image.size)
    assert stripped is not None
    assert np.array_equal(_pixels(stripped), _pixels(data))  # the same compressed picture
    for secret in (b"Exif", b"CameraMaker", b"secret comment", b"ICCPROFILE", b"xmpmeta", b"TRAILING"):
        assert secret not in stripped
    reopened = Image.open(io.BytesIO(stripped))
    assert not reopened.getexif() and "icc_profile" not in reopened.info and "comment" not in reopened.info
    assert stripped.endswith(b"\xff\xd9") and len(stripped) < len(data)


def test_a_jfif_thumbnail_segment_is_dropped():
    image = _picture()
    data = _jpeg(image)
    assert data[2:4] == b"\xff\xe0"  # Pillow writes a JFIF segment; a camera's may hold a thumbnail
    jfxx = b"JFXX\x00\x13" + b"THUMBNAILBYTES" * 4
    with_thumbnail = data[:2] + b"\xff\xe0" + (len(jfxx) + 2).to_bytes(2, "big") + jfxx + data[2:]
    stripped = jpeg_without_metadata(with_thumbnail, image.size)
    assert stripped is not None and b"THUMBNAIL" not in stripped and b"JFIF" not in stripped
    assert np.array_equal(_pixels(stripped), _pixels(data))


def test_what_is_not_copied_safely_is_left_to_a_new_encode():
    image = _picture()
    data = _jpeg(image)
    assert jpeg_without_metadata(data, (image.width + 1, image.height)) is None  # not what was decoded
    assert jpeg_without_metadata(data[: len(data) // 2], image.size) is None  # truncated
    assert jpeg_without_metadata(b"\x89PNG\r\n\x1a\n" + data, image.size) is None
    assert jpeg_without_metadata(b"", image.size) is None
    cmyk = io.BytesIO()
    image.convert("CMYK").save(cmyk, "JPEG")
    assert jpeg_without_metadata(cmyk.getvalue(), image.size) is None  # four components
    unknown = data[:2] + b"\xff\xf3\x00\x04ab" + data[2:]  # a JPG-extension marker: not known
    assert jpeg_without_metadata(unknown, image.size) is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6))
def test_damaged_bytes_never_leak_metadata(edits):
    """Whatever the damage, the result is None or a copy with no metadata segment and no tail."""
    image = _picture((48, 32))
    data = bytearray(_with_everything(image))
    for where, value in edits:
        data[where % len(data)] = value
    stripped = jpeg_without_metadata(bytes(data), image.size)
    if stripped is None:
        return
    for secret in (b"CameraMaker", b"secret comment", b"xmpmeta", b"TRAILING"):
        assert secret not in stripped
