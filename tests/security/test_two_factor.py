"""Two-factor sign-in (django-otp) for reviewers, archivists and administrators when required."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from athar.accounts import second_factor
from athar.accounts.subcommands import user_add
from athar.audit.models import AuditEvent
from tests.accounts.otp import code_of, enrolled, wrong_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def required(settings):
    settings.ATHAR_REQUIRE_TWO_FACTOR = True


def _events(user):
    return list(AuditEvent.objects.filter(object_id=str(user.pk), action__startswith="auth.two_factor")
                .values_list("action", flat=True))


@pytest.mark.parametrize("role", ["reviewer", "archivist", "admin"])
def test_staff_without_an_authenticator_are_sent_to_enrol_first(client, make_user, required, role):
    client.force_login(make_user(role))
    response = client.get(reverse("web:dashboard"))
    assert response.status_code == 302 and reverse("two_factor:enrol") in response["Location"]


@pytest.mark.parametrize("role", ["family", "caseworker"])
def test_families_and_caseworkers_are_not_asked(client, make_user, required, role):
    client.force_login(make_user(role))
    response = client.get(reverse("web:dashboard"))
    assert reverse("two_factor:enrol") not in response.get("Location", "")
    assert reverse("two_factor:verify") not in response.get("Location", "")


def test_whoever_signs_in_first_cannot_enrol_a_staff_account(client, make_user, required):
    """No key is ever shown on the web: without the administrator's key there is nothing to confirm."""
    user = make_user("reviewer")
    client.force_login(user)
    page = client.get(reverse("two_factor:enrol")).content.decode()
    assert "<svg" not in page and 'name="code"' not in page
    client.post(reverse("two_factor:enrol"), {"code": "123456"})
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert "two-factor" in client.get(reverse("web:dashboard"))["Location"]


def test_staff_are_created_with_a_pending_enrolment_completed_with_a_code(client, required):
    made = user_add({"email": "rev@example.org", "phone": None, "role": "reviewer", "name": "",
                     "password_stdin": False})
    assert made["enrolment"] == "pending" and made["totp_uri"].startswith("otpauth://totp/athar%3Auser-")
    assert "rev@example.org" not in made["totp_uri"]  # the account by id, never its login
    from athar.accounts.models import User

    user = User.objects.get(pk=made["user_id"])
    device = TOTPDevice.objects.get(user=user)
    assert not device.confirmed
    client.force_login(user)
    page = client.get(reverse("two_factor:enrol")).content.decode()
    assert made["totp_secret"] not in page  # the key is never on the web page
    assert client.post(reverse("two_factor:enrol"), {"code": wrong_code(device)}).status_code == 200
    device.refresh_from_db()
    device.throttle_reset()
    response = client.post(reverse("two_factor:enrol"), {"code": code_of(device), "next": reverse("web:dashboard")})
    codes = response.context["codes"]
    assert response.status_code == 200 and len(codes) == 10 and all(c in response.content.decode() for c in codes)
    assert "two-factor" not in client.get(reverse("web:dashboard")).get("Location", "")
    assert _events(user) == ["auth.two_factor.enrolment_started", "auth.two_factor.failed",
                             "auth.two_factor.enrolled"]
    # shown once: the codes are stored by django-otp, never shown again
    assert all(c not in client.get(reverse("two_factor:enrol"), follow=True).content.decode() for c in codes)


def test_enrolled_staff_must_enter_a_code_each_session_and_a_code_works_once(client, make_user, required):
    user = make_user("archivist")
    device = enrolled(user)
    client.force_login(user)
    response = client.get(reverse("web:dashboard"))
    assert reverse("two_factor:verify") in response["Location"]
    assert client.post(reverse("two_factor:verify"), {"code": wrong_code(device)}).status_code == 200
    device.refresh_from_db()
    device.throttle_reset()
    code = code_of(device)
    assert client.post(reverse("two_factor:verify"), {"code": code}).status_code == 302
    assert "two-factor" not in client.get(reverse("web:dashboard")).get("Location", "")
    other = client.__class__()
    other.force_login(user)
    assert other.post(reverse("two_factor:verify"), {"code": code}).status_code == 200  # replay refused
    assert _events(user) == ["auth.two_factor.failed", "auth.two_factor.verified", "auth.two_factor.failed"]


