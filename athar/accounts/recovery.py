"""Account recovery without email or SMS: the family's caseworker issues a one-time reset code
(read aloud or given in person, like an invitation); the family chooses a new password with it.

Only the code's hash is stored; it lasts RESET_CODE_HOURS, is used once (a conditional update),
and a new code revokes the family's earlier one. Both steps are audited (ids only).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.accounts.models import CODE_ALPHABET, CODE_LENGTH, RESET_CODE_HOURS, ResetCode, Role, User, code_hash
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError


class ResetCodeUnusable(UserError):
    """Wrong, expired, revoked or already used: one answer for all (nothing to learn from it)."""


def new_code() -> str:
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    while code.isdigit():  # all digits would read as a phone number
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return code


@transaction.atomic
def issue_reset_code(caseworker: Any, family: User) -> str:
    """A new code for one of this caseworker's families (the plain code is returned once)."""
    if family.role != Role.FAMILY or family.caseworker_id != caseworker.pk or not family.is_active:
        raise UserError(_("You can give a code only to a family you look after."))
    now = timezone.now()
    ResetCode.objects.usable().filter(user=family).update(revoked_at=now)
    code = new_code()
    row = ResetCode.objects.create(code_hash=code_hash(code), user=family, issued_by=caseworker,
                                   expires_at=now + timedelta(hours=RESET_CODE_HOURS))
    record("account.reset_code_issued", object_type="user", object_id=family.pk, actor=actor_for_user(caseworker),
           data={"reset_code": row.pk})
    return code


@transaction.atomic
def reset_password(code: str, password: str) -> User:
    """Set a new password with a usable code, once; ResetCodeUnusable otherwise."""
    row = ResetCode.objects.usable().filter(code_hash=code_hash(code)).select_related("user").first()
    if row is None or not row.user.is_active:
        raise ResetCodeUnusable(_("This code is not valid, has expired or was already used. Ask your caseworker for a new one."))
    if ResetCode.objects.usable().filter(pk=row.pk).update(used_at=timezone.now()) != 1:
        raise ResetCodeUnusable(_("This code is not valid, has expired or was already used. Ask your caseworker for a new one."))
    user = row.user
    user.set_password(password)
    user.save(update_fields=["password"])
    record("account.password_reset", object_type="user", object_id=user.pk, actor=actor_for_user(user),
           data={"reset_code": row.pk, "issued_by": row.issued_by_id})
    return user
