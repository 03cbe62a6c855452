"""Playwright driving Debian's chromium against pytest-django's live server."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "a long test password"  # every account made by the make_user fixture
AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = {"serious", "critical"}
# On CI a missing axe-core is a failure (scripts/setup installs it); elsewhere the check is skipped.
needs_axe = pytest.mark.skipif(not AXE.exists() and os.environ.get("CI") != "true",
                               reason="axe-core not installed (scripts/setup installs it into .cache/axe)")


@pytest.fixture(scope="session", autouse=True)
def one_request_at_a_time() -> Iterator[None]:
    """The live server answers one request at a time.

    With SQLite the test database is in memory, and pytest-django hands the live server the test's
    own connection; Django's threaded server then runs the browser's parallel requests (a page and
    its photos) on that one connection at once, and a write (the audit of an unblurred photo) fails
    with "database table is locked". Production opens a connection per thread with a busy timeout,
    so the race is the harness's; serialising the application calls removes it (CI, stop 24).
    """
    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread

    lock = threading.Lock()

    class SerialWSGIServer(ThreadedWSGIServer):
        def set_app(self, application: Any) -> None:
            def serial(environ: Any, start_response: Any) -> Any:
                with lock:
                    return application(environ, start_response)

            super().set_app(serial)

    original = LiveServerThread.server_class
    LiveServerThread.server_class = SerialWSGIServer
    yield
    LiveServerThread.server_class = original


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium not installed (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; Django's ORM in the test is still
    # synchronous and single-threaded here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Shots:
    """Numbered screenshots of one flow under artifacts/screenshots/<flow>/."""

    def __init__(self, page: Any, flow: str) -> None:
        self.page, self.folder, self.n = page, SCREENSHOTS / flow, 0
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.png"):
            old.unlink()

    def __call__(self, name: str) -> None:
        self.n += 1
        self.page.evaluate("window.scrollTo(0, 0)")  # the sticky header (quick exit) stays on top
        self.page.screenshot(path=str(self.folder / f"{self.n:02d}-{name}.png"), full_page=True)


class PhotoWatch:
    """Records every archive derivative the browser loads, to prove what was shown when."""

    PATTERN = re.compile(r"/photos/derivative/(\d+)/")
    MEDIA = re.compile(r"/media/d/([^/?#]+)")

    def __init__(self, page: Any) -> None:
        self.loaded: list[tuple[int, int]] = []
        page.on("response", self._seen)

    def _seen(self, response: Any) -> None:
        from django.core import signing

        from athar.web.media import DERIVATIVE_SALT

        match = self.PATTERN.search(response.url)
        if match:
            self.loaded.append((int(match.group(1)), response.status))
        media = self.MEDIA.search(response.url)
        if media:  # the audited path of unblurred copies: the token names the derivative
            self.loaded.append((int(signing.loads(media.group(1), salt=DERIVATIVE_SALT)["d"]), response.status))

    def kinds(self) -> set[str]:
        from athar.archive.models import Derivative

        ok = [pk for pk, status in self.loaded if status == 200]
        return set(Derivative.objects.filter(pk__in=ok).values_list("kind", flat=True))


@pytest.fixture
def shots() -> type[Shots]:
    return Shots


@pytest.fixture
def photo_watch() -> type[PhotoWatch]:
    return PhotoWatch


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, as 'rule: target' lines."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {node['target']}" for v in result["violations"] if v["impact"] in SERIOUS
            for node in v["nodes"][:3]]


def page_path(name: str, *args: Any) -> str:
    """A page's path, unprefixed (Arabic is the default language; the English walk adds /en)."""
    from django.urls import reverse
    from django.utils import translation

    with translation.override("ar"):
        return reverse(name, args=args)


@pytest.fixture
def two_factor(settings: Any) -> None:
    """Staff pass the two-factor step, as in production."""
    settings.ATHAR_REQUIRE_TWO_FACTOR = True


def sign_in(page: Any, base: str, login: str, device: Any = None) -> None:
    """Sign in through the form; with ``device`` (a confirmed TOTP device), pass the two-factor step
    with the code its app shows now (staff, when ATHAR_REQUIRE_TWO_FACTOR is on)."""
    page.goto(base + "/accounts/login/")
    page.fill("input[name=identifier]", login)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    if device is not None:
        from tests.accounts.otp import code_of

        assert "/accounts/two-factor/" in page.url, page.url  # the step is asked for before any page
        page.fill("input[name=code]", code_of(device))
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        assert "/accounts/two-factor/" not in page.url, page.url


class Walk:
    """One person's browser session at desktop width in one language: each step is screenshotted
    under artifacts/screenshots/<flow>/ and checked with axe-core (serious or critical violations
    are collected and asserted on at ``close``); the page's direction matches its language."""

    def __init__(self, browser: Any, live_server: Any, flow: str, language: str,
                 viewport: dict[str, int] | None = None) -> None:
        # bypass_csp: only so the test can inject axe-core; the pages keep their strict policy.
        self.context = browser.new_context(viewport=viewport or DESKTOP, locale=language, bypass_csp=True,
                                           accept_downloads=True)
        self.page = self.context.new_page()
        self.language = language
        self.root = live_server.url
        self.base = live_server.url + ("" if language == "ar" else "/en")
        self.shot = Shots(self.page, flow)
        self.problems: dict[str, list[str]] = {}

    def sign_in(self, login: str, device: Any = None) -> None:
        sign_in(self.page, self.base, login, device)

    def go(self, path: str) -> None:
        """Open a path (as reversed in Arabic, unprefixed): the English walk adds /en."""
        response = self.page.goto(self.base + path)
        assert response is not None and response.status == 200, (path, response and response.status)

    def step(self, name: str, axe: bool = True) -> None:
        self.page.wait_for_load_state()
        assert self.page.locator("html").get_attribute("lang") == self.language, (name, self.page.url)
        assert self.page.locator("html").get_attribute("dir") == ("rtl" if self.language == "ar" else "ltr")
        self.shot(name)
        if axe:
            found = axe_violations(self.page)
            if found:
                self.problems[f"{name} ({self.page.url})"] = found

    def t(self, text: str) -> str:
        """The message as the page's language says it."""
        from django.utils import translation

        with translation.override(self.language):
            return str(translation.gettext(text))

    def messages(self) -> str:
        box = self.page.locator(".messages")
        return box.inner_text() if box.count() else ""

    def close(self) -> None:
        self.context.close()
        assert self.problems == {}, "\n".join(f"{where}: {found}" for where, found in self.problems.items())


@pytest.fixture
def walk(browser: Any, live_server: Any) -> Any:
    """``walk(flow, language)``: a Walk, closed (and its accessibility findings asserted) by the test."""

    def make(flow: str, language: str, viewport: dict[str, int] | None = None) -> Walk:
        return Walk(browser, live_server, flow, language, viewport)

    return make
