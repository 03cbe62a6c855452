"""An XLSX whose first sheet names a cell ``A4A`` (a damaged cell reference).

Found by ``fuzz/fuzz_import.py``: openpyxl's read-only mode opens the workbook fine and parses
the sheet lazily, while athar iterates its rows — outside the ``try`` around ``load_workbook`` —
so the import failed with ``ValueError: invalid literal for int() with base 10: '4A'`` (and, for
other damage, with KeyError or XML/ZIP errors that are not ValueErrors at all). It is now refused
as a whole with a ``CsvError`` that says the sheet is damaged; nothing is written.
"""

from __future__ import annotations

import io
import zipfile

import pytest


def _xlsx_with_bad_reference() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["full_name_latin", "sex"])
    book.active.append(["Omar Haddad", "M"])
    buffer = io.BytesIO()
    book.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "xl/worksheets/sheet1.xml":
                assert b'r="A2"' in data
                data = data.replace(b'r="A2"', b'r="A4A"')
            target.writestr(name, data)
    return out.getvalue()


def test_read_table_refuses_it_with_a_csv_error(tmp_path):
    from athar.core.csvio import CsvError
    from athar.registry.reading import read_table

    path = tmp_path / "reports.xlsx"
    path.write_bytes(_xlsx_with_bad_reference())
    with pytest.raises(CsvError, match="first sheet is damaged"):
        read_table(path)


@pytest.mark.django_db
def test_import_refuses_it_and_writes_nothing(tmp_path):
    from athar.audit.models import AuditEvent
    from athar.registry.importing import import_reports
    from athar.registry.models import ImportBatch, Report

    path = tmp_path / "reports.xlsx"
    path.write_bytes(_xlsx_with_bad_reference())
    with pytest.raises(ValueError, match="first sheet is damaged"):
        import_reports(path, source="fuzz")
    assert (ImportBatch.objects.count(), Report.objects.count(), AuditEvent.objects.count()) == (0, 0, 0)
