"""The arresting agency as families word it: one branch, one id (issue 28: "a different wording of
the same branch" sent obvious pairs to review)."""

from __future__ import annotations

import pytest

from athar.matching.linkage.prepare import agency_id


@pytest.mark.parametrize(("wording", "agency"), [
    ("فرع فلسطين", "branch_235"),
    ("Palestine Branch", "branch_235"),
    ("الفرع ٢٣٥", "branch_235"),  # Arabic-Indic digits
    ("235", "branch_235"),  # the number alone, in the agency column
    ("Raids Branch 215", "branch_215"),
    ("فرع المداهمة 215", "branch_215"),
    ("فرع المخابرات الجوية", "air_force_intelligence"),  # a filler word around a known name
    ("فرع المخابرات الجوية بالمزة", "air_force_intelligence"),  # a known name inside a longer wording
    ("Sednaya", "saydnaya"),
    ("سجن صيدنايا", "saydnaya"),
    ("Saydnaya military prison", "saydnaya"),
    ("فرع التحقيق العسكري", "branch_248"),  # the fresh set's wording of 248 was an agency of its own
    ("Military Investigation Branch", "branch_248"),
    ("Region Branch", "branch_227"),
    ("Far Falastin", "branch_235"),
    ("مخابرات جوية", "air_force_intelligence"),
])
def test_one_agency_however_it_is_worded(wording: str, agency: str) -> None:
    assert agency_id(wording) == agency


@pytest.mark.parametrize(("wording", "kept"), [
    ("2012", "2012"),  # a year is not a branch number
    ("قسم الشرطة", "قسم الشرطه"),  # unknown: compared as written (normalised)
])
def test_what_the_table_does_not_know_is_kept_as_written(wording: str, kept: str) -> None:
    assert agency_id(wording) == kept


def test_no_agency() -> None:
    assert agency_id("") is None
