"""A JPEG whose EXIF holds a GPS latitude stored with the wrong type (UNDEFINED bytes, not RATIONAL).

Found by ``fuzz/fuzz_images.py``: the picture decodes, but ``ImageOps.exif_transpose`` rewrites
the whole EXIF block and raised ``TypeError: bad operand type for abs(): 'bytes'`` — after
``decode_image`` had accepted the file, so ``athar ingest`` stopped halfway, and a family upload
(``load_image``) failed with an undocumented error. The orientation is now read on its own: the
photo is kept, turned upright, and its derivatives made.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageOps

RATIONAL, UNDEFINED = 5, 7


def _jpeg_with_malformed_gps() -> bytes:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turn 90°
    exif[0x8825] = {1: "N", 2: (33.0, 30.0, 0.0)}  # GPS IFD: latitude as three rationals
    raw = bytearray(exif.tobytes())
    little = raw[6:8] == b"II"
    entry = (2).to_bytes(2, "little" if little else "big") + RATIONAL.to_bytes(2, "little" if little else "big")
    at = raw.find(entry)
    assert at > 0, "GPSLatitude entry not found"
    raw[at + 2:at + 4] = UNDEFINED.to_bytes(2, "little" if little else "big")
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), (200, 30, 30)).save(buffer, "JPEG", exif=bytes(raw))
    return buffer.getvalue()


def test_pillow_exif_transpose_itself_raises_on_it():
    """The reason for athar's own ``upright``: if Pillow stops raising, this can be simplified."""
    with Image.open(io.BytesIO(_jpeg_with_malformed_gps())) as image:
        image.load()
        with pytest.raises(TypeError):
            ImageOps.exif_transpose(image)


def test_ingest_keeps_it_upright_with_all_derivatives(tmp_path):
    from athar.archive.imaging import process_file

    path = tmp_path / "0001.jpg"
    path.write_bytes(_jpeg_with_malformed_gps())
    result = process_file(str(path), "0001.jpg", str(tmp_path / "media"), 120_000_000)
    assert result.kept and not result.problem
    assert [d.kind for d in result.derivatives] == ["view", "thumb", "blur", "blur_thumb"]
    view = result.derivatives[0]
    assert (view.width, view.height) == (16, 24)  # turned by the orientation tag
    assert result.exif.get("GPSGPSLatitudeRef") == "N"  # the EXIF is still kept as metadata


def test_load_image_returns_it_upright():
    from athar.matching.faces.images import load_image

    image = load_image(_jpeg_with_malformed_gps())
    assert image.mode == "RGB" and image.size == (16, 24)


@pytest.mark.django_db
def test_a_family_photo_with_it_is_stored_upright(tmp_path, settings):
    """The registry's photos of the person alive go through the same ``upright`` (a bad EXIF block
    once made ``athar registry import`` refuse the whole file)."""
    from pathlib import Path

    from athar.registry.models import Report
    from athar.registry.photos import store_photo

    settings.MEDIA_ROOT = str(tmp_path / "media")
    report = Report.objects.create(source="t", report_id="E1", lineage="lineage-e1", content_hash="-",
                                   full_name_ar="اسم")
    photo = store_photo(report, Path("alive.jpg"), _jpeg_with_malformed_gps())
    assert photo.pk and photo.report == report
