"""Each feature's levels and the reason it gives (the explanation is asserted, not only the score)."""

from __future__ import annotations

import datetime as dt

import numpy as np

from athar.matching.scoring import CaseRecord, CaseTable, PersonFacts, load_algorithm
from athar.matching.scoring.features import FEATURES

FEATURE = {f.name: f for f in FEATURES}


def _case(**kw: object) -> CaseRecord:
    base = dict(case_id=1, label="1", facility_code="215", agency_code="military-intelligence",
                facility_name="Branch 215", detainee_number="3412", photographed=dt.date(2012, 6, 1),
                photographed_precision="month", sex="M", age_min=20, age_max=30, marks="")
    base.update(kw)
    return CaseRecord(**base)  # type: ignore[arg-type]


def _person(**kw: object) -> PersonFacts:
    base = dict(person_id="p", sex="M", birth_year=1988, arrest=dt.date(2012, 3, 1), arrest_precision="month",
                facility_codes=frozenset({"215"}), agency_codes=frozenset({"military-intelligence"}),
                facility_named=True)
    base.update(kw)
    return PersonFacts(**base)  # type: ignore[arg-type]


def level(name: str, person: PersonFacts, case: CaseRecord) -> tuple[str, str]:
    feature = FEATURE[name]
    lv = feature.levels[int(feature.compare(person, CaseTable.build([case]))[0])]
    return lv, feature.explain(lv, person, case)


def test_sex() -> None:
    assert level("sex", _person(), _case())[0] == "same"
    lv, text = level("sex", _person(sex="F"), _case())
    assert lv == "different" and "differs" in text
    assert level("sex", _person(sex="U"), _case())[0] == "unknown"


def test_age_tolerates_a_year_and_says_how_far() -> None:
    assert level("age", _person(birth_year=1988), _case())[0] == "within"  # 24 in 2012
    lv, text = level("age", _person(birth_year=1993), _case())  # 19: one year under 20
    assert lv == "off_2" and "about 19" in text and "20–30" in text
    assert level("age", _person(birth_year=1960), _case())[0] == "off_more"
    assert level("age", _person(birth_year=None), _case())[0] == "unknown"


def test_time_before_arrest_and_custody() -> None:
    lv, text = level("time", _person(arrest=dt.date(2012, 3, 1)), _case())
    assert lv == "custody_3m" and "3 months in custody" in text
    lv, text = level("time", _person(arrest=dt.date(2013, 1, 1)), _case())
    assert lv == "before_arrest" and "BEFORE" in text
    assert level("time", _person(arrest=dt.date(2012, 7, 1)), _case())[0] == "just_before_arrest"
    assert level("time", _person(arrest=dt.date(2012, 1, 1), arrest_precision="year"), _case())[0] != "before_arrest"
    assert level("time", _person(arrest=None), _case())[0] == "unknown"


def test_facility_branch_agency_and_other() -> None:
    assert level("facility", _person(), _case())[0] == "same_facility"
    assert level("facility", _person(), _case(facility_code="227"))[0] == "same_agency"
    assert level("facility", _person(), _case(facility_code="251", agency_code="general-intelligence"))[0] == "other_agency"
    agency_only = _person(facility_codes=frozenset())
    assert level("facility", agency_only, _case(facility_code="227"))[0] == "agency_named"
    assert level("facility", _person(facility_named=False, facility_codes=frozenset()), _case())[0] == "unknown"


def test_marks_levels_across_languages() -> None:
    case = _case(marks="tattoo of a map of Palestine on the left forearm")
    assert level("marks", _person(marks_text="وشم خريطة فلسطين على الساعد الأيسر"), case)[0] == "content_and_place"
    assert level("marks", _person(marks_text="وشم على الساعد"), case)[0] == "place"  # side unknown: compatible
    assert level("marks", _person(marks_text="tattoo on the left forearm"), case)[0] == "place_and_side"
    assert level("marks", _person(marks_text="tattoo on the right forearm"), case)[0] == "other_side"
    assert level("marks", _person(marks_text="a tattoo on his arm"), case)[0] == "region"
    assert level("marks", _person(marks_text="tattoo on the chest"), case)[0] == "kind"
    lv, text = level("marks", _person(marks_text="scar above the right eyebrow"), case)
    assert lv == "none_in_common" and "scar, right eyebrow" in text
    assert level("marks", _person(marks_text=""), case)[0] == "unknown"
    assert level("marks", _person(marks_text="scar"), _case(marks=""))[0] == "unknown"


def test_number() -> None:
    assert level("number", _person(detainee_number="٣٤١٢"), _case())[0] == "same_number_same_facility"
    assert level("number", _person(detainee_number="3412", facility_codes=frozenset()), _case())[0] == "same_number"
    assert level("number", _person(detainee_number="3413"), _case())[0] == "different"
    assert level("number", _person(), _case())[0] == "unknown"


def test_a_number_confirmed_in_the_photos() -> None:
    """A family's number against the numbers archivists confirmed on the body: the strongest level,
    whatever the case's recorded number; a confirmed number that differs weighs against (not a veto)."""
    confirmed = _case(detainee_number="", confirmed_numbers=("2065", "٣١"))
    assert level("number", _person(detainee_number="٢٠٦٥"), confirmed)[0] == "confirmed_same_number"
    assert level("number", _person(detainee_number="31"), confirmed)[0] == "confirmed_same_number"
    assert level("number", _person(detainee_number="206"), confirmed)[0] == "different"  # not a part of one
    assert level("number", _person(detainee_number="3412"), _case(confirmed_numbers=("2065",)))[0] \
        == "same_number_same_facility"  # the recorded number still counts
    weights = load_algorithm().weights["number"]
    assert weights["confirmed_same_number"] >= weights["same_number_same_facility"] > 0 > weights["different"]
    assert load_algorithm().version == "1.3"


def test_vectorised_levels_match_one_by_one() -> None:
    cases = [_case(case_id=i, sex="MF"[i % 2], age_min=18 + i, age_max=25 + i, marks=["", "scar on the chest"][i % 2])
             for i in range(20)]
    table, person = CaseTable.build(cases), _person(marks_text="scar on the chest")
    for feature in FEATURES:
        together = feature.compare(person, table)
        alone = np.array([feature.compare(person, CaseTable.build([c]))[0] for c in cases])
        assert (together == alone).all(), feature.name
