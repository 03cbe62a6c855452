"""Reading the CSV files people actually send: UTF-8, UTF-8 with BOM, or Windows-1256 (Arabic
Excel), comma, semicolon or tab separated."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

ENCODINGS = ("utf-8-sig", "cp1256")
DELIMITERS = ",;\t"


class CsvError(ValueError):
    """The file as a whole cannot be read as a table."""


@dataclass(frozen=True)
class CsvRow:
    """One data row with its 1-based line number in the file (the header is row 1)."""

    number: int
    values: dict[str, str]
    extra: list[str]


def decode_bytes(data: bytes) -> tuple[str, str]:
    """The text and the encoding that decoded it; refuses bytes no supported encoding reads."""
    for encoding in ENCODINGS:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise CsvError("the file is neither UTF-8 nor Windows-1256 text")


def sniff_delimiter(text: str) -> str:
    """The separator most used in the header line (comma when unclear)."""
    header = text.split("\n", 1)[0]
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_csv(path: Path) -> tuple[list[str], list[CsvRow], str]:
    """Header (stripped), rows keyed by header, and the encoding used."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CsvError(f"cannot read {path.name}: {exc.strerror}") from exc
    text, encoding = decode_bytes(data)
    if "\x00" in text:
        raise CsvError("the file contains NUL bytes: it is not a CSV text file")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise CsvError(f"malformed CSV: {exc}") from exc
    if not rows:
        raise CsvError("the file is empty")
    header = [h.strip() for h in rows[0]]
    out = []
    for index, raw in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in raw):
            continue
        values = {name: (raw[i].strip() if i < len(raw) else "") for i, name in enumerate(header) if name}
        out.append(CsvRow(index, values, [c for c in raw[len(header):] if c.strip()]))
    return header, out, encoding
