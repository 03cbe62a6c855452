"""The downloadable template: both formats and languages import back as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from athar.registry.columns import TEMPLATE_FIELDS
from athar.registry.importing import import_reports
from athar.registry.models import Report
from athar.registry.template import template_bytes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("lang", ["ar", "en"])
def test_template_imports_back(tmp_path: Path, fmt: str, lang: str) -> None:
    path = tmp_path / f"template.{fmt}"
    path.write_bytes(template_bytes(fmt, lang))
    result = import_reports(path, source="template")
    assert (result["imported"], result["rejected"], result["warnings"]) == (1, [], [])
    report = Report.objects.get()
    assert report.full_name_ar == "محمود أحمد السالم" and report.sex == "M"
    assert report.governorate_ref.pcode == "SY03" and report.arrest_date_precision == "month"


def test_csv_template_has_a_bom_and_every_column() -> None:
    data = template_bytes("csv", "en")
    assert data.startswith(b"\xef\xbb\xbf")
    header = data.decode("utf-8-sig").splitlines()[0].split(",")
    assert tuple(header) == TEMPLATE_FIELDS
    for required in ("report_id", "full_name_ar", "mother_name", "arrest_date", "photos"):
        assert required in header


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        template_bytes("pdf", "ar")
