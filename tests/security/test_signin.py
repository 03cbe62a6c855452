"""Sign-in: audit of every attempt (identifiers only), lockout (django-axes), session expiry, logs."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse
from django.utils import timezone

from athar.accounts.signals import SESSION_AUTH_AT, SESSION_SEEN_AT
from athar.audit.models import AuditEvent
from tests.security.helpers import PASSWORD, audit_rows_text

pytestmark = pytest.mark.django_db


def sign_in(client, login, password=PASSWORD):
    return client.post(reverse("accounts:login"), {"identifier": login, "password": password})


def test_a_sign_in_is_audited_by_account_id_only(client, make_user):
    user = make_user("family", login="+963944123456", phone="+963944123456")
    response = sign_in(client, "00963 944 123 456")
    assert response.status_code == 302
    event = AuditEvent.objects.filter(action="auth.login").last()
    assert event.actor == f"user:{user.pk}" and event.object_id == str(user.pk)
    assert "963944123456" not in audit_rows_text()


def test_failed_sign_ins_are_audited_without_the_login_typed(client, make_user):
    user = make_user("reviewer", login="reviewer.secret@example.org")
    sign_in(client, "reviewer.secret@example.org", "wrong password!")
    sign_in(client, "nobody.here@example.org", "wrong password!")
    failures = list(AuditEvent.objects.filter(action="auth.login_failed").order_by("seq"))
    assert [f.object_id for f in failures] == [str(user.pk), ""]
    assert [f.data["known_account"] for f in failures] == [True, False]
    text = audit_rows_text()
    assert "secret@example.org" not in text and "nobody.here" not in text


def test_repeated_failures_lock_the_account_with_a_clear_message(client, make_user, settings):
    make_user("family", login="family.lock@example.org")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "family.lock@example.org", "wrong password!")
    response = sign_in(client, "family.lock@example.org")  # even the right password
    assert response.status_code == 429
    # "Too many failed sign-in attempts. ... paused for 30 minutes", in the default Arabic
    assert "محاولات دخول فاشلة كثيرة" in response.content.decode()
    assert f"{int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)} دقيقة" in response.content.decode()
    assert int(response["Retry-After"]) > 0
    assert AuditEvent.objects.filter(action="auth.login_failed", data__locked_out=True).exists()


def test_lockout_counts_per_account_across_addresses(client, make_user, settings):
    make_user("family", login="family.spread@example.org")
    for n in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("accounts:login"), {"identifier": "family.spread@example.org", "password": "nope nope"},
                    REMOTE_ADDR=f"10.0.0.{n + 1}")
    response = client.post(reverse("accounts:login"), {"identifier": "family.spread@example.org",
                                                       "password": PASSWORD}, REMOTE_ADDR="10.9.9.9")
    assert response.status_code == 429


def test_lockout_rows_never_hold_the_login(client, make_user, settings):
    from axes.models import AccessAttempt

    make_user("family", login="family.rows@example.org")
    sign_in(client, "family.rows@example.org", "wrong password!")
    rows = list(AccessAttempt.objects.values_list("username", flat=True))
    assert rows and all("family.rows" not in (r or "") for r in rows)


def test_sign_in_leaves_no_personal_data_in_the_logs(client, make_user, caplog, settings):
    make_user("family", login="family.logs@example.org")
    caplog.set_level(logging.DEBUG)
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        sign_in(client, "family.logs@example.org", "wrong password!")
    sign_in(client, "family.logs@example.org")
    assert "family.logs" not in caplog.text
    assert "wrong password" not in caplog.text


def _aged_session(client, user, **ages):
    client.force_login(user)
    session = client.session
    now = int(timezone.now().timestamp())
    session[SESSION_AUTH_AT] = now - ages.get("auth", 0)
    session[SESSION_SEEN_AT] = now - ages.get("seen", 0)
    session.save()


@pytest.mark.parametrize("ages,signed_in", [
    ({}, True),
    ({"seen": 10 ** 6}, False),
    ({"auth": 10 ** 6}, False),
])
def test_sessions_expire_when_idle_and_after_their_age(client, make_user, ages, signed_in):
    user = make_user("family")
    _aged_session(client, user, **ages)
    response = client.get(reverse("web:dashboard"))
    assert ("_auth_user_id" in client.session) is signed_in
    if not signed_in:
        assert AuditEvent.objects.filter(action="auth.session_expired", object_id=str(user.pk)).exists()
    assert response.status_code in (200, 302)


def test_signed_in_pages_are_never_cached(client, make_user):
    client.force_login(make_user("family"))
    response = client.get(reverse("web:dashboard"), follow=True)
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
