"""Issue 28, twentieth session: a report that leaves the father out of the lineage ("Ali Habib
Mahmoud" for "Ali Muhammad Habib Mahmoud", OFAC's real aliases) is one man when the rest agrees; a
family name ending in the Ottoman title bek ("KHEIR BEIK", "خير بك") is one name."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import generate_reports, link_reports, prepare_reports, template_to_linkage_input
from athar.matching.linkage.constraints import facts_of, incompatibility, skipped_generation
from athar.matching.linkage.link import SKIPPED_LEVEL


def _facts(one: dict, other: dict):  # type: ignore[no-untyped-def]
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    return facts["1"], facts["2"]


@pytest.mark.parametrize(("one", "other", "skipped"), [
    ({"full_name": "علي حبيب محمود", "birth_year": "1939"},
     {"full_name": "علي محمد حبيب محمود", "birth_year": "1939"}, True),
    ({"first_name": "Ali", "father_name": "Habib", "family_name": "Mahmoud", "birth_year": "1939"},
     {"first_name": "Ali", "father_name": "Muhammad", "grandfather_name": "Habib", "family_name": "Mahmud",
      "birth_year": "1939"}, True),
    # not the mother's name instead of the very birth year: brothers share it (a compound given name
    # read as given and father's names, "محمد خير علي أبو زيد" against his brother "محمد علي أبو زيد")
    ({"full_name": "علي حبيب محمود", "mother_name": "فاطمة"},
     {"full_name": "علي محمد حبيب محمود", "mother_name": "فاطمه"}, False),
    ({"full_name": "محمد علي أبو زيد", "birth_year": "1974", "mother_name": "رغد عيسى"},
     {"full_name": "محمد خير علي أبو زيد", "birth_year": "1978", "mother_name": "رغد عيسى"}, False),
    # another birth year and no mother: an uncle and his nephew named after him
    ({"full_name": "علي حبيب محمود", "birth_year": "1939"},
     {"full_name": "علي محمد حبيب محمود", "birth_year": "1966"}, False),
    ({"full_name": "علي حبيب محمود"}, {"full_name": "علي محمد حبيب محمود"}, False),
    # brothers: another own given name
    ({"full_name": "حسن حبيب محمود", "birth_year": "1939"},
     {"full_name": "علي محمد حبيب محمود", "birth_year": "1939"}, False),
    # both name a grandfather: two lineages, not one shortened
    ({"full_name": "علي حبيب سليم محمود", "birth_year": "1939"},
     {"full_name": "علي محمد حبيب محمود", "birth_year": "1939"}, False),
])
def test_a_father_left_out_of_the_lineage(one: dict, other: dict, skipped: bool) -> None:
    a, b = _facts(one, other)
    assert skipped_generation(a, b) is skipped and skipped_generation(b, a) is skipped
    assert (incompatibility(a, b) is None) is skipped


def test_the_shortened_alias_links_and_says_why() -> None:
    """Before: "fathers' names differ (namesakes?)", capped at 0.1 (OFAC: MAHMOUD, Ali Habib)."""
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    base = {"birth_year": "1939", "birth_place": "طرطوس", "sex": "M"}
    rows = pd.DataFrame([{**base, "unique_id": "a", "full_name": "علي حبيب محمود"},
                         {**base, "unique_id": "b", "full_name": "علي محمد حبيب محمود"},
                         {**base, "unique_id": "c", "full_name": "حسن محمد حبيب محمود"}])  # his brother
    result = link_reports(pd.concat([background, rows], ignore_index=True).fillna(""))
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a"] == cluster["b"] != cluster["c"]
    pair = result.pairs[result.pairs.unique_id_l.isin(["a", "b"]) & result.pairs.unique_id_r.isin(["a", "b"])]
    assert pair.iloc[0]["status"] == "linked" and SKIPPED_LEVEL in pair.iloc[0]["explanation"]


@pytest.mark.parametrize("written", ["KHEIR BEIK, Mohamad Nassif", "KHAYR-BAYK, Muhammad Nasif",
                                     "KHAIRBEK, Mohammed Nassif", "محمد ناصيف خير بك"])
def test_a_family_name_ending_in_bek_is_one_name(written: str) -> None:
    table = prepare_reports(pd.DataFrame([{"unique_id": "1", "full_name": written}]))
    row = table.iloc[0]
    assert (row["first_id"], row["father_id"], row["family_blk"]) == ("muhammad", "nasif", "xrbk")
    assert row["grandfather_id"] is None
