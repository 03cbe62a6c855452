"""A TIFF whose StripOffsets tag is stored as RATIONAL (fractions) instead of LONG.

Found by ``fuzz/fuzz_images.py``: Pillow's ``load()`` raised ``TypeError: 'IFDRational' object
cannot be interpreted as an integer``, which neither loader caught (``athar ingest`` stopped
halfway). Pillow's plugins raise such types on malformed files, so both loaders now turn any
decoding error into their documented one; ingest keeps the bytes and reports the file.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

STRIP_OFFSETS, LONG, RATIONAL = 273, 4, 5


def _tiff_with_fractional_strip_offsets() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (24, 16), (200, 30, 30)).save(buffer, "TIFF")
    data = bytearray(buffer.getvalue())
    assert data[:2] == b"II"
    entry = STRIP_OFFSETS.to_bytes(2, "little") + LONG.to_bytes(2, "little")
    at = data.find(entry)
    assert at > 0, "StripOffsets entry not found"
    data[at + 2:at + 4] = RATIONAL.to_bytes(2, "little")
    return bytes(data)


def test_pillow_itself_raises_a_type_error():
    with Image.open(io.BytesIO(_tiff_with_fractional_strip_offsets())) as image:
        with pytest.raises(TypeError):
            image.load()


def test_decode_image_refuses_it_with_an_image_problem():
    from athar.archive.imaging import ImageProblem, decode_image

    with pytest.raises(ImageProblem, match="TypeError"):
        decode_image(_tiff_with_fractional_strip_offsets(), 120_000_000)


def test_load_image_refuses_it_with_an_image_error():
    from athar.matching.faces.images import ImageError, load_image

    with pytest.raises(ImageError) as refused:
        load_image(_tiff_with_fractional_strip_offsets())
    assert "damaged" in refused.value.reason


def test_ingest_keeps_it_as_evidence_and_reports_it(tmp_path):
    from athar.archive.imaging import process_file

    path = tmp_path / "scan.tif"
    path.write_bytes(_tiff_with_fractional_strip_offsets())
    result = process_file(str(path), "scan.tif", str(tmp_path / "media"), 120_000_000)
    assert result.kept and "not viewable" in result.problem and not result.derivatives
