"""Looking reports up by their imported report_id (for ``athar candidates --report ID``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from athar.registry.importing import import_reports
from athar.registry.lookup import find_report

pytestmark = pytest.mark.django_db


def test_find_by_report_id_and_source(write_csv: Callable[..., Path]) -> None:
    import_reports(write_csv(["report_id", "full_name_ar"], [["42", "محمود السالم"]], name="a.csv"), source="a")
    import_reports(write_csv(["report_id", "full_name_ar"], [["42", "خالد السالم"]], name="b.csv"), source="b")
    import_reports(write_csv(["report_id", "full_name_ar"], [["7", "سامر الحسن"]], name="c.csv"), source="a")
    assert find_report("42", "b").full_name_ar == "خالد السالم"
    assert find_report("7").full_name_ar == "سامر الحسن"
    with pytest.raises(ValueError, match="several sources"):
        find_report("42")
    with pytest.raises(ValueError, match="no report"):
        find_report("99", "a")
