"""Sign-in, sign-out, redeeming an invitation and registering with a phone number.

``sign_in`` is the one place a password is checked; two-factor and lockout (the security work)
extend it: ``authenticate`` gets the request (django-axes), and ``complete_sign_in`` is the step
a second factor can be put in front of.
"""

from __future__ import annotations

from django.contrib import messages
from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts.forms import RedeemForm, RegisterForm, SignInForm, login_from_identifier
from athar.accounts.models import Role, User
from athar.audit.chain import actor_for_user, record


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
        user = authenticate(request, username=login_from_identifier(form.cleaned_data["identifier"]),
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
    """A family's first visit with the caseworker's invitation code."""
    form = RedeemForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = _create_family(form)
        record("invitation.redeemed", object_type="user", object_id=user.pk, actor=actor_for_user(user),
               data={"invitation": form.cleaned_data["code"].pk})
        messages.success(request, _("Welcome. Your account is ready."))
        return complete_sign_in(request, user)
    return render(request, "accounts/redeem.html", {"form": form})


@transaction.atomic
def _create_family(form: RedeemForm) -> User:
    invitation = form.cleaned_data["code"]
    user = User.objects.create_user(form.login(), form.cleaned_data["password"], role=Role.FAMILY,
                                    caseworker=invitation.caseworker, **form.account_fields())
    invitation.used_at, invitation.used_by = timezone.now(), user
    invitation.save(update_fields=["used_at", "used_by"])
    return user


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
        with transaction.atomic():
            user = User.objects.create_user(data["phone"], data["password"], role=Role.FAMILY, phone=data["phone"],
                                            email=data["email"])
            record("account.registered", object_type="user", object_id=user.pk, actor=actor_for_user(user),
                   data={"method": "phone", "email_given": bool(data["email"])})
        messages.success(request, _("Welcome. Your account is ready."))
        return complete_sign_in(request, user)
    return render(request, "accounts/register.html", {"form": form})