def test_wrong_codes_are_throttled_by_django_otp(make_user):
    user = make_user("reviewer")
    device = enrolled(user)
    assert not second_factor.verify(user, wrong_code(device), via="test")
    assert not second_factor.verify(user, code_of(device), via="test")  # even the right code waits
    assert "auth.two_factor.throttled" in _events(user)
    device.refresh_from_db()
    assert device.throttling_failure_count == 1


def test_a_recovery_code_works_once(make_user):
    user = make_user("reviewer")
    device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)
    codes = second_factor.confirm_enrolment(user, code_of(device), via="test")
    assert second_factor.verify(user, codes[0].upper(), via="test")
    assert not second_factor.verify(user, codes[0], via="test")
    assert "auth.two_factor.recovery_used" in _events(user)


def test_a_new_sign_in_needs_the_code_again(client, make_user, required):
    user = make_user("reviewer")
    device = enrolled(user)
    client.force_login(user)
    client.post(reverse("two_factor:verify"), {"code": code_of(device)})
    client.logout()
    client.force_login(user)
    assert "two-factor" in client.get(reverse("web:dashboard"))["Location"]


def test_the_code_step_cannot_be_skipped_for_photos_or_the_api(client, make_user, required):
    user = make_user("reviewer")
    enrolled(user)
    client.force_login(user)
    assert client.get("/api/reports", HTTP_ACCEPT="application/json").status_code in (401, 403)
    assert "two-factor" in client.get(reverse("web:review_queue"))["Location"]


def test_not_required_outside_production_by_default(client, make_user, settings):
    assert settings.ATHAR_REQUIRE_TWO_FACTOR is False  # ATHAR_ENV=test
    client.force_login(make_user("reviewer"))
    assert "two-factor" not in client.get(reverse("web:dashboard")).get("Location", "")


def test_the_verify_page_refuses_open_redirects(client, make_user, required):
    user = make_user("reviewer")
    device = enrolled(user)
    client.force_login(user)
    response = client.post(reverse("two_factor:verify"), {"code": code_of(device), "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_confirm_identity_for_commands(make_user, settings):
    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    user = make_user("reviewer")
    with pytest.raises(PermissionError, match="enrolment"):
        second_factor.confirm_identity(user, "a long test password", "123456", via="cli")
    device = enrolled(user)
    with pytest.raises(PermissionError, match="password"):
        second_factor.confirm_identity(user, "wrong", code_of(device), via="cli")
    second_factor.confirm_identity(user, "a long test password", code_of(device), via="cli")


def test_the_hand_written_totp_modules_are_gone():
    import importlib.util

    for name in ("athar.accounts.totp", "athar.accounts.two_factor"):
        assert importlib.util.find_spec(name) is None
    import athar.api.subcommands as api_subcommands

    assert "pyotp" not in Path(api_subcommands.__file__).read_text(encoding="utf-8")


def test_existing_totp_secrets_become_django_otp_devices(make_user):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("athar.accounts.migrations.0003_totp_secrets_to_django_otp")

    class Legacy:
        pk = make_user("reviewer").pk
        totp_secret = "JBSWY3DPEHPK3PXP"
        totp_confirmed = True

    class FakeUsers:
        @staticmethod
        def exclude(**kwargs):
            return [Legacy]

    class FakeApps:
        @staticmethod
        def get_model(app, name):
            return type("U", (), {"objects": FakeUsers}) if name == "User" else apps.get_model(app, name)

    migration.secrets_to_devices(FakeApps, None)
    device = TOTPDevice.objects.get(user_id=Legacy.pk)
    assert device.confirmed and device.key == "48656c6c6f21deadbeef"  # base32 of b"Hello!\xde\xad\xbe\xef"


def test_two_factor_keys_are_not_in_the_admin():
    from django.contrib import admin

    assert not admin.site.is_registered(TOTPDevice)
