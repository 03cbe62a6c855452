"""The two-factor pages: enter a code, or enrol an authenticator app first."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from athar.accounts import two_factor


def _next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return "/"


@never_cache
@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """Ask for the 6-digit code of an enrolled account."""
    user = request.user
    if not (user.totp_confirmed and user.totp_secret):
        return redirect("two_factor:enrol")
    error = ""
    if request.method == "POST":
        if two_factor.verify_code(request, user, request.POST.get("code", "")):
            return redirect(_next(request))
        error = _("This code is not right, or it was already used. Enter the current code from your app.")
    return render(request, "accounts/two_factor_verify.html", {"error": error, "next": _next(request)})


@never_cache
@login_required
def enrol(request: HttpRequest) -> HttpResponse:
    """Show a new secret (QR code and text) and confirm it with a code."""
    user = request.user
    if user.totp_confirmed and user.totp_secret and not two_factor.is_verified(request):
        return redirect("two_factor:verify")  # replacing a secret needs the old one first
    error = ""
    if request.method == "POST":
        if two_factor.confirm_enrolment(request, user, request.POST.get("code", "")):
            return redirect(_next(request))
        error = _("This code is not right. Scan the code again and enter the 6 digits your app shows.")
    secret = two_factor.pending_secret(request)
    uri = two_factor.provisioning_uri(user, secret)
    return render(request, "accounts/two_factor_enrol.html", {
        "error": error, "next": _next(request), "secret": secret,
        "qr": mark_safe(two_factor.qr_svg(uri)),  # noqa: S308 - generated SVG of our own URI
    })
