"""The privacy notice: public, in both languages, linked where families give their data."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_privacy_notice_in_arabic_and_english_for_a_signed_out_visitor():
    arabic = Client().get("/privacy/").content.decode()
    assert 'dir="rtl"' in arabic and "ما يحفظه أثر" in arabic and "من يطّلع عليه" in arabic
    assert "ثلاثين يوماً" in arabic  # how long
    english = Client().get("/en/privacy/").content.decode()
    assert "What athar keeps" in english and "Who sees it" in english and "For how long" in english


@pytest.mark.django_db
def test_privacy_is_linked_from_registration_consent_and_the_footer(client_for, world):
    link = f'href="{reverse("web:privacy")}"'
    assert link in Client().get(reverse("web:about")).content.decode()  # the footer
    assert link in Client().get(reverse("accounts:register")).content.decode()
    assert link in Client().get(reverse("accounts:redeem")).content.decode()
    client = client_for(world.family)
    client.get(reverse("web:report_new"))
    assert link in client.get(reverse("web:report_step", kwargs={"step": "consent"})).content.decode()
    assert link in client.get(reverse("web:consent", kwargs={"report_id": world.report.pk})).content.decode()


@pytest.mark.django_db
def test_a_family_finds_export_and_erase_of_its_own_reports_only(client_for, world):
    page = client_for(world.family).get(reverse("web:privacy")).content.decode()
    assert reverse("web:report_export", kwargs={"report_id": world.report.pk}) in page
    assert reverse("web:report_erase", kwargs={"report_id": world.report.pk}) in page
    assert reverse("web:report_export", kwargs={"report_id": world.other_report.pk}) not in page
    staff = client_for(world.caseworker).get(reverse("web:privacy")).content.decode()
    assert reverse("web:report_export", kwargs={"report_id": world.report.pk}) not in staff
