"""Quick exit protects: it signs out server-side, lands on a neutral site, and nothing private stays
in the browser's cache (every page for a signed-in person is ``private, no-store``).

The browser side (Back after quick exit shows nothing) is tests/browser/test_quick_exit.py.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from athar.api.models import ApiToken
from athar.audit.models import AuditEvent
from athar.config import env_exit_url, origin_of
from athar.core.security import never_store
from tests.web.conftest import sign_in, world  # noqa: F401  (fixture)
from tests.web.factories import make_candidate

pytestmark = pytest.mark.django_db


def _signed_in(user, **client_options) -> tuple[Client, str]:
    client = Client(**client_options)
    sign_in(client, user)
    return client, client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.mark.parametrize("method", ["post", "get"])
def test_quick_exit_ends_the_session_on_the_server(world, method):
    client, session_key = _signed_in(world.family, enforce_csrf_checks=True)  # no token: still leaves
    report_url = reverse("web:report", kwargs={"report_id": world.report.pk})
    assert client.get(report_url).status_code == 200
    response = getattr(client, method)(reverse("accounts:quick_exit"))
    assert response.status_code == 303 and response["Location"] == settings.ATHAR_QUICK_EXIT_URL
    assert not Session.objects.filter(session_key=session_key).exists()
    assert "_auth_user_id" not in client.session
    after = client.get(report_url)
    assert after.status_code == 302 and reverse("accounts:login") in after["Location"]
    assert world.report.full_name_ar not in after.content.decode()
    event = AuditEvent.objects.filter(action="auth.logout").last()
    assert event is not None and event.object_id == str(world.family.pk)


def test_the_old_session_cookie_opens_nothing_after_quick_exit(world):
    """A copy of the cookie (another tab, a shared phone) is as dead as the session itself."""
    client, session_key = _signed_in(world.family)
    client.post(reverse("accounts:quick_exit"))
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = session_key
    assert replay.get(reverse("web:report", kwargs={"report_id": world.report.pk})).status_code == 302


def test_quick_exit_answer_is_never_stored_and_clears_the_browser_cache(world):
    client, _ = _signed_in(world.family)
    response = client.post(reverse("accounts:quick_exit"))
    assert "no-store" in response["Cache-Control"]
    assert response["Clear-Site-Data"] == '"cache"'
    assert response["Referrer-Policy"] == "no-referrer"


def test_quick_exit_works_signed_out_and_before_the_two_factor_step(client, make_user, settings):
    assert client.post(reverse("accounts:quick_exit")).status_code == 303
    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    reviewer, session_key = _signed_in(make_user("reviewer"))
    response = reviewer.post(reverse("accounts:quick_exit"))
    assert response.status_code == 303 and response["Location"] == settings.ATHAR_QUICK_EXIT_URL
    assert not Session.objects.filter(session_key=session_key).exists()


def test_every_page_offers_quick_exit_as_a_form_that_needs_no_javascript(client, world):
    html = client.get(reverse("web:home")).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*><button class="quick-exit" id="quick-exit"', html)
    assert form and form.group(1) == reverse("accounts:quick_exit")
    assert "data-private" not in html
    signed_in, _ = _signed_in(world.family)
    assert "<body data-private>" in signed_in.get(reverse("web:family_home")).content.decode()


def test_the_csp_lets_the_quick_exit_form_land_on_the_neutral_site(client):
    csp = client.get(reverse("web:home"))["Content-Security-Policy"]
    form_action = re.search(r"form-action ([^;]+)", csp).group(1).split()
    assert form_action == ["'self'", origin_of(settings.ATHAR_QUICK_EXIT_URL)]


def test_pages_for_a_signed_in_person_are_private_and_never_stored(world):
    candidate = make_candidate(world.report, world.case)
    client, _ = _signed_in(world.family)
    pages = [reverse("web:dashboard"), reverse("web:family_home"), reverse("web:home"), reverse("web:about"),
             reverse("web:report", kwargs={"report_id": world.report.pk}),
             reverse("web:candidates", kwargs={"report_id": world.report.pk}),
             reverse("web:candidate", kwargs={"candidate_id": candidate.pk}),
             reverse("web:report_photos", kwargs={"report_id": world.report.pk})]
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 302), url  # /me/ sends a family on to its page
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= directives and "public" not in directives, url


def test_api_answers_to_a_token_are_never_stored(world):
    _, token = ApiToken.issue(world.family, "t")
    response = Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/reports")
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


def test_public_pages_and_static_files_stay_cacheable_for_signed_out_visitors(client):
    for name in ("web:home", "web:about", "web:method"):
        assert "no-store" not in client.get(reverse(name)).get("Cache-Control", ""), name
    static = client.get(settings.STATIC_URL + "web/athar.css")
    assert static.status_code == 200 and "no-store" not in static.get("Cache-Control", "")
    assert "max-age" in static.get("Cache-Control", "")


def test_static_files_stay_cacheable_for_a_signed_in_person(world):
    client, _ = _signed_in(world.family)
    static = client.get(settings.STATIC_URL + "web/athar.css")
    assert static.status_code == 200 and "no-store" not in static.get("Cache-Control", "")


@pytest.mark.parametrize("given", [None, "max-age=3600", "public, max-age=600", "private", "no-cache"])
def test_never_store_replaces_any_caching_a_view_asked_for(given):
    response = HttpResponse()
    if given:
        response["Cache-Control"] = given
    never_store(response)
    assert response["Cache-Control"] == "private, no-store"


def test_never_store_keeps_a_views_own_private_no_store():
    response = HttpResponse()
    response["Cache-Control"] = "no-store, private"
    never_store(response)
    assert response["Cache-Control"] == "no-store, private"


@pytest.mark.parametrize("value", ["javascript:alert(1)", "/relative", "www.example.org", "ftp://example.org/",
                                   "http://example.org/"])
def test_a_quick_exit_address_that_is_not_an_absolute_web_address_is_refused(monkeypatch, value):
    monkeypatch.setenv("ATHAR_QUICK_EXIT_URL", value)
    with pytest.raises(ImproperlyConfigured):
        env_exit_url("ATHAR_QUICK_EXIT_URL", "https://www.google.com/")


def test_the_quick_exit_address_defaults_to_a_neutral_site(monkeypatch):
    monkeypatch.delenv("ATHAR_QUICK_EXIT_URL", raising=False)
    assert env_exit_url("ATHAR_QUICK_EXIT_URL", "https://www.google.com/") == "https://www.google.com/"
    assert origin_of("https://weather.example.org:8443/today?x=1") == "https://weather.example.org:8443"
