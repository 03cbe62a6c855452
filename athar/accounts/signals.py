"""Sign-ins, sign-outs and failed sign-ins go to the audit chain, as identifiers only.

Never the login string (a phone number or email) and never the address: a failed attempt names
the account only when the login matches one (``user:<id>``), plus whether django-axes refused it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import (
    user_logged_in,
    user_logged_out,
    user_login_failed,
)
from django.dispatch import receiver
from django.utils import timezone

from athar.accounts.models import User
from athar.audit.chain import actor_for_user, record
from athar.core.security import normalise_login

SESSION_AUTH_AT = "athar_auth_at"
SESSION_SEEN_AT = "athar_seen_at"


@receiver(user_logged_in, dispatch_uid="athar.audit.login")
def audit_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Record the sign-in and start the session's clocks (absolute and idle expiry)."""
    now = int(timezone.now().timestamp())
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_AUTH_AT] = now
        request.session[SESSION_SEEN_AT] = now
    record("auth.login", object_type="user", object_id=user.pk, actor=actor_for_user(user),
           data={"role": str(user.role), "two_factor_required": bool(user.needs_two_factor)})


@receiver(user_logged_out, dispatch_uid="athar.audit.logout")
def audit_logout(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if user is not None:
        record("auth.logout", object_type="user", object_id=user.pk, actor=actor_for_user(user))


@receiver(user_login_failed, dispatch_uid="athar.audit.login_failed")
def audit_login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    """Record the failure; the account only as an id, and only when the login names one."""
    user_id = _account_id(credentials)
    record("auth.login_failed", object_type="user" if user_id else "", object_id=user_id or "",
           actor="anonymous",
           data={"known_account": user_id is not None,
                 "locked_out": bool(getattr(request, "axes_locked_out", False))})


def _account_id(credentials: dict[str, Any]) -> int | None:
    raw = credentials.get("username") or credentials.get("login") or ""
    if not raw:
        return None
    return User.objects.filter(login=normalise_login(str(raw))).values_list("pk", flat=True).first()
