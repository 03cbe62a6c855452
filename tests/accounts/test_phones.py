"""Phone numbers are one login however they are typed (E.164 with ``phonenumbers``)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse

from athar.accounts.models import User, login_for
from athar.accounts.phones import normalise_phone
from athar.accounts.subcommands import user_add

PASSWORD = "shams-of-damascus-77"


@pytest.mark.parametrize("typed", ["0944 321 765", "+963944321765", "00963 944 321 765", "٠٩٤٤٣٢١٧٦٥",
                                   "+963 (944) 321-765", "944321765"])
def test_every_spelling_of_one_syrian_number_is_one_e164_login(typed):
    assert normalise_phone(typed) == "+963944321765"


def test_the_default_region_is_a_setting(settings):
    settings.ATHAR_PHONE_REGION = "LB"
    assert normalise_phone("03 123 456") == "+9613123456"
    assert normalise_phone("+963944321765") == "+963944321765"  # a country code wins over the region


@pytest.mark.parametrize("typed", ["call me", "12345", "+963 1"])
def test_what_is_no_phone_number_is_refused_with_a_reason(typed):
    with pytest.raises(ValueError):
        login_for(phone=typed)


@pytest.mark.django_db
@pytest.mark.parametrize("registered,signed_in", [("0944 321 765", "+963944321765"),
                                                  ("+963944321765", "0944 321 765")])
def test_register_with_one_spelling_and_sign_in_with_the_other(client, registered, signed_in):
    response = client.post(reverse("accounts:register"), {"phone": registered, "email": "", "password": PASSWORD})
    assert response.status_code == 200 and len(response.context["codes"]) == 8  # recovery codes, shown once
    assert User.objects.get().login == "+963944321765"
    client.post(reverse("accounts:logout"))
    again = client.post(reverse("accounts:login"), {"identifier": signed_in, "password": PASSWORD})
    assert again.status_code == 302 and again["Location"] == reverse("web:dashboard")


@pytest.mark.django_db
def test_invitation_phone_is_normalised(client, make_user):
    from athar.accounts.models import Invitation

    _, code = Invitation.issue(make_user("caseworker"))
    client.post(reverse("accounts:redeem"), {"code": code, "phone": "0944 777 888", "password": PASSWORD})
    assert User.objects.get(role="family").login == "+963944777888"


@pytest.mark.django_db
def test_cli_user_add_and_by_login_read_a_local_number():
    result = user_add({"phone": "0944 000 111", "email": None, "role": "family", "name": ""})
    assert result["login"] == "+963944000111"
    assert User.objects.by_login("0944000111").pk == result["user_id"]
    with pytest.raises(ValueError, match="already exists"):
        user_add({"phone": "+963 944 000 111", "email": None, "role": "family", "name": ""})


@pytest.mark.django_db
def test_migration_normalises_existing_phone_logins_and_keeps_a_clash():
    from importlib import import_module

    forwards = import_module("athar.accounts.migrations.0002_phone_logins_e164").forwards
    old = User.objects.create_user("0944321765", PASSWORD, phone="0944 321 765")
    clash = User.objects.create_user("00963944321765", PASSWORD)
    email = User.objects.create_user("a@example.org", PASSWORD)
    code = User.objects.create_user("code:K7QM2XPA9D", PASSWORD)
    forwards(apps, None)
    logins = dict(User.objects.values_list("pk", "login"))
    assert logins[old.pk] == "+963944321765" and User.objects.get(pk=old.pk).phone == "+963944321765"
    assert logins[clash.pk] == "00963944321765"  # kept as it was, never dropped
    assert logins[email.pk] == "a@example.org" and logins[code.pk] == "code:K7QM2XPA9D"
