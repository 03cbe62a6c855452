from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from athar.matching.faces import images
from athar.matching.faces.images import ImageError, load_image


def _jpeg_bytes(img: Image.Image, **kw: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "JPEG", **kw)
    return buf.getvalue()


def _gradient(w: int = 60, h: int = 40) -> Image.Image:
    a = np.zeros((h, w, 3), np.uint8)
    a[..., 0] = np.linspace(0, 255, w)[None, :]
    return Image.fromarray(a)


def test_png_path_gives_rgb(tmp_path: Path) -> None:
    p = tmp_path / "x.png"
    _gradient().convert("L").save(p)
    img = load_image(p)
    assert img.mode == "RGB" and img.size == (60, 40)


def test_exif_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90° clockwise to display"
    img = load_image(_jpeg_bytes(_gradient(), exif=exif.tobytes()))
    assert img.size == (40, 60)


def test_heic_input() -> None:
    from pillow_heif import from_pillow

    buf = io.BytesIO()
    from_pillow(_gradient()).save(buf, quality=90)
    img = load_image(buf.getvalue())
    assert img.mode == "RGB" and img.size == (60, 40)


@pytest.mark.parametrize("data", [b"", b"not an image at all", b"\x89PNG\r\n\x1a\n garbage"])
def test_non_images_raise(data: bytes) -> None:
    with pytest.raises(ImageError):
        load_image(data)


def test_truncated_jpeg_raises() -> None:
    data = _jpeg_bytes(_gradient(300, 300), quality=95)
    with pytest.raises(ImageError, match="damaged or truncated"):
        load_image(data[: len(data) // 2])


def test_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")


def test_pixel_bomb_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "MAX_PIXELS", 100)
    with pytest.raises(ImageError, match="too large"):
        load_image(_jpeg_bytes(_gradient()))
