"""atheris harness: registry import files → the reading and row-parsing layer (no database).

The first byte picks what the rest is (``common.IMPORT_MODES``, modulo 4):

* ``csv``    a CSV file: ``read_table`` (UTF-8 / BOM / Windows-1256 decoding, separator sniffing,
  the Syrian Detainee Finder label row), ``map_header``, then ``parse_row`` on every row;
* ``xlsx``   an XLSX file, same pipeline (openpyxl, read-only mode);
* ``sheet``  the XML of the first worksheet inside an otherwise valid workbook (stored, not
  compressed, so mutations reach openpyxl's sheet parser rather than dying in the ZIP layer);
* ``values`` cells separated by 0x1F, each read as a partial date, birth year, age, sex, status
  and header, and the raw bytes given to ``decode_bytes`` / ``sniff_delimiter``.

Contract: a whole file is refused only with ``CsvError`` (a ValueError, reported to the user);
a row only with ``RowError`` (nameless); a value that cannot be read (date, year, age) only with
``ValueError`` (the importer keeps it verbatim); sex and status read as a code or None; each
error with a non-empty message.
Accepted rows are sane (sex M/F/U, known status, no date in the future, text within limits).
Anything else — another exception, a hang, a crash — is a finding.

    .venv/bin/python fuzz/fuzz_import.py -runs=20000 fuzz/corpus/import

rows.py imports the registry's Django models, so this harness sets up Django (settings
``athar.settings`` with a scratch ``ATHAR_HOME``); it never opens the database.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
import tempfile
import zipfile
from pathlib import Path

import atheris

from common import IMPORT_MODES, UNIT_SEP, setup_django, text_of

with atheris.instrument_imports(include=["athar", "openpyxl"]):
    setup_django()
    import openpyxl.reader.excel  # noqa: F401 - imported here so that it is instrumented
    from openpyxl import Workbook

    from athar.core.csvio import CsvError, decode_bytes, sniff_delimiter
    from athar.core.dates import parse_partial_date
    from athar.registry.columns import header_key, is_descriptive_row, is_sdf_header, map_header
    from athar.registry.importing import parse_row
    from athar.registry.models import ReportedStatus
    from athar.registry.reading import read_table
    from athar.registry.rows import MAX_TEXT, RowError, parse_age, parse_birth, parse_sex, parse_status

TODAY = dt.date(2026, 11, 29)
WORK = Path(tempfile.mkdtemp(prefix="athar-fuzz-import-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
SHEET = "xl/worksheets/sheet1.xml"
STATUSES = {str(s) for s in ReportedStatus}


def _workbook_members() -> dict[str, bytes]:
    buffer = io.BytesIO()
    Workbook().save(buffer)
    with zipfile.ZipFile(buffer) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


MEMBERS = _workbook_members()


def _with_sheet(xml: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in MEMBERS.items():
            archive.writestr(name, xml if name == SHEET else data)
    return buffer.getvalue()


def check_file(data: bytes, suffix: str) -> None:
    path = WORK / f"reports{suffix}"
    path.write_bytes(data)
    try:
        table = read_table(path)
    except CsvError as exc:
        assert str(exc), "CsvError without a reason"
        return
    numbers = [row.number for row in table.rows]
    assert numbers == sorted(set(numbers)) and all(n >= 2 for n in numbers), numbers
    mapping = map_header(table.header, table.sdf)
    for row in table.rows:
        try:
            parsed = parse_row(row, mapping, "fuzz", TODAY)
        except RowError as exc:
            assert str(exc), "RowError without a reason"
            continue
        fields = parsed.fields
        assert fields["sex"] in ("M", "F", "U"), fields["sex"]
        assert fields["reported_status"] in STATUSES, fields["reported_status"]
        assert fields["arrest_date"] is None or fields["arrest_date"] <= TODAY
        assert fields["birth_year"] is None or fields["birth_year"] <= TODAY.year
        for name, limit in MAX_TEXT.items():
            if name != "notes":  # notes also collect the unknown columns
                assert len(fields.get(name, "")) <= limit


def check_values(data: bytes) -> None:
    try:
        text, _encoding = decode_bytes(data)
    except CsvError:
        text = text_of(data)
    assert sniff_delimiter(text) in ",;\t"
    values = text.split(UNIT_SEP)
    for value in values:
        try:
            date = parse_partial_date(value)
        except ValueError as exc:
            assert str(exc)
        else:
            assert date is None or (1900 <= date.date.year <= 2100 and date.precision in ("day", "month", "year"))
        for parse in (lambda v: parse_birth(v, TODAY), parse_age):
            try:
                parse(value)
            except ValueError as exc:  # an unreadable value: kept verbatim by the importer
                assert str(exc)
        assert parse_sex(value) in ("M", "F", "U", None)
        assert parse_status(value) in STATUSES | {None}
        header_key(value)
    map_header(values, is_sdf_header(values))
    is_descriptive_row(values)


def TestOneInput(data: bytes) -> None:
    if not data:
        return
    mode, body = IMPORT_MODES[data[0] % len(IMPORT_MODES)], data[1:]
    if mode == "csv":
        check_file(body, ".csv")
    elif mode == "xlsx":
        check_file(body, ".xlsx")
    elif mode == "sheet":
        check_file(_with_sheet(body), ".xlsx")
    else:
        check_values(body)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
