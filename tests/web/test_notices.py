"""Caseworkers' notices: stored when a likely match or a decision arrives, read-tracked, private."""

from __future__ import annotations

import pytest
from django.urls import reverse

from athar.identification import claims
from athar.identification.models import Identification, Notice, Ranking
from athar.identification.signals import ranking_stored
from tests.web.factories import make_candidate, person_for


def _announce(candidate) -> None:
    ranking_stored.send(sender=Ranking, ranking=candidate.ranking)


@pytest.mark.django_db
def test_a_likely_match_notifies_the_familys_caseworker_once(client_for, world):
    candidate = make_candidate(world.report, world.case)
    _announce(candidate)
    _announce(candidate)  # the same likely case again: no second notice
    rows = Notice.objects.filter(kind="candidate")
    assert [n.user for n in rows] == [world.caseworker] and rows[0].report == world.report
    assert not Notice.objects.filter(user=world.other_caseworker).exists()
    html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert world.report.full_name_ar in html and 'class="badge"' in html


@pytest.mark.django_db
def test_an_unlikely_ranking_notifies_nobody(world):
    _announce(make_candidate(world.report, world.case, likely=False))
    assert not Notice.objects.exists()


@pytest.mark.django_db
def test_notices_are_marked_read_one_or_all_and_only_ones_own(client_for, world):
    _announce(make_candidate(world.report, world.case))
    notice = Notice.objects.get()
    client_for(world.other_caseworker).post(reverse("web:notices_read"), {"notice": notice.pk})
    notice.refresh_from_db()
    assert notice.read_at is None  # another caseworker's request touches nothing
    client_for(world.caseworker).post(reverse("web:notices_read"), {"notice": notice.pk})
    notice.refresh_from_db()
    assert notice.read_at is not None
    html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert 'class="badge"' not in html and "muted" in html


@pytest.mark.django_db
def test_review_decisions_notify_the_caseworker(django_capture_on_commit_callbacks, world):
    candidate = make_candidate(world.report, world.case)
    with django_capture_on_commit_callbacks(execute=True):
        claims.make_claim(person_for(candidate), world.case, "is_them", world.family)
        ident = Identification.objects.get()
        claims.review(ident, world.reviewer, "reject", "the marks do not match")
    notice = Notice.objects.get(kind="decision")
    assert notice.user == world.caseworker and notice.status == "rejected"


@pytest.mark.django_db
def test_families_and_signed_out_visitors_cannot_read_notices(client_for, world):
    _announce(make_candidate(world.report, world.case))
    for client in (client_for(world.family), client_for(None)):
        response = client.post(reverse("web:notices_read"))
        assert response.status_code in (302, 403)
    assert Notice.objects.get().read_at is None
