"""A mother named in the full name ("احمد ابن مريم") is compared as the mother's name when the report's
mother column is empty (prepare.read_full_names; names/written._mother_named)."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage.prepare import prepare_reports


def _row(**fields: str) -> pd.Series:
    return prepare_reports(pd.DataFrame([{"unique_id": "1", **fields}])).iloc[0]


def test_the_mother_named_in_the_full_name_is_the_mothers_name() -> None:
    named = _row(full_name="احمد ابن مريم")
    filed = _row(first_name="أحمد", family_name="عيون", mother_name="مريم")
    assert named["mother_id"] is not None and named["mother_id"] == filed["mother_id"]
    assert named["first_id"] == filed["first_id"] and named["father_id"] is None


def test_the_mother_column_comes_first() -> None:
    assert _row(full_name="احمد ابن مريم", mother_name="زينب")["mother_id"] == _row(mother_name="زينب")["mother_id"]
