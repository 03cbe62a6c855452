"""Account recovery without email or SMS, and the family's page naming who helps it."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from athar.accounts.models import ResetCode
from athar.audit.models import AuditEvent

NEW_PASSWORD = "a brand new long password"


def issue(client_for, caseworker, family) -> str:
    page = client_for(caseworker).post(reverse("web:reset_code", kwargs={"user_id": family.pk})).content.decode()
    return re.search(r'<bdi dir="ltr" class="code">([A-Z0-9-]+)</bdi>', page).group(1)


def reset(code: str, password: str = NEW_PASSWORD):
    return Client().post(reverse("accounts:reset_password"), {"code": code, "password": password})


@pytest.mark.django_db
def test_caseworker_gives_a_code_and_the_family_chooses_a_new_password(client_for, world):
    code = issue(client_for, world.caseworker, world.family)
    row = ResetCode.objects.get(user=world.family)
    assert code.replace("-", "") not in row.code_hash and row.issued_by == world.caseworker  # only a hash kept
    issued = AuditEvent.objects.get(action="account.reset_code_issued")
    assert issued.object_id == str(world.family.pk) and issued.actor == f"user:{world.caseworker.pk}"
    response = reset(code.lower().replace("-", " "))  # typed any way
    assert response.status_code == 302 and response["Location"] == reverse("accounts:login")
    world.family.refresh_from_db()
    assert world.family.check_password(NEW_PASSWORD)
    assert AuditEvent.objects.filter(action="account.password_reset", object_id=str(world.family.pk)).exists()
    again = reset(code, "yet another long password")  # used once
    assert again.status_code == 200 and "استُخدم من قبل" in again.content.decode()
    world.family.refresh_from_db()
    assert world.family.check_password(NEW_PASSWORD)


@pytest.mark.django_db
def test_only_the_familys_own_caseworker_can_give_a_code(client_for, world):
    url = reverse("web:reset_code", kwargs={"user_id": world.family.pk})
    assert client_for(world.other_caseworker).post(url).status_code == 404
    assert client_for(world.family).post(url).status_code == 403
    assert client_for(world.other_family).post(url).status_code == 403
    assert client_for(world.reviewer).post(url).status_code == 403
    assert reverse("accounts:login") in client_for(None).post(url)["Location"]
    assert client_for(world.caseworker).get(url).status_code == 405  # never on a GET
    assert not ResetCode.objects.exists()


@pytest.mark.django_db
def test_an_expired_or_replaced_code_no_longer_works(client_for, world):
    first = issue(client_for, world.caseworker, world.family)
    second = issue(client_for, world.caseworker, world.family)
    assert reset(first).status_code == 200  # replaced by the second
    ResetCode.objects.filter(user=world.family).update(expires_at=timezone.now() - dt.timedelta(minutes=1))
    assert reset(second).status_code == 200
    world.family.refresh_from_db()
    assert not world.family.check_password(NEW_PASSWORD)


@pytest.mark.django_db
def test_a_code_for_one_family_never_opens_another(client_for, world):
    code = issue(client_for, world.caseworker, world.family)
    reset(code)
    world.other_family.refresh_from_db()
    assert not world.other_family.check_password(NEW_PASSWORD)


@pytest.mark.django_db
def test_the_reset_page_in_arabic_is_linked_from_sign_in():
    assert reverse("accounts:reset_password") in Client().get(reverse("accounts:login")).content.decode()
    page = Client().get(reverse("accounts:reset_password")).content.decode()
    assert 'dir="rtl"' in page and "اختاروا كلمة مرور جديدة" in page


@pytest.mark.django_db
def test_the_family_page_names_its_caseworker_and_the_organisation(client_for, world, settings):
    settings.ATHAR_ORGANISATION_CONTACT = "هاتف المنظمة: +963 11 234 5678\\nمن الأحد إلى الخميس"
    world.caseworker.display_name = "سلمى"
    world.caseworker.save()
    page = client_for(world.family).get(reverse("web:family_home")).content.decode()
    assert "مسؤول الحالة الذي يتابعكم: سلمى" in page
    assert '<bdi dir="ltr">+963 11 234 5678</bdi>' in page and "من الأحد إلى الخميس" in page
    assert "أين وصل البحث" in page  # where its search stands, per report
    other = client_for(world.other_family).get(reverse("web:family_home")).content.decode()
    assert "سلمى" not in other


@pytest.mark.django_db
def test_without_a_contact_the_family_is_told_to_ask_its_caseworker(client_for, world, settings):
    settings.ATHAR_ORGANISATION_CONTACT = ""
    page = client_for(world.family).get(reverse("web:family_home")).content.decode()
    assert "للتواصل مع المنظمة، اسألوا مسؤول الحالة." in page
