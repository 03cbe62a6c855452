"""Pairs that share a given name and a birth year but whose family names are spelt apart (real
forms of the US Syria sanctions list, public domain) must be compared; a short family name "two
consonants apart" is no evidence (issue 28, eighth session)."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import link_reports
from athar.matching.linkage.settings import SMALL_TABLE_RULES, rule_columns


def _reports(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame([{"unique_id": uid, "full_name": name, "birth_year": year, "birth_place": place}
                         for uid, name, year, place in rows])


def _pair(result, a: str, b: str) -> dict | None:  # type: ignore[no-untyped-def]
    p = result.pairs
    hit = p[(p.unique_id_l.isin([a, b])) & (p.unique_id_r.isin([a, b]))]
    return None if hit.empty else hit.iloc[0].to_dict()


def test_a_family_name_spelt_apart_is_compared_through_the_given_name_year_and_place() -> None:
    # HEWANI / HESSWANI: no rule on a family name meets them; the given name, the year and the place do
    result = link_reports(_reports([("h1", "HEWANI, George", "1946", "Yabrud"),
                                    ("h2", "HESSWANI, Georges", "1946", "Yabrud"),
                                    ("x1", "KHOURY, Elias", "1950", "Homs")]))
    pair = _pair(result, "h1", "h2")
    assert pair is not None, "the pair was never compared"
    assert pair["status"] in ("linked", "review")


def test_a_family_name_written_two_ways_without_a_place_is_compared_in_a_small_store() -> None:
    result = link_reports(_reports([("i1", "BAKHTIAR, Hisham", "1941", ""),
                                    ("i2", "IKHTIYAR, Hisham", "1941", ""),
                                    ("x1", "KHOURY, Elias", "1950", "Homs")]))
    assert _pair(result, "i1", "i2") is not None


def test_the_given_name_and_year_rule_is_limited_to_small_stores() -> None:
    populated = {"first_blk", "father_blk", "family_blk", "birth_year", "birth_place_key", "city_key"}
    (rule, limit), = SMALL_TABLE_RULES.items()
    assert rule in rule_columns(populated, n_rows=limit)
    assert rule not in rule_columns(populated, n_rows=limit + 1)
    assert rule not in rule_columns(populated, n_rows=0)


OTHERS = [("x1", "KHOURY, Elias", "1950", "Homs"), ("x2", "HADDAD, Samir", "1960", "Hama"),
          ("x3", "MAKHLOUF, Rami", "1969", "Jableh"), ("x4", "SHAWKAT, Assef", "1950", "Tartus"),
          ("x5", "NASR, Ali", "1955", "Homs"), ("x6", "ASSAD, Bushra", "1960", "Damascus")]


def test_a_short_family_name_two_consonants_apart_is_a_different_name() -> None:
    # QURJU (coarse key krk) and SHWEIKI (sk) were "two consonants apart" (+2.2 bits): with Muhammad,
    # a father's name whose Latin consonants agree (Mu'ammar / Amer) and a year apart, OFAC's two
    # persons linked
    result = link_reports(_reports([("q1", "QURJU, Muhammad Mu'ammar", "1971", ""),
                                    ("s1", "SHWEIKI, Mohammad Amer", "1972", "Damascus"), *OTHERS]))
    pair = _pair(result, "q1", "s1")
    assert pair is not None and pair["level_family_name"] == "different", pair
    assert pair["status"] != "linked"
