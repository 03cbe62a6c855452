"""Reading the CSV files people actually send: UTF-8, UTF-8 with BOM, Windows-1256 (Arabic Excel)
or Windows-1252 / Latin-1, comma, semicolon or tab separated — and mojibake repaired.

Why the checks: Windows-1256 decodes every byte, so "it decoded" proves nothing. A Latin-1 file
read as Windows-1256 gives words that mix Latin and Arabic letters ("Muٌoz"); a UTF-8 file once
shown through Windows-1252 or Windows-1256 and saved again gives "Ø§Ù„Ø¬Ù†Ø³" or "ط§ظ„ط¬ظ†ط³". Both
are detected: the first is read as Latin, the second repaired (ftfy for the Latin code pages, an
exact re-encoding for Windows-1256), and every repair is reported as a warning.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from athar.core.errors import UserError

ENCODINGS = ("utf-8-sig", "cp1256", "cp1252", "latin-1")
DELIMITERS = ",;\t"
# Code pages through which UTF-8 bytes are commonly shown (and then saved again as text).
MOJIBAKE_CODECS = ("sloppy-windows-1252", "sloppy-windows-1256")
_ARABIC = "\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff"
_MIXED_WORD = re.compile(rf"[A-Za-z\u00c0-\u024f][{_ARABIC}]|[{_ARABIC}][A-Za-z\u00c0-\u024f]")


_SHOWN_THROUGH = ("latin-1", "cp1252", "cp1256", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257", "iso-8859-2",
                  "mac-roman", "cp437")


def _continuation_characters() -> re.Pattern[str]:
    """What a UTF-8 continuation byte (0x80–0xBF) becomes when shown through one of the code pages
    athar and ftfy repair (ours, and ftfy's ``CHARMAP_ENCODINGS``; the sloppy variants add only
    Latin-1's C1 controls): every multi-byte UTF-8 character has one, so mojibake of UTF-8 holds at
    least one of these, and a line with none skips ftfy's badness test (~0.1 ms a line: most of a
    large import's reading)."""
    continuation = bytes(range(0x80, 0xC0))
    chars = {c for codec in _SHOWN_THROUGH for c in continuation.decode(codec, errors="ignore")}
    return re.compile("[" + "".join(re.escape(c) for c in sorted(chars)) + "]")


_CONTINUATION = _continuation_characters()


class CsvError(UserError):
    """The file as a whole cannot be read as a table (the user's file, not athar: no traceback)."""


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
    if line.isascii() or _CONTINUATION.search(line) is None:
        return line, ""
    # Here, not at the top: ftfy (with wcwidth's tables) costs every athar command a quarter of a
    # second at start-up; bad_codecs registers the "sloppy-windows-125x" codecs used below.
    import ftfy
    import ftfy.bad_codecs  # noqa: F401

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


# Streaming (issue 28): a large file is read twice, line by line, never whole in memory. The first
# pass chooses the encoding (the same order and plausibility test as ``decode_checked``), counts the
# rows and notes the lines repaired; the second pass yields the rows.
SAMPLE_CHARS = 65_536
MAX_CONTROL_SHARE = 0.01
EMPTY_FILE = "the file is empty: it has no header row and no reports"
NOT_TEXT = ("the file is not a CSV text file (it holds binary data: NUL bytes or control characters): "
            "save the list as CSV UTF-8 or as an Excel .xlsx workbook")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


@dataclass
class CsvStream:
    """A CSV file read row by row: header, encoding, delimiter, the number of data rows and the
    warnings of reading (known after the first pass)."""

    path: Path
    header: list[str]
    encoding: str
    delimiter: str
    total: int
    warnings: list[str]
    repaired: frozenset[int] = frozenset()

    def rows(self) -> Iterator[CsvRow]:
        """The data rows (blank rows skipped), numbered as ``read_csv_table`` numbers them."""
        reader = csv.reader(_lines(self.path, self.encoding, [], self.repaired), delimiter=self.delimiter)
        try:
            next(reader, None)
            for index, raw in enumerate(reader, start=2):
                if not any(cell.strip() for cell in raw):
                    continue
                values = {name: (raw[i].strip() if i < len(raw) else "") for i, name in enumerate(self.header)
                          if name}
                yield CsvRow(index, values, [c for c in raw[len(self.header):] if c.strip()])
        except csv.Error as exc:
            raise CsvError(f"malformed CSV: {exc}") from exc


def _lines(path: Path, encoding: str, repaired: list[int], only: frozenset[int] | None = None) -> Iterator[str]:
    """The file's lines decoded, mojibake repaired line by line (the repaired line numbers noted).

    ``only``: the lines the first pass found garbled; the second pass repairs just those (looking
    for mojibake costs ~0.1 ms per non-ASCII line: ftfy's badness test)."""
    with path.open("rb") as raw, io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="") as text:
        for number, line in enumerate(text, start=1):
            if only is not None and number not in only:
                yield line
                continue
            fixed, codec = _repair_line(line)
            if codec:
                repaired.append(number)
            yield fixed


