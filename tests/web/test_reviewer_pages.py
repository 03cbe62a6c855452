"""Reviewers: every fact the ranking used on both sides, the score's scale, the decision form gone
once decided, the queue never offering one's own decision again, recent decisions newest first."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification import claims
from athar.identification.models import Identification, Review
from tests.web.factories import make_candidate, make_case, make_report, person_for

pytestmark = pytest.mark.django_db


def _claimed(world, report=None, case=None):
    report, case = report or world.report, case or world.case
    candidate = make_candidate(report, case)
    claims.make_claim(person_for(candidate), case, "is_them", report.reporter_user, report=report)
    return Identification.objects.get(case=case)


def _compare(world, ident):
    return reverse("web:compare", kwargs={"identification_id": ident.pk})


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_comparison_shows_every_fact_compared_and_the_scale(client_for, world, lang):
    world.report.detainee_number, world.report.arrest_place, world.report.city = "7731", "المعضمية", "داريا"
    world.report.arresting_agency = "فرع 215"
    world.report.save()
    world.case.detainee_number = "7731"
    world.case.save()
    ident = _claimed(world)
    with translation.override(lang):
        html = client_for(world.reviewer).get(_compare(world, ident)).content.decode()
    facts = re.search(r'<section class="card" id="facts">(.*?)</section>', html, re.DOTALL).group(1)
    number = re.search(r'<tr data-feature="number">(.*?)</tr>', facts, re.DOTALL).group(1)
    assert number.count("7731") == 2
    place = re.search(r'<tr data-feature="place">(.*?)</tr>', facts, re.DOTALL).group(1)
    assert "المعضمية" in place and "داريا" in place
    assert "فرع 215" in re.search(r'<tr data-feature="facility">(.*?)</tr>', facts, re.DOTALL).group(1)
    reasons = re.search(r'<section class="card" id="reasons">(.*?)</section>', html, re.DOTALL).group(1)
    assert '<bdi dir="ltr" class="percent">90%</bdi>' in reasons  # the factory's probability 0.9
    assert ("not proof" if lang == "en" else "ليست دليلاً") in reasons
    assert ("Face" if lang == "en" else "الوجه") in reasons and "faces very similar" not in reasons  # no English detail


def test_the_decision_form_disappears_once_this_reviewer_decided(client_for, world):
    ident = _claimed(world)
    client = client_for(world.reviewer)
    assert 'id="decision-form"' in client.get(_compare(world, ident)).content.decode()
    client.post(reverse("web:decide", kwargs={"identification_id": ident.pk}),
                {"decision": "approve", "reason": "same scar"})
    page = client.get(_compare(world, ident)).content.decode()
    assert 'id="decision-form"' not in page and 'id="my-decision"' in page
    assert 'id="decision-form"' in client_for(world.admin).get(_compare(world, ident)).content.decode()
    review = Review.objects.get()
    client.post(reverse("web:review_reverse", kwargs={"identification_id": ident.pk, "review_id": review.pk}),
                {"reason": "looked again"})
    assert 'id="decision-form"' in client.get(_compare(world, ident)).content.decode()  # may decide again


def _queue(client):
    html = client.get(reverse("web:review_queue")).content.decode()
    to_review = re.search(r'<table id="to-review">(.*?)</table>', html, re.DOTALL)
    waiting = re.search(r'<ul id="waiting">(.*?)</ul>', html, re.DOTALL)
    return html, (to_review.group(1) if to_review else ""), (waiting.group(1) if waiting else "")


def test_the_admin_is_not_offered_their_own_decision_as_second_reviewer(client_for, world):
    ident = _claimed(world)
    admin = client_for(world.admin)
    link = _compare(world, ident)
    _, to_review, _ = _queue(admin)
    assert link in to_review
    admin.post(reverse("web:decide", kwargs={"identification_id": ident.pk}), {"decision": "approve", "reason": "ok"})
    _, to_review, waiting = _queue(admin)
    assert link not in to_review and link in waiting
    _, other_to_review, _ = _queue(client_for(world.reviewer))
    assert link in other_to_review  # still waiting for a second, different reviewer


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_recent_decisions_are_every_reviewers_newest_first_with_links(client_for, world, lang):
    first = _claimed(world)
    second_case = make_case("C9")
    second = _claimed(world, make_report(world.family, world.caseworker, name="سامر"), second_case)
    claims.review(first, world.admin, "approve", "same face")
    claims.review(second, world.reviewer, "reject", "different scar")
    with translation.override(lang):
        html, _, _ = _queue(client_for(world.reviewer))
    decisions = re.findall(r'<li class="decision( mine)?" data-review="(\d+)">(.*?)</li>',
                           re.search(r'<ul id="decisions">(.*?)</ul>', html, re.DOTALL).group(1), re.DOTALL)
    assert [int(pk) for _, pk, _ in decisions] == list(Review.objects.order_by("-created_at", "-pk")
                                                       .values_list("pk", flat=True))
    mine, theirs = decisions[0], decisions[1]
    assert mine[0] == " mine" and _compare(world, second) in mine[2]
    assert theirs[0] == "" and _compare(world, first) in theirs[2]
    assert ("by another reviewer" if lang == "en" else "من مراجِع آخر") in theirs[2]


@pytest.mark.parametrize("role", ["family", "caseworker", "archivist"])
def test_reviewer_pages_are_refused_to_other_roles(client_for, world, role):
    ident = _claimed(world)
    client = client_for(getattr(world, role))
    assert client.get(reverse("web:review_queue")).status_code == 403
    assert client.get(_compare(world, ident)).status_code == 403
    assert client_for(None).get(_compare(world, ident)).status_code == 302
