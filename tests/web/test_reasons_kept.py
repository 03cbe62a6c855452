"""A reviewer's written reason is never thrown away: a refused decision, conflict resolution,
challenge or reversal comes back with the reason typed and the error beside the form (the form's
action carries its anchor, so the browser lands on it on a ~3,000 px page), in Arabic and English."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification import claims
from athar.identification.models import Conflict, Identification, Review
from tests.web.factories import make_candidate, person_for

pytestmark = pytest.mark.django_db
REASON = "The scar on the left hand <matches> the family's description"


def _claimed(world) -> Identification:
    claims.make_claim(person_for(make_candidate(world.report, world.case)), world.case, "is_them", world.family)
    return Identification.objects.get()


def _form(page: str, form_id: str) -> str:
    found = re.search(rf'<form [^>]*id="{form_id}".*?</form>', page, re.DOTALL)
    assert found, form_id
    return found.group(0)


@pytest.mark.parametrize(("lang", "error"), [("en", "This field is required."), ("ar", "هذا الحقل مطلوب.")])
def test_a_decision_without_a_choice_keeps_the_reason_beside_the_form(client_for, world, lang, error):
    ident = _claimed(world)
    with translation.override(lang):
        url = reverse("web:decide", kwargs={"identification_id": ident.pk})
        response = client_for(world.reviewer).post(url, {"reason": REASON})
    assert response.status_code == 400 and not Review.objects.exists()
    page = response.content.decode()
    form = _form(page, "decision-form")
    assert f'action="{url}#decision-form"' in form  # the browser lands on the form
    assert "The scar on the left hand &lt;matches&gt; the family&#x27;s description" in form  # kept, escaped
    assert error in form  # the error beside the choice, not only at the top
    assert 'href="#decision-form"' in page  # the alert at the top points to it


def test_a_decision_the_rules_refuse_keeps_the_reason_and_the_rules_message(client_for, world, monkeypatch):
    """Whatever rule refuses (the identification changed meanwhile…), its message stands beside the
    form and the reason stays typed."""
    ident = _claimed(world)

    def refuse(*_args, **_kwargs):
        raise ValueError("The identification changed while you were reading it.")

    monkeypatch.setattr("athar.identification.services.decide", refuse)
    url = reverse("web:decide", kwargs={"identification_id": ident.pk})
    response = client_for(world.reviewer).post(url, {"decision": "approve", "reason": REASON})
    assert response.status_code == 400
    form = _form(response.content.decode(), "decision-form")
    assert "The identification changed while you were reading it." in form and "The scar on the left" in form
    assert 'value="approve"' in form and re.search(r'value="approve"[^>]*checked', form)


def _conflict(world) -> Conflict:
    claims.make_claim(person_for(make_candidate(world.report, world.case)), world.case, "is_them", world.family)
    claims.make_claim(person_for(make_candidate(world.other_report, world.case)), world.case, "is_them",
                      world.other_family)
    return Conflict.objects.get()


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_conflict_resolution_without_a_choice_keeps_the_reason(client_for, world, lang):
    conflict = _conflict(world)
    with translation.override(lang):
        url = reverse("web:conflict_resolve", kwargs={"conflict_id": conflict.pk})
        response = client_for(world.reviewer).post(url, {"reason": REASON})
    assert response.status_code == 400 and Conflict.objects.get().resolved_at is None
    form = _form(response.content.decode(), f"conflict-form-{conflict.pk}")
    assert f'action="{url}#conflict-form-{conflict.pk}"' in form
    assert "The scar on the left hand" in form
    assert ("Choose which claim stands" if lang == "en" else "اختاروا الإفادة") in form


def test_a_conflict_resolution_without_a_reason_keeps_the_choice(client_for, world):
    conflict = _conflict(world)
    kept = conflict.claims.get(by=world.family)
    response = client_for(world.reviewer).post(reverse("web:conflict_resolve", kwargs={"conflict_id": conflict.pk}),
                                               {"keep": kept.pk, "reason": "  "})
    assert response.status_code == 400 and Conflict.objects.get().resolved_at is None
    form = _form(response.content.decode(), f"conflict-form-{conflict.pk}")
    assert re.search(rf'value="{kept.pk}" required checked', form)
    assert 'role="alert"' in form


def test_a_reversal_without_reason_comes_back_open_beside_the_review(client_for, world):
    ident = _claimed(world)
    claims.review(ident, world.reviewer, "approve", "same scar")
    review = Review.objects.get()
    url = reverse("web:review_reverse", kwargs={"identification_id": ident.pk, "review_id": review.pk})
    response = client_for(world.reviewer).post(url, {"reason": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert f'<details id="reverse-form-{review.pk}" open>' in page
    assert f'href="#reverse-form-{review.pk}"' in page


def test_a_reason_kept_as_a_draft_is_there_when_the_reviewer_comes_back(client_for, world, make_user):
    ident = _claimed(world)
    reviewer = client_for(world.reviewer)
    compare = reverse("web:compare", kwargs={"identification_id": ident.pk})
    decide = reverse("web:decide", kwargs={"identification_id": ident.pk})
    response = reviewer.post(decide, {"reason": REASON, "draft": "1"})
    assert response.status_code == 302 and response["Location"] == compare and not Review.objects.exists()
    reviewer.get(reverse("web:review_queue"))  # away, then back
    escaped = "The scar on the left hand &lt;matches&gt; the family&#x27;s description"
    assert escaped in _form(reviewer.get(compare).content.decode(), "decision-form")
    assert escaped not in client_for(make_user("reviewer")).get(compare).content.decode()  # this reviewer's own

    reviewer.post(decide, {"reason": REASON, "decision": "approve"})
    assert Review.objects.filter(reviewer=world.reviewer).exists()
    assert f"review-reason-draft:{ident.pk}" not in reviewer.session  # decided: the draft is gone


def test_a_refused_decision_keeps_the_reason_as_a_draft_too(client_for, world):
    ident = _claimed(world)
    reviewer = client_for(world.reviewer)
    reviewer.post(reverse("web:decide", kwargs={"identification_id": ident.pk}), {"reason": REASON})
    page = reviewer.get(reverse("web:compare", kwargs={"identification_id": ident.pk})).content.decode()
    assert "The scar on the left hand &lt;matches&gt; the family&#x27;s description" in _form(page, "decision-form")
