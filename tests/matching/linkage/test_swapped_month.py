"""Issue 28, twentieth session: a date written with slashes may be day first (as the import reads it)
or month first (as an English-speaking clerk writes it): two sides whose arrest months differ only
so are not kept apart."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import corroborated_conflict, facts_of
from athar.matching.linkage.prepare import swapped_month


@pytest.mark.parametrize(("written", "month"), [
    ("11/09/2014", 2014 * 12 + 10), ("09/11/2014", 2014 * 12 + 8), ("3/4/2013", 2013 * 12 + 2),
    ("02/15/2012", None), ("15/02/2012", None),  # only one reading is a date
    ("05/05/2012", None),  # both the same
    ("15.02.2012", None), ("11.09.2014", None), ("11-09-2014", None), ("2014/09/11", None),  # written one way
])
def test_the_other_reading_of_a_date_with_slashes(written: str, month: int | None) -> None:
    assert swapped_month(written) == month


def _side(*dates: str) -> list:
    rows = [{"unique_id": str(i), "full_name": "مازن محمد النايف", "arrest_date": d} for i, d in enumerate(dates)]
    facts = facts_of(prepare_reports(pd.DataFrame(rows)))
    return [facts[str(i)] for i in range(len(dates))]


def test_two_sides_apart_only_by_the_way_a_date_is_read_are_not_kept_apart() -> None:
    """field_lists: "Mazen an-Nayef, 11/09/2014" with reports of September against "MAZEN EL NAYEF,
    09/11/2014" with one of November."""
    september = _side("2014-09", "2014-09-11", "2014-09")
    assert corroborated_conflict(september, _side("09/11/2014", "09/11/2014")) is None
    assert corroborated_conflict(september, _side("2014-11-09", "2014-11")) is not None  # written one way only
