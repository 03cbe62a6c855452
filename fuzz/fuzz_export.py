"""atheris harness: spreadsheet-formula escaping of exported cells (CSV/XLSX injection).

athar's rule (docs/security.md): every CSV/XLSX export of data people entered passes each cell
through ``athar.core.security.escape_formula``. Input: cells separated by 0x1F, rows by 0x1E.
Each row is exported as a CSV (``csv.writer``) and an XLSX (openpyxl), then read back.

Properties:
* ``escape_formula`` only ever adds one leading quote, and is a no-op on non-strings;
* nothing read back from either file starts a cell with a formula character (``=``, ``+``,
  ``-``, ``@``, tab, CR, ``|``, ``%``; or ``=``/``+``/``@`` after leading spaces) unless the cell is
  a plain number (``-12.5``, ``+963…``), which the rule keeps as data;
* openpyxl never stores an exported cell as a formula (data type ``f``);
* the XLSX export first removes the control characters XML cannot hold (openpyxl refuses them
  with ``IllegalCharacterError``) — *before* escaping, else ``"\\x01=1"`` would become ``=1``.

    .venv/bin/python fuzz/fuzz_export.py -runs=20000 fuzz/corpus/export
"""

from __future__ import annotations

import csv
import io
import sys

import atheris

from common import RECORD_SEP, UNIT_SEP, text_of

with atheris.instrument_imports(include=["athar"]):
    from athar.core.security import FORMULA_PREFIXES, escape_formula

from openpyxl import Workbook, load_workbook  # noqa: E402 - not ours: not instrumented
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE  # noqa: E402


def plain_number(cell: str) -> bool:
    """Optional sign, then digits with at most one point: data, kept as it is by the rule.
    ``str.isdigit`` as in the product, so Unicode digits count ("-٣", "+²" stay as they are:
    harmless, as no function name or reference can be spelt with digits; see fuzz/README.md)."""
    body = cell[1:] if cell[:1] in "+-" else cell
    return bool(body) and body.replace(".", "", 1).isdigit()


XLSX_EVERY = 8  # an XLSX round trip costs ~2 ms: check one input in eight


def dangerous(cell: str) -> bool:
    """Starts like a formula (athar's own definition) and is not a plain number."""
    starts = cell.startswith(FORMULA_PREFIXES) or cell.lstrip().startswith(("=", "+", "@"))
    return starts and not plain_number(cell)


def xlsx_cell(value: str) -> str:
    """What an XLSX export writes: control characters XML cannot hold removed, then escaped."""
    return escape_formula(ILLEGAL_CHARACTERS_RE.sub("", value))


def check_cells(rows: list[list[str]]) -> None:
    for row in rows:
        for value in row:
            out = escape_formula(value)
            assert out == value or out == "'" + value, (value, out)
            assert not dangerous(out), f"formula left unescaped: {value!r} → {out!r}"


def check_csv(rows: list[list[str]]) -> None:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows([escape_formula(v) for v in row] for row in rows)
    back = list(csv.reader(io.StringIO(buffer.getvalue(), newline="")))
    for row in back:
        for cell in row:
            assert not dangerous(cell), f"CSV cell read back as a formula: {cell!r}"


def check_xlsx(rows: list[list[str]]) -> None:
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append([xlsx_cell(v) for v in row])
    for row in sheet.iter_rows():
        for cell in row:
            assert cell.data_type != "f", f"stored as a formula: {cell.value!r}"
    buffer = io.BytesIO()
    book.save(buffer)
    for values in load_workbook(io.BytesIO(buffer.getvalue())).active.iter_rows(values_only=True):
        for value in values:
            assert not (isinstance(value, str) and dangerous(value)), f"XLSX cell read back as a formula: {value!r}"


COUNTER = [0]


def TestOneInput(data: bytes) -> None:
    text = text_of(data)
    rows = [row.split(UNIT_SEP) for row in text.split(RECORD_SEP)]
    check_cells(rows)
    check_csv(rows)
    assert escape_formula(7) == 7 and escape_formula(None) is None and escape_formula(1.5) == 1.5
    COUNTER[0] += 1
    if COUNTER[0] % XLSX_EVERY == 0 and len(text) < 2000:
        check_xlsx(rows)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
