"""Caseworkers, reviewers and archivists at work; each page also refused to the wrong role."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.identification import claims
from athar.identification.models import Identification, Ranking
from athar.identification.signals import ranking_stored
from tests.web.factories import make_candidate, person_for


def _claimed(world):
    candidate = make_candidate(world.report, world.case)
    claims.make_claim(person_for(candidate), world.case, "is_them", world.family)
    return Identification.objects.get()


@pytest.mark.django_db
def test_caseworker_queue_shows_their_families_reports_and_notices(client_for, world):
    candidate = make_candidate(world.report, world.case)
    ranking_stored.send(sender=Ranking, ranking=candidate.ranking)  # as ranking does after its commit
    html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert world.report.full_name_ar in html and world.other_report.full_name_ar not in html
    notices = re.search(r'<ul class="notices">(.*?)</ul>', html, re.DOTALL)
    assert notices is not None, "no notice shown"
    assert notices.group(1).count('<li class="unread">') == 1
    assert reverse("web:candidates", kwargs={"report_id": world.report.pk}) in notices.group(1)


@pytest.mark.django_db
def test_caseworker_imports_a_list_with_a_readable_error_report(client_for, world):
    csv = "report_id,full_name_ar,birth_year\nR1,سامر علي,1980\nR2,,notayear\n".encode()
    response = client_for(world.caseworker).post(reverse("web:import"), {
        "file": SimpleUploadedFile("list.csv", csv, "text/csv"), "source": "ngo"})
    html = response.content.decode()
    assert response.status_code == 200 and "errorlist" not in html
    from athar.registry.models import Report

    imported = Report.objects.filter(source="ngo")
    assert imported.exists() and all(r.caseworker == world.caseworker for r in imported)


def approvals_shown(page: str) -> int:
    """The count in "Approvals so far: N of the 2 needed" (the first number, in any language)."""
    paragraph = re.search(r'<p class="two-reviewers">(.*?)</p>', page, re.DOTALL)
    assert paragraph is not None, "the compare page shows no approval count"
    return int(re.search(r"\d+", paragraph.group(1)).group())


@pytest.mark.django_db
def test_reviewer_sees_queue_compares_and_approves_with_a_reason(client_for, world):
    ident = _claimed(world)
    client = client_for(world.reviewer)
    assert f"#{ident.pk}" in client.get(reverse("web:review_queue")).content.decode()
    compare = reverse("web:compare", kwargs={"identification_id": ident.pk})
    page = client.get(compare).content.decode()
    # the reason by its feature; the matching core's English sentence never reaches the page
    assert 'data-feature="face"' in page and "faces very similar" not in page and 'data-kind="face_blur"' in page
    assert approvals_shown(page) == 0
    decide = reverse("web:decide", kwargs={"identification_id": ident.pk})
    client.post(decide, {"decision": "approve", "reason": ""})
    assert not ident.reviews.exists()  # a reason is required
    client.post(decide, {"decision": "approve", "reason": "same scar, same face"})
    assert ident.reviews.count() == 1
    assert approvals_shown(client.get(compare).content.decode()) == 1
    other = client_for(world.admin)
    other.post(decide, {"decision": "approve", "reason": "agree"})
    ident.refresh_from_db()
    assert ident.status == "verified"  # the family is told before anything is published


@pytest.mark.django_db
def test_reviewer_sees_a_conflict(client_for, world):
    _claimed(world)
    candidate = make_candidate(world.other_report, world.case)
    claims.make_claim(person_for(candidate), world.case, "is_them", world.other_family)
    client = client_for(world.reviewer)
    html = client.get(reverse("web:conflicts")).content.decode()
    assert 'class="card conflict"' in html
    from athar.identification.models import Claim, Conflict

    conflict = Conflict.objects.get()
    mine = Claim.objects.get(by=world.family)
    assert f'value="{mine.pk}"' in html and 'value="none"' in html  # a choice, not only a note
    url = reverse("web:conflict_resolve", kwargs={"conflict_id": conflict.pk})
    client.post(url, {"reason": "", "keep": mine.pk})
    assert Conflict.objects.get().resolved_at is None  # a reason is required
    client.post(url, {"reason": "the second family's photo shows another man"})
    assert Conflict.objects.get().resolved_at is None  # and a choice
    assert client_for(world.family).post(url, {"reason": "x", "keep": mine.pk}).status_code == 403
    client.post(url, {"reason": "the second family's photo shows another man", "keep": mine.pk})
    assert Conflict.objects.get().resolved_at is not None
    other = Claim.objects.get(by=world.other_family)
    assert other.set_aside_at is not None
    assert claims.Identification.objects.get(person=other.person).status == "set_aside"


@pytest.mark.django_db
def test_published_identification_is_public_only_with_consent_and_without_photo(
        client, client_for, world, django_capture_on_commit_callbacks):
    import datetime as dt

    ident = _claimed(world)
    with django_capture_on_commit_callbacks(execute=True):
        for user in (world.reviewer, world.admin):
            claims.review(ident, user, "approve", "ok")
    world.report.consent = {**world.report.consent, "publication": True}
    world.report.save()
    ident.refresh_from_db()
    assert ident.status == "verified"
    assert world.report.full_name_ar not in client.get(reverse("web:identified")).content.decode()  # not told yet
    caseworker = client_for(world.caseworker)
    page = reverse("web:publication", kwargs={"identification_id": ident.pk})
    home = caseworker.get(reverse("web:caseworker_home")).content.decode()
    assert page in home  # an open task: inform the family
    caseworker.post(page, {"action": "publish"})
    ident.refresh_from_db()
    assert ident.status == "verified"  # refused: the family was not told
    caseworker.post(page, {"action": "inform", "report": world.report.pk,
                           "informed_on": dt.date.today().isoformat(), "method": "in_person"})
    assert world.report.full_name_ar not in client.get(reverse("web:identified")).content.decode()
    caseworker.post(page, {"action": "publish", "confirmed": "yes"})
    ident.refresh_from_db()
    assert ident.status == "published"
    html = client.get(reverse("web:identified")).content.decode()
    assert world.report.full_name_ar in html and "<img" not in html


@pytest.mark.django_db
def test_archivist_pages_and_audited_case_edit(client_for, world):
    client = client_for(world.archivist)
    for name, kwargs in (("archives", {}), ("facilities", {}), ("ingest_runs", {}), ("verify", {}),
                         ("archive", {"archive_id": world.case.archive_id}), ("case", {"case_id": world.case.pk})):
        assert client.get(reverse(f"web:{name}", kwargs=kwargs)).status_code == 200, name
    case_html = client.get(reverse("web:case", kwargs={"case_id": world.case.pk})).content.decode()
    assert 'data-kind="face_blur"' in case_html and 'data-kind="view"' not in case_html
    response = client.post(reverse("web:case_edit", kwargs={"case_id": world.case.pk}), {
        "detainee_number": "1234", "hospital_number": "", "photographed": "2013-05-02",
        "photographed_precision": "day", "sex": "M", "marks": "scar", "notes": ""})
    assert response.status_code == 302
    event = AuditEvent.objects.get(action="case.edited")
    assert "detainee_number" in event.data["fields"] and "1234" not in str(event.data)
    assert client.post(reverse("web:verify")).status_code == 200


@pytest.mark.django_db
def test_reviewer_cannot_edit_cases_and_archivist_cannot_review(client_for, world):
    assert client_for(world.reviewer).get(reverse("web:case_edit", kwargs={"case_id": world.case.pk})).status_code == 403
    assert client_for(world.archivist).get(reverse("web:review_queue")).status_code == 403
    assert client_for(world.caseworker).get(reverse("web:case", kwargs={"case_id": world.case.pk})).status_code == 403
