"""Account recovery without email or SMS, two ways:

- the family's caseworker issues a one-time reset code (read aloud or given in person, like an
  invitation). Only the code's hash is stored; it lasts RESET_CODE_HOURS, is used once (a
  conditional update), and a new code revokes the family's earlier one;
- a family that registered itself has no caseworker yet: it is shown recovery codes once, to write
  down, and sets a new password with its phone number and one of them (``recover_with_code``).

Every step is audited (ids only); the pages that take codes are rate-limited (the "login" bucket).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.accounts.models import (
    CODE_ALPHABET,
    CODE_LENGTH,
    RESET_CODE_HOURS,
    RecoveryCode,
    ResetCode,
    Role,
    User,
    code_hash,
)
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.matching.digits import ascii_digits


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


# ---- recovery codes: a self-registered family's own way back ----------------------------------------

RECOVERY_CODES = 8
RECOVERY_DIGITS = 10  # 10^10 per code, with the phone number: guessing is hopeless under the rate limit


class RecoveryRefused(UserError):
    """Unknown number, wrong or used code: one answer for all (nothing to learn from it)."""


def _recovery_hash(user_id: int, code: str) -> str:
    digits = "".join(ch for ch in ascii_digits(code) if ch.isdigit())
    return hmac.new(settings.SECRET_KEY.encode(), f"recovery:{user_id}:{digits}".encode(), hashlib.sha256).hexdigest()


def format_recovery_code(code: str) -> str:
    """'4829137506' → '48291 37506': two groups of five, to write down and read back."""
    return f"{code[:5]} {code[5:]}"


def new_recovery_codes() -> list[str]:
    return [format_recovery_code("".join(secrets.choice("0123456789") for _ in range(RECOVERY_DIGITS)))
            for _ in range(RECOVERY_CODES)]


@transaction.atomic
def issue_recovery_codes(user: User) -> list[str]:
    """New codes for a family account (the plain codes are returned once); earlier unused ones stop
    working."""
    if user.role != Role.FAMILY or not user.is_active:
        raise UserError(_("Recovery codes are for families' accounts."))
    RecoveryCode.objects.usable().filter(user=user).update(revoked_at=timezone.now())
    codes = new_recovery_codes()
    RecoveryCode.objects.bulk_create([RecoveryCode(user=user, code_hash=_recovery_hash(user.pk, c)) for c in codes])
    record("account.recovery_codes_issued", object_type="user", object_id=user.pk, actor=actor_for_user(user),
           data={"codes": len(codes)})
    return codes


def recover_with_code(login: str, code: str, password: str) -> User:
    """A new password with the account's phone number and one unused recovery code, once.
    RecoveryRefused otherwise (same answer for an unknown number)."""
    refused = RecoveryRefused(_("This number and code do not match, or the code was already used. "
                                "Check both, or use another of your codes."))
    user = User.objects.filter(login=login, role=Role.FAMILY, is_active=True).first()
    if user is None:
        _recovery_hash(0, code)  # the same work as for a known number
        record("account.recovery_refused", object_type="user", object_id="", actor="anonymous")
        raise refused
    with transaction.atomic():  # a refusal is audited outside, so that it is not rolled back
        row = RecoveryCode.objects.usable().filter(user=user, code_hash=_recovery_hash(user.pk, code)).first()
        used = row is not None and RecoveryCode.objects.usable().filter(pk=row.pk).update(used_at=timezone.now()) == 1
        if row is not None and used:
            user.set_password(password)
            user.save(update_fields=["password"])
            left = RecoveryCode.objects.usable().filter(user=user).count()
            record("account.password_reset", object_type="user", object_id=user.pk, actor=actor_for_user(user),
                   data={"recovery_code": row.pk, "codes_left": left})
    if not used:
        record("account.recovery_refused", object_type="user", object_id=user.pk, actor="anonymous")
        raise refused
    return user
