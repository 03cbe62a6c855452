"""Registration and invitations: no phone-number enumeration, per-number limits, one use per code."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

from athar.accounts.enrolment import InvitationUnusable, redeem_invitation
from athar.accounts.models import Invitation, User
from athar.audit.models import AuditEvent

PASSWORD = "shams-of-damascus-77"
TAKEN = "+963944000111"


def _answer(response):
    """What a visitor sees: status, where it goes, the messages and the form errors."""
    context = response.context or {}
    form = context.get("form") if hasattr(context, "get") else None
    messages = [str(m) for m in context.get("messages", [])] if hasattr(context, "get") else []
    return (response.status_code, response.get("Location"), messages, dict(form.errors) if form else None)


def _page(response) -> str:
    import re

    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())
    return re.sub(r"[0-9٠-٩]{5} [0-9٠-٩]{5}", "CODE", page)  # recovery codes: random, same shape either way


@pytest.mark.django_db
def test_registration_answers_the_same_for_a_taken_and_a_new_number(client, make_user):
    owner = make_user("family", login=TAKEN, phone=TAKEN)
    taken = client.post(reverse("accounts:register"), {"phone": "0944 000 111", "password": PASSWORD}, follow=True)
    new = client.post(reverse("accounts:register"), {"phone": "0944 000 222", "password": PASSWORD}, follow=True)
    assert _answer(taken) == _answer(new)
    assert _page(taken) == _page(new)
    owner.refresh_from_db()
    assert owner.check_password("a long test password")  # the owner's account is untouched
    assert User.objects.filter(login="+963944000222").exists() and User.objects.count() == 2
    assert AuditEvent.objects.filter(action="account.register_existing_phone", object_id=str(owner.pk)).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("code_ok", [True, False])
def test_invitation_answers_the_same_for_a_taken_and_a_new_number(client, make_user, code_ok):
    make_user("family", login=TAKEN, phone=TAKEN)
    caseworker = make_user("caseworker")
    answers = []
    for phone in (TAKEN, "+963944000333"):
        code = Invitation.issue(caseworker)[1] if code_ok else "WRONG-CODE-22"
        response = client.post(reverse("accounts:redeem"), {"code": code, "phone": phone, "password": PASSWORD})
        answers.append(_answer(response))
        client.post(reverse("accounts:logout"))
    assert answers[0] == answers[1]
    if code_ok:  # the family with a taken number signs in with its code; the number stays its owner's
        made = User.objects.filter(caseworker=caseworker).order_by("pk")
        assert [u.login.startswith("code:") for u in made] == [True, False]
        assert User.objects.get(login=TAKEN).caseworker is None


@pytest.mark.django_db
def test_an_invitation_account_also_signs_in_with_its_code(client, make_user):
    _, code = Invitation.issue(make_user("caseworker"))
    redeem_invitation(code, PASSWORD, "+963944000444")
    response = client.post(reverse("accounts:login"), {"identifier": code.lower(), "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("web:dashboard")


@pytest.mark.django_db
def test_registration_is_limited_per_phone_number_across_addresses(client, settings):
    settings.ATHAR_RATE_LIMITS = {"login": {"rate": "3/5m", "address_rate": "100/5m", "methods": ["POST"]}}
    codes = [client.post(reverse("accounts:register"), {"phone": "0944 000 555", "password": PASSWORD},
                         REMOTE_ADDR=f"10.0.0.{i}").status_code for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]  # 200: the recovery codes page
    other = client.post(reverse("accounts:register"), {"phone": "0944 000 556", "password": PASSWORD},
                        REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 200


def _redeem_in_thread(code: str, phone: str, barrier: threading.Barrier, outcomes: list[str]) -> None:
    try:
        barrier.wait(timeout=10)
        for _attempt in range(500):
            try:
                redeem_invitation(code, PASSWORD, phone)
                outcomes.append("redeemed")
                return
            except OperationalError:  # SQLite's shared in-memory test database: "table is locked"
                time.sleep(0.01)
            except InvitationUnusable:
                outcomes.append("refused")
                return
        outcomes.append("gave up")
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_six_concurrent_redemptions_of_one_code_make_one_account(make_user):
    _, code = Invitation.issue(make_user("caseworker"))
    outcomes: list[str] = []
    barrier = threading.Barrier(6)
    threads = [threading.Thread(target=_redeem_in_thread, args=(code, f"+96394400060{i}", barrier, outcomes))
               for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["redeemed"] + ["refused"] * 5
    assert User.objects.filter(role="family").count() == 1
    assert Invitation.objects.get().used_by == User.objects.get(role="family")
