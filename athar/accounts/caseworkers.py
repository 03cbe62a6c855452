"""Which caseworker looks after a family: taken on only with the family's agreement, reassigned
only by an administrator with a reason. Both audited (identifiers only; the reason lives in
``Assignment``).

A self-registered family sees a code on its own page (``agreement_code``) and reads it to the
caseworker it chooses, often over the phone; ``take_on`` checks it. The code is 8 digits in two
groups of four ("4829 1375", shown in Western and Arabic-Indic digits: digits are what anyone can
read aloud and type on any phone), 10^8 codes, valid ``CODE_HOURS``, and dead after
``MAX_FAILURES`` wrong tries, so guessing it is hopeless.
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

from athar.accounts.models import CASEWORK_ROLES, AgreementCode, Assignment, Role, User
from athar.audit.chain import actor_for_user, record
from athar.core.errors import UserError
from athar.matching.digits import ascii_digits

ALPHABET = "0123456789"
CODE_LENGTH = 8
CODE_HOURS = 72
MAX_FAILURES = 5


class TakeOnRefused(PermissionError):
    """Why a caseworker could not take a family on (a message people can act on)."""


def _hash(code: str) -> str:
    text = "".join(ch for ch in ascii_digits(code) if ch in ALPHABET)  # spaces, dashes, ٤٨٢٩ …
    return hmac.new(settings.SECRET_KEY.encode(), b"agreement:" + text.encode(), hashlib.sha256).hexdigest()


def agreement_code(family: User) -> str | None:
    """A new code for the family to read to a caseworker (replaces any earlier one); None when the
    account is not a family waiting for a caseworker."""
    if family.role != Role.FAMILY or family.caseworker_id is not None:
        return None
    code = "".join(secrets.choice(ALPHABET) for _position in range(CODE_LENGTH))
    AgreementCode.objects.update_or_create(family=family, defaults={
        "code_hash": _hash(code), "expires_at": timezone.now() + timedelta(hours=CODE_HOURS), "failures": 0})
    record("family.agreement_code_shown", object_type="user", object_id=family.pk, actor=actor_for_user(family))
    return f"{code[:4]} {code[4:]}"


def take_on(caseworker: User, family: User, code: str) -> None:
    """Put ``family`` in ``caseworker``'s care, with the code the family gave. TakeOnRefused otherwise."""
    if caseworker.role not in CASEWORK_ROLES or not caseworker.is_active:
        raise TakeOnRefused(_("only a caseworker can take a family on"))
    with transaction.atomic():  # a wrong code's count is committed, then refused outside
        agreement = AgreementCode.objects.select_for_update().filter(family=family).first()
        agreed = _code_matches(agreement, code)
        taken = agreed and User.objects.filter(pk=family.pk, role=Role.FAMILY, caseworker__isnull=True
                                               ).update(caseworker=caseworker) == 1
        if taken:
            AgreementCode.objects.filter(family=family).delete()
            row = Assignment.objects.create(family=family, caseworker=caseworker, by=caseworker,
                                            how=Assignment.How.TAKEN_ON)
            record("family.taken_on", object_type="user", object_id=family.pk, actor=actor_for_user(caseworker),
                   data={"caseworker": caseworker.pk, "assignment": row.pk, "agreement": True})
    if not taken:
        record("family.take_on_refused", object_type="user", object_id=family.pk, actor=actor_for_user(caseworker),
               data={"reason": "code" if not agreed else "has_caseworker"})
        raise TakeOnRefused(_("the code is not right or has expired: ask the family to read the code on its page"))
    family.caseworker = caseworker


def _code_matches(agreement: AgreementCode | None, code: str) -> bool:
    """Compare in constant time; a wrong code counts, and the code dies after MAX_FAILURES."""
    if agreement is None or agreement.expires_at <= timezone.now() or agreement.failures >= MAX_FAILURES:
        return False
    if hmac.compare_digest(agreement.code_hash, _hash(code or "")):
        return True
    AgreementCode.objects.filter(pk=agreement.pk).update(failures=agreement.failures + 1)
    return False


def reassign(admin: User, family: User, caseworker: User | None, reason: str) -> Assignment:
    """An administrator moves a family to another caseworker (or none), with a reason (kept in
    ``Assignment``; the audit event names the row)."""
    if admin.role != Role.ADMIN and not admin.is_superuser:
        raise PermissionError(_("only an administrator can reassign a family"))
    if not reason.strip():
        raise UserError(_("a reason is required to reassign a family"))
    if family.role != Role.FAMILY:
        raise UserError(_("this account is not a family's"))
    if caseworker is not None and caseworker.role not in CASEWORK_ROLES:
        raise UserError(_("the new caseworker's account is not a caseworker's"))
    with transaction.atomic():
        previous = User.objects.select_for_update().get(pk=family.pk).caseworker_id
        User.objects.filter(pk=family.pk).update(caseworker=caseworker)
        row = Assignment.objects.create(family=family, caseworker=caseworker, previous_id=previous, by=admin,
                                        how=Assignment.How.REASSIGNED, reason=reason.strip())
        record("family.reassigned", object_type="user", object_id=family.pk, actor=actor_for_user(admin),
               data={"from": previous, "to": caseworker.pk if caseworker else None, "assignment": row.pk})
    family.caseworker = caseworker
    return row


def waiting(family: Any) -> bool:
    return getattr(family, "role", "") == Role.FAMILY and getattr(family, "caseworker_id", 1) is None
