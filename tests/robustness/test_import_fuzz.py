"""Property-based tests of report import and of spreadsheet-formula escaping.

Any file, in UTF-8, UTF-8 with BOM or Windows-1256, comma/semicolon/tab separated or mixed, either
imports or is refused with a clear error (a ValueError, shown to the user) — and a refused file
writes nothing at all. Cells that look like formulas (``=cmd|' /C calc'!A0``) are escaped on export.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from athar.core.security import escape_formula
from athar.registry.reading import read_table

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
HEADER = ["report_id", "full_name_ar", "full_name_latin", "sex", "birth_year", "governorate", "arrest_date",
          "arresting_agency", "reporter_contact", "notes"]
ARABIC = "ابتثجحخدذرزسشصضطظعغفقكلمنهويءآأإؤئةى "
FORMULAS = ["=cmd|' /C calc'!A0", "+SUM(A1:A9)", "-2+3", "@IMPORTXML(\"x\")", "=HYPERLINK(\"http://x\")",
            "\t=1+1", "\r=1"]
cells = st.one_of(st.text(alphabet=ARABIC, max_size=20), st.text(max_size=20), st.sampled_from(FORMULAS),
                  st.integers(1900, 2030).map(str))


def _counts():
    from athar.audit.models import AuditEvent
    from athar.registry.models import ImportBatch, Report

    return ImportBatch.objects.count(), Report.objects.count(), AuditEvent.objects.count()


def _import(tmp_path, data: bytes):
    from athar.registry.importing import import_reports

    path = tmp_path / "reports.csv"
    path.write_bytes(data)
    before = _counts()
    try:
        result = import_reports(path, source="fuzz")
    except ValueError:
        assert _counts() == before, "a refused file must write nothing"
        return None
    return result


@pytest.mark.django_db
@FUZZ
@given(rows=st.lists(st.lists(cells, min_size=len(HEADER), max_size=len(HEADER)), max_size=6),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1256"]),
       separator=st.sampled_from([",", ";", "\t"]), mixed=st.booleans(), crlf=st.booleans())
def test_any_table_imports_or_is_refused_cleanly(tmp_path_factory, rows, encoding, separator, mixed, crlf):
    lines = [separator.join(HEADER)]
    for n, row in enumerate(rows):
        sep = (",", ";", "\t")[n % 3] if mixed else separator
        lines.append(sep.join(cell.replace(sep, " ").replace("\n", " ").replace('"', "") for cell in row))
    text = ("\r\n" if crlf else "\n").join(lines)
    data = text.encode(encoding, errors="replace")
    folder = tmp_path_factory.mktemp("csv")
    before = _counts()
    result = _import(folder, data)
    if result is not None:
        rows = len(read_table(folder / "reports.csv").rows)
        # nothing is lost: every row read is imported (a new report or a new version), unchanged or rejected
        assert result["imported"] + result["unchanged"] + len(result["rejected"]) == rows
        assert 0 <= result["new_versions"] <= result["imported"]
        batches, reports, _events = _counts()
        assert (batches - before[0], reports - before[1]) == (1, result["imported"])


@pytest.mark.django_db
@FUZZ
@given(data=st.binary(max_size=2048))
def test_random_bytes_never_crash_the_import(tmp_path_factory, data):
    _import(tmp_path_factory.mktemp("bin"), data)


@pytest.mark.django_db
def test_truncated_xlsx_is_refused_cleanly(tmp_path):
    from athar.registry.importing import import_reports
    from athar.registry.template import template_bytes

    data = template_bytes("xlsx", "en")
    for cut in (0, 10, len(data) // 2, len(data) - 5):
        path = tmp_path / f"cut{cut}.xlsx"
        path.write_bytes(data[:cut])
        with pytest.raises(ValueError):
            import_reports(path, source="fuzz")


@pytest.mark.parametrize("value", FORMULAS + ["=1", "@x", "+x", "|x", "%x"])
def test_formulas_are_escaped(value):
    assert escape_formula(value).startswith("'")


@pytest.mark.parametrize("value", ["محمود", "Douma", "", "1985", "-12.5", "+963944123456", "a=b"])
def test_data_is_left_alone(value):
    assert escape_formula(value) == value


def test_numbers_and_none_pass_through():
    assert escape_formula(7) == 7 and escape_formula(None) is None


@given(st.text())
def test_no_escaped_cell_starts_a_formula(value):
    out = escape_formula(value)
    if out != value:
        assert out == "'" + value
    assert not (out[:1] in ("=", "@") or out.lstrip()[:1] in ("=", "@"))


@pytest.mark.parametrize("value", ["-٣", "+²", "+٩٦٣٩٤٤", "-1٢"])
def test_non_ascii_digits_after_a_sign_are_quoted(value):
    """Only ASCII digits count as a plain number; anything else after a sign is quoted."""
    assert escape_formula(value) == "'" + value
