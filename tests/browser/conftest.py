"""Playwright driving Debian's chromium against pytest-django's live server."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


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
