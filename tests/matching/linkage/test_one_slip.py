"""Issue 28, third session: one slip on one field of one report is weighed, never a veto, when the
rest of the pair names one person; siblings (another own given name) and namesakes stay apart."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from athar.matching.linkage import generate_reports, link_reports, prepare_reports, template_to_linkage_input
from athar.matching.linkage.constraints import facts_of, incompatibility, near_names, typo_years
from athar.matching.linkage.devset import sibling_merges
from athar.matching.linkage.link import ONE_SLIP_LEVEL

ONE_SLIP_CSV = Path(__file__).parents[3] / "benchmarks" / "linkage" / "data" / "one_slip.csv"
MOTHER = {"mother_name": "نادية المصري"}


def _why(one: dict, other: dict) -> str | None:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    return incompatibility(facts["1"], facts["2"])


@pytest.mark.parametrize(("one", "other", "reason"), [
    # a father's name one letter off (زياد / زيد are two real names, but the own name, the family,
    # the mother and the birth year say one man)
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", **MOTHER},
     {"full_name": "منير زيد الدرويش", "birth_year": "1986", **MOTHER}, None),
    ({"full_name": "نور عبد الحميد الرفاعي", "birth_year": "1990"},
     {"full_name": "نور عبالحميد الرفاعي", "birth_year": "1990"}, None),
    # two contradictions are two: a namesake cousin (another mother)
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", **MOTHER},
     {"full_name": "منير زيد الدرويش", "birth_year": "1986", "mother_name": "سعاد الخليل"}, "fathers' names differ"),
    # nothing personal agrees: a cousin named after the grandfather, other birth year, no mother
    ({"full_name": "منير زياد الدرويش", "birth_year": "1980"},
     {"full_name": "منير زيد الدرويش", "birth_year": "1984"}, "fathers' names differ"),
    # a father's name plainly another name is no slip
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", **MOTHER},
     {"full_name": "منير خالد الدرويش", "birth_year": "1986", **MOTHER}, "fathers' names differ"),
    # (nineteenth session) … unless the mother, the very birth year and the arrest month all agree: the
    # grandfather's name written in the father's place ("غسان توفيق ضاهر" / "Ghassan Yousef Daher")
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", "arrest_date": "2011-04-16", **MOTHER},
     {"full_name": "منير خالد الدرويش", "birth_year": "1986", "arrest_date": "2011-04", **MOTHER}, None),
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", "arrest_date": "2011-04-16", **MOTHER},
     {"full_name": "منير خالد الدرويش", "birth_year": "1987", "arrest_date": "2011-04", **MOTHER},
     "fathers' names differ"),
    # siblings: another own given name is never excused
    ({"full_name": "منير زياد الدرويش", "birth_year": "1986", **MOTHER},
     {"full_name": "فريد زياد الدرويش", "birth_year": "1986", **MOTHER}, "given names differ"),
    # a birth year mistyped (two digits swapped) in an otherwise identical report
    ({"full_name": "سامر علي الحسن", "birth_year": "1985", **MOTHER},
     {"full_name": "سامر علي الحسن", "birth_year": "1958", **MOTHER}, None),
    ({"full_name": "سامر علي الحسن", "birth_year": "1985", "city": "حمص", "arrest_date": "2012-05-14"},
     {"full_name": "سامر علي الحسن", "birth_year": "1958", "city": "حمص", "arrest_date": "2012-05-14"}, None),
    # years far apart, not a typing slip: two men
    ({"full_name": "سامر علي الحسن", "birth_year": "1971", **MOTHER},
     {"full_name": "سامر علي الحسن", "birth_year": "1988", **MOTHER},
     "birth years 1971 and 1988 are more than 5 years apart"),
    # a mother's name written otherwise, the full name, the town and the year the same
    ({"full_name": "سامر علي الحسن", "birth_year": "1985", "mother_name": "فاطمة الحسن"},
     {"full_name": "سامر علي الحسن", "birth_year": "1985", "mother_name": "مريم الحسن"}, None),
    # … but not without the father's name (a namesake of first and family name)
    ({"full_name": "سامر الحسن", "birth_year": "1985", "mother_name": "فاطمة الحسن"},
     {"full_name": "سامر الحسن", "birth_year": "1985", "mother_name": "مريم الحسن"}, "mothers' names differ"),
    # (thirteenth session) … nor with the town alone: namesakes of one town, the same three names,
    # born four years apart and arrested in other months, are told apart by their mothers
    ({"full_name": "خالد جميل حمدان", "city": "العشارة", "birth_year": "1984", "arrest_date": "2013-10-10",
      "mother_name": "خديجة الأحمد"},
     {"full_name": "خالد جميل حمدان", "city": "العشارة", "birth_year": "1980", "arrest_date": "2013-01-16",
      "mother_name": "مريم المصري"}, "mothers' names differ"),
    ({"full_name": "خالد جميل حمدان", "city": "العشارة", "arrest_date": "2013-10-10", "mother_name": "خديجة الأحمد"},
     {"full_name": "خالد جميل حمدان", "city": "العشارة", "arrest_date": "2013-10-10", "mother_name": "مريم المصري"},
     None),  # the same arrest month: one man, his mother's name a slip of one report
])
def test_one_slip_of_an_otherwise_identical_pair_is_no_contradiction(one: dict, other: dict,
                                                                     reason: str | None) -> None:
    assert _why(one, other) == reason


def test_near_names_and_typo_years() -> None:
    keys = facts_of(prepare_reports(pd.DataFrame([{"unique_id": str(i), "father_name": n} for i, n in enumerate(
        ["زياد", "زيد", "عبد الحميد", "عبالحميد", "خالد", "Chihab", "حبيب"])])))
    k = [keys[str(i)].names[1] for i in range(7)]
    assert near_names(k[0], k[1]) and near_names(k[2], k[3])
    assert not near_names(k[0], k[4]) and not near_names(k[5], k[6])
    assert typo_years(1985, 1958) and typo_years(1985, 1995)
    assert not typo_years(1971, 1988) and not typo_years(1985, 1976)


def test_a_fathers_name_one_letter_off_links_instead_of_the_guards_cap() -> None:
    """The guard capped "fathers' names differ" at 0.2 whatever the rest: now the weight counts."""
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    base = {"birth_year": "1986", "city": "دير الزور", "arrest_date": "2013-04-02", "sex": "M", **MOTHER}
    rows = pd.DataFrame([{**base, "unique_id": "a", "full_name": "منير زياد الدرويش"},
                         {**base, "unique_id": "b", "full_name": "منير زيد الدرويش"},
                         # his brother: another own given name, stays apart
                         {**base, "unique_id": "c", "full_name": "فريد زياد الدرويش", "birth_year": "1984"}])
    result = link_reports(pd.concat([background, rows], ignore_index=True).fillna(""))
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a"] == cluster["b"] != cluster["c"]
    pair = result.pairs[(result.pairs.unique_id_l.isin(["a", "b"])) & (result.pairs.unique_id_r.isin(["a", "b"]))]
    assert pair.iloc[0]["status"] == "linked" and pair.iloc[0]["guard"] == ""
    assert ONE_SLIP_LEVEL in pair.iloc[0]["explanation"]


# the kinds of slip the model now carries ("latin" since KAMEL names كمال as well as كامل:
# test_shared_spellings.py); the rest of the set (family name first with a family name that is also a
# given name or a title) is still missed: docs/linkage.md
CARRIED = {"father_cut", "father_swap", "father_drop", "sex", "birth_year", "branch", "bare", "title", "kunya",
           "persian", "own_drop", "family_swap", "short", "latin"}


def test_one_slip_set_links_every_one_slip_person_and_no_siblings() -> None:
    df = pd.read_csv(ONE_SLIP_CSV, dtype=str, keep_default_na=False)
    for col in ("first_name", "father_name", "family_name", "birth_place"):
        df[col] = ""
    slip_of = df[df["slip"] != ""].set_index("person_id")["slip"]
    result = link_reports(template_to_linkage_input(df.drop(columns=["slip"])), explain=False)
    clusters = result.cluster_ids(df["report_id"])
    assert sibling_merges(df, clusters) == 0
    split = df.assign(cluster=clusters).groupby("person_id")["cluster"].nunique()
    missed = {p: slip_of[p] for p in split[split > 1].index}
    assert {p: k for p, k in missed.items() if k in CARRIED} == {}


def test_one_wrong_fact_costs_weight_not_the_link() -> None:
    """A governorate wrong on one report was −14 bits (EM never saw one on the synthetic training
    reports): the same common full name, town and arrest date were not even scored above the floor."""
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    base = {"full_name": "محمد أحمد النجار", "city": "حلب", "arrest_date": "2012-05-14", "sex": "M"}
    rows = pd.DataFrame([{**base, "unique_id": "a", "governorate": "حلب"},
                         {**base, "unique_id": "b", "governorate": "إدلب"}])
    result = link_reports(pd.concat([background, rows], ignore_index=True).fillna(""))
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a"] == cluster["b"]


def test_every_disagreeing_fact_level_weighs_at_most_a_slip() -> None:
    import math

    from athar.matching.linkage.model import (
        FACT_COMPARISONS,
        FACT_SLIP_M,
        RARE_SLIP_M,
        default_model,
        effective_parameters,
    )

    params = effective_parameters(default_model())
    for comp in FACT_COMPARISONS:
        for label, level in params[comp].items():
            if (comp, label) in RARE_SLIP_M:
                continue
            if level["m"] is not None and level["u"] is not None and level["m"] < level["u"]:
                assert math.log2(level["m"] / level["u"]) >= math.log2(FACT_SLIP_M) - 1e-9, (comp, label)


def test_arrest_years_two_or_more_apart_weigh_more_than_a_slip_but_do_not_veto() -> None:
    """(eleventh session) No dev set holds a person whose reports give arrest years two or more apart;
    namesakes of one town do. That level weighs a quarter of a slip's m (−7.1 bits, not −4.8), the year
    before or after stays a slip, and a pair with everything else agreeing still links."""
    import math

    from athar.matching.linkage.model import FACT_SLIP_M, default_model, effective_parameters

    params = effective_parameters(default_model())["arrest_date"]
    further, near = params["further apart"], params["one year apart"]
    assert math.log2(further["m"] / further["u"]) < math.log2(FACT_SLIP_M / further["u"]) - 1.9
    assert near["m"] == pytest.approx(FACT_SLIP_M)
    background = template_to_linkage_input(generate_reports(1200, seed=1))
    base = {"full_name": "منير زياد الدرويش", "city": "حلب", "governorate": "حلب", "birth_year": "1986",
            "sex": "M", "mother_name": "نادية المصري"}
    rows = pd.DataFrame([{**base, "unique_id": "a", "arrest_date": "2012-05-14"},
                         {**base, "unique_id": "b", "arrest_date": "2015-02-01"}])
    result = link_reports(pd.concat([background, rows], ignore_index=True).fillna(""))
    pair = result.pairs[(result.pairs["unique_id_l"].isin(["a", "b"])) & (result.pairs["unique_id_r"].isin(["a", "b"]))]
    assert float(pair["mw_arrest_date"].iloc[0]) == pytest.approx(math.log2(further["m"] / further["u"]), abs=0.05)
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a"] == cluster["b"]
