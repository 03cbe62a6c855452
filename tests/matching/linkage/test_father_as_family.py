"""Issue 28, twenty-second session: a name of two words may be a given and a father's name. OFAC's
aliases of one man (born 1939 in Tartous) write "HABIB, Ali" and "MAHMOUD, Ali Habib" — Ali son of
Habib, of the Mahmoud family: when one report names no father and its family name is the other's
father's name, the two family names are not compared; the rest of the pair decides."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.constraints import facts_of
from athar.matching.linkage.link import FATHER_AS_FAMILY_LEVEL, _father_is_family

LinkAmong = Callable[[list[dict]], tuple[dict[str, str], pd.DataFrame]]  # conftest.link_among_background


def _facts(*names: str) -> list:
    table = prepare_reports(pd.DataFrame([{"unique_id": str(i), "full_name": n} for i, n in enumerate(names)]))
    facts = facts_of(table)
    return [facts[str(i)] for i in range(len(names))]


def test_a_fatherless_family_name_that_is_the_others_father() -> None:
    short, long_, other = _facts("HABIB, Ali", "MAHMOUD, Ali Habib", "MAHMOUD, Ali Hasan")
    assert _father_is_family(short, long_)
    assert not _father_is_family(long_, short)  # the long one names a father: it is not the short one
    assert not _father_is_family(short, other)  # Habib is not the other's father


def test_across_scripts() -> None:
    short, long_ = _facts("علي حبيب", "ALI HABIB MAHMOUD")
    assert _father_is_family(short, long_)


def test_a_given_and_fathers_name_links_to_the_full_name_when_the_facts_agree(link_among_background: LinkAmong) -> None:
    base = {"birth_year": "1939", "birth_place": "طرطوس"}
    cluster, pairs = link_among_background([{**base, "unique_id": "a", "full_name_latin": "HABIB, Ali"},
                            {**base, "unique_id": "b", "full_name_latin": "MAHMOUD, Ali Habib"}])
    assert cluster["a"] == cluster["b"]
    assert (pairs["level_family_name"] == FATHER_AS_FAMILY_LEVEL).all()


def test_without_agreeing_facts_the_two_names_alone_do_not_link(link_among_background: LinkAmong) -> None:
    cluster, _ = link_among_background([{"unique_id": "a", "full_name_latin": "HABIB, Ali", "birth_year": "1939"},
                        {"unique_id": "b", "full_name_latin": "MAHMOUD, Ali Habib", "birth_year": "1962"}])
    assert cluster["a"] != cluster["b"]
