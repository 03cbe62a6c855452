"""Two-factor sign-in (TOTP) for reviewers, archivists and administrators when required."""

from __future__ import annotations

import pyotp
import pytest
from django.urls import reverse

from athar.accounts.totp import enrol
from athar.audit.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def required(settings):
    settings.ATHAR_REQUIRE_TWO_FACTOR = True


def _code(secret):
    return pyotp.TOTP(secret).now()


@pytest.mark.parametrize("role", ["reviewer", "archivist", "admin"])
def test_staff_without_totp_are_sent_to_enrol_first(client, make_user, required, role):
    client.force_login(make_user(role))
    response = client.get(reverse("web:dashboard"))
    assert response.status_code == 302 and reverse("two_factor:enrol") in response["Location"]


@pytest.mark.parametrize("role", ["family", "caseworker"])
def test_families_and_caseworkers_are_not_asked(client, make_user, required, role):
    client.force_login(make_user(role))
    response = client.get(reverse("web:dashboard"))
    assert reverse("two_factor:enrol") not in response.get("Location", "")
    assert reverse("two_factor:verify") not in response.get("Location", "")


def test_enrolment_in_the_web_then_access(client, make_user, required):
    user = make_user("reviewer")
    client.force_login(user)
    page = client.get(reverse("two_factor:enrol"))
    assert page.status_code == 200 and b"<svg" in page.content
    secret = client.session["athar_2fa_pending_secret"]
    assert client.post(reverse("two_factor:enrol"), {"code": "000000"}).status_code == 200
    response = client.post(reverse("two_factor:enrol"), {"code": _code(secret), "next": reverse("web:dashboard")})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.totp_confirmed and user.totp_secret == secret
    assert client.get(reverse("web:dashboard")).status_code != 302 or \
        reverse("two_factor:verify") not in client.get(reverse("web:dashboard"))["Location"]
    assert AuditEvent.objects.filter(action="auth.two_factor.enrolled", object_id=str(user.pk)).exists()


def test_enrolled_staff_must_enter_a_code_each_session_and_a_code_works_once(client, make_user, required):
    user = make_user("archivist")
    secret = enrol(user)["totp_secret"]
    client.force_login(user)
    response = client.get(reverse("web:dashboard"))
    assert reverse("two_factor:verify") in response["Location"]
    assert client.post(reverse("two_factor:verify"), {"code": "123456"}).status_code == 200
    code = _code(secret)
    assert client.post(reverse("two_factor:verify"), {"code": code}).status_code == 302
    dashboard = client.get(reverse("web:dashboard"))
    assert "two-factor" not in dashboard.get("Location", "")
    other = client.__class__()
    other.force_login(user)
    assert other.post(reverse("two_factor:verify"), {"code": code}).status_code == 200  # replay refused
    actions = list(AuditEvent.objects.filter(object_id=str(user.pk), action__startswith="auth.two_factor")
                   .values_list("action", flat=True))
    assert actions == ["auth.two_factor.failed", "auth.two_factor.verified", "auth.two_factor.failed"]


def test_a_new_sign_in_needs_the_code_again(client, make_user, required):
    user = make_user("reviewer")
    secret = enrol(user)["totp_secret"]
    client.force_login(user)
    client.post(reverse("two_factor:verify"), {"code": _code(secret)})
    client.logout()
    client.force_login(user)
    assert "two-factor" in client.get(reverse("web:dashboard"))["Location"]


def test_the_code_step_cannot_be_skipped_for_photos_or_the_api(client, make_user, required):
    user = make_user("reviewer")
    enrol(user)
    client.force_login(user)
    assert client.get("/api/reports", HTTP_ACCEPT="application/json").status_code in (401, 403)
    assert "two-factor" in client.get(reverse("web:review_queue"))["Location"]


def test_not_required_outside_production_by_default(client, make_user, settings):
    assert settings.ATHAR_REQUIRE_TWO_FACTOR is False  # ATHAR_ENV=test
    client.force_login(make_user("reviewer"))
    assert "two-factor" not in client.get(reverse("web:dashboard")).get("Location", "")


def test_the_verify_page_refuses_open_redirects(client, make_user, required):
    user = make_user("reviewer")
    secret = enrol(user)["totp_secret"]
    client.force_login(user)
    response = client.post(reverse("two_factor:verify"), {"code": _code(secret), "next": "https://evil.example/"})
    assert response["Location"] == "/"
