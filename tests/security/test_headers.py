"""Security headers on every page: CSP without inline code, framing refused, no sniffing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["web:home", "web:about", "web:method", "web:stats", "web:support", "web:identified",
                "accounts:login"]


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_send_a_strict_content_security_policy(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert "geolocation=()" in response["Permissions-Policy"]


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_pages_have_no_inline_scripts_or_styles(client, name):
    html = client.get(reverse(name)).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline <script> would be blocked by the CSP"
    assert "<style" not in html and " style=" not in html and not re.search(r"\son[a-z]+=", html)


@pytest.mark.django_db
def test_api_docs_page_loads_its_viewer_from_athar_itself(client):
    response = client.get("/api/docs")
    html = response.content.decode()
    assert response.status_code == 200 and "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()
    assert client.get("/static/ninja/swagger-ui-bundle.js").status_code == 200
    assert client.get("/api/docs/").status_code in (301, 302)
    assert client.get("/api/docs/", follow=True).status_code == 200
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe" not in csp
