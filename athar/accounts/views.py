"""Sign-in, sign-out, redeeming an invitation and registering with a phone number.

``sign_in`` is the one place a password is checked; two-factor and lockout (the security work)
extend it: ``authenticate`` gets the request (django-axes), and ``complete_sign_in`` is the step
a second factor can be put in front of.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts.caseworkers import agreement_code, waiting
from athar.accounts.enrolment import (
    InvitationUnusable,
    redeem_invitation,
    register_family,
    resolve_login,
)
from athar.accounts.forms import (
    RecoverForm,
    RedeemForm,
    RegisterForm,
    ResetPasswordForm,
    SignInForm,
    login_from_identifier,
)
from athar.accounts.models import User, signed_in
from athar.accounts.recovery import (
    RecoveryRefused,
    ResetCodeUnusable,
    issue_recovery_codes,
    new_recovery_codes,
    recover_with_code,
    reset_password,
)


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return ""


def complete_sign_in(request: HttpRequest, user: User) -> HttpResponse:
    """Start the session and go on (the security work may put a second factor before this)."""
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return redirect(_next_url(request) or "web:dashboard")


def sign_in(request: HttpRequest) -> HttpResponse:
    form = SignInForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = authenticate(request, username=resolve_login(login_from_identifier(form.cleaned_data["identifier"])),
                            password=form.cleaned_data["password"])
        if user is not None:
            return complete_sign_in(request, user)
        form.add_error(None, _("The sign-in details are not right. Check them and try again."))
    return render(request, "accounts/login.html", {"form": form, "next": _next_url(request),
                                                   "open_registration": getattr(settings, "ATHAR_OPEN_REGISTRATION", True)})


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("web:home")


@csrf_exempt
@require_http_methods(["GET", "POST"])
def quick_exit(request: HttpRequest) -> HttpResponse:
    """Leave at once: sign out server-side (the session is flushed) and go to a neutral site.

    POST from the button's form works without JavaScript; the script asks for the same address
    with ``location.replace`` (GET), which also replaces the page's history entry. No CSRF check:
    a stale or missing token must never keep a frightened family on the page, and the worst a
    forged request can do is sign someone out. Nothing sensitive may be cached on the way out:
    the answer is ``no-store`` and asks the browser to drop athar's cache (``Clear-Site-Data``).
    """
    logout(request)  # flushes the session (and audits the sign-out when someone was signed in)
    response = HttpResponseRedirect(settings.ATHAR_QUICK_EXIT_URL, status=303)
    response["Cache-Control"] = "no-store, private"
    response["Clear-Site-Data"] = '"cache"'
    response["Referrer-Policy"] = "no-referrer"
    return response


def redeem(request: HttpRequest) -> HttpResponse:
    """A family's first visit with the caseworker's invitation code (used once, atomically).

    The answer does not depend on whether the phone number given already has an account."""
    form = RedeemForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = redeem_invitation(data["code"], data["password"], data["phone"])
        except InvitationUnusable:
            form.code_unusable()
        else:
            messages.success(request, _("Welcome. Your account is ready. Next time, sign in with your "
                                        "invitation code or the phone number you gave, and your password."))
            return complete_sign_in(request, user)
    return render(request, "accounts/redeem.html", {"form": form})


def register(request: HttpRequest) -> HttpResponse:
    """A family without an invitation: an account on its phone number (email optional).

    The account has no caseworker yet; caseworkers see it in their queue and can take it on.
    Off when ``ATHAR_OPEN_REGISTRATION`` is false (invitation-only organisations).
    """
    if not getattr(settings, "ATHAR_OPEN_REGISTRATION", True):
        raise Http404
    form = RegisterForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = register_family(data["phone"], data["password"], data["email"])  # None for a taken number
        # The same page either way (which numbers have an account is never said): codes that work
        # for a new account, codes that were never stored for a number that had one.
        codes = issue_recovery_codes(user) if user is not None else new_recovery_codes()
        return _show_codes(request, codes, registered=True)
    return render(request, "accounts/register.html", {"form": form})


def _show_codes(request: HttpRequest, codes: list[str], *, registered: bool) -> HttpResponse:
    """Recovery codes, shown once: never cached, never stored in plain."""
    response = render(request, "accounts/recovery_codes.html", {"codes": codes, "registered": registered})
    response["Cache-Control"] = "no-store, private"
    return response


@login_required
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """A family makes new recovery codes (the unused ones before stop working)."""
    user = signed_in(request.user)
    if user.role != "family":
        raise Http404
    if request.method == "POST":
        return _show_codes(request, issue_recovery_codes(user), registered=False)
    return render(request, "accounts/recovery_codes.html", {"codes": None, "registered": False})


def recover(request: HttpRequest) -> HttpResponse:
    """A family without a caseworker sets a new password with its phone number and a recovery code."""
    form = RecoverForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            recover_with_code(data["phone"], data["code"], data["password"])
        except RecoveryRefused as exc:
            form.add_error("code", str(exc))
        else:
            messages.success(request, _("Your new password is saved. Sign in with your phone number and it."))
            return redirect("accounts:login")
    return render(request, "accounts/recover.html", {"form": form})


@login_required
def agreement(request: HttpRequest) -> HttpResponse:
    """A self-registered family's code to read to the caseworker it agrees to be looked after by."""
    if request.method == "POST":
        code = agreement_code(signed_in(request.user))
        return render(request, "accounts/agreement.html", {"code": code, "waiting": code is not None})
    return render(request, "accounts/agreement.html", {"code": None, "waiting": waiting(request.user)})


def reset_password_page(request: HttpRequest) -> HttpResponse:
    """A family chooses a new password with the one-time code its caseworker gave it."""
    form = ResetPasswordForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            reset_password(form.cleaned_data["code"], form.cleaned_data["password"])
        except ResetCodeUnusable as exc:
            form.add_error("code", str(exc))
        else:
            messages.success(request, _("Your new password is set. Sign in with it now."))
            return redirect("accounts:login")
    return render(request, "accounts/reset_password.html", {"form": form})
