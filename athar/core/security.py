"""Small security building blocks shared by the middleware, django-axes and the exports.

- ``client_address``: the caller's address, trusting exactly ``ATHAR_PROXY_COUNT`` reverse proxies;
- ``login_fingerprint``: a keyed hash of a sign-in string, so lockout rows and rate-limit keys never
  hold a phone number or an email address;
- ``too_many_requests``: the one clear "slow down" answer (HTML or JSON) for rate limits and lockouts;
- ``SecurityHeadersMiddleware``: headers Django does not set itself;
- ``escape_formula``: neutralises spreadsheet formulas in exported cells (CSV/XLSX injection).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.html import escape
from django.utils.translation import gettext as _

PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def client_address(request: HttpRequest) -> str | None:
    """REMOTE_ADDR, or the X-Forwarded-For entry added by the outermost of our trusted proxies.

    None when there is no valid address (django-axes stores it in an address column).
    """
    proxies = int(getattr(settings, "ATHAR_PROXY_COUNT", 0))
    remote = _valid_ip(request.META.get("REMOTE_ADDR", ""))
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if len(forwarded) < proxies:
        return remote
    return _valid_ip(forwarded[-proxies]) or remote


def _valid_ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def _plain_login(raw: str) -> str:
    return (raw or "").strip().lower()


_login_normaliser: Callable[[str], str] = _plain_login


def use_login_normaliser(normaliser: Callable[[str], str]) -> None:
    """Set how a typed sign-in string becomes the stored login (the accounts app sets its own at
    start-up: phone numbers in E.164, e-mail lower-cased); core knows no account model."""
    global _login_normaliser
    _login_normaliser = normaliser


def normalise_login(raw: str) -> str:
    """The sign-in string as athar stores it (phone digits, lower-cased email), best effort."""
    try:
        return _login_normaliser(raw)
    except ValueError:
        return _plain_login(raw)


def login_fingerprint(raw: str) -> str:
    """A keyed hash of a sign-in string: stable per deployment, useless without SECRET_KEY."""
    key = settings.SECRET_KEY.encode("utf-8")
    return hmac.new(key, b"login:" + normalise_login(raw).encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """django-axes ``AXES_USERNAME_CALLABLE``: lockouts count per account without storing the login."""
    field = settings.AXES_USERNAME_FORM_FIELD
    raw = (credentials or {}).get(field) or (credentials or {}).get("login")
    if raw is None and request is not None:
        raw = request.POST.get(field, "") if hasattr(request, "POST") else ""
    return login_fingerprint(str(raw or ""))


def wants_json(request: HttpRequest) -> bool:
    """API calls and clients asking for JSON get JSON errors; browsers get a page."""
    path = request.path_info or ""
    return path.startswith("/api/") or "application/json" in request.META.get("HTTP_ACCEPT", "")


def too_many_requests(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    """HTTP 429 with Retry-After and a message people can act on."""
    if wants_json(request):
        body = json.dumps({"detail": message, "retry_after": retry_after}, ensure_ascii=False)
        response = HttpResponse(body, status=429, content_type="application/json")
    else:
        response = HttpResponse(_page(message), status=429, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(max(1, retry_after))
    patch_cache_control(response, private=True, no_store=True)
    return response


def _page(message: str) -> str:
    title = escape(_("Too many requests"))
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><main><h1>{title}</h1><p>{escape(message)}</p></main></body></html>")


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """django-axes ``AXES_LOCKOUT_CALLABLE``: a clear message, the same for every locked account."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = _("Too many failed sign-in attempts. For your safety, sign-in is paused for %(minutes)d "
                "minutes. If you forgot your password, ask your caseworker or administrator.") % {"minutes": minutes}
    return too_many_requests(request, message, minutes * 60)


class SecurityHeadersMiddleware:
    """Permissions-Policy and Cross-Origin-Resource-Policy everywhere; signed-in pages never cached.

    Every answer to a signed-in user (a session or an API token) is ``private, no-store``, whatever
    the view set: Back after the quick exit, or after signing out, must find nothing in the
    browser's cache to show. Static files (WhiteNoise answers before anyone is signed in) and
    public pages for signed-out visitors keep their caching.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            never_store(response)
        return response


def never_store(response: HttpResponse) -> None:
    """``private, no-store``, replacing whatever would let a cache keep the answer (max-age, public)."""
    directives = {d.strip().lower() for d in response.get("Cache-Control", "").split(",")}
    if not {"private", "no-store"} <= directives:
        response["Cache-Control"] = "private, no-store"


def escape_formula(value: Any) -> Any:
    """A cell value safe to open in a spreadsheet: text starting like a formula gets a leading quote.

    Numbers stay numbers. Use on every cell of every CSV/XLSX export (OWASP "CSV injection").
    """
    if not isinstance(value, str) or not value:
        return value
    if value.startswith(FORMULA_PREFIXES) or value.lstrip().startswith(("=", "+", "@")):
        if _is_plain_number(value):
            return value
        return "'" + value
    return value


def _is_plain_number(value: str) -> bool:
    """'-12.5' and '+963…' phone-like digits are data, not formulas (still quoted when odd)."""
    body = value[1:] if value[:1] in "+-" else value
    digits = body.replace(".", "", 1)
    return bool(digits) and digits.isascii() and digits.isdigit()  # '-٣' or '+²' are quoted too
