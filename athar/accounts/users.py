"""Managing accounts: create one with a role, deactivate or reactivate it, restart its two-factor
enrolment with a reason. One set of functions for ``athar user …`` and the administrator's pages.

Every change is audited by ids only: a reason is kept as its hash in the chain and verbatim in no
other place (the administrator hands it over in person). Staff accounts are created with a pending
authenticator whose key goes to the administrator, once; the staff member completes the enrolment
at first sign-in with a code from that key (``second_factor``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django_otp.plugins.otp_totp.models import TOTPDevice

from athar.accounts.models import ADMIN_ROLES, Role, User, login_for
from athar.accounts.second_factor import start_enrolment
from athar.audit.chain import SYSTEM_ACTOR, actor_for_user, record
from athar.core.errors import UserError


class NotAdministrator(PermissionError):
    """Only an active administrator manages accounts."""


class LoginTaken(UserError):
    """Another account signs in with this email or phone already."""


class PasswordRefused(UserError):
    """The password breaks a rule (the message lists them, in the active language)."""


def _actor(by: Any) -> str:
    return SYSTEM_ACTOR if by is None else actor_for_user(by)


def _require_admin(by: Any) -> None:
    """``by`` None is the command line run by whoever operates the server (trusted as the CLI is)."""
    if by is not None and (not by.is_active or by.role not in ADMIN_ROLES):
        raise NotAdministrator("only an administrator can manage accounts")


def _reason_hash(reason: str) -> str:
    return hashlib.sha256(reason.encode("utf-8")).hexdigest()


def check_password(password: str) -> None:
    """PasswordRefused with Django's (translated) password rules when ``password`` is refused."""
    try:
        validate_password(password)
    except ValidationError as exc:
        raise PasswordRefused(" ".join(exc.messages)) from exc


def create_account(by: Any, *, role: str, email: str = "", phone: str = "", name: str = "",
                   password: str | None = None, totp: bool = False, via: str = "cli") -> dict[str, Any]:
    """A new account. Staff (and ``totp``) get a pending authenticator: its key is in the result,
    once, for the administrator to hand over. UserError for a taken login or a refused password."""
    _require_admin(by)
    if role not in Role.values:
        raise UserError(f"unknown role {role!r}")
    login = login_for(email or None, phone or None)
    if User.objects.filter(login=login).exists():
        raise LoginTaken(f"an account for {login} already exists")
    if password:
        check_password(password)
    with transaction.atomic():
        user = User.objects.create_user(login, password, email=email, phone=login if phone else "", role=role,
                                        display_name=name, is_staff=role == Role.ADMIN,
                                        is_superuser=role == Role.ADMIN)
        record("user.created", object_type="user", object_id=user.pk, actor=_actor(by),
               data={"role": role, "via": via})
        result: dict[str, Any] = {"user": user, "user_id": user.pk, "login": login, "role": role}
        if totp or user.needs_two_factor:
            result.update(start_enrolment(user, via=via))
    return result


def set_active(by: Any, user: User, active: bool, via: str = "web") -> bool:
    """Deactivate (the account can no longer sign in; nothing is deleted) or reactivate. An
    administrator cannot deactivate themselves. True when something changed."""
    _require_admin(by)
    if not active and by is not None and by.pk == user.pk:
        raise UserError("you cannot deactivate your own account")
    with transaction.atomic():
        changed = User.objects.filter(pk=user.pk, is_active=not active).update(is_active=active)
        if changed:
            record("user.reactivated" if active else "user.deactivated", object_type="user", object_id=user.pk,
                   actor=_actor(by), data={"via": via})
    user.is_active = active
    return bool(changed)


def reset_two_factor(by: Any, user: User, reason: str, via: str = "web") -> dict[str, str]:
    """Remove the account's authenticator and recovery codes and start a new enrolment (the key
    is returned once, for the administrator to hand over). A reason is required (its hash audited)."""
    _require_admin(by)
    reason = (reason or "").strip()
    if not reason:
        raise UserError("a reason is required")
    with transaction.atomic():
        enrolment = start_enrolment(user, via=via)
        record("user.two_factor_reset", object_type="user", object_id=user.pk, actor=_actor(by),
               data={"via": via, "reason_sha256": _reason_hash(reason)})
    return enrolment


def accounts(role: str = "", active: str = "") -> QuerySet[User]:
    """Accounts for the administrator's list, each with ``enrolled`` and ``pending`` (two-factor),
    newest first; ``role`` and ``active`` ("yes"/"no") filter."""
    devices = TOTPDevice.objects.filter(user=OuterRef("pk"))
    rows = User.objects.annotate(enrolled=Exists(devices.filter(confirmed=True)),
                                 pending=Exists(devices.filter(confirmed=False))).order_by("-date_joined", "-pk")
    if role in Role.values:
        rows = rows.filter(role=role)
    if active in ("yes", "no"):
        rows = rows.filter(is_active=active == "yes")
    return rows


def actor_labels(actors: Any) -> dict[str, str]:
    """Readable names of audit actors (``user:5``) in the active language, loaded in one query:
    staff by role and login; a family only as "family account #5" — its login is its phone number,
    which the audit page never shows. Other actors (``system``, ``anonymous``…) stay as written."""
    from django.utils.translation import gettext

    ids = {int(a[5:]) for a in actors if isinstance(a, str) and a.startswith("user:") and a[5:].isdigit()}
    users = {u.pk: u for u in User.objects.filter(pk__in=ids).only("pk", "role", "login")}
    out: dict[str, str] = {}
    for pk in ids:
        user = users.get(pk)
        if user is None:
            out[f"user:{pk}"] = gettext("account #%(n)s (no longer exists)") % {"n": pk}
        elif user.role == Role.FAMILY:
            out[f"user:{pk}"] = gettext("family account #%(n)s") % {"n": pk}
        else:
            out[f"user:{pk}"] = gettext("%(role)s %(login)s (#%(n)s)") % {
                "role": Role(user.role).label, "login": user.login, "n": pk}
    return out
