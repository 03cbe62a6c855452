"""Sign-in with a phone number, an email or an invitation code; redeeming an invitation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from athar.accounts.models import Invitation, User
from athar.audit.models import AuditEvent

PASSWORD = "a long test password"


@pytest.mark.django_db
def test_caseworker_invites_and_family_redeems_without_email(client, make_user):
    caseworker = make_user("caseworker")
    _, code = Invitation.issue(caseworker)
    response = client.post(reverse("accounts:redeem"), {"code": code.lower(), "phone": "", "password": "shams-of-damascus-77"})
    assert response.status_code == 302
    family = User.objects.get(role="family")
    assert family.caseworker == caseworker and family.email == ""
    assert family.login == "code:" + code
    client.logout()
    ok = client.post(reverse("accounts:login"), {"identifier": code, "password": "shams-of-damascus-77"})
    assert ok.status_code == 302 and ok["Location"] == reverse("web:dashboard")
    assert AuditEvent.objects.filter(action="invitation.redeemed").exists()


@pytest.mark.django_db
def test_code_is_single_use(client, make_user):
    _, code = Invitation.issue(make_user("caseworker"))
    client.post(reverse("accounts:redeem"), {"code": code, "password": "shams-of-damascus-77"})
    client.logout()
    again = client.post(reverse("accounts:redeem"), {"code": code, "password": "shams-of-damascus-77"})
    assert again.status_code == 200 and User.objects.filter(role="family").count() == 1


@pytest.mark.django_db
def test_redeem_with_phone_in_arabic_digits_then_sign_in_with_phone(client, make_user):
    _, code = Invitation.issue(make_user("caseworker"))
    client.post(reverse("accounts:redeem"), {"code": code, "phone": "٠٠٩٦٣ ٩٤٤ ١٢٣ ٤٥٦", "password": "shams-of-damascus-77"})
    client.logout()
    ok = client.post(reverse("accounts:login"), {"identifier": "+963944123456", "password": "shams-of-damascus-77"})
    assert ok.status_code == 302


@pytest.mark.django_db
def test_wrong_password_is_refused_without_saying_which_part(client, make_user):
    make_user("family", login="mother@example.org")
    response = client.post(reverse("accounts:login"), {"identifier": "mother@example.org", "password": "wrong one!!"})
    assert response.status_code == 200 and "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_sign_in_redirects_only_to_this_site(client, make_user):
    make_user("family", login="mother@example.org")
    response = client.post(reverse("accounts:login"), {"identifier": "mother@example.org", "password": PASSWORD,
                                                       "next": "https://evil.example/"})
    assert response["Location"] == reverse("web:dashboard")


@pytest.mark.django_db
def test_sign_out_needs_post(client, make_user):
    from tests.web.conftest import sign_in

    sign_in(client, make_user("family"))
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_only_caseworkers_invite(client_for, make_user):
    assert client_for(make_user("family")).post(reverse("web:invite")).status_code == 403
    response = client_for(make_user("caseworker")).post(reverse("web:invite"))
    assert response.status_code == 200 and 'id="invitation-code"' in response.content.decode()


@pytest.mark.parametrize("code", ["2K34567B89", "23456789AB", "K7QM2XPA9D"])
def test_a_code_with_many_digits_is_still_a_code(code):
    """A code is never read as a phone number, however many digits it holds (a code with six or
    more digits used to be taken for a phone number, and its family could not sign in)."""
    from athar.accounts.forms import login_from_identifier

    assert login_from_identifier(code) == "code:" + code
    assert login_from_identifier(code[:4] + "-" + code[4:8] + "-" + code[8:]) == "code:" + code
    assert login_from_identifier("+963 944 123 456") == "+963944123456"
    assert login_from_identifier("٠٩٤٤١٢٣٤٥٦") == "+963944123456"  # E.164, read in ATHAR_PHONE_REGION
