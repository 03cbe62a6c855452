"""New family accounts: redeeming an invitation and registering with a phone number.

Both answer the same way whether or not the phone number already has an account, so neither
page tells a stranger which numbers are registered: a taken number is not given to the new
account (an invitation's account signs in with its code instead; a registration creates
nothing), the attempt is audited by account id, and the owner of the number learns what
happened through the normal sign-in path. An invitation code is used once: the account is
created only after one conditional UPDATE claimed the code (``used_at IS NULL``), so concurrent
redemptions of one code create one account, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone

from athar.accounts.models import Invitation, Role, User, code_hash, code_login
from athar.audit.chain import actor_for_user, record


class InvitationUnusable(Exception):
    """The code is unknown, expired, revoked or already used (one message for all of them)."""


def revoke_invitation(invitation: Invitation, by: User) -> bool:
    """The caseworker who made it takes back an unused invitation (one conditional UPDATE, so a
    redemption at the same moment either wins the code or finds it revoked). Audited. False when
    it was already used, revoked or expired; PermissionError for anyone but its caseworker."""
    if invitation.caseworker_id != by.pk:
        raise PermissionError("only the caseworker who made an invitation can revoke it")
    with transaction.atomic():
        revoked = Invitation.objects.usable().filter(pk=invitation.pk).update(revoked_at=timezone.now())
        if revoked:
            record("invitation.revoked", object_type="invitation", object_id=invitation.pk, actor=actor_for_user(by))
    return bool(revoked)


def phone_taken(phone: str) -> bool:
    return bool(phone) and User.objects.filter(login=phone).exists()


def redeem_invitation(code: str, password: str, phone: str = "") -> User:
    """The family account for a one-time code; InvitationUnusable when the code cannot be used."""
    now = timezone.now()
    with transaction.atomic():
        invitation = Invitation.objects.usable().filter(code_hash=code_hash(code)).first()
        if invitation is None:
            raise InvitationUnusable
        claimed = Invitation.objects.usable().filter(pk=invitation.pk).update(used_at=now)
        if claimed != 1:  # another redemption won the code between our read and our update
            raise InvitationUnusable
        taken = phone_taken(phone)
        login = code_login(code) if taken or not phone else phone
        user = User.objects.create_user(login, password, role=Role.FAMILY, caseworker=invitation.caseworker,
                                        phone="" if taken else phone)
        Invitation.objects.filter(pk=invitation.pk).update(used_by=user)
        record("invitation.redeemed", object_type="user", object_id=user.pk, actor=actor_for_user(user),
               data={"invitation": invitation.pk, "phone_given": bool(phone), "phone_taken": taken})
    return user


def register_family(phone: str, password: str, email: str = "") -> User | None:
    """A self-registered family account on ``phone``; None (audited) when the number has one already.

    The password is hashed either way, so both answers take the same time."""
    hashed = make_password(password)
    existing = User.objects.filter(login=phone).values_list("pk", flat=True).first()
    if existing is None:
        try:
            with transaction.atomic():
                user = User.objects.create_user(phone, None, role=Role.FAMILY, phone=phone, email=email)
                User.objects.filter(pk=user.pk).update(password=hashed)
                record("account.registered", object_type="user", object_id=user.pk, actor=actor_for_user(user),
                       data={"method": "phone", "email_given": bool(email)})
            return user
        except IntegrityError:  # registered by a concurrent request a moment ago
            existing = User.objects.filter(login=phone).values_list("pk", flat=True).first()
    record("account.register_existing_phone", object_type="user", object_id=existing or "", actor="anonymous")
    return None


def resolve_login(login: str) -> str:
    """The account login to check a password against: an invitation code signs in the account it
    made, even when that account signs in with its phone number too."""
    if not login.startswith("code:") or User.objects.filter(login=login).exists():
        return login
    used_by = (Invitation.objects.filter(code_hash=_hash_of_code_login(login), used_by__isnull=False)
               .values_list("used_by__login", flat=True).first())
    return used_by or login


def _hash_of_code_login(login: str) -> str:
    return code_hash(login.removeprefix("code:"))
