"""Every decision is reversible from the web, with a reason: reviews and conflict resolutions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.identification import claims
from athar.identification.models import Conflict, Identification
from tests.web.factories import make_candidate, person_for


def _published(world) -> Identification:
    candidate = make_candidate(world.report, world.case)
    claims.make_claim(person_for(candidate), world.case, "is_them", world.family)
    ident = Identification.objects.get()
    claims.review(ident, world.reviewer, "approve", "same scar")
    claims.review(ident, world.admin, "approve", "agree")
    ident.refresh_from_db()
    assert ident.status == "verified"
    return ident


@pytest.mark.django_db
def test_a_reviewer_reverses_their_approval_and_publication_is_withdrawn(client_for, world):
    ident = _published(world)
    client = client_for(world.reviewer)
    assert f"#{ident.pk}" in client.get(reverse("web:review_queue")).content.decode()  # recently decided
    mine = ident.reviews.get(reviewer=world.reviewer)
    url = reverse("web:review_reverse", kwargs={"identification_id": ident.pk, "review_id": mine.pk})
    assert url in client.get(reverse("web:compare", kwargs={"identification_id": ident.pk})).content.decode()
    client.post(url, {"reason": ""})
    mine.refresh_from_db()
    assert mine.reversed_at is None  # a reason is required
    client.post(url, {"reason": "the dental record came back negative"})
    mine.refresh_from_db()
    ident.refresh_from_db()
    assert mine.reversed_at is not None and mine.reversed_by == world.reviewer
    assert ident.status == "under_review"  # one approval left: no longer verified
    assert AuditEvent.objects.filter(action="identification.review_reversed").exists()


@pytest.mark.django_db
def test_another_reviewer_cannot_reverse_my_review_nor_can_a_family(client_for, world, make_user):
    ident = _published(world)
    mine = ident.reviews.get(reviewer=world.reviewer)
    url = reverse("web:review_reverse", kwargs={"identification_id": ident.pk, "review_id": mine.pk})
    client_for(make_user("reviewer")).post(url, {"reason": "I disagree"})
    assert client_for(world.family).post(url, {"reason": "x"}).status_code == 403
    mine.refresh_from_db()
    assert mine.reversed_at is None
    wrong = reverse("web:review_reverse", kwargs={"identification_id": ident.pk + 1, "review_id": mine.pk})
    assert client_for(world.reviewer).post(wrong, {"reason": "x"}).status_code == 404


@pytest.mark.django_db
def test_a_resolved_conflict_is_reopened_with_a_reason_and_blocks_again(client_for, world):
    first = make_candidate(world.report, world.case)
    claims.make_claim(person_for(first), world.case, "is_them", world.family)
    second = make_candidate(world.other_report, world.case)
    claims.make_claim(person_for(second), world.case, "is_them", world.other_family)
    conflict = Conflict.objects.get()
    client = client_for(world.reviewer)
    kept = conflict.claims.get(by=world.family)
    client.post(reverse("web:conflict_resolve", kwargs={"conflict_id": conflict.pk}),
                {"reason": "other man", "keep": kept.pk})
    assert conflict.claims.get(by=world.other_family).set_aside_at is not None
    html = client.get(reverse("web:conflicts")).content.decode()
    url = reverse("web:conflict_reopen", kwargs={"conflict_id": conflict.pk})
    assert url in html
    client.post(url, {"reason": ""})
    assert Conflict.objects.get().resolved_at is not None  # a reason is required
    assert client_for(world.family).post(url, {"reason": "x"}).status_code == 403
    client.post(url, {"reason": "the second family sent a new photo"})
    assert Conflict.objects.get().resolved_at is None
    assert AuditEvent.objects.filter(action="identification.conflict_reopened").exists()
    assert conflict.claims.get(by=world.other_family).set_aside_at is None  # it stands again
    assert Identification.objects.get(person=person_for(second)).status == "under_review"
