"""Rate limits against scraping and guessing, per account and per address, set in settings.

``ATHAR_RATE_LIMITS`` names buckets and their rates; ``ATHAR_RATE_LIMITED_VIEWS`` maps URL names
(``"web:candidates"``) or whole namespaces (``"api:*"``) to a bucket. Each request to such a view
counts once against the caller's account (when signed in) and once against its address, in fixed
windows kept in the atomic store (athar.core.counters: a database table, or Redis). Over the limit the caller gets HTTP 429 with a clear message and
``Retry-After``. For the sign-in bucket the "account" is the login being tried (as a keyed hash),
so guessing one family's password from many addresses is limited too.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from athar.core import counters
from athar.core.security import client_address, login_fingerprint, too_many_requests

log = logging.getLogger(__name__)
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
LOGIN_FIELDS = ("identifier", "username", "login", "phone")  # what sign-in and sign-up forms call the account


@dataclass(frozen=True)
class Rate:
    """``limit`` requests per ``window`` seconds."""

    limit: int
    window: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"60/m"``, ``"10/5m"``, ``"1000/h"``, ``"5/s"``, ``"10000/d"``."""
        match = _RATE.match(str(text))
        if not match:
            raise ImproperlyConfigured(f"not a rate: {text!r} (write e.g. '60/m' or '10/5m')")
        count, multiple, unit = match.groups()
        return cls(int(count), int(multiple or 1) * _UNIT_SECONDS[unit])


@dataclass(frozen=True)
class Bucket:
    name: str
    account: Rate
    address: Rate
    methods: frozenset[str] | None


def parse_bucket(name: str, spec: Any) -> Bucket:
    """A bucket from its setting: a rate string, or a dict with rate/address_rate/methods."""
    if isinstance(spec, str):
        rate = Rate.parse(spec)
        return Bucket(name, rate, rate, None)
    if isinstance(spec, dict) and "rate" in spec:
        rate = Rate.parse(spec["rate"])
        address = Rate.parse(spec["address_rate"] if "address_rate" in spec else spec["rate"])
        methods = frozenset(m.upper() for m in spec["methods"]) if spec.get("methods") else None
        return Bucket(name, rate, address, methods)
    raise ImproperlyConfigured(f"ATHAR_RATE_LIMITS[{name!r}] must be a rate like '60/m' or a dict with 'rate'")


def buckets() -> dict[str, Bucket]:
    return {name: parse_bucket(name, spec) for name, spec in getattr(settings, "ATHAR_RATE_LIMITS", {}).items()}


def bucket_for_view(view_name: str, namespace: str) -> str | None:
    """The bucket a resolved URL counts against, if any."""
    views = getattr(settings, "ATHAR_RATE_LIMITED_VIEWS", {})
    if view_name in views:
        return views[view_name]
    for part in _namespace_prefixes(namespace):
        if f"{part}:*" in views:
            return views[f"{part}:*"]
    return None


def _namespace_prefixes(namespace: str) -> list[str]:
    parts = namespace.split(":") if namespace else []
    return [":".join(parts[:i]) for i in range(len(parts), 0, -1)]


def hit(key: str, rate: Rate, now: float | None = None) -> tuple[bool, int]:
    """Count one request in the atomic store (athar.core.counters); (allowed, seconds until the window ends)."""
    return hit_all([(key, rate)], now)[0]


def hit_all(subjects: list[tuple[str, Rate]], now: float | None = None) -> list[tuple[bool, int]]:
    """``hit`` for each (key, rate), counted together (one transaction of the database store)."""
    now = time.time() if now is None else now
    starts = [int(now // rate.window) * rate.window for _key, rate in subjects]
    counts = counters.incr_many([(f"rl:{key}:{rate.window}:{start}", rate.window + 5, 1)
                                 for (key, rate), start in zip(subjects, starts, strict=True)])
    return [(count <= rate.limit, int(start + rate.window - now) + 1)
            for (_key, rate), start, count in zip(subjects, starts, counts, strict=True)]


def subjects(request: HttpRequest, bucket: Bucket) -> list[tuple[str, Rate]]:
    """The counters one request increments: its account (or the login tried) and its address."""
    address = client_address(request) or "unknown"
    out: list[tuple[str, Rate]] = [(f"{bucket.name}:ip:{address}", bucket.address)]
    user = getattr(request, "user", None)
    if user is not None and getattr(user, "is_authenticated", False):
        out.append((f"{bucket.name}:user:{user.pk}", bucket.account))
    elif request.META.get("HTTP_AUTHORIZATION"):
        pass  # an API token is counted by its id once it is known: account_wait, from athar.api.api
    elif request.method == "POST":
        login = next((request.POST[f] for f in LOGIN_FIELDS if request.POST.get(f)), "")
        if login:
            out.append((f"{bucket.name}:login:{login_fingerprint(login)}", bucket.account))
    return out


def check(request: HttpRequest, bucket: Bucket) -> int:
    """0 when the request may go on, else the seconds to wait. Every counter is incremented."""
    if bucket.methods is not None and request.method not in bucket.methods:
        return 0
    return max((retry_after for allowed, retry_after in hit_all(subjects(request, bucket)) if not allowed), default=0)


def account_wait(request: HttpRequest, subject: str) -> int:
    """Count one request of ``subject`` (e.g. ``token:42``) against the account rate of the bucket
    the resolved view belongs to; 0 when it may go on, else the seconds to wait."""
    match = request.resolver_match
    name = bucket_for_view(match.view_name, match.namespace) if match is not None else None
    bucket = buckets().get(name or "")
    if bucket is None or (bucket.methods is not None and request.method not in bucket.methods):
        return 0
    allowed, retry_after = hit(f"{bucket.name}:{subject}", bucket.account)
    return 0 if allowed else retry_after


def slow_down_message(wait: int) -> str:
    return _("You have made too many requests in a short time. To protect the families and "
             "the archive, please wait %(seconds)d seconds and try again.") % {"seconds": wait}


class RateLimitMiddleware:
    """Applies ``ATHAR_RATE_LIMITS`` to the views named in ``ATHAR_RATE_LIMITED_VIEWS``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        match = request.resolver_match
        if match is None:
            return None
        name = bucket_for_view(match.view_name, match.namespace)
        configured = buckets()
        if name is None or name not in configured:
            return None
        wait = check(request, configured[name])
        if not wait:
            return None
        log.warning("rate limit reached: bucket %s on %s", name, match.view_name)  # no address, no account
        return too_many_requests(request, slow_down_message(wait), wait)
