"""A family that registered itself has a way back without a caseworker: recovery codes, shown once
at registration, each usable once with the account's phone number."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from athar.accounts.models import RecoveryCode, User
from athar.audit.models import AuditEvent

PASSWORD = "shams-of-damascus-77"
NEW_PASSWORD = "a brand new long password"
PHONE = "+963944000777"

pytestmark = pytest.mark.django_db


def register(client: Client, phone: str = PHONE) -> list[str]:
    response = client.post(reverse("accounts:register"), {"phone": phone, "password": PASSWORD})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    return list(response.context["codes"])


def recover(phone: str, code: str, password: str = NEW_PASSWORD):
    return Client().post(reverse("accounts:recover"), {"phone": phone, "code": code, "password": password})


def test_registration_shows_codes_once_and_one_sets_a_new_password_without_a_caseworker(client):
    codes = register(client)
    family = User.objects.get(login=PHONE)
    assert len(codes) == 8 and len(set(codes)) == 8 and family.caseworker is None
    assert RecoveryCode.objects.filter(user=family).count() == 8
    assert all(code.replace(" ", "") not in row.code_hash for row in RecoveryCode.objects.all() for code in codes)
    assert AuditEvent.objects.filter(action="account.recovery_codes_issued", object_id=str(family.pk)).exists()
    arabic = codes[2].translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    response = recover("0096 3944 000 777", arabic)  # the number and the code typed any way
    assert response.status_code == 302 and response["Location"] == reverse("accounts:login")
    family.refresh_from_db()
    assert family.check_password(NEW_PASSWORD)
    event = AuditEvent.objects.get(action="account.password_reset", object_id=str(family.pk))
    assert event.data["codes_left"] == 7 and PHONE not in str(event.data)
    again = recover(PHONE, codes[2], "yet another long password")  # each code works once
    assert again.status_code == 200 and again.context["form"].errors["code"]
    assert recover(PHONE, codes[3], "yet another long password").status_code == 302


def test_wrong_code_and_unknown_number_get_the_same_answer(client):
    codes = register(client)
    wrong = recover(PHONE, "1234567890")
    unknown = recover("+963944000888", codes[0])
    assert wrong.context["form"].errors["code"] == unknown.context["form"].errors["code"]
    assert AuditEvent.objects.filter(action="account.recovery_refused").count() == 2
    assert User.objects.get(login=PHONE).check_password(PASSWORD)


def test_a_number_that_had_an_account_gets_codes_that_open_nothing(client):
    register(client)
    other_codes = register(Client())  # same page, same shape: which numbers exist is never said
    assert len(other_codes) == 8 and RecoveryCode.objects.count() == 8
    assert recover(PHONE, other_codes[0]).status_code == 200
    assert User.objects.get(login=PHONE).check_password(PASSWORD)


def test_new_codes_replace_the_unused_ones(client):
    old = register(client)
    family = User.objects.get(login=PHONE)
    client.force_login(family)
    page = client.get(reverse("accounts:recovery_codes"))
    assert page.status_code == 200 and page.context["codes"] is None
    new = list(client.post(reverse("accounts:recovery_codes")).context["codes"])
    assert recover(PHONE, old[0]).status_code == 200
    assert recover(PHONE, new[0]).status_code == 302


def test_only_a_family_makes_recovery_codes(client, make_user):
    assert client.get(reverse("accounts:recovery_codes")).status_code == 302  # signed out: to sign-in
    client.force_login(make_user("caseworker"))
    assert client.post(reverse("accounts:recovery_codes")).status_code == 404
    assert not RecoveryCode.objects.exists()


def test_guessing_codes_is_rate_limited():
    register(Client())
    guesser = Client()
    codes = [guesser.post(reverse("accounts:recover"), {"phone": PHONE, "code": f"{n:010d}",
                                                         "password": NEW_PASSWORD}).status_code for n in range(12)]
    assert 429 in codes and codes[0] == 200
