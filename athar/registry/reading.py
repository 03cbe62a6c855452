"""Reading report files into rows: CSV (UTF-8, UTF-8 with BOM, Windows-1256, Latin; mojibake repaired)
and XLSX."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from athar.core.csvio import CsvError, CsvRow, read_csv_table, repair_mojibake
from athar.registry.columns import is_descriptive_row, is_sdf_header

MAX_XLSX_ROWS = 2_000_000


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


def read_table(path: Path) -> Table:
    """Read a CSV or XLSX report file; the Syrian Detainee Finder's label row is skipped."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {path}")
    warnings: list[str] = []
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        header, rows = _read_xlsx(path)
        header, rows, warnings = _repair_cells(header, rows)
        file_format = "xlsx"
    else:
        csv_table = read_csv_table(path)
        header, rows, warnings = csv_table.header, csv_table.rows, csv_table.warnings
        file_format = f"csv:{csv_table.encoding}"
    if not any(h for h in header):
        raise CsvError("the first row must be a header with column names")
    sdf = is_sdf_header(header)
    skipped = []
    if rows and rows[0].number == 2 and is_descriptive_row([rows[0].values.get(h, "") for h in header]):
        skipped.append(rows[0].number)
        rows = rows[1:]
    return Table(header, rows, file_format, sdf, skipped, warnings)


def _repair_cells(header: list[str], rows: list[CsvRow]) -> tuple[list[str], list[CsvRow], list[str]]:
    """Workbook cells can carry mojibake too (pasted from a garbled CSV): repair it, with a warning."""
    fixed_header = [repair_mojibake(h)[0] for h in header]
    renamed = dict(zip(header, fixed_header))
    out, repaired = [], []
    for row in rows:
        values = {renamed.get(k, k): repair_mojibake(v)[0] for k, v in row.values.items()}
        if list(values.values()) != list(row.values.values()):
            repaired.append(row.number)
        out.append(CsvRow(row.number, values, [repair_mojibake(c)[0] for c in row.extra]))
    warnings = []
    if repaired or fixed_header != header:
        warnings.append(f"garbled text (mojibake) repaired in the header and {len(repaired)} row(s)")
    return fixed_header, out, warnings


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


def _read_xlsx(path: Path) -> tuple[list[str], list[CsvRow]]:
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds for a bad file
        raise CsvError(f"cannot read {path.name} as an Excel workbook: {exc}") from exc
    try:
        sheet = book.worksheets[0]
        iterator = sheet.iter_rows(values_only=True)
        first = next(iterator, None)
        if first is None:
            raise CsvError("the workbook's first sheet is empty")
        header = [_cell(h) for h in first]
        rows = []
        for number, raw in enumerate(iterator, start=2):
            cells = [_cell(v) for v in raw]
            if not any(cells):
                continue
            if number > MAX_XLSX_ROWS:
                raise CsvError(f"more than {MAX_XLSX_ROWS} rows: split the file")
            values = {name: (cells[i] if i < len(cells) else "") for i, name in enumerate(header) if name}
            rows.append(CsvRow(number, values, [c for c in cells[len(header):] if c]))
        return header, rows
    except CsvError:
        raise
    except Exception as exc:  # noqa: BLE001 - read-only mode parses the sheet lazily, while we iterate:
        # a damaged sheet raises here, not in load_workbook (ValueError, KeyError, XML and ZIP errors;
        # found by fuzz/fuzz_import.py)
        raise CsvError(f"cannot read {path.name} as an Excel workbook: its first sheet is damaged "
                       f"({type(exc).__name__}: {exc})") from exc
    finally:
        book.close()
