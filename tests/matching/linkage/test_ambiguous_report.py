"""A report that names a man by his given and family name alone, linked as strongly to two persons
the constraints keep apart, is set aside for review (clustering._set_aside_ambiguous)."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import Decision, cluster_pairs, link_reports, prepare_reports
from athar.matching.linkage.clustering import AMBIGUOUS_REASON
from athar.matching.linkage.constraints import Constraints


def _two_namesakes_and_a_list_entry(list_entry: dict | None = None) -> pd.DataFrame:
    # Field lists (seed 32): two Muhammad al-Haddad of Darayya, sons of Fayez and of Khaled, each
    # reported twice in full; a WhatsApp list says "محمد الحداد", Darayya, and nothing else.
    rows = [{"unique_id": "a1", "full_name": "محمد فايز الحداد", "city": "داريا", "birth_year": "1975"},
            {"unique_id": "a2", "full_name": "محمد فايز الحداد", "city": "داريا", "birth_year": "1975"},
            {"unique_id": "b1", "full_name": "محمد خالد الحداد", "city": "داريا", "birth_year": "1980"},
            {"unique_id": "b2", "full_name": "محمد خالد الحداد", "city": "داريا", "birth_year": "1980"},
            {"unique_id": "t", "full_name": "محمد الحداد", "city": "داريا", **(list_entry or {})}]
    return prepare_reports(pd.DataFrame(rows))


def _pairs(to_a: float, to_b: float) -> pd.DataFrame:
    return pd.DataFrame({"unique_id_l": ["a1", "b1", "a1", "b1"], "unique_id_r": ["a2", "b2", "t", "t"],
                         "match_probability": [0.999, 0.999, to_a, to_b]})


def test_a_list_entry_that_fits_two_namesakes_as_well_is_set_aside_with_both_pairs_for_review() -> None:
    table = _two_namesakes_and_a_list_entry()
    outcome = cluster_pairs(table["unique_id"], _pairs(0.97, 0.97), 0.9, constraints=Constraints(table))
    cluster = outcome.cluster_of
    assert cluster["a1"] == cluster["a2"] != cluster["b1"] == cluster["b2"]
    assert cluster["t"] not in (cluster["a1"], cluster["b1"])
    refused = {frozenset((a, b)): why for a, b, _, why in outcome.split_edges}
    assert refused[frozenset(("a1", "t"))] == AMBIGUOUS_REASON  # the one it had joined, now for review
    assert "fathers' names differ" in refused[frozenset(("b1", "t"))]  # the other, refused as before


def test_a_list_entry_clearly_stronger_with_one_of_them_stays_with_him() -> None:
    table = _two_namesakes_and_a_list_entry()
    outcome = cluster_pairs(table["unique_id"], _pairs(0.9999, 0.91), 0.9, constraints=Constraints(table))
    assert outcome.cluster_of["t"] == outcome.cluster_of["a1"] != outcome.cluster_of["b1"]


def test_a_report_that_names_a_mother_is_not_a_bare_name() -> None:
    table = _two_namesakes_and_a_list_entry({"mother_name": "فاطمة"})
    outcome = cluster_pairs(table["unique_id"], _pairs(0.97, 0.97), 0.9, constraints=Constraints(table))
    assert outcome.cluster_of["t"] == outcome.cluster_of["a1"]  # strongest first, ties by id: as before


def test_a_person_holding_a_reviewers_decision_is_left_as_it_is() -> None:
    table = _two_namesakes_and_a_list_entry()
    outcome = cluster_pairs(table["unique_id"], _pairs(0.97, 0.97), 0.9, [Decision("a1", "t", "same")],
                            Constraints(table))
    assert outcome.cluster_of["t"] == outcome.cluster_of["a1"] != outcome.cluster_of["b1"]


def test_the_run_offers_the_set_aside_entry_with_each_namesake_for_review() -> None:
    rows = [{"unique_id": f"{who}{n}", "full_name": f"محمد {father} الحداد", "city": "داريا", "sex": "M",
             "birth_year": year, "mother_name": mother, "arrest_date": date}
            for who, father, year, mother, date in (("a", "فايز", "1975", "خديجة", "2012-04-14"),
                                                    ("b", "خالد", "1980", "زينب", "2012-03-20"))
            for n in (1, 2)]
    rows.append({"unique_id": "t", "full_name": "محمد الحداد", "city": "داريا", "sex": "M", "arrest_date": "2012"})
    result = link_reports(pd.DataFrame(rows))
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a1"] == cluster["a2"] != cluster["b1"] == cluster["b2"]
    assert cluster["t"] not in (cluster["a1"], cluster["b1"])
    offered = {cluster[u] for a, b in zip(result.review["unique_id_l"], result.review["unique_id_r"]) if "t" in (a, b)
               for u in (a, b) if u != "t"}
    assert offered == {cluster["a1"], cluster["b1"]}
