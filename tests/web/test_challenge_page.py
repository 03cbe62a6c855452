"""A reviewer decides a challenge on its own page (queue → page → decision), as reviewers and as
outsiders (the families' caseworkers, a family, a signed-out visitor)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, TestCase

from athar.identification import claims as rules
from athar.identification.models import Challenge, Claim, Notice
from tests.identification.conftest import world  # noqa: F401  (fixture)
from tests.identification.test_lifecycle import _family, published  # noqa: F401  (fixtures)


def _as(user: Any = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def challenged(world: Any, published: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    """A third family's caseworker claims the published case; the family's words are marked."""
    c = _family(world)
    c["report"].distinguishing_marks = "a scar above the right eyebrow"
    c["report"].save(update_fields=["distinguishing_marks"])
    with TestCase.captureOnCommitCallbacks(execute=True):
        rules.make_claim(c["person"], published["case"], "is_them", c["cw"])
    return {**published, "c": c, "challenge": Challenge.objects.get(identification=published["ident"])}


@pytest.mark.django_db
def test_the_queue_lists_open_challenges_and_the_page_shows_both_sides(challenged: dict[str, Any]) -> None:
    t, ch = challenged, challenged["challenge"]
    reviewer = _as(t["reviewers"][0])
    queue = reviewer.get("/review/").content.decode()
    assert f'href="/review/challenges/{ch.pk}/"' in queue
    page = reviewer.get(f"/review/challenges/{ch.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="side-standing"' in html and 'class="side-challenging"' in html
    assert "a scar above the right eyebrow" in html  # the challenger's evidence
    assert t["a"]["report"].distinguishing_marks in html  # the identified family's, beside it
    assert "reporter_contact" not in html and 'id="challenge-form"' in html


@pytest.mark.django_db
def test_a_reviewer_dismisses_on_the_page_with_a_required_reason(challenged: dict[str, Any]) -> None:
    t, ch = challenged, challenged["challenge"]
    reviewer = _as(t["reviewers"][0])
    url = f"/review/challenges/{ch.pk}/decide/"
    refused = reviewer.post(url, {"page": "challenge", "decision": "dismiss", "reason": "  "})
    assert refused.status_code == 400 and 'id="challenge-form"' in refused.content.decode()
    unchosen = reviewer.post(url, {"page": "challenge", "reason": "kept when the choice is missing"})
    assert unchosen.status_code == 400 and "kept when the choice is missing" in unchosen.content.decode()
    ch.refresh_from_db()
    assert ch.status == "open"
    with TestCase.captureOnCommitCallbacks(execute=True):
        done = reviewer.post(url, {"page": "challenge", "decision": "dismiss",
                                   "reason": "photographed two years before the arrest"})
    assert done.status_code == 302
    ch.refresh_from_db(), t["ident"].refresh_from_db()
    assert ch.status == "dismissed" and t["ident"].status == "published"
    assert Claim.objects.get(person=t["c"]["person"]).set_aside_at is not None
    assert Notice.objects.filter(kind="tell", user=t["c"]["cw"]).exists()
    after = reviewer.get(f"/review/challenges/{ch.pk}/").content.decode()
    assert 'id="decided"' in after and 'id="challenge-form"' not in after


@pytest.mark.django_db
def test_outsiders_neither_see_nor_decide_a_challenge(challenged: dict[str, Any]) -> None:
    t, ch = challenged, challenged["challenge"]
    for user in (t["c"]["cw"], t["a"]["cw"], t["c"]["family"], t["a"]["family"]):
        client = _as(user)
        assert client.get(f"/review/challenges/{ch.pk}/").status_code == 403
        assert client.post(f"/review/challenges/{ch.pk}/decide/",
                           {"decision": "uphold", "reason": "we are sure"}).status_code == 403
    anonymous = _as()
    assert anonymous.get(f"/review/challenges/{ch.pk}/").status_code == 302
    assert anonymous.post(f"/review/challenges/{ch.pk}/decide/",
                          {"decision": "uphold", "reason": "x"}).status_code == 302
    assert _as(t["reviewers"][0]).get("/review/challenges/424242/").status_code == 404
    ch.refresh_from_db()
    assert ch.status == "open"
