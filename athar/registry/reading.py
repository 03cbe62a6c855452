"""Reading report files into rows: CSV (UTF-8, UTF-8 with BOM, Windows-1256, Latin; mojibake repaired)
and XLSX.

Files are read as streams (issue 28): ``open_table`` checks the whole file first (encoding, CSV
structure, a damaged sheet, the number of rows) without keeping it in memory, then yields the rows
one by one, so a bad file is refused before anything is written and a large one never sits in
memory. ``read_table`` keeps the old whole-table form for the evaluations.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from athar.core.csvio import CsvError, CsvRow, open_csv_stream, repair_mojibake
from athar.registry.columns import is_descriptive_row, is_sdf_header

MAX_XLSX_ROWS = 2_000_000


@dataclass(frozen=True)
class CellWarning:
    """A cell kept as written that athar could not read (an XLSX formula without a saved value)."""

    row: int
    column: str
    value: str
    reason: str


@dataclass
class Table:
    """A file's header, its data rows (numbered as in the file) and how it was read."""

    header: list[str]
    rows: list[CsvRow]
    file_format: str  # csv:utf-8-sig, csv:cp1256, xlsx
    sdf: bool
    skipped_rows: list[int]
    warnings: list[str] = field(default_factory=list)

    def without(self, columns: set[str]) -> Table:
        """The same table with some columns left out."""
        header = [h for h in self.header if h not in columns]
        rows = [CsvRow(r.number, {k: v for k, v in r.values.items() if k not in columns}, r.extra)
                for r in self.rows]
        return Table(header, rows, self.file_format, self.sdf, self.skipped_rows, self.warnings)


@dataclass
class StreamTable:
    """A file opened for streaming: header, format, the number of data rows and its rows, once."""

    header: list[str]
    file_format: str
    sdf: bool
    total: int
    skipped_rows: list[int]
    warnings: list[str]
    cell_warnings: list[CellWarning]
    _rows: Callable[[], Iterator[CsvRow]]
    ignored: frozenset[str] = frozenset()

    def rows(self) -> Iterator[CsvRow]:
        """The data rows, the label row of the Syrian Detainee Finder's template left out."""
        for row in self._rows():
            if row.number in self.skipped_rows:
                continue
            if self.ignored:
                row = CsvRow(row.number, {k: v for k, v in row.values.items() if k not in self.ignored}, row.extra)
            yield row

    def without(self, columns: set[str]) -> StreamTable:
        """The same table with some columns left out (``eval linkage`` hides the truth column)."""
        header = [h for h in self.header if h not in columns]
        return StreamTable(header, self.file_format, self.sdf, self.total, self.skipped_rows, self.warnings,
                           self.cell_warnings, self._rows, self.ignored | frozenset(columns))


