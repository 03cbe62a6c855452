"""What written names carry besides the names goes to fields of its own, kept verbatim in the name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from athar.registry.importing import import_reports
from athar.registry.models import Report
from athar.registry.names import written_name_fields
from athar.registry.privacy import erase_report, export_report

pytestmark = pytest.mark.django_db
HEADER = ["report_id", "full_name_ar", "full_name_latin", "first_name"]
ROWS = [
    ["W1", "الطالبة أماني عثمان النجار (أم خالد) - خناصر", "Dr. Amani Othman al-Najjar (lawyer)", ""],
    ["W2", "محمد أحمد الحلبي الملقب بأبو الجود", "", ""],
    ["W3", "محمد المحمود", "", "الحاج محمد"],
]


def test_import_sets_the_fields_and_keeps_the_names(write_csv: Callable[..., Path]) -> None:
    import_reports(write_csv(HEADER, ROWS), source="list")
    first = Report.objects.get(report_id="W1")
    assert first.full_name_ar == ROWS[0][1] and first.full_name_latin == ROWS[0][2]  # verbatim
    assert first.name_titles == ["الطالبة", "Dr."]
    assert first.name_kunya == ["أم خالد"] and first.name_notes == ["lawyer"] and first.name_place == "خناصر"
    assert Report.objects.get(report_id="W2").name_nickname == "أبو الجود"
    third = Report.objects.get(report_id="W3")
    assert third.name_titles == ["الحاج"] and third.name_place == ""  # from the first name; "المحمود" stays a name


def test_the_fields_are_shown_exported_and_erased(write_csv: Callable[..., Path]) -> None:
    import_reports(write_csv(HEADER, ROWS[:1]), source="list")
    report = Report.objects.get(report_id="W1")
    page = render_to_string("web/reviewer/link_report.html", {"r": report})
    assert "أم خالد" in page and "خناصر" in page and "Dr." in page
    assert export_report(report)["versions"][0]["name_kunya"] == ["أم خالد"]
    erase_report(report)
    report.refresh_from_db()
    assert (report.name_titles, report.name_kunya, report.name_notes) == ([], [], [])
    assert report.name_place in ("", "[erased]") and "خناصر" not in str(report.__dict__)


def test_each_value_once_across_both_scripts() -> None:
    fields = written_name_fields({"full_name_ar": "الحاج عمر خليل (أبو أحمد)", "full_name_latin": "Hajj Omar Khalil (Abu Ahmad)",
                                  "first_name": "الحاج عمر"})
    assert fields["name_titles"] == ["الحاج", "Hajj"] and fields["name_kunya"] == ["أبو أحمد", "Abu Ahmad"]
