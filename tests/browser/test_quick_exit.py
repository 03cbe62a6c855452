"""Quick exit in a real browser: after it, Back shows nothing of the family's report.

A family signs in, opens its report page, presses quick exit; then every step Back through the
history must show no name from the report — with JavaScript (location.replace) and without it (the
form's POST), with the browser's back-forward cache as it ships. The neutral site is answered
by Playwright (no network needed), at the address athar really sends the browser to.
"""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.browser.conftest import PHONE
from tests.web.factories import make_candidate, make_case, make_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long test password"
NAME = "خالد عبد الرحمن"
NEUTRAL = "<!doctype html><title>neutral</title><p>neutral page</p>"


def _text(page) -> str:
    """The page's HTML once it has settled (a restored page may reload itself first)."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(400)
    page.wait_for_load_state("load")
    return page.content()


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_back_after_quick_exit_shows_nothing(browser, live_server, make_user, javascript):
    family = make_user("family", login="khalid.family@example.org")
    report = make_report(family, None, name=NAME)
    make_candidate(report, make_case("C-7", "215"))
    context = browser.new_context(viewport=PHONE, locale="ar", java_script_enabled=javascript)
    context.route(settings.ATHAR_QUICK_EXIT_URL + "**",
                  lambda route: route.fulfill(status=200, content_type="text/html", body=NEUTRAL))
    page = context.new_page()

    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=identifier]", "khalid.family@example.org")
    page.fill("input[name=password]", PASSWORD)
    page.click("form:has(input[name=password]) button[type=submit]")
    page.wait_for_url("**/family/")
    assert NAME in page.content()
    page.click(f"text={NAME}")
    page.wait_for_url("**/reports/**")
    assert NAME in page.content()

    page.click("#quick-exit")
    page.wait_for_url(settings.ATHAR_QUICK_EXIT_URL + "**")
    assert "neutral page" in page.content()

    seen = []
    for _ in range(4):  # Back through the whole history: no step shows the report
        if page.go_back() is None and page.url == (seen[-1] if seen else None):
            break
        seen.append(page.url)
        assert NAME not in _text(page), page.url
    assert seen, "Back went nowhere"
    assert not [c for c in context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME]
    context.close()