def open_table(path: Path) -> StreamTable:
    """Open a CSV or XLSX report file for streaming; CsvError (a UserError) when it cannot be read."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {path}")
    cell_warnings: list[CellWarning] = []
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        header, total, first, warnings = _scan_xlsx(path)
        file_format = "xlsx"

        def rows() -> Iterator[CsvRow]:
            return _xlsx_rows(path, header, cell_warnings)
    else:
        stream = open_csv_stream(path)
        header, total, warnings, file_format = stream.header, stream.total, stream.warnings, f"csv:{stream.encoding}"
        rows = stream.rows
        first = next(rows(), None)
    if not any(h for h in header):
        raise CsvError("the first row must be a header with column names")
    sdf = is_sdf_header(header)
    skipped = []
    if first is not None and first.number == 2 and is_descriptive_row([first.values.get(h, "") for h in header]):
        skipped.append(first.number)
        total -= 1
    return StreamTable(header, file_format, sdf, total, skipped, warnings, cell_warnings, rows)


def read_table(path: Path) -> Table:
    """Read a whole CSV or XLSX report file (the evaluations); the Syrian Detainee Finder's label row
    is skipped."""
    table = open_table(path)
    rows = list(table.rows())
    return Table(table.header, rows, table.file_format, table.sdf, table.skipped_rows, table.warnings)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


_FORMULA_TAG = re.compile(rb"<(?:\w+:)?f[\s>/]")


def _has_formulas(path: Path) -> bool:
    """True when a sheet of the workbook holds a formula (read from the XML, never the whole file)."""
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if not (name.startswith("xl/worksheets/") and name.endswith(".xml")):
                continue
            with archive.open(name) as member:
                tail = b""
                while chunk := member.read(1 << 20):
                    if _FORMULA_TAG.search(tail + chunk):
                        return True
                    tail = chunk[-16:]
    return False


def _sheet_rows(path: Path, formulas: bool) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...] | None]]:
    """(values, formulas) per sheet row: the saved values and, when the workbook has formulas, the
    same row read without them (openpyxl in read-only mode, two lazy readers side by side)."""
    from openpyxl import load_workbook

    try:
        books = [load_workbook(path, read_only=True, data_only=True)]
        if formulas:
            books.append(load_workbook(path, read_only=True, data_only=False))
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a bad file
        raise CsvError(f"cannot read {path.name} as an Excel workbook: {exc}") from exc
    try:
        iterators = [book.worksheets[0].iter_rows(values_only=True) for book in books]
        for values in iterators[0]:
            written = next(iterators[1], None) if formulas else None
            yield values, written
    except CsvError:
        raise
    except Exception as exc:  # noqa: BLE001 - read-only mode parses the sheet lazily, while we iterate:
        # a damaged sheet raises here, not in load_workbook (ValueError, KeyError, XML and ZIP errors;
        # found by fuzz/fuzz_import.py)
        raise CsvError(f"cannot read {path.name} as an Excel workbook: its first sheet is damaged "
                       f"({type(exc).__name__}: {exc})") from exc
    finally:
        for book in books:
            book.close()


def _cells(values: tuple[Any, ...], written: tuple[Any, ...] | None) -> tuple[list[str], list[int]]:
    """The row's cells as text; a formula without a saved value is kept as its formula text (the
    indexes of those cells are returned for the warnings)."""
    cells = [_cell(v) for v in values]
    kept: list[int] = []
    if written is not None:
        for index, formula in enumerate(written):
            if (index < len(values) and values[index] is None and isinstance(formula, str)
                    and formula.startswith("=")):
                cells[index] = formula
                kept.append(index)
    return cells, kept


def _scan_xlsx(path: Path) -> tuple[list[str], int, CsvRow | None, list[str]]:
    """First pass over a workbook: header (mojibake repaired), the number of data rows, the first
    data row; a damaged sheet is refused here, before anything is written."""
    try:
        formulas = _has_formulas(path)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError,
            ValueError) as exc:  # a damaged or unsupported member (zlib.error found by fuzz/fuzz_import.py)
        raise CsvError(f"cannot read {path.name} as an Excel workbook: {exc}") from exc
    rows = _sheet_rows(path, formulas)
    first_row = next(rows, None)
    if first_row is None:
        raise CsvError("the workbook's first sheet is empty")
    raw_header = [_cell(h) for h in first_row[0]]
    header = [repair_mojibake(h)[0] for h in raw_header]
    total, first, repaired = 0, None, 0
    for number, (values, written) in enumerate(rows, start=2):
        cells, _kept = _cells(values, written)
        if not any(cells):
            continue
        if number > MAX_XLSX_ROWS:
            raise CsvError(f"more than {MAX_XLSX_ROWS} rows: split the file")
        row = _xlsx_row(number, header, cells)
        repaired += row is not None and _was_repaired(row)
        if first is None:
            first = _repaired_row(row)
        total += 1
    warnings = []
    if repaired or header != raw_header:
        warnings.append(f"garbled text (mojibake) repaired in the header and {repaired} row(s)")
    return header, total, first, warnings


def _xlsx_row(number: int, header: list[str], cells: list[str]) -> CsvRow:
    values = {name: (cells[i] if i < len(cells) else "") for i, name in enumerate(header) if name}
    return CsvRow(number, values, [c for c in cells[len(header):] if c])


def _was_repaired(row: CsvRow) -> bool:
    return _repaired_row(row) != row


def _repaired_row(row: CsvRow) -> CsvRow:
    """Workbook cells can carry mojibake too (pasted from a garbled CSV): repaired."""
    return CsvRow(row.number, {k: repair_mojibake(v)[0] for k, v in row.values.items()},
                  [repair_mojibake(c)[0] for c in row.extra])


def _xlsx_rows(path: Path, header: list[str], cell_warnings: list[CellWarning]) -> Iterator[CsvRow]:
    """Second pass: the data rows, each cell as text; a formula without a saved value is kept as
    written with a warning (``cell_warnings``)."""
    rows = _sheet_rows(path, _has_formulas(path))
    next(rows, None)
    for number, (values, written) in enumerate(rows, start=2):
        cells, kept = _cells(values, written)
        if not any(cells):
            continue
        for index in kept:
            column = header[index] if index < len(header) and header[index] else f"column {index + 1}"
            cell_warnings.append(CellWarning(number, column, cells[index], _(
                "a formula without a saved value (the file was not recalculated and saved in Excel)")))
        yield _repaired_row(_xlsx_row(number, header, cells))
