"""Property-based tests of the ingest's file reader: no input crashes it, nothing is half-written.

Whatever the bytes (random, truncated JPEG/PNG, decompression bombs), ``process_file`` keeps the
original byte for byte, returns a problem instead of raising, and writes either every viewing
derivative (each a complete JPEG without EXIF) or none.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from athar.archive.imaging import process_file
from athar.archive.storage import MediaStore
from tests.security.helpers import jpeg_with_gps

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
LIMIT = 4_000_000
KINDS = {"view", "thumb", "blur", "blur_thumb"}


def _png(size: int = 64) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), (10, 200, 30)).save(buffer, "PNG")
    return buffer.getvalue()


JPEG, PNG = jpeg_with_gps(160), _png()


def _check(data: bytes, tmp: Path) -> None:
    source = tmp / "in.bin"
    source.write_bytes(data)
    media = tmp / "media"
    result = process_file(str(source), "f/c/in.bin", str(media), LIMIT)
    assert result.kept and result.sha256 == hashlib.sha256(data).hexdigest()
    assert MediaStore(media).original_path(result.sha256).read_bytes() == data
    kinds = {d.kind for d in result.derivatives}
    assert kinds in (set(), KINDS), kinds
    assert bool(result.problem) == (not kinds)
    for item in result.derivatives:
        written = (media / item.relpath).read_bytes()
        assert hashlib.sha256(written).hexdigest() == item.sha256
        image = Image.open(io.BytesIO(written))
        image.load()
        assert image.format == "JPEG" and not image.getexif()
    assert not list(media.rglob(".tmp-*")), "a temporary file was left behind"


@FUZZ
@given(data=st.binary(max_size=4096))
def test_random_bytes_never_crash(tmp_path_factory, data):
    _check(data, tmp_path_factory.mktemp("fuzz"))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(JPEG)))
def test_truncated_jpegs_are_kept_and_reported(tmp_path_factory, cut):
    _check(JPEG[:cut], tmp_path_factory.mktemp("jpeg"))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(PNG)))
def test_truncated_pngs_are_kept_and_reported(tmp_path_factory, cut):
    _check(PNG[:cut], tmp_path_factory.mktemp("png"))


@FUZZ
@given(position=st.integers(min_value=0, max_value=len(JPEG) - 1), value=st.integers(0, 255))
def test_corrupted_jpeg_bytes_never_crash(tmp_path_factory, position, value):
    data = bytearray(JPEG)
    data[position] = value
    _check(bytes(data), tmp_path_factory.mktemp("flip"))


def _png_header_bomb(width: int, height: int) -> bytes:
    """A tiny PNG that claims a huge size (and holds a highly compressed first rows)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * min(width + 1, 1 << 20) * 16, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


@pytest.mark.parametrize("width,height", [(30_000, 30_000), (100_000, 2_000), (2**31 - 1, 2**31 - 1)])
def test_decompression_bombs_are_refused_not_decoded(tmp_path, width, height):
    data = _png_header_bomb(width, height)
    result = process_file(str(_write(tmp_path, data)), "f/c/bomb.png", str(tmp_path / "media"), LIMIT)
    assert result.kept and not result.derivatives
    assert "possible decompression bomb" in result.problem  # refused for its size, not for failing to decode


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "in.bin"
    path.write_bytes(data)
    return path


def test_gps_and_camera_never_reach_a_derivative(tmp_path):
    result = process_file(str(_write(tmp_path, JPEG)), "f/c/gps.jpg", str(tmp_path / "media"), LIMIT)
    assert any(key.startswith("GPS") for key in result.exif)  # kept as evidence metadata
    for item in result.derivatives:
        data = (tmp_path / "media" / item.relpath).read_bytes()
        assert b"SecretCam" not in data and not Image.open(io.BytesIO(data)).getexif()
