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


def test_decode_image_refuses_it_with_an_image_problem():
    from athar.archive.imaging import ImageProblem, decode_image

    with pytest.raises(ImageProblem, match="corrupt or truncated"):
        decode_image(_heic_with_wrong_size(), 120_000_000)


def test_load_image_refuses_it_with_an_image_error():
    from athar.matching.faces.images import ImageError, load_image

    with pytest.raises(ImageError) as refused:
        load_image(_heic_with_wrong_size())
    assert "damaged or truncated" in refused.value.reason


def test_ingest_keeps_it_as_evidence_and_reports_it(tmp_path):
    from athar.archive.imaging import process_file

    path = tmp_path / "IMG_0001.heic"
    path.write_bytes(_heic_with_wrong_size())
    result = process_file(str(path), "IMG_0001.heic", str(tmp_path / "media"), 120_000_000)
    assert result.kept and result.sha256
    assert "not viewable" in result.problem and not result.derivatives
