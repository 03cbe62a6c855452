"""Administrators: accounts (create with a role, deactivate, reactivate, restart two-factor with a
reason) and the audit log (filtered, paginated, the chain verified). Every action is audited by
``athar.accounts.users``; reading the log is audited here (``audit.viewed``, ``audit.verified``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from athar.accounts import users
from athar.accounts.models import Role, User
from athar.accounts.second_factor import qr_svg
from athar.audit.chain import actor_for_user, record, verify_chain
from athar.audit.log import EventFilter, events, known_actions
from athar.core.errors import UserError
from athar.identification import policy
from athar.identification.worker_state import worker_status
from athar.web.staff_forms import AccountForm, AuditFilterForm, ReasonForm


def _require_admin(request: HttpRequest) -> None:
    if not policy.can_administer(request.user):
        raise PermissionDenied


@login_required
def user_list(request: HttpRequest) -> HttpResponse:
    """Every account: role, active, last sign-in, two-factor enrolled; filter by role and active."""
    _require_admin(request)
    role, active = request.GET.get("role", ""), request.GET.get("active", "")
    page = Paginator(users.accounts(role, active), 50).get_page(request.GET.get("page"))
    return render(request, "web/admin/users.html", {"page": page, "roles": Role.choices, "role": role,
                                                    "active": active})


def _enrolment_shown(request: HttpRequest, user: User, enrolment: dict[str, Any]) -> HttpResponse:
    """The two-factor key, once, for the administrator to hand to the staff member."""
    return render(request, "web/admin/enrolment.html", {"account": user, "secret": enrolment["totp_secret"],
                                                        "uri": enrolment["totp_uri"],
                                                        "qr": qr_svg(enrolment["totp_uri"])})


@login_required
@require_http_methods(["GET", "POST"])
def user_new(request: HttpRequest) -> HttpResponse:
    _require_admin(request)
    form = AccountForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = users.create_account(request.user, role=data["role"], email=data["email"], phone=data["phone"],
                                        name=data["name"], password=data["password"], via="web")
        except users.PasswordRefused as exc:
            form.add_error("password", str(exc))
        except users.LoginTaken:
            form.add_error(None, _("An account with this email address or phone number already exists."))
        except UserError:
            form.add_error("phone", _("This is not a phone number athar can use."))
        else:
            messages.success(request, _("The account was created."))
            if "totp_secret" in made:
                return _enrolment_shown(request, made["user"], made)
            return redirect("web:admin_user", user_id=made["user"].pk)
    return render(request, "web/admin/user_new.html", {"form": form})


@login_required
def user_detail(request: HttpRequest, user_id: int) -> HttpResponse:
    _require_admin(request)
    account = get_object_or_404(users.accounts(), pk=user_id)
    return render(request, "web/admin/user.html", {"account": account, "form": ReasonForm(),
                                                   "is_me": account.pk == request.user.pk})


@login_required
@require_POST
def user_active(request: HttpRequest, user_id: int) -> HttpResponse:
    """Deactivate (``active=no``) or reactivate (``active=yes``) an account."""
    _require_admin(request)
    account = get_object_or_404(User, pk=user_id)
    active = request.POST.get("active") == "yes"
    try:
        users.set_active(request.user, account, active)
    except UserError:
        messages.error(request, _("You cannot deactivate your own account."))
    else:
        messages.success(request, _("The account is active again.") if active else
                         _("The account is deactivated: it can no longer sign in. Nothing was deleted."))
    return redirect("web:admin_user", user_id=account.pk)


@login_required
@require_POST
def user_reset_two_factor(request: HttpRequest, user_id: int) -> HttpResponse:
    _require_admin(request)
    account = get_object_or_404(User, pk=user_id)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("A reason is required to reset two-step sign-in."))
        return redirect("web:admin_user", user_id=account.pk)
    enrolment = users.reset_two_factor(request.user, account, form.cleaned_data["reason"])
    messages.success(request, _("Two-step sign-in was reset: the old app and recovery codes no longer work."))
    return _enrolment_shown(request, account, enrolment)


@login_required
def audit_log(request: HttpRequest) -> HttpResponse:
    """The audit log, newest first, filtered; the view itself is audited (with its filter)."""
    _require_admin(request)
    form = AuditFilterForm(request.GET or None)
    where = form.event_filter() if form.is_valid() else EventFilter()
    page = Paginator(events(where), 50).get_page(request.GET.get("page"))
    record("audit.viewed", object_type="audit", actor=actor_for_user(request.user),
           data={**where.as_data(), "page": page.number})
    labels = users.actor_labels(e.actor for e in page)
    rows = [{"e": e, "actor": labels.get(e.actor, e.actor), "data": readable_data(e.data)} for e in page]
    return render(request, "web/admin/audit.html", {"form": form, "page": page, "rows": rows,
                                                    "actions": known_actions()})


def readable_data(data: Any) -> list[tuple[str, str, bool]]:
    """An event's data as short (key, value, is_word) triples: yes/no for booleans in the page's
    language (is_word), a dash for nothing, lists and nested values written compactly; keys and
    other values are the log's own identifiers, shown as such."""
    if not isinstance(data, dict):
        return [("", _value(data), False)] if data not in (None, "", {}) else []
    return [(str(key), _value(value), isinstance(value, bool)) for key, value in data.items()]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "":
        return "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(v)}" for k, v in value.items()) or "—"
    return str(value)


@login_required
def worker(request: HttpRequest) -> HttpResponse:
    """Is the matching worker running: its heartbeat, process, queue, failed jobs and last error."""
    _require_admin(request)
    return render(request, "web/admin/worker.html", {"state": worker_status()})


@login_required
@require_POST
def audit_verify(request: HttpRequest) -> HttpResponse:
    """Re-check every link of the hash chain (audited with its result)."""
    _require_admin(request)
    report = verify_chain()
    record("audit.verified", object_type="audit", actor=actor_for_user(request.user),
           data={"ok": report.ok, "events": report.events, "problems": len(report.problems)})
    return render(request, "web/admin/audit_verified.html", {"report": report})
