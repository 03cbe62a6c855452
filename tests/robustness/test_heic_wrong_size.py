"""A HEIC whose ``ispe`` box (the stored image size) disagrees with what its picture decodes to.

Found by ``fuzz/fuzz_images.py``: Pillow reported 32×32 (so the pixel limit let it through),
then libheif refused to decode 64×83,886,144 pixels with a ``RuntimeError`` — which neither
loader caught: ``athar ingest`` stopped halfway (the worker's exception reached the job) and a
family upload of such a file would have been a server error. Both now refuse the file with
their documented error; ingest keeps the bytes as evidence and reports the file.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.robustness.refusals import assert_refused_everywhere

pillow_heif = pytest.importorskip("pillow_heif")


def _heic_with_wrong_size() -> bytes:
    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.new("RGB", (32, 32), (200, 30, 30)).save(buffer, "HEIF", quality=50)
    data = bytearray(buffer.getvalue())
    box = data.find(b"ispe")
    assert box > 0, "pillow-heif wrote no ispe box"
    height = box + 4 + 4 + 4  # 'ispe', version and flags, width
    data[height:height + 4] = (83_886_144).to_bytes(4, "big")
    return bytes(data)


def test_every_loader_refuses_it_and_ingest_keeps_it_as_evidence(tmp_path):
    assert_refused_everywhere(_heic_with_wrong_size(), "IMG_0001.heic", tmp_path, problem="corrupt or truncated", reason="damaged or truncated")
