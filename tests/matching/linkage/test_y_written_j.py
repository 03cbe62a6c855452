"""A y written j, as German, Dutch and Scandinavian spellings do (constraints._y_written_j; issue 28,
nineteenth session: field_lists.py's relatives' forms filled in Germany wrote Fajez, Ajman, Aljan,
and their reports were parted from the man's own as "given names differ")."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of, names_agree


def _given(*names: str) -> list:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": str(i), "first_name": n}
                                                   for i, n in enumerate(names)])))
    return [facts[str(i)].names[0] for i in range(len(names))]


@pytest.mark.parametrize(("german", "other"), [
    ("Fajez", "فايز"), ("Ajman", "أيمن"), ("Aljan", "عليان"), ("Fajez", "Fayez"), ("Ajman", "Ayman"),
])
def test_a_y_written_j_is_the_same_name(german: str, other: str) -> None:
    a, b = _given(german, other)
    assert names_agree(a, b)


@pytest.mark.parametrize(("english", "other"), [("Jihad", "هادي"), ("Jamal", "أمل"), ("Jamal", "Amal")])
def test_an_english_j_of_a_known_name_stays_j(english: str, other: str) -> None:
    a, b = _given(english, other)
    assert not names_agree(a, b)
