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

from tests.robustness.refusals import assert_refused_everywhere

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
    with Image.open(io.BytesIO(_tiff_with_fractional_strip_offsets())) as image, pytest.raises(TypeError):
        image.load()


def test_every_loader_refuses_it_and_ingest_keeps_it_as_evidence(tmp_path):
    assert_refused_everywhere(_tiff_with_fractional_strip_offsets(), "scan.tif", tmp_path, problem="TypeError", reason="damaged")
