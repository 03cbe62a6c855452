"""The two-factor step of a session: enrolment in the web, verification, replay protection.

A session has passed the step when it holds the id of its own user under ``SESSION_KEY``; signing
in again (another user) clears it, since Django flushes the session on a change of user.
"""

from __future__ import annotations

from typing import Any

import pyotp
from django.core.cache import cache
from django.http import HttpRequest

from athar.accounts.models import User
from athar.accounts.totp import ISSUER
from athar.audit.chain import actor_for_user, record

SESSION_KEY = "athar_2fa_user"
PENDING_SECRET = "athar_2fa_pending_secret"
REPLAY_SECONDS = 120


def is_verified(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return bool(getattr(user, "is_authenticated", False)) and request.session.get(SESSION_KEY) == user.pk


def mark_verified(request: HttpRequest, user: User) -> None:
    """Remember the step for this session; a new session key guards against fixation."""
    request.session.cycle_key()
    request.session[SESSION_KEY] = user.pk


def _code_ok(secret: str, user: User, code: str) -> bool:
    """A valid code, used for the first time (each code works once per account)."""
    code = "".join(ch for ch in code if ch.isdigit())
    if not secret or len(code) != 6 or not pyotp.TOTP(secret).verify(code, valid_window=1):
        return False
    return bool(cache.add(f"totp-used:{user.pk}:{code}", 1, timeout=REPLAY_SECONDS))


def verify_code(request: HttpRequest, user: User, code: str) -> bool:
    """Check an enrolled account's code; audit the result (identifiers only)."""
    ok = user.totp_confirmed and _code_ok(user.totp_secret, user, code)
    record("auth.two_factor." + ("verified" if ok else "failed"), object_type="user", object_id=user.pk,
           actor=actor_for_user(user))
    if ok:
        mark_verified(request, user)
    return ok


def pending_secret(request: HttpRequest) -> str:
    """The secret offered for enrolment in this session (made once, kept until confirmed)."""
    secret = request.session.get(PENDING_SECRET)
    if not secret:
        secret = pyotp.random_base32()
        request.session[PENDING_SECRET] = secret
    return str(secret)


def provisioning_uri(user: User, secret: str) -> str:
    """The otpauth:// URI for authenticator apps; names the account by id, never by phone or email."""
    return pyotp.TOTP(secret).provisioning_uri(name=f"user-{user.pk}", issuer_name=ISSUER)


def confirm_enrolment(request: HttpRequest, user: User, code: str) -> bool:
    """Save the pending secret once the person shows a code from it."""
    secret = pending_secret(request)
    if not _code_ok(secret, user, code):
        record("auth.two_factor.failed", object_type="user", object_id=user.pk, actor=actor_for_user(user),
               data={"enrolment": True})
        return False
    user.totp_secret, user.totp_confirmed = secret, True
    user.save(update_fields=["totp_secret", "totp_confirmed"])
    request.session.pop(PENDING_SECRET, None)
    record("auth.two_factor.enrolled", object_type="user", object_id=user.pk, actor=actor_for_user(user),
           data={"via": "web"})
    mark_verified(request, user)
    return True


def qr_svg(uri: str) -> str:
    """The provisioning URI as inline SVG markup (no script, no style: passes the CSP)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    text: Any = image.to_string(encoding="unicode")
    return str(text)