def _looks_binary(sample: str) -> bool:
    if "\x00" in sample:
        return True
    return bool(sample) and len(_CONTROL.findall(sample)) > MAX_CONTROL_SHARE * len(sample)


def _scan(path: Path, encoding: str) -> tuple[list[str], str, int, list[int]] | None:
    """One pass in one encoding: (header, delimiter, data rows, repaired lines), or None when the
    encoding does not read the file (a decoding error, or implausible text for an 8-bit code page)."""
    repaired: list[int] = []
    sample: list[str] = []
    sampled = 0
    plausible_needed = encoding != "utf-8-sig"

    def checked() -> Iterator[str]:
        nonlocal sampled
        for line in _lines(path, encoding, repaired):
            if sampled < SAMPLE_CHARS:
                sample.append(line)
                sampled += len(line)
                if sampled >= SAMPLE_CHARS and _looks_binary("".join(sample)):
                    raise CsvError(NOT_TEXT)
            if "\x00" in line:
                raise CsvError(NOT_TEXT)
            if plausible_needed and not is_plausible(line):
                raise _Implausible
            yield line

    header: list[str] | None = None
    delimiter, rows = ",", 0
    lines = checked()
    try:
        first = next(lines, None)
        if first is None:
            raise CsvError(EMPTY_FILE)
        delimiter = sniff_delimiter(first)
        reader = csv.reader(_chain(first, lines), delimiter=delimiter)
        header = [h.strip() for h in next(reader, [])]
        for raw in reader:
            if any(cell.strip() for cell in raw):
                rows += 1
        if sampled < SAMPLE_CHARS and _looks_binary("".join(sample)):
            raise CsvError(NOT_TEXT)
    except (UnicodeDecodeError, _Implausible):
        return None
    except csv.Error as exc:
        raise CsvError(f"malformed CSV: {exc}") from exc
    return header, delimiter, rows, repaired


class _Implausible(Exception):
    """Words mixing Latin and Arabic letters: the wrong 8-bit code page."""


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def open_csv_stream(path: Path) -> CsvStream:
    """Open a CSV file for reading row by row; CsvError (a UserError) when it cannot be a table."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CsvError(f"cannot read {path.name}: {exc.strerror}") from exc
    if size == 0:
        raise CsvError(EMPTY_FILE)
    with path.open("rb") as handle:
        head = handle.read(4)
    if head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        raise CsvError("the file is UTF-16 text: save it as CSV UTF-8 (in Excel: Save as → CSV UTF-8)")
    for encoding in ENCODINGS:
        scanned = _scan(path, encoding)
        if scanned is None:
            continue
        header, delimiter, total, repaired = scanned
        warnings = [] if encoding in ("utf-8-sig", "cp1256") else [
            f"the file is not UTF-8 and does not read as Arabic Windows-1256: read as {encoding} (Latin)"]
        if repaired:
            shown = ", ".join(str(n) for n in repaired[:10]) + (" …" if len(repaired) > 10 else "")
            warnings.append(f"garbled text (mojibake: UTF-8 shown through another code page) repaired "
                            f"on {len(repaired)} line(s): {shown}")
        return CsvStream(path, header, encoding, delimiter, total, warnings, frozenset(repaired))
    raise CsvError("the file's encoding could not be recognised: save it as UTF-8 (CSV UTF-8 in Excel)")
