"""Constrained clustering: brothers and sisters are never one person; every split is explained."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import (
    cluster_pairs,
    generate_reports,
    link_reports,
    prepare_reports,
    template_to_linkage_input,
)
from athar.matching.linkage.constraints import Constraints, ReportFacts, facts_of, incompatibility
from athar.matching.linkage.devset import _builtin_pool, generate_devset, sibling_merges

FAMILY = [  # five children of one father, one mother, one family name, one town, one arrest
    ("c1", "محمد أحمد الحلبي", "M", "1980"), ("c2", "Mahmoud Ahmad al-Halabi", "M", "1982"),
    ("c3", "خالد أحمد الحلبي", "M", "1984"), ("c4", "Fatima Ahmad Halabi", "F", "1986"),
    ("c5", "مريم أحمد الحلبي", "F", "1988"),
    ("c6", "Mohamed Ahmed El-Halabi", "M", "1980"), ("c7", "محمود احمد الحلبي", "M", "1981"),
]


def _family() -> pd.DataFrame:
    return pd.DataFrame([{"unique_id": uid, "full_name": name, "sex": sex, "birth_year": year,
                          "mother_name": "فاطمة العلي", "governorate": "حلب", "arrest_date": "2012-06-01"}
                         for uid, name, sex, year in FAMILY])


def test_five_children_of_one_father_stay_five_people() -> None:
    result = link_reports(_family())
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["c1"] == cluster["c6"] and cluster["c2"] == cluster["c7"]
    others = [cluster[c] for c in ("c1", "c2", "c3", "c4", "c5")]
    assert len(set(others)) == 5


def test_a_chain_through_a_third_report_is_refused_and_explained() -> None:
    """A and B (brothers) both score high with C (a report that gives no first name) —
    connected components would chain them; the constraint keeps them apart and says why."""
    table = prepare_reports(pd.DataFrame([
        {"unique_id": "a", "full_name": "محمد أحمد الحلبي", "sex": "M"},
        {"unique_id": "b", "full_name": "محمود أحمد الحلبي", "sex": "M"},
        {"unique_id": "c", "father_name": "أحمد", "family_name": "الحلبي", "sex": "M"},
    ]))
    pairs = pd.DataFrame({"unique_id_l": ["a", "b"], "unique_id_r": ["c", "c"], "match_probability": [0.99, 0.98]})
    plain = cluster_pairs(table["unique_id"], pairs, 0.9)
    assert plain.cluster_of["a"] == plain.cluster_of["b"]  # what connected components do
    outcome = cluster_pairs(table["unique_id"], pairs, 0.9, constraints=Constraints(table))
    assert outcome.cluster_of["a"] != outcome.cluster_of["b"]
    assert outcome.split_edges == [("b", "c", 0.98, "given names differ (reports b and a)")]


def test_equal_scores_cluster_the_same_whatever_order_the_engine_returns_them() -> None:
    """Two brothers score the same with a report that gives no first name: which one it joins
    must not depend on the order of the engine's rows (DuckDB's differs from run to run)."""
    table = prepare_reports(pd.DataFrame([
        {"unique_id": "a", "full_name": "محمد أحمد الحلبي", "sex": "M"},
        {"unique_id": "b", "full_name": "محمود أحمد الحلبي", "sex": "M"},
        {"unique_id": "c", "father_name": "أحمد", "family_name": "الحلبي", "sex": "M"},
    ]))
    pairs = pd.DataFrame({"unique_id_l": ["a", "b"], "unique_id_r": ["c", "c"], "match_probability": [0.99, 0.99]})
    one = cluster_pairs(table["unique_id"], pairs, 0.9, constraints=Constraints(table))
    other = cluster_pairs(table["unique_id"], pairs.iloc[::-1], 0.9, constraints=Constraints(table))
    assert one.cluster_of == other.cluster_of and one.split_edges == other.split_edges
    assert one.cluster_of["a"] == one.cluster_of["c"] != one.cluster_of["b"]


def _namesakes() -> pd.DataFrame:
    # two Yaser Ali Taha of Raqqa (fresh_syrian, eleventh session): one arrested 2012-05 (a1, a2), one
    # 2013-08 (b1, b2); each report alone weighs a year-apart date only a little
    return prepare_reports(pd.DataFrame([
        {"unique_id": uid, "full_name": "ياسر علي طه", "city": "الرقة", "arrest_date": date}
        for uid, date in (("a1", "2012-05"), ("a2", "2012-05-02"), ("b1", "2013-08"), ("b2", "2013-08-22"))]))


def test_namesakes_chained_report_by_report_are_parted_when_each_side_agrees_twice() -> None:
    """Strongest first, a1-b1 joined two single reports (nothing told them apart yet), and a2, b2
    followed their own: one person arrested twice over. Clustered again with the edges between
    reports that agree first, each side forms and the join is refused, for review, with its reason."""
    table = _namesakes()
    pairs = pd.DataFrame({"unique_id_l": ["a1", "a1", "b1"], "unique_id_r": ["b1", "a2", "b2"],
                          "match_probability": [0.99, 0.98, 0.97]})
    outcome = cluster_pairs(table["unique_id"], pairs, 0.9, constraints=Constraints(table))
    assert outcome.cluster_of["a1"] == outcome.cluster_of["a2"] != outcome.cluster_of["b1"] == outcome.cluster_of["b2"]
    assert [(a, b, why.split(" (")[0]) for a, b, _, why in outcome.split_edges] == [
        ("a1", "b1", "arrest months differ, each stated by two reports of its side")]


def test_a_reviewers_same_is_never_parted_by_the_second_clustering() -> None:
    from athar.matching.linkage import Decision

    table = _namesakes()
    pairs = pd.DataFrame({"unique_id_l": ["a1", "a1", "b1"], "unique_id_r": ["b1", "a2", "b2"],
                          "match_probability": [0.99, 0.98, 0.97]})
    outcome = cluster_pairs(table["unique_id"], pairs, 0.9, [Decision("a1", "b1", "same")], Constraints(table))
    assert len({outcome.cluster_of[u] for u in ("a1", "a2", "b1", "b2")}) == 1


def test_a_reviewer_may_still_say_same() -> None:
    table = prepare_reports(pd.DataFrame([{"unique_id": "a", "full_name": "محمد أحمد الحلبي"},
                                          {"unique_id": "b", "full_name": "محمود أحمد الحلبي"}]))
    pairs = pd.DataFrame({"unique_id_l": ["a"], "unique_id_r": ["b"], "match_probability": [0.99]})
    from athar.matching.linkage import Decision

    outcome = cluster_pairs(table["unique_id"], pairs, 0.9, [Decision("a", "b", "same")], Constraints(table))
    assert outcome.cluster_of["a"] == outcome.cluster_of["b"]


@pytest.mark.parametrize(("one", "other", "reason"), [
    ({"full_name": "محمد أحمد الحلبي"}, {"full_name": "Mohamed Ahmad Halabi"}, None),
    ({"full_name": "محمد أحمد الحلبي"}, {"full_name": "Mahmoud Ahmad Halabi"}, "given names differ"),
    ({"full_name": "Hilmi Bassam Baroudi"}, {"full_name": "Salem Bassam Baroudi"}, "given names differ"),
    ({"full_name": "نوفل حمادة قصاب"}, {"full_name": "نوفل خمادة قصاب"}, None),  # dots misread
    ({"full_name": "ناصر هشام الحلبي"}, {"full_name": "ناضر هشام الحلبي"}, None),
    # a sex that contradicts the same given name is a slip of one report (issue 28); without a
    # given name to say so, the sexes still part two reports
    ({"full_name": "سامر علي", "sex": "M"}, {"full_name": "سامر علي", "sex": "F"}, None),
    ({"father_name": "علي", "family_name": "الحسن", "sex": "F"}, {"full_name": "سامر علي الحسن", "sex": "M"},
     "sexes differ"),
    ({"full_name": "سامر علي", "birth_year": "1970"}, {"full_name": "سامر علي", "birth_year": "1976"},
     "birth years 1970 and 1976 are more than 5 years apart"),
    ({"full_name": "سامر علي", "birth_year": "1970"}, {"full_name": "سامر علي", "birth_year": "1975"}, None),
    ({"full_name": "سامر علي", "mother_name": "فاطمة"}, {"full_name": "سامر علي", "mother_name": "مريم"},
     "mothers' names differ"),
    ({"full_name": "سامر علي الحسن"}, {"full_name": "سامر خالد الحسن"}, "fathers' names differ"),
    ({"full_name": "سامر الحسن"}, {"full_name": "سامر خالد الحسن"}, None),  # a dropped middle name
    # one dot: ع/غ (the skeleton drops ع and keeps غ), ف/ق, ج/ح — the letters without dots agree
    ({"full_name": "بسام علاء عرابي"}, {"full_name": "بسام غلاء عرابي"}, None),
    ({"full_name": "فاطمة أبي الأسعد"}, {"full_name": "قاطمه أبي الاسعد"}, None),
    ({"full_name": "حياة جمعة عمر"}, {"full_name": "جياه جمعه عمر"}, None),
    # siblings whose names differ by more than dots stay apart
    ({"full_name": "هلال أحمد خليل"}, {"full_name": "بلال أحمد خليل"}, "given names differ"),
    ({"full_name": "سامر أحمد خليل"}, {"full_name": "سمير أحمد خليل"}, "given names differ"),
    # two Arabic spellings more than a typo apart are two names even on one skeleton (عادل / دلال: dl),
    # a brother and a sister of the real-names set; a doubled letter, a typo, a swap or a joined
    # compound is one name
    ({"full_name": "عادل حاتم النجار"}, {"full_name": "دلال حاتم النجار"}, "given names differ"),
    ({"full_name": "سالي خالد الطويل"}, {"full_name": "دلال خويلد الطويل"}, "given names differ"),
    ({"full_name": "داود سليم الحلبي"}, {"full_name": "داوود سليم الحلبي"}, None),
    ({"full_name": "محمد سليم الحلبي"}, {"full_name": "ممحد سليم الحلبي"}, None),
    ({"full_name": "عبد الرحمن سليم الحلبي"}, {"full_name": "عبدالرحمن سليم الحلبي"}, None),
    # two names the variants table does not know, which the model calls a similar spelling, are not
    # "different names" to the constraints either (google_cross); a Latin consonant changed still is
    ({"full_name": "ماوريتسيو بهجا التهانوي"}, {"full_name": "Maurizio Bahja Thanwi"}, None),
    ({"full_name": "Lujain Ahmad Halabi"}, {"full_name": "Lujair Ahmad Halabi"}, "given names differ"),
    # an Arabic given name the table does not know, whose long vowels no spelling of the table's name
    # on the same consonants writes, is another name (the diminutive خويلد of Khalid; عزوز / Aziz); a
    # Latin spelling may add short vowels (حميد / Hamid, سالي / Sali) and one group may write several
    # (داوود / Dawod); only the own given name is held so (a father's مصطىف is a slip of Mustafa)
    ({"full_name": "خويلد براء قطان"}, {"full_name": "Khalid Bara Kattan"}, "given names differ"),
    ({"full_name": "عزوز علي الحسن"}, {"full_name": "Aziz Ali al-Hasan"}, "given names differ"),
    ({"full_name": "خلود علي الحسن"}, {"full_name": "Khalid Ali al-Hasan"}, "given names differ"),
    ({"full_name": "حميد علي الحسن"}, {"full_name": "Hamid Ali al-Hasan"}, None),
    ({"full_name": "سالي خالد الطويل"}, {"full_name": "Sali Khaled Tawil"}, None),
    ({"full_name": "داوود باسل الحسني"}, {"full_name": "Dawod Basel al-Hassani"}, None),
    ({"full_name": "خويلد علي الحسن"}, {"full_name": "Khuwaylid Ali al-Hasan"}, None),
    ({"full_name": "سامر مصطىف الشامي"}, {"full_name": "Samer Mustafa al-Shami"}, None),
    # a father's name cut to "عبد" against a compound the table does not know, written joined or not
    # (independent_syrian, eighth session); "عبد" is no cut copy of another name (بدران)
    ({"first_name": "يوسف", "father_name": "عبد", "family_name": "الأيوبي"},
     {"first_name": "يوسف", "father_name": "عبد الحكيم", "family_name": "الأيوبي"}, None),
    ({"full_name": "فادي عبد فادي الأحمد"}, {"full_name": "فادي عبد الرؤوف الأحمد"}, None),
    ({"full_name": "Ahmad Abd al-Farhan"}, {"full_name": "أحمد عبدالمحسن الفرحان"}, None),
    ({"first_name": "يوسف", "father_name": "عبد", "family_name": "الأيوبي"},
     {"first_name": "يوسف", "father_name": "بدران", "family_name": "الأيوبي"}, "fathers' names differ"),
    # (twelfth session, fresh set) "عبد" cut short against "ABDEL" cut short: the same first word; a
    # slip on the article's letters of a compound the table knows ("عبد احلميد", "عبد اكلريم") is one name,
    # against its Arabic or its Latin spelling
    ({"full_name": "علي عبد خضور"}, {"full_name": "ALI ABDEL KHADDOUR"}, None),
    ({"full_name": "علي عبد خضور"}, {"full_name": "ALI ABDEL DJALEL KHADDOUR"}, None),
    ({"full_name": "عبد احلميد محمد الحسن"}, {"full_name": "ABDULHAMID MOHAMED AL HASAN"}, None),
    ({"full_name": "عبد احلميد محمد الحسن"}, {"full_name": "عبد الحميد محمد الحسن"}, None),
    ({"full_name": "عبد اكلريم وائل الغوثاني"}, {"full_name": "عبد الكريم وائل الغوثاني"}, None),
    ({"full_name": "عبد اكلريم وائل الغوثاني"}, {"full_name": "عبد الرحيم وائل الغوثاني"}, "given names differ"),
    ({"full_name": "Amer Abdul Jomaa"}, {"first_name": "عامر", "father_name": "عبد الهادي", "family_name": "جمعة"},
     None),  # "Abdul" cut short against an Arabic compound whose id ("bdhadi") is short
    # a garbled copy whose long vowels moved with the slip is still a slip (مصطىف: two neighbours swapped)
    ({"full_name": "مصطفى محمد البيطار"}, {"full_name": "مصطىف محمد البيطار"}, None),
    ({"full_name": "ختام يوسف الفارس"}, {"full_name": "خام يوسف الفارس"}, None),
    # a sex that contradicts one given name with a dot misread is a slip (حاقظ / حافظ); two real names on
    # the same letters without dots (يسرى / بشرى) are two names (twenty-ninth session: given names
    # differ, before the sexes)
    ({"full_name": "حاقظ محمد الدخيل", "sex": "M"}, {"full_name": "حافظ الدخيل", "sex": "F"}, None),
    ({"full_name": "يسرى محمد الدخيل", "sex": "F"}, {"full_name": "بشرى محمد الدخيل", "sex": "M"}, "given names differ"),
    # two Arabic spellings one letter apart, not by a dot, are brothers' names, however alike their ids
    # (amr / tamr: the model's "similar spelling"); across scripts a similar spelling still agrees
    ({"full_name": "عامر حسين بشار الجبوري"}, {"full_name": "تامر حسين بشار الجبوري"}, "given names differ"),
    # ج written g, as Egyptians write it (real_cross): حجي / Heggy is one name, given or father's
    ({"full_name": "حجي فواز بكور"}, {"full_name": "Heggy Fawwaz Bakkour"}, None),
    ({"full_name": "طه حجي عرابي"}, {"full_name": "Taha Heggy Urabi"}, None),
    ({"full_name": "حجي جاسر عمر"}, {"full_name": "Heggy Jacir Oumar"}, None),
    # و written v (Turkish, Bosnian, Persian spellings), اة read "at"; an f or a gh is no such spelling
    ({"full_name": "وداد دريد البشير"}, {"full_name": "Vedad Douraïd Béchir"}, None),
    ({"full_name": "فراتيني نجاة دينه"}, {"full_name": "Frattini Najat Dinah"}, None),
    ({"full_name": "حياة خالد الحلبي"}, {"full_name": "Hayat Khaled Halabi"}, None),
    ({"full_name": "وحيد خالد الحلبي"}, {"full_name": "Fahid Khaled Halabi"}, "given names differ"),
    ({"full_name": "حجي خالد الحلبي"}, {"full_name": "Haghi Khaled Halabi"}, "given names differ"),
    # (thirteenth session, fresh set) an Arabic spelling that is no name but a slip of real names is
    # read as them: "حممد" is محمد (or حمد) — not Moaz, whose consonant keys it meets once h drops
    # (coarse "mt"); against Muhammad or Hamad it is one name; "ممد" is محمد, not Mahmoud
    ({"full_name": "حممد عرنوس", "city": "الباب"}, {"full_name": "Moaz Abdelrahman Arnous", "city": "Al-Bab"},
     "given names differ"),
    ({"full_name": "حممد عرنوس"}, {"full_name": "Mohammed Arnous"}, None),
    ({"full_name": "حممد عرنوس"}, {"full_name": "Hamad Arnous"}, None),
    ({"full_name": "ممد خالد عرنوس"}, {"full_name": "Mahmoud Khaled Arnous"}, "given names differ"),
    ({"full_name": "قهد خالد عرنوس"}, {"full_name": "Fahd Khaled Arnous"}, None),  # a dot misread
    # a given name of two consonants across scripts is one name when the Arabic's long vowels stand
    # where the Latin writes them (فواز / Fawwaz, معن / Maan): a sex on one report is then a slip; a
    # brother's and a sister's names on one key are not (ريم / Rami, معن / Mona)
    ({"full_name": "فواز يوسف الحداد", "sex": "F"}, {"full_name": "Fawwaz Youcef El Hadad", "sex": "M"}, None),
    ({"full_name": "معن أحمد السيد", "sex": "M"}, {"full_name": "Maan Ahmad Sayyed", "sex": "F"}, None),
    ({"full_name": "ريم خالد الحلبي", "sex": "F"}, {"full_name": "Rami Khaled Halabi", "sex": "M"}, "sexes differ"),
    # (twenty-ninth session: معن is a name of the table, Maan; Mona another name before another sex)
    ({"full_name": "معن خالد الحلبي", "sex": "M"}, {"full_name": "Mona Khaled Halabi", "sex": "F"}, "given names differ"),
    # two garbled copies of one name (swapped, dropped: both محمد) are one name; of two names, two
    ({"full_name": "حممد همام الحداد"}, {"full_name": "محد همام الحداد"}, None),
    ({"full_name": "ممد همام الحداد"}, {"full_name": "محمو همام الحداد"}, "given names differ"),
    # in Latin letters: "Mouammed" is Muhammad with its h dropped, not Ahmad (brothers of the fresh set,
    # whose coarse keys meet: "mt"); a Latin copy of the name an Arabic report gives, a consonant
    # dropped, is one name (Ahma / أحمد, a father's name of the independent set)
    ({"full_name": "Ahmad Majd Hasan Darwish"}, {"full_name": "Mouammed Madjd Hasen Darwich"}, "given names differ"),
    ({"full_name": "Mohammed Majd Hasan Darwish"}, {"full_name": "Mouammed Madjd Hasen Darwich"}, None),
    ({"first_name": "معن", "father_name": "أحمد", "family_name": "السيد"}, {"full_name": "Maan Ahma Sayyed"}, None),
    # (twenty-second session, field_lists seed 32's sibling merges) a name of the table in Latin letters
    # and a real given name in Arabic that is none of its Arabic spellings are two names, whatever
    # their short keys share: Yousef / صهيب (coarse "sb"), "Mhd." / مهدي (Muhammad's skeleton is mhd)
    ({"first_name": "Yousef", "father_name": "Abdelrahman", "family_name": "al-Hajj Ali"},
     {"full_name": "صهيب عبدالرحمن الحاج علي"}, "given names differ"),
    ({"first_name": "Mhd.", "father_name": "Khalil", "family_name": "Al-Atassi"}, {"full_name": "مهدي خليل الأتاسي"},
     "given names differ"),
    ({"first_name": "Mhd.", "father_name": "Khalil", "family_name": "Al-Atassi"}, {"full_name": "محمد خليل الأتاسي"}, None),
    ({"first_name": "Yousef", "father_name": "Khalil"}, {"full_name": "يوسف خليل"}, None),
    # a Latin spelling is no slip of a name without its first letter: Amer (عامر) is not Samer
    ({"first_name": "Amer", "father_name": "Ahmad", "family_name": "al-Shehabi"}, {"full_name": "سامر بن احمد شهابي"},
     "given names differ"),
    # one letter of a long name changed into a string no list knows is a slip (فاكمة for فاطمة, field_lists
    # seed 32); of a three-letter name (مجج / مجد) it says too little; two real names stay two (سامر / سامي)
    ({"full_name": "فاطمة ممدوح محمد الأحمد"}, {"full_name": "فاكمة ممدوح الاحمد"}, None),
    ({"full_name": "مجد أحمد عثمان"}, {"full_name": "مجج أحمد عثمان"}, "given names differ"),
    ({"full_name": "سامر أحمد عثمان"}, {"full_name": "سامي أحمد عثمان"}, "given names differ"),
])
def test_what_makes_two_reports_different_people(one: dict, other: dict, reason: str | None) -> None:
    facts = facts_of(prepare_reports(pd.DataFrame([{"unique_id": "1", **one}, {"unique_id": "2", **other}])))
    assert incompatibility(facts["1"], facts["2"]) == reason


def test_no_sibling_merges_in_families_of_brothers_and_sisters() -> None:
    """The second generator's families (built-in names: few names, so many namesakes and
    siblings sharing everything but the first name)."""
    df = generate_devset(1500, seed=7, pool=_builtin_pool()).fillna("")
    assert df.groupby("family_id")["person_id"].nunique().max() >= 3
    result = link_reports(template_to_linkage_input(df), explain=False)
    assert sibling_merges(df, result.cluster_ids(df["report_id"])) == 0


def _facts(year: int | None = None, ym: tuple[int, int] | None = None) -> ReportFacts:
    return ReportFacts((None, None, None), None, year, arrest_ym=None if ym is None else ym[0] * 12 + ym[1] - 1)


def test_a_fact_two_reports_of_each_side_state_parts_two_clusters() -> None:
    from athar.matching.linkage.constraints import corroborated_conflict

    born_1966 = [_facts(1966), _facts(1966)]
    assert corroborated_conflict(born_1966, [_facts(1969), _facts(1970)]) is not None
    assert corroborated_conflict(born_1966, [_facts(1968), _facts(1968)]) is None  # two years: a slip's reach
    assert corroborated_conflict(born_1966, [_facts(1969)]) is None  # one report may have slipped
    assert corroborated_conflict(born_1966, [_facts(1969), _facts(1975)]) is None  # the side disagrees with itself
    assert corroborated_conflict(born_1966, [_facts(1969), _facts(None)]) is None
    may_2013 = [_facts(ym=(2013, 5)), _facts(ym=(2013, 5))]
    assert "2013-05" in (corroborated_conflict(may_2013, [_facts(ym=(2014, 6)), _facts(ym=(2014, 6))]) or "")
    assert corroborated_conflict(may_2013, [_facts(ym=(2013, 6)), _facts(ym=(2013, 6))]) is None  # a month apart


def test_a_fact_four_reports_of_one_side_agree_on_outweighs_a_side_that_says_otherwise() -> None:
    """(eleventh session) A namesake's single report (arrested a year later) against a person four
    reports describe alike is refused; against three, or when the other side is not all as far,
    it is the model's to weigh (a person's own slipped report)."""
    from athar.matching.linkage.constraints import AGREED_BY_MANY, corroborated_conflict

    assert AGREED_BY_MANY == 4
    may_2011 = [_facts(ym=(2011, 5))] * 4
    reason = corroborated_conflict(may_2011, [_facts(ym=(2012, 5))])
    assert reason == "arrest months differ, 4 or more reports of one side agree (2011-05 / 2012-05)"
    assert corroborated_conflict([_facts(ym=(2012, 5))], may_2011) is not None  # either side
    assert corroborated_conflict(may_2011[:3], [_facts(ym=(2012, 5))]) is None
    assert corroborated_conflict(may_2011, [_facts(ym=(2011, 6))]) is None  # a month: a slip's reach
    assert corroborated_conflict(may_2011, [_facts(ym=(2012, 5)), _facts(ym=(2011, 5))]) is None
    assert corroborated_conflict(may_2011, [_facts(None)]) is None


def test_namesakes_of_one_town_are_not_chained_through_a_report_that_names_neither_date() -> None:
    # Independent Syrian set (issue 28, tenth session): two men of one name and town, each reported
    # twice with his own arrest and birth year, and a third report with the name and the town only:
    # it linked to both and made one person of two.
    rows = [{"unique_id": "a1", "full_name": "عبد الرحيم هاني جمعة", "sex": "M", "birth_year": "1966",
             "city": "شهبا", "arrest_date": "2013-05-12"},
            {"unique_id": "a2", "full_name": "عبد الرحيم هاني جمعة", "sex": "M", "birth_year": "1966",
             "city": "شهبا", "arrest_date": "2013-05"},
            {"unique_id": "b1", "full_name": "عبد الرحيم هاني جمعة", "sex": "M", "birth_year": "1969",
             "city": "شهبا", "arrest_date": "2014-06-27"},
            {"unique_id": "b2", "full_name": "عبد الرحيم هاني جمعة", "sex": "M", "birth_year": "1969",
             "city": "شهبا", "arrest_date": "2014-06"},
            {"unique_id": "s", "full_name": "عبد الرحيم هاني جمعة", "sex": "M", "city": "شهبا"}]
    others = template_to_linkage_input(generate_reports(200, seed=3))
    result = link_reports(pd.concat([pd.DataFrame(rows), others], ignore_index=True))
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["a1"] == cluster["a2"] and cluster["b1"] == cluster["b2"]
    assert cluster["a1"] != cluster["b1"]
    split = result.pairs[result.pairs["status"] == "split"]
    assert split["split"].str.contains("each stated by two reports").any()


def test_arrest_years_two_reports_of_each_side_state_part_two_clusters_dates_of_a_year_included() -> None:
    from athar.matching.linkage.constraints import corroborated_conflict

    def arrested(year: int, month: int | None = None) -> ReportFacts:
        return ReportFacts((None, None, None), None, None, arrest_ym=None if month is None else year * 12 + month - 1,
                           arrest_year=year)

    in_2019 = [arrested(2019, 6), arrested(2019)]
    assert "arrest years" in (corroborated_conflict(in_2019, [arrested(2012, 7), arrested(2012)]) or "")
    assert corroborated_conflict(in_2019, [arrested(2019), arrested(2019, 1)]) is None
    assert corroborated_conflict(in_2019, [arrested(2018), arrested(2019)]) is None  # that side disagrees with itself


def test_a_cluster_holding_a_report_outvoted_by_four_is_found() -> None:
    from athar.matching.linkage.constraints import holds_outvoted_report

    june, april = _facts(ym=(2013, 6)), _facts(ym=(2013, 4))
    assert holds_outvoted_report([june, june, _facts(ym=(2013, 7)), june, april])
    assert not holds_outvoted_report([june, june, june, april])  # three alike: a full run keeps it too
    assert not holds_outvoted_report([june, june, june, june, _facts(ym=(2013, 5))])  # a month: one side's spread
    assert holds_outvoted_report([_facts(1980), _facts(1980), _facts(1981), _facts(1980), _facts(1983)])
    assert not holds_outvoted_report([_facts(1980), _facts(1980), _facts(1980), _facts(1980), _facts(1982)])


def test_a_cluster_holding_two_agreed_facts_far_apart_is_found() -> None:
    from athar.matching.linkage.constraints import holds_two_agreed_facts

    assert holds_two_agreed_facts([_facts(1966), _facts(1966), _facts(1969), _facts(1970), _facts(None)])
    assert not holds_two_agreed_facts([_facts(1966), _facts(1966), _facts(1969)])  # one report may have slipped
    assert not holds_two_agreed_facts([_facts(1966), _facts(1967), _facts(1968)])  # a year's spread, two apart
    assert holds_two_agreed_facts([_facts(ym=(2013, 5)), _facts(ym=(2013, 5)), _facts(ym=(2013, 8)), _facts(ym=(2013, 8))])
