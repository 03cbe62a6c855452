"""Administrators in the web: accounts and the audit log, every action audited, refused to others."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django_otp.plugins.otp_totp.models import TOTPDevice

from athar.accounts.models import User
from athar.audit.chain import record
from athar.audit.models import AuditEvent
from tests.accounts.otp import code_of, enrolled

pytestmark = pytest.mark.django_db

PASSWORD = "a long staff password 2026"
NOT_ADMINS = ["family", "caseworker", "reviewer", "archivist"]


def _last(action):
    return AuditEvent.objects.filter(action=action).order_by("-seq").first()


def _pages(world):
    user = world.reviewer.pk
    return [("get", reverse("web:admin_users"), {}), ("get", reverse("web:admin_user_new"), {}),
            ("post", reverse("web:admin_user_new"), {"role": "reviewer", "email": "x@example.org",
                                                     "password": PASSWORD}),
            ("get", reverse("web:admin_user", args=[user]), {}),
            ("post", reverse("web:admin_user_active", args=[user]), {"active": "no"}),
            ("post", reverse("web:admin_user_2fa", args=[user]), {"reason": "lost phone"}),
            ("get", reverse("web:audit_log"), {}), ("post", reverse("web:audit_verify"), {}),
            ("get", reverse("web:admin_worker"), {})]


@pytest.mark.parametrize("role", NOT_ADMINS)
def test_every_admin_page_is_refused_to_other_roles(client_for, world, role):
    client = client_for(getattr(world, role))
    for method, url, data in _pages(world):
        assert getattr(client, method)(url, data).status_code == 403, url
    world.reviewer.refresh_from_db()
    assert world.reviewer.is_active and not User.objects.filter(login="x@example.org").exists()
    assert not TOTPDevice.objects.filter(user=world.reviewer).exists()
    assert not AuditEvent.objects.filter(action__in=["audit.viewed", "audit.verified"]).exists()


def test_every_admin_page_sends_a_signed_out_visitor_to_sign_in(client_for, world):
    for method, url, data in _pages(world):
        response = getattr(client_for(None), method)(url, data)
        assert response.status_code == 302 and reverse("accounts:login") in response["Location"], url
    world.reviewer.refresh_from_db()
    assert world.reviewer.is_active


def test_the_admin_lands_on_the_accounts_page(client_for, world):
    response = client_for(world.admin).get(reverse("web:dashboard"))
    assert response["Location"] == reverse("web:admin_users")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_list_shows_role_active_last_sign_in_and_two_factor(client_for, world, lang):
    enrolled(world.archivist)
    User.objects.filter(pk=world.caseworker.pk).update(is_active=False, last_login="2026-11-30T10:15:00Z")
    with translation.override(lang):
        html = client_for(world.admin).get(reverse("web:admin_users")).content.decode()
    rows = dict(re.findall(r'<tr class="account" data-user="(\d+)">(.*?)</tr>', html, re.DOTALL))

    def two_factor(user):
        return re.search(r'<td class="two-factor">(.*?)</td>', rows[str(user.pk)]).group(1)

    assert two_factor(world.archivist) == ("enrolled" if lang == "en" else "مفعلة")
    assert two_factor(world.reviewer) == ("not enrolled" if lang == "en" else "لم تفعل بعد")
    assert "2026-11-30" in rows[str(world.caseworker.pk)] and "2026-11-30" not in rows[str(world.reviewer.pk)]
    assert ("deactivated" if lang == "en" else "معطل") in rows[str(world.caseworker.pk)]
    assert ("deactivated" if lang == "en" else "معطل") not in rows[str(world.reviewer.pk)]


def test_the_list_filters_by_role(client_for, world):
    html = client_for(world.admin).get(reverse("web:admin_users") + "?role=archivist").content.decode()
    shown = set(re.findall(r'data-user="(\d+)"', html))
    assert shown == {str(world.archivist.pk)}


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_an_admin_creates_a_reviewer_who_enrols_at_first_sign_in(client_for, world, lang, settings):
    with translation.override(lang):
        response = client_for(world.admin).post(reverse("web:admin_user_new"), {
            "role": "reviewer", "email": "New.Reviewer@example.org", "name": "R", "password": PASSWORD})
    html = response.content.decode()
    made = User.objects.get(login="new.reviewer@example.org")
    assert made.role == "reviewer" and made.check_password(PASSWORD)
    secret = re.search(r'<code dir="ltr" id="totp-secret">([A-Z2-7]+)</code>', html).group(1)
    assert "<svg" in html
    device = TOTPDevice.objects.get(user=made)
    assert not device.confirmed
    event = _last("user.created")
    assert event.actor == f"user:{world.admin.pk}" and event.object_id == str(made.pk)
    assert event.data == {"role": "reviewer", "via": "web"}
    # the reviewer completes the enrolment with a code from that key
    from base64 import b32decode

    assert b32decode(secret) == device.bin_key
    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    staff = client_for(made)
    assert "two-factor" in staff.get(reverse("web:dashboard"))["Location"]
    staff.post(reverse("two_factor:enrol"), {"code": code_of(device)})
    assert TOTPDevice.objects.get(user=made).confirmed


def test_a_family_account_gets_no_key_and_a_weak_password_is_refused(client_for, world):
    client = client_for(world.admin)
    response = client.post(reverse("web:admin_user_new"), {"role": "family", "phone": "0944 123 456",
                                                           "password": "short"})
    assert response.status_code == 200 and 'class="errorlist"' in response.content.decode()
    assert not User.objects.filter(login="+963944123456").exists()
    response = client.post(reverse("web:admin_user_new"), {"role": "family", "phone": "0944 123 456",
                                                           "password": PASSWORD})
    made = User.objects.get(login="+963944123456")
    assert response["Location"] == reverse("web:admin_user", args=[made.pk])
    assert not TOTPDevice.objects.filter(user=made).exists()


def test_a_taken_login_or_both_email_and_phone_are_refused(client_for, world):
    client = client_for(world.admin)
    before = User.objects.count()
    for data in ({"role": "archivist", "email": world.archivist.login, "password": PASSWORD},
                 {"role": "archivist", "email": "a@example.org", "phone": "0944 123 456", "password": PASSWORD},
                 {"role": "archivist", "password": PASSWORD}):
        response = client.post(reverse("web:admin_user_new"), data)
        assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert User.objects.count() == before


def test_deactivate_and_reactivate_are_audited_and_stop_sign_in(client_for, world):
    admin = client_for(world.admin)
    url = reverse("web:admin_user_active", args=[world.reviewer.pk])
    reviewer = client_for(world.reviewer)
    assert reviewer.get(reverse("web:review_queue")).status_code == 200
    admin.post(url, {"active": "no"})
    world.reviewer.refresh_from_db()
    assert not world.reviewer.is_active
    assert _last("user.deactivated").object_id == str(world.reviewer.pk)
    assert reviewer.get(reverse("web:review_queue")).status_code == 302  # signed out: inactive
    admin.post(url, {"active": "yes"})
    world.reviewer.refresh_from_db()
    assert world.reviewer.is_active and _last("user.reactivated").actor == f"user:{world.admin.pk}"


def test_an_admin_cannot_deactivate_themselves(client_for, world):
    client = client_for(world.admin)
    assert "deactivate this account" not in client.get(
        reverse("web:admin_user", args=[world.admin.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode().lower()
    client.post(reverse("web:admin_user_active", args=[world.admin.pk]), {"active": "no"})
    world.admin.refresh_from_db()
    assert world.admin.is_active and not AuditEvent.objects.filter(action="user.deactivated").exists()


def test_reset_two_factor_needs_a_reason_and_gives_a_new_key(client_for, world):
    old = enrolled(world.reviewer)
    client = client_for(world.admin)
    url = reverse("web:admin_user_2fa", args=[world.reviewer.pk])
    client.post(url, {"reason": "  "})
    assert TOTPDevice.objects.filter(pk=old.pk).exists()
    html = client.post(url, {"reason": "phone lost on 30 November"}).content.decode()
    assert not TOTPDevice.objects.filter(pk=old.pk).exists()
    new = TOTPDevice.objects.get(user=world.reviewer)
    assert not new.confirmed and 'id="totp-secret"' in html
    event = _last("user.two_factor_reset")
    assert event.actor == f"user:{world.admin.pk}" and "phone lost" not in str(event.data)
    assert len(event.data["reason_sha256"]) == 64


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_audit_log_filters_paginates_and_is_audited_itself(client_for, world, lang):
    for n in range(60):
        record("case.edited", object_type="case", object_id=n, actor=f"user:{world.archivist.pk}")
    record("user.created", object_type="user", object_id=world.reviewer.pk, actor=f"user:{world.admin.pk}")
    client = client_for(world.admin)
    with translation.override(lang):
        url = reverse("web:audit_log")
        page = client.get(url, {"action": "case.edited", "actor": str(world.archivist.pk)}).content.decode()
        seqs = re.findall(r'<tr class="event" data-seq="(\d+)">', page)
        assert len(seqs) == 50 and seqs == sorted(seqs, key=int, reverse=True)
        assert "user.created" not in "".join(re.findall(r'<tr class="event".*?</tr>', page, re.DOTALL))
        second = client.get(url, {"action": "case.edited", "actor": str(world.archivist.pk), "page": 2})
        assert len(re.findall(r'<tr class="event"', second.content.decode())) == 10
        one = client.get(url, {"object_type": "case", "object_id": "7"}).content.decode()
        assert len(re.findall(r'<tr class="event"', one)) == 1
        family = client.get(url, {"action": "user."}).content.decode()
        assert len(re.findall(r'<tr class="event"', family)) == 1
        future = client.get(url, {"since": "2999-01-01"}).content.decode()
        assert not re.findall(r'<tr class="event"', future)
    viewed = _last("audit.viewed")
    assert viewed.actor == f"user:{world.admin.pk}" and viewed.data == {"since": "2999-01-01", "page": 1}
    assert AuditEvent.objects.filter(action="audit.viewed").count() == 5


def test_the_audit_filter_refuses_a_reversed_range_and_a_bad_actor(client_for, world):
    client = client_for(world.admin)
    html = client.get(reverse("web:audit_log"), {"since": "2026-12-01", "until": "2026-01-01",
                                                 "actor": "someone"}).content.decode()
    assert html.count('role="alert"') >= 2


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_verify_the_chain_from_the_page(client_for, world, lang):
    edited = record("case.edited", object_type="case", object_id=1)
    client = client_for(world.admin)
    with translation.override(lang):
        ok = client.post(reverse("web:audit_verify")).content.decode()
    assert 'id="chain-result"' in ok and "broken" not in ok and "مكسورة" not in ok
    assert _last("audit.verified").data["ok"] is True
    AuditEvent.objects.filter(seq=edited.seq).update(object_id="2")  # altered outside athar
    with translation.override(lang):
        broken = client.post(reverse("web:audit_verify")).content.decode()
    said = {"en": f"audit event #<bdi>{edited.seq}</bdi> (<bdi>case.edited</bdi>) was altered",
            "ar": f"حدث السجل رقم <bdi>{edited.seq}</bdi> (<bdi>case.edited</bdi>) تغيّر بعد تسجيله"}
    assert said[lang] in broken  # the finding in the page's language, its values set apart
    assert _last("audit.verified").data["ok"] is False


def test_the_worker_page_says_whether_the_matching_worker_runs(client_for, world):
    from django.utils import timezone

    from athar.identification.models import Job, WorkerBeat

    client = client_for(world.admin)
    page = client.get(reverse("web:admin_worker")).content.decode()
    assert "لا يعمل" in page  # the site's default language: Arabic
    now = timezone.now()
    WorkerBeat.objects.create(name="host:4242", host="host", pid=4242, started_at=now, beat_at=now)
    Job.objects.create(kind="subject", target="report:1", status="failed", run_after=now,
                       last_error="DoesNotExist: Report matching query does not exist.\nTraceback ...")
    page = client.get(reverse("web:admin_worker")).content.decode()
    assert "يعمل: العملية 4242" in page and "DoesNotExist" in page and "Traceback" not in page
    WorkerBeat.objects.update(beat_at=now - timezone.timedelta(minutes=5))
    assert "لا يعمل" in client.get(reverse("web:admin_worker")).content.decode()
