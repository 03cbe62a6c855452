"""The conflicts page puts the claims side by side: names as reported, families, relations, the facts
each family reported beside the case's, the ranking's evidence; a resolved conflict says who resolved
it, when and why. Never a contact detail. Reviewers only, in Arabic and English."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification import claims
from athar.identification.models import Conflict
from tests.web.factories import make_candidate, make_report, person_for

pytestmark = pytest.mark.django_db

PHONE = "+963944777123"


@pytest.fixture
def conflict(world, make_user):
    """Two families claim one case: a family itself (its login is its phone), and a caseworker for
    the other family."""
    world.family.login, world.family.phone = PHONE, PHONE
    world.family.save()
    world.other_caseworker.display_name = "سلمى العمر"
    world.other_caseworker.save()
    mine = make_report(world.family, world.caseworker, name="محمد أحمد السالم", full_name_latin="Mohammad al-Salem",
                       reporter_relation="أم", detainee_number="4411", arresting_agency="215")
    theirs = make_report(world.other_family, world.other_caseworker, name="خالد يوسف الحمصي",
                         reporter_relation="أخ", detainee_number="9020")
    claims.make_claim(person_for(make_candidate(mine, world.case)), world.case, "is_them", world.family,
                      relation="أم", report=mine)
    claims.make_claim(person_for(make_candidate(theirs, world.case)), world.case, "is_them", world.other_caseworker,
                      relation="أخ", on_behalf_of="family", report=theirs)
    return Conflict.objects.get()


def sides(html: str) -> list[str]:
    return re.findall(r'<section class="card conflict-side".*?</section>', html, flags=re.S)


def test_a_reviewer_sees_each_claim_with_names_families_relations_facts_and_evidence(client_for, world, conflict):
    html = client_for(world.reviewer).get(reverse("web:conflicts")).content.decode()
    mine, theirs = sides(html)
    assert "محمد أحمد السالم" in mine and "Mohammad al-Salem" in mine and "أم" in mine
    assert "خالد يوسف الحمصي" in theirs and "أخ" in theirs
    assert f"{world.family.pk}" in mine and "بنفسها" in mine  # filed and claimed by the family itself
    assert "سلمى العمر" in theirs  # the caseworker who claimed for the family, by name
    assert 'class="facts-compared' in mine and "4411" in mine and "9020" in theirs  # reported beside the case
    # the ranking's evidence, in the page's words (never the matching core's English detail)
    assert 'data-feature="face"' in mine and "faces very similar" not in mine and 'class="percent"' in mine
    assert f'value="{conflict.claims.get(by=world.family).pk}"' in mine


def test_never_a_contact_detail(client_for, world, conflict):
    html = client_for(world.reviewer).get(reverse("web:conflicts")).content.decode()
    assert PHONE not in html and PHONE[-9:] not in html
    assert world.other_family.login not in html and world.other_caseworker.login not in html


def test_a_resolved_conflict_shows_who_when_and_why(client_for, world, conflict):
    world.reviewer.display_name = "Reviewer Rana"
    world.reviewer.save()
    client = client_for(world.reviewer)
    kept = conflict.claims.get(by=world.family)
    client.post(reverse("web:conflict_resolve", kwargs={"conflict_id": conflict.pk}),
                {"reason": "the dental record matches the first family's report", "keep": kept.pk})
    conflict.refresh_from_db()
    with translation.override("en"):
        html = client.get(reverse("web:conflicts")).content.decode()
    resolved = html[html.index(f'id="resolved-{conflict.pk}"'):]
    assert "Resolved by Reviewer Rana on " + conflict.resolved_at.strftime("%Y-%m-%d") in resolved
    assert "the dental record matches the first family&#x27;s report" in resolved
    states = dict(re.findall(r'data-claim="(\d+)" data-state="(\w+)"', resolved))
    assert states[str(kept.pk)] == "kept" and sorted(states.values()) == ["kept", "set_aside"]
    assert "Name as reported" in resolved and "خالد يوسف الحمصي" in resolved


def test_the_page_in_arabic_names_each_part(client_for, world, conflict):
    html = client_for(world.reviewer).get(reverse("web:conflicts")).content.decode()
    for arabic in ("الاسم كما ورد في البلاغ", "صلة القرابة بالمفقود", "أدلة الترتيب لهذه الحالة"):
        assert arabic in html


@pytest.mark.parametrize("who", ["family", "caseworker", "archivist", None])
def test_outsiders_are_refused(client_for, world, conflict, who):
    user = getattr(world, who) if who else None
    response = client_for(user).get(reverse("web:conflicts"))
    assert response.status_code in (302, 403)
    assert "محمد أحمد السالم" not in response.content.decode()
