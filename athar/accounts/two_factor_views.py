"""The two-factor pages: enter a code, or complete the enrolment an administrator started.

The enrolment page never shows a key: the key went to the administrator who created the account
(``athar user add`` / ``athar user enrol``), so a stranger who learnt the password cannot enrol.
"""

from __future__ import annotations

import django_otp
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from athar.accounts import second_factor


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return "/"


def _pass_step(request: HttpRequest, device: object) -> None:
    """Mark this session verified (django-otp); a new session key guards against fixation."""
    request.session.cycle_key()
    django_otp.login(request, device)


@never_cache
@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """Ask for the 6-digit code of an enrolled account (or one of its recovery codes)."""
    user = request.user
    if not second_factor.is_enrolled(user):
        return redirect("two_factor:enrol")
    error = ""
    if request.method == "POST":
        device = second_factor.verified_device(user, request.POST.get("code", ""), via="web")
        if device is not None:
            _pass_step(request, device)
            return redirect(_next(request))
        error = _("This code is not right, or it was already used. Enter the current code from your app, "
                  "or one of your recovery codes. After several wrong codes, wait a little before trying again.")
    return render(request, "accounts/two_factor_verify.html", {"error": error, "next": _next(request)})


@never_cache
@login_required
def enrol(request: HttpRequest) -> HttpResponse:
    """Complete the pending enrolment with a code; then show the recovery codes, once."""
    user = request.user
    if second_factor.is_enrolled(user):
        return redirect("two_factor:verify")
    pending = second_factor.has_pending_enrolment(user)
    error = ""
    if request.method == "POST" and pending:
        codes = second_factor.confirm_enrolment(user, request.POST.get("code", ""), via="web")
        if codes is not None:
            _pass_step(request, second_factor.confirmed_device(user))
            return render(request, "accounts/two_factor_recovery.html", {"codes": codes, "next": _next(request)})
        error = _("This code is not right. Enter the 6 digits your app shows for athar.")
    return render(request, "accounts/two_factor_enrol.html", {"error": error, "next": _next(request),
                                                                "pending": pending})
