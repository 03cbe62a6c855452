"""Reported facilities against the table; evaluation metrics."""

from __future__ import annotations

import numpy as np
import pytest

from athar.archive.facilities import starting_table
from athar.matching.scoring.evaluation import Outcome, identification_metrics, outcome_for
from athar.matching.scoring.places import FacilityTable


@pytest.fixture(scope="module")
def table() -> FacilityTable:
    t = starting_table()
    return FacilityTable.from_rows(t["facilities"], t["agencies"])


@pytest.mark.parametrize("text,facilities,agencies", [
    ("فرع فلسطين", {"235"}, {"military-intelligence"}),
    ("Branch 235", {"235"}, {"military-intelligence"}),
    ("فرع الخطيب", {"251"}, {"general-intelligence"}),
    ("المزة الجوية", {"air-force-intelligence-mezzeh"}, {"air-force-intelligence"}),
    ("الأمن العسكري", set(), {"military-intelligence"}),
    ("Saydnaya; 215", {"saydnaya", "215"}, {"military-police", "military-intelligence"}),
    ("فرع 999", set(), set()),
    ("", set(), set()),
])
def test_resolve(table: FacilityTable, text: str, facilities: set[str], agencies: set[str]) -> None:
    assert table.resolve(text) == (frozenset(facilities), frozenset(agencies))


def test_metrics() -> None:
    outcomes = [Outcome(0, 100, True, True, True), Outcome(2, 100, True, False), Outcome(1, 100, False, False),
                Outcome(29, 100, False, False), Outcome(None, 100, True, True), Outcome(None, 100, False, False)]
    m = identification_metrics(outcomes)
    assert m["with_photo"] == {"reports": 2, "rank1": 0.5, "rank10": 1.0, "median_rank": 2.0, "top2pct": 0.5,
                               "mean_views": 1.0}
    assert m["without_photo"]["top2pct"] == 0.5 and m["without_photo"]["mean_views"] == 15.0
    assert m["false_match_rate"] == 0.5


def test_ties_count_as_random_order() -> None:
    tied = outcome_for(np.array([3.0, 3.0, 3.0, 3.0, 1.0]), 2, 5, False, False)
    assert (tied.above, tied.tied, tied.rank) == (0, 4, 2.5)
    m = identification_metrics([tied])["without_photo"]
    assert m["rank1"] == 0.25 and m["mean_views"] == 1.5
