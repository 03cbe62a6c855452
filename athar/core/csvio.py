"""Reading the CSV files people actually send: UTF-8, UTF-8 with BOM, Windows-1256 (Arabic Excel)
or Windows-1252 / Latin-1, comma, semicolon or tab separated — and mojibake repaired.

Why the checks: Windows-1256 decodes every byte, so "it decoded" proves nothing. A Latin-1 file
read as Windows-1256 gives words that mix Latin and Arabic letters ("Muٌoz"); a UTF-8 file once
shown through Windows-1252 or Windows-1256 and saved again gives "Ø§Ù„Ø¬Ù†Ø³" or "ط§ظ„ط¬ظ†ط³". Both
are detected: the first is read as Latin, the second repaired (ftfy for the Latin code pages, an
exact re-encoding for Windows-1256), and every repair is reported as a warning.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import ftfy
import ftfy.bad_codecs  # noqa: F401 - registers the "sloppy-windows-125x" codecs used below

ENCODINGS = ("utf-8-sig", "cp1256", "cp1252", "latin-1")
DELIMITERS = ",;\t"
# Code pages through which UTF-8 bytes are commonly shown (and then saved again as text).
MOJIBAKE_CODECS = ("sloppy-windows-1252", "sloppy-windows-1256")
_ARABIC = "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff"
_MIXED_WORD = re.compile(rf"[A-Za-z\u00c0-\u024f][{_ARABIC}]|[{_ARABIC}][A-Za-z\u00c0-\u024f]")


class CsvError(ValueError):
    """The file as a whole cannot be read as a table."""


@dataclass(frozen=True)
class CsvRow:
    """One data row with its 1-based line number in the file (the header is row 1)."""

    number: int
    values: dict[str, str]
    extra: list[str]


@dataclass
class DecodedText:
    """A file's text, the encoding that read it and what had to be repaired to read it."""

    text: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


def is_plausible(text: str) -> bool:
    """False when words mix Latin and Arabic letters: the mark of a wrong 8-bit code page."""
    return _MIXED_WORD.search(text) is None


def _repair_line(line: str) -> tuple[str, str]:
    """The line as it was before mojibake, and the code page it went through ('' if none)."""
    if line.isascii():
        return line, ""
    for codec in MOJIBAKE_CODECS:
        try:
            fixed = line.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
        if fixed != line:
            return fixed, codec.removeprefix("sloppy-")
    fixed = ftfy.fix_encoding(line)
    return (fixed, "mixed code pages") if fixed != line else (line, "")


def repair_mojibake(text: str) -> tuple[str, list[int]]:
    """Repair every line that is UTF-8 shown through another code page; the lines repaired (1-based)."""
    lines = text.split("\n")
    repaired = []
    for number, line in enumerate(lines, start=1):
        fixed, codec = _repair_line(line)
        if codec:
            lines[number - 1] = fixed
            repaired.append(number)
    return "\n".join(lines), repaired


def decode_bytes(data: bytes) -> tuple[str, str]:
    """The text and the encoding that decoded it (see ``decode_checked`` for the warnings)."""
    decoded = decode_checked(data)
    return decoded.text, decoded.encoding


def decode_checked(data: bytes) -> DecodedText:
    """Decode with the first encoding that gives plausible text, then repair mojibake."""
    decoded = _first_plausible(data)
    text, repaired = repair_mojibake(decoded.text)
    if repaired:
        shown = ", ".join(str(n) for n in repaired[:10]) + (" …" if len(repaired) > 10 else "")
        decoded.warnings.append(f"garbled text (mojibake: UTF-8 shown through another code page) repaired "
                                f"on {len(repaired)} line(s): {shown}")
        decoded.text = text
    return decoded


def _first_plausible(data: bytes) -> DecodedText:
    try:
        return DecodedText(data.decode("utf-8-sig"), "utf-8-sig")
    except UnicodeDecodeError:
        pass
    for encoding in ENCODINGS[1:]:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if is_plausible(text):
            warnings = [] if encoding == "cp1256" else [
                f"the file is not UTF-8 and does not read as Arabic Windows-1256: read as {encoding} (Latin)"]
            return DecodedText(text, encoding, warnings)
    raise CsvError("the file's encoding could not be recognised: save it as UTF-8 (CSV UTF-8 in Excel)")


def sniff_delimiter(text: str) -> str:
    """The separator most used in the header line (comma when unclear)."""
    header = text.split("\n", 1)[0]
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


@dataclass
class CsvTable:
    """Header, rows keyed by header, the encoding used and the warnings of reading."""

    header: list[str]
    rows: list[CsvRow]
    encoding: str
    warnings: list[str]


def read_csv(path: Path) -> tuple[list[str], list[CsvRow], str]:
    """Header (stripped), rows keyed by header, and the encoding used."""
    table = read_csv_table(path)
    return table.header, table.rows, table.encoding


def read_csv_table(path: Path) -> CsvTable:
    """Read a CSV file, with the warnings of decoding (a Latin file, repaired mojibake)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CsvError(f"cannot read {path.name}: {exc.strerror}") from exc
    decoded = decode_checked(data)
    text = decoded.text
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
    return CsvTable(header, out, decoded.encoding, decoded.warnings)
