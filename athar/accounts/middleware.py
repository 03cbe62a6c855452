"""Session expiry and the two-factor step, for every request after authentication.

- ``SessionPolicyMiddleware`` ends a session ``SESSION_COOKIE_AGE`` seconds after sign-in, or after
  ``ATHAR_SESSION_IDLE_SECONDS`` without a request (the session is touched at most once a minute,
  so reading pages does not write the database on every request).
- ``TwoFactorMiddleware`` sends reviewers, archivists and administrators who have not passed the
  two-factor step in this session (django-otp) to that step (completing their enrolment first), when
  ``ATHAR_REQUIRE_TWO_FACTOR`` is on (the default in production). The API answers 403 instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.accounts.second_factor import is_enrolled
from athar.accounts.signals import SESSION_AUTH_AT, SESSION_SEEN_AT
from athar.audit.chain import actor_for_user, record
from athar.core.security import wants_json

TOUCH_SECONDS = 60
# Views reachable before the two-factor step: the step itself, signing out, choosing a language.
TWO_FACTOR_EXEMPT_VIEWS = {"two_factor:verify", "two_factor:enrol", "accounts:logout", "accounts:quick_exit",
                           "set_language"}


class SessionPolicyMiddleware:
    """Absolute and idle expiry of signed-in sessions."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            self._enforce(request, user)
        return self.get_response(request)

    def _enforce(self, request: HttpRequest, user: Any) -> None:
        now = int(timezone.now().timestamp())
        session = request.session
        auth_at = int(session.get(SESSION_AUTH_AT, now))
        seen_at = int(session.get(SESSION_SEEN_AT, now))
        idle = int(getattr(settings, "ATHAR_SESSION_IDLE_SECONDS", 3600))
        if now - auth_at > settings.SESSION_COOKIE_AGE or now - seen_at > idle:
            record("auth.session_expired", object_type="user", object_id=user.pk, actor=actor_for_user(user),
                   data={"reason": "idle" if now - seen_at > idle else "age"})
            logout(request)
            return
        if SESSION_AUTH_AT not in session:
            session[SESSION_AUTH_AT] = auth_at
        if now - seen_at >= TOUCH_SECONDS or SESSION_SEEN_AT not in session:
            session[SESSION_SEEN_AT] = now


class TwoFactorMiddleware:
    """Staff accounts pass the TOTP step before anything else (when required)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        if not getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False):
            return None
        user = getattr(request, "user", None)
        if user is None or not getattr(user, "is_authenticated", False) or not user.needs_two_factor:
            return None
        match = request.resolver_match
        if match is not None and match.view_name in TWO_FACTOR_EXEMPT_VIEWS:
            return None
        if user.is_verified():  # django-otp's OTPMiddleware: this session passed the step
            return None
        if wants_json(request):
            return JsonResponse({"detail": _("Two-factor sign-in is required for this account.")}, status=403)
        step = "two_factor:verify" if is_enrolled(user) else "two_factor:enrol"
        return HttpResponseRedirect(reverse(step) + "?" + urlencode({"next": request.get_full_path()}))
