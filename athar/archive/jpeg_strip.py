"""A JPEG's viewing copy without re-encoding it: the same compressed picture, its metadata removed.

A photo no larger than the viewing size and already upright needs no new pixels for its viewing
copy, only the removal of everything that is not the picture: EXIF (camera, time, GPS), XMP, ICC
profiles, comments, embedded thumbnails (a camera's thumbnail can show what a crop removed) and
any bytes after the end of the image. Copying the compressed data as it is saves a full-size JPEG
encode per photo (about a fifth of the ingest's time at 1,600 px) and adds no second generation
of compression loss to what people look at.

Only a strict, known structure is copied: the start marker; quantisation and Huffman tables,
restart interval, frame header (baseline, extended or progressive Huffman JPEG, 1 or 3
components); Adobe's colour-transform segment; the scans with their entropy-coded data; the end
marker. Every application segment other than Adobe's, every comment, and everything after the end
marker is dropped. Anything else (arithmetic coding, lossless or hierarchical JPEG, an unknown
marker, a truncated segment, a frame that is not the decoded picture's size) returns ``None``
and the caller re-encodes the decoded pixels as before.
"""

from __future__ import annotations

SOI, EOI, SOS, DHT, DQT, DRI, APP14 = 0xD8, 0xD9, 0xDA, 0xC4, 0xDB, 0xDD, 0xEE
FRAMES = {0xC0, 0xC1, 0xC2}  # baseline, extended sequential, progressive (Huffman)
DROPPED = set(range(0xE0, 0xF0)) - {APP14} | {0xFE}  # APPn but Adobe's, and COM
KEPT_TABLES = {DHT, DQT, DRI}
RESTARTS = set(range(0xD0, 0xD8))


def jpeg_without_metadata(data: bytes, size: tuple[int, int]) -> bytes | None:
    """The JPEG ``data`` with only what draws the picture, or ``None`` when its structure is not
    one this module copies safely. ``size`` is the decoded picture's (width, height): a frame
    header that disagrees means the bytes are not what was decoded."""
    if data[:2] != b"\xff\xd8":
        return None
    out = bytearray(b"\xff\xd8")
    pos, frame_seen, n = 2, False, len(data)
    while pos < n:
        marker, pos = _next_marker(data, pos)
        if marker is None:
            return None
        if marker == EOI:
            return bytes(out) + b"\xff\xd9" if frame_seen else None
        segment = _segment(data, pos)
        if segment is None:
            return None
        body, end = segment
        if marker in DROPPED:
            pass
        elif marker == APP14:
            if not body.startswith(b"Adobe") or len(body) != 12:
                return None
            out += _emit(marker, body)
        elif marker in FRAMES:
            if frame_seen or not _frame_matches(body, size):
                return None
            frame_seen = True
            out += _emit(marker, body)
        elif marker in KEPT_TABLES:
            if not _table_is_well_formed(marker, body):
                return None
            out += _emit(marker, body)
        elif marker == SOS:
            if not frame_seen or len(body) < 6 or len(body) != 4 + 2 * body[0]:
                return None
            scan_end = _scan_end(data, end)
            if scan_end is None:
                return None
            out += _emit(marker, body) + data[end:scan_end]
            end = scan_end
        else:
            return None
        pos = end
    return None


def _next_marker(data: bytes, pos: int) -> tuple[int | None, int]:
    """The marker at ``pos`` (fill bytes 0xFF allowed before it) and the position after it."""
    if pos >= len(data) or data[pos] != 0xFF:
        return None, pos
    while pos < len(data) and data[pos] == 0xFF:
        pos += 1
    if pos >= len(data) or data[pos] in (0x00, SOI) or data[pos] in RESTARTS:
        return None, pos
    return data[pos], pos + 1


def _segment(data: bytes, pos: int) -> tuple[bytes, int] | None:
    """A segment's body (without its length field) and the position after it."""
    if pos + 2 > len(data):
        return None
    length = int.from_bytes(data[pos:pos + 2], "big")
    if length < 2 or pos + length > len(data):
        return None
    return data[pos + 2:pos + length], pos + length


def _scan_end(data: bytes, pos: int) -> int | None:
    """Where a scan's entropy-coded data ends: the first marker that is neither a stuffed 0xFF00
    nor a restart marker."""
    n = len(data)
    while True:
        pos = data.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= n:
            return None
        follower = data[pos + 1]
        if follower == 0x00 or follower in RESTARTS or follower == 0xFF:
            pos += 1 if follower == 0xFF else 2
            continue
        return pos


def _frame_matches(body: bytes, size: tuple[int, int]) -> bool:
    """A frame header of 8-bit samples, 1 or 3 components, the decoded picture's size."""
    if len(body) < 6:
        return False
    precision, height, width, components = body[0], int.from_bytes(body[1:3], "big"), int.from_bytes(body[3:5], "big"), body[5]
    return precision == 8 and components in (1, 3) and (width, height) == size and len(body) == 6 + 3 * components


def _table_is_well_formed(marker: int, body: bytes) -> bool:
    """A table segment's body is exactly tables of the standard's layout (so no other bytes ride
    along in a segment that is copied)."""
    if marker == DRI:
        return len(body) == 2
    pos = 0
    while pos < len(body):
        if marker == DQT:
            pos += 1 + (128 if body[pos] >> 4 else 64)
        else:  # DHT: class and id, 16 counts of codes by length, then the codes' values
            if pos + 17 > len(body):
                return False
            pos += 17 + sum(body[pos + 1:pos + 17])
    return pos == len(body) and len(body) > 0


def _emit(marker: int, body: bytes) -> bytes:
    return bytes((0xFF, marker)) + (len(body) + 2).to_bytes(2, "big") + body
