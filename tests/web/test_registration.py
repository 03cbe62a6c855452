"""A family without an invitation registers with a phone number; a caseworker takes it on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from athar.accounts.models import User
from athar.audit.models import AuditEvent
from athar.core.signed_ids import sign_id

PASSWORD = "shams-of-damascus-77"


@pytest.mark.django_db
def test_family_registers_with_a_phone_number_only_and_signs_in_with_it(client):
    response = client.post(reverse("accounts:register"), {"phone": "٠٠٩٦٣ ٩٤٤ ١٢٣ ٤٥٦", "email": "", "password": PASSWORD})
    assert response.status_code == 200 and len(response.context["codes"]) == 8  # recovery codes, shown once
    family = User.objects.get(role="family")
    assert family.login == "+963944123456" and family.email == "" and family.caseworker is None
    event = AuditEvent.objects.get(action="account.registered")
    assert "963" not in str(event.data)  # identifiers only, never the phone number
    client.post(reverse("accounts:logout"))
    again = client.post(reverse("accounts:login"), {"identifier": "+963 944 123 456", "password": PASSWORD})
    assert again.status_code == 302 and again["Location"] == reverse("web:dashboard")


@pytest.mark.django_db
def test_registration_refuses_a_bad_phone_and_a_weak_password(client, make_user):
    """A taken number is not refused here: the page must not tell which numbers have an account
    (tests/accounts/test_enrolment.py)."""
    make_user("family", login="+963944000111")
    for data, field in (({"phone": "call me", "password": PASSWORD}, "phone"),
                        ({"phone": "+963944000222", "password": "123"}, "password")):
        response = client.post(reverse("accounts:register"), data)
        assert response.status_code == 200 and response.context["form"].errors.get(field), (data, field)
    assert User.objects.filter(role="family").count() == 1


@pytest.mark.django_db
def test_a_short_password_at_registration_answers_in_arabic_only(client):
    """The first error a self-registering family meets: Django's own Arabic catalogue lacks the
    message in the form Django 5.2 writes it (%d), so athar's catalogue carries it."""
    response = client.post(reverse("accounts:register"), {"phone": "+963944000444", "password": "shams-1"},
                           HTTP_ACCEPT_LANGUAGE="ar")
    errors = response.context["form"].errors["password"]
    assert errors and all(not re.search("[A-Za-z]", message) for message in errors), errors
    assert "قصيرة" in " ".join(errors)


@pytest.mark.parametrize("length", [1, 2, 3, 10, 11, 100, 101])
def test_the_length_rule_reads_in_arabic_in_every_plural_form(length):
    from django.contrib.auth.password_validation import MinimumLengthValidator
    from django.utils import translation

    with translation.override("ar"):
        message = MinimumLengthValidator(min_length=length).get_error_message()
    assert str(length) in message and not re.search("[A-Za-z]", message), message


@pytest.mark.django_db
def test_registration_can_be_turned_off(client, settings):
    settings.ATHAR_OPEN_REGISTRATION = False
    assert client.get(reverse("accounts:register")).status_code == 404
    assert client.post(reverse("accounts:register"), {"phone": "+963944000333", "password": PASSWORD}).status_code == 404
    assert reverse("accounts:register") not in client.get(reverse("accounts:login")).content.decode()
    assert not User.objects.exists()


@pytest.mark.django_db
def test_caseworker_sees_waiting_families_by_phone_ending_and_takes_one_on(client_for, make_user):
    family = make_user("family", login="+963944555666", phone="+963944555666")
    caseworker, other = make_user("caseworker"), make_user("caseworker")
    html = client_for(caseworker).get(reverse("web:caseworker_home")).content.decode()
    assert "666" in html and "+963944555666" not in html
    from athar.accounts.caseworkers import agreement_code

    code = agreement_code(family)  # the family reads it from its page (tests/accounts/test_caseworkers.py)
    response = client_for(caseworker).post(reverse("web:take_family", kwargs={"user_id": family.pk}), {"code": code})
    assert response.status_code == 302
    family.refresh_from_db()
    assert family.caseworker == caseworker
    assert AuditEvent.objects.filter(action="family.taken_on", object_id=str(family.pk)).exists()
    # a second caseworker cannot take the family away, and it no longer waits
    client_for(other).post(reverse("web:take_family", kwargs={"user_id": family.pk}), {"code": code})
    family.refresh_from_db()
    assert family.caseworker == caseworker
    assert "666" not in client_for(other).get(reverse("web:caseworker_home")).content.decode()


@pytest.mark.django_db
def test_families_and_reviewers_cannot_take_on_families(client_for, make_user):
    family = make_user("family")
    for role in ("family", "reviewer", "archivist"):
        response = client_for(make_user(role)).post(reverse("web:take_family", kwargs={"user_id": family.pk}))
        assert response.status_code in (302, 403, 404) and response.get("Location", "").find("caseworker") == -1
    family.refresh_from_db()
    assert family.caseworker is None
    assert sign_id("user", family.pk) != str(family.pk)
