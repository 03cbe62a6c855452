"""/api/docs renders under the strict Content-Security-Policy: its viewer comes from athar's own
static files (django-ninja's vendored Swagger UI), never from a CDN."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_api_docs_render_under_the_csp(browser: Any, live_server: Any) -> None:
    page = browser.new_page()
    blocked: list[str] = []
    outside: list[str] = []
    page.on("console", lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("request", lambda req: outside.append(req.url) if not req.url.startswith((live_server.url, "data:"))
            else None)
    page.goto(f"{live_server.url}/api/docs/")  # the trailing slash redirects
    page.wait_for_selector(".swagger-ui .info .title", timeout=20_000)
    assert "athar API" in page.inner_text(".swagger-ui .info .title")
    assert page.locator(".opblock").count() >= 5  # the endpoints are listed
    assert outside == []
    assert not [m for m in blocked if "script" in m.lower()], blocked
    page.close()
