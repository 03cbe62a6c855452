"""A family's rights from the web: download everything athar holds about a report; erase it."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from athar.audit.models import AuditEvent
from athar.registry.models import Report, ReportPhoto


@pytest.mark.django_db
def test_family_downloads_its_report_as_json(client_for, world):
    response = client_for(world.family).get(reverse("web:report_export", kwargs={"report_id": world.report.pk}))
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["versions"][0]["full_name_ar"] == world.report.full_name_ar
    assert data["versions"][0]["photos"][0]["sha256"] == world.photo.sha256
    assert AuditEvent.objects.filter(action="registry.export_report").exists()


@pytest.mark.django_db
def test_outsiders_can_neither_download_nor_erase(client_for, world):
    for user in (world.other_family, world.other_caseworker, world.archivist, None):
        client = client_for(user)
        for name in ("web:report_export", "web:report_erase"):
            url = reverse(name, kwargs={"report_id": world.report.pk})
            assert client.get(url).status_code in (302, 403, 404), (user, name)
            assert client.post(url, {"confirm": "yes"}).status_code in (302, 403, 404), (user, name)
            if user is None:
                assert "login" in client.get(url)["Location"]
    world.report.refresh_from_db()
    assert world.report.erased_at is None and world.report.full_name_ar != "[erased]"


@pytest.mark.django_db
def test_erasure_needs_the_confirmation_then_leaves_a_tombstone(client_for, world):
    client = client_for(world.family)
    url = reverse("web:report_erase", kwargs={"report_id": world.report.pk})
    assert "لا يمكن التراجع عن المحو" in client.get(url).content.decode()  # "Erasure cannot be undone"
    client.post(url, {})
    assert Report.objects.get(pk=world.report.pk).erased_at is None
    response = client.post(url, {"confirm": "yes"})
    assert response.status_code == 302
    erased = Report.objects.get(pk=world.report.pk)
    assert erased.erased_at is not None and erased.full_name_ar == "[erased]" and erased.birth_year is None
    assert not ReportPhoto.objects.filter(report=erased).exists()
    event = AuditEvent.objects.get(action="registry.erase_report")
    assert event.data["reason"] == "family_request" and "[erased]" not in json.dumps(event.data)
    # the erased report is gone from the family's pages
    assert client.get(reverse("web:report", kwargs={"report_id": world.report.pk})).status_code == 404


@pytest.mark.django_db
def test_the_caseworker_erases_on_the_familys_request(client_for, world):
    client_for(world.caseworker).post(reverse("web:report_erase", kwargs={"report_id": world.report.pk}),
                                      {"confirm": "yes"})
    assert Report.objects.get(pk=world.report.pk).erased_at is not None
    assert AuditEvent.objects.get(action="registry.erase_report").data["reason"] == "request_via_caseworker"
