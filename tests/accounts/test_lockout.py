"""Lockout (django-axes) per account; per address only a throttle, so families behind one NAT
with the same phone browser never lock each other out."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db
PASSWORD = "a long test password"
SHARED = {"REMOTE_ADDR": "10.20.30.40", "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 10) Chrome/120"}


def sign_in(client, login, password, **meta):
    return client.post(reverse("accounts:login"), {"identifier": login, "password": password}, **meta)


def test_failures_on_other_accounts_from_one_address_and_agent_lock_no_one_else(client, make_user, settings):
    settings.AXES_FAILURE_LIMIT = 5
    family = make_user("family", login="+963944000777", phone="+963944000777")
    for n in range(6):
        sign_in(client, f"+96394400080{n}", "wrong password!", **SHARED)
    response = sign_in(client, "0944 000 777", PASSWORD, **SHARED)
    assert response.status_code == 302 and response["Location"] == reverse("web:dashboard")
    assert client.session.get("_auth_user_id") == str(family.pk)


def test_failures_on_one_account_lock_it_from_every_address(client, make_user, settings):
    settings.AXES_FAILURE_LIMIT = 3
    make_user("family", login="+963944000778", phone="+963944000778")
    for n in range(3):
        sign_in(client, "+963944000778", "wrong password!", REMOTE_ADDR=f"10.0.0.{n}")
    locked = sign_in(client, "+963944000778", PASSWORD, REMOTE_ADDR="10.9.9.9", HTTP_USER_AGENT="other")
    assert locked.status_code == 429


def test_an_address_is_throttled_not_locked(client, make_user, settings):
    settings.ATHAR_RATE_LIMITS = {"login": {"rate": "100/d", "address_rate": "4/d", "methods": ["POST"]}}
    codes = [sign_in(client, f"+96394400090{n}", "wrong password!", **SHARED).status_code for n in range(6)]
    assert codes[:4] == [200] * 4 and codes[4:] == [429, 429]


def test_the_policy_is_per_account_only(settings):
    assert settings.AXES_LOCKOUT_PARAMETERS == ["username"]


def test_check_fails_when_sign_in_is_not_throttled_per_address(settings):
    from athar.core.checks import check_rate_limits

    assert check_rate_limits() == []
    settings.ATHAR_RATE_LIMITS = {k: v for k, v in settings.ATHAR_RATE_LIMITS.items() if k != "login"}
    assert [m.id for m in check_rate_limits()] == ["athar.E114"]
