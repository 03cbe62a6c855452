"""Reasons in the reader's language: a real ranking's reasons, rendered from their structured data
(feature, level, weight) and the facts compared — never the matching core's English detail — for
staff in Arabic and English and for the family in careful words; the archive's own text shown as
written and said to be so; the facility filter named as the rows are."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import Agency, Case, Face, Facility
from athar.identification.ranking import rank_and_store, report_only
from tests.web.factories import make_case, make_report
from tests.web.test_arabic_everywhere import ALLOWED_WORDS, catalogue_ids, english_left, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked(world: Any) -> Any:
    """A report whose facts agree with a case of Branch 215 (an Arabic and an English name, its
    agency), whose marks the examiner wrote in English; ranked by the shipped algorithm."""
    agency = Agency.objects.create(code="military-intelligence", name_en="Military Intelligence",
                                   name_ar="الأمن العسكري")
    Facility.objects.update_or_create(code="215", defaults={"number": 215, "name_en": "Raids Branch",
                                                            "name_ar": "فرع المداهمة", "agency": agency})
    case = make_case("C215")
    Case.objects.filter(pk=case.pk).update(marks="tattoo of an eagle on the left forearm", age_min=25, age_max=32,
                                           photographed=datetime.date(2013, 6, 1), photographed_precision="month",
                                           detainee_number="3107")
    other = make_case("C9", facility_code="227")
    Case.objects.filter(pk=other.pk).update(sex="F", marks="")
    report = make_report(world.family, world.caseworker, name="سامر الحلبي", birth_year=1984, sex="M",
                         arresting_agency="215", detainee_number="3107",
                         distinguishing_marks="وشم نسر على الساعد الأيسر",
                         arrest_date=datetime.date(2013, 2, 1), arrest_date_precision="month",
                         face_processing=False)
    rank_and_store(report_only(report))
    world.ranked_report, world.ranked_case = report, Case.objects.get(pk=case.pk)
    world.ranked_candidate = report.rankings.get(is_current=True).candidates.get(case=case)
    return world


def _allowed(world: Any) -> set[str]:
    return ALLOWED_WORDS | {w.lower() for w in re.findall(r"[A-Za-z]+", world.ranked_report.report_id)}


def test_the_ranking_stores_english_details_that_pages_must_not_show(ranked: Any) -> None:
    details = " ".join(r["detail"] for r in ranked.ranked_candidate.reasons)
    assert "reported 215; case in Raids Branch" in details  # what logs and the API keep


def test_staff_reasons_in_arabic_carry_no_english(ranked: Any, client_for: Any) -> None:
    page = client_for(ranked.caseworker).get(reverse("web:staff_candidates", args=[ranked.ranked_report.pk]))
    text = visible_text(page.content.decode())
    assert "reported 215" not in text and "same facility" not in text
    assert english_left(text, catalogue_ids(), _allowed(ranked)) == []
    assert "الفرع الذي ذكرته العائلة" in text  # the facility reason's level, in Arabic
    assert "الفرع 215 — فرع المداهمة (الأمن العسكري)" in text  # the case's facility, in the page's language
    assert "كما كُتب في الأرشيف" in text  # the examiner's English marks, said to be as written
    assert 'lang="en" data-as-written>tattoo of an eagle' in page.content.decode()
    assert "نحو 4 أشهر بين الاعتقال المُبلَّغ عنه والتصوير" in text  # a plural form, not "4 شهر"


def test_staff_reasons_in_english_say_the_values(ranked: Any, client_for: Any) -> None:
    with translation.override("en"):
        page = client_for(ranked.caseworker).get(reverse("web:staff_candidates", args=[ranked.ranked_report.pk]))
    text = visible_text(page.content.decode())
    assert "the branch the family named" in text and "Branch 215 — Raids Branch (Military Intelligence)" in text
    assert "about 4 months between the reported arrest and the photograph" in text
    assert "as written in the archive" in text
    assert "reported 215; case in" not in text  # the matching core's sentence is not the page's


def test_the_reviewer_sees_the_same_words(ranked: Any, client_for: Any) -> None:
    from athar.identification import services

    with translation.override("ar"):
        rows = services.candidate_reasons(ranked.ranked_candidate)
    facility = next(r for r in rows if r["feature"] == "facility")
    assert str(facility["level"]) == "الفرع الذي ذكرته العائلة"
    assert facility["values"]["reported"] == "215" and "فرع المداهمة" in facility["values"]["recorded"]
    assert all("detail" not in str(r["values"]) for r in rows)


def test_the_family_reads_why_in_careful_words(ranked: Any, client_for: Any) -> None:
    url = reverse("web:candidate", args=[ranked.ranked_candidate.pk])
    page = client_for(ranked.family).get(url + "?ready=1").content.decode()
    agree = re.search(r'<ul class="agree">(.*?)</ul>', page, re.S)
    assert agree, "the family is told which of its facts agree"
    assert "الفرع الذي ذكرتموه هو الفرع الذي احتُجز فيه هذا الشخص." in agree.group(1)
    assert "رقم المعتقل الذي ذكرتموه هو الرقم المسجّل لهذا الشخص، في الفرع نفسه." in agree.group(1)
    text = visible_text(page)
    # what the family reported beside the archive's facts, the archive's English marks labelled
    assert "ما ذكرتموه، إلى جانب ما يسجّله الأرشيف" in text
    assert "وشم نسر على الساعد الأيسر" in text and "كما كُتب في الأرشيف" in text
    assert english_left(text, catalogue_ids(), _allowed(ranked)) == []
    # no score, no weight, no staff wording for the family
    assert "%" not in text and "counts for" not in text and "تُحسب لصالح" not in text


def test_similar_faces_are_mentioned_only_when_faces_were_compared(ranked: Any, client_for: Any) -> None:
    from athar.identification.models import Candidate

    candidate, family = ranked.ranked_candidate, client_for(ranked.family)
    similar = "الوجوه المتشابهة كثيرة"
    detail = reverse("web:candidate", args=[candidate.pk]) + "?ready=1"
    listing = reverse("web:candidates", args=[ranked.ranked_report.pk])
    assert similar not in family.get(detail).content.decode()  # the family gave no photo: no face compared
    assert similar not in family.get(listing).content.decode()
    reasons = [*candidate.reasons, {"feature": "face", "level": "similarity", "weight": 3.1,
                                    "detail": "face similarity 0.71 with the family's photos"}]
    Candidate.objects.filter(pk=candidate.pk).update(reasons=reasons)
    photo = ranked.ranked_case.photos.first()
    Face.objects.create(photo=photo, case=ranked.ranked_case, index=0, box=[0, 0, 10, 10], quality=0.9,
                        embedding=b"\0" * 8, model_name="test", model_version="1")
    page = family.get(detail).content.decode()
    assert similar in page and "يشبه الوجهُ في الصور التي قدّمتموها" in page
    assert similar in family.get(listing).content.decode()
    ranked.ranked_case.faces.all().delete()
    assert not ranked.ranked_case.faces.exists()
    assert similar not in family.get(detail).content.decode()  # the case has no face: never "similar faces"


def test_the_facility_filter_names_facilities_as_the_rows_do(ranked: Any, client_for: Any) -> None:
    page = client_for(ranked.caseworker).get(reverse("web:staff_candidates", args=[ranked.ranked_report.pk]))
    options = dict(re.findall(r'<option value="(\w+)"[^>]*>([^<]*)</option>', page.content.decode()))
    assert options["215"] == "الفرع 215 — فرع المداهمة"
    assert "Raids Branch" not in options.values()
