"""Two-factor sign-in with django-otp: ONE verification path for the web, the API and the CLI.

- A staff account (reviewer, archivist, administrator) is created with a *pending* TOTP device
  (``confirmed=False``) whose key goes to the administrator who made it (``athar user add`` /
  ``athar user enrol``), never to a web page: the staff member completes the enrolment by entering
  a code from that key, so whoever first signs in with the password cannot enrol their own phone.
- Confirming the enrolment makes ten recovery codes (a django-otp static device), shown once.
- ``verify(user, code)`` accepts a code of the confirmed TOTP device (each code once: django-otp's
  ``last_t``, under a row lock) or a recovery code (used up), with django-otp's throttling
  (1, 2, 4, 8 … seconds after each failure, per device). Every event is audited, by ids only.
"""

from __future__ import annotations

from base64 import b32encode
from typing import Any
from urllib.parse import quote, urlencode

from django.db import transaction
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from athar.audit.chain import actor_for_user, record
from athar.matching.digits import ARABIC_DIGITS

ISSUER = "athar"
DEVICE_NAME = "authenticator"
RECOVERY_NAME = "recovery"
RECOVERY_CODES = 10


def _audit(user: Any, event: str, via: str, **data: Any) -> None:
    record(f"auth.two_factor.{event}", object_type="user", object_id=user.pk, actor=actor_for_user(user),
           data={"via": via, **data})


def is_enrolled(user: Any) -> bool:
    """True when the account has a confirmed authenticator."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def has_pending_enrolment(user: Any) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=False).exists()


def provisioning_uri(device: TOTPDevice) -> str:
    """otpauth:// URI for authenticator apps; names the account by id, never by phone or email."""
    label = quote(f"{ISSUER}:user-{device.user_id}")
    params = urlencode({"secret": b32encode(device.bin_key).decode(), "algorithm": "SHA1",
                        "digits": device.digits, "period": device.step, "issuer": ISSUER})
    return f"otpauth://totp/{label}?{params}"


def start_enrolment(user: Any, via: str = "cli") -> dict[str, str]:
    """A new pending authenticator (any earlier device and recovery codes are removed); the key
    and URI, to hand to the staff member — they are not stored anywhere else in clear."""
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)
        _audit(user, "enrolment_started", via, device=device.pk)
    return {"totp_secret": b32encode(device.bin_key).decode(), "totp_uri": provisioning_uri(device),
            "enrolment": "pending"}


def confirm_enrolment(user: Any, code: str, via: str = "web") -> list[str] | None:
    """Confirm the pending authenticator with a code from it; the recovery codes (shown once), or None."""
    digits = _digits(code)
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None or not digits or not device.verify_token(digits):
            _audit(user, "failed", via, enrolment=True)
            return None
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        codes = new_recovery_codes(user)
        _audit(user, "enrolled", via, device=device.pk)
    return codes


def new_recovery_codes(user: Any) -> list[str]:
    """Replace the account's recovery codes with ten new ones (returned once, stored by django-otp)."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create([StaticToken(device=device, token=c) for c in codes])
    return codes


def verify(user: Any, code: str, via: str = "web") -> bool:
    """Is ``code`` a current authenticator code or an unused recovery code of ``user``? Audited."""
    return verified_device(user, code, via) is not None


def verified_device(user: Any, code: str, via: str = "web") -> Any:
    """The django-otp device ``code`` verified (for ``django_otp.login``), or None. Audited."""
    text = (code or "").strip().replace(" ", "").replace("-", "").lower()
    digits = _digits(text)
    model = TOTPDevice if digits else StaticDevice  # six digits: the app; else a recovery code
    with transaction.atomic():  # the row lock makes "each code once" hold under concurrency
        device = model.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is not None and text:
            allowed, _ = device.verify_is_allowed()
            if not allowed:
                _audit(user, "throttled", via, device=device.pk)
                return None
            if device.verify_token(digits or text):
                if isinstance(device, StaticDevice):
                    _audit(user, "recovery_used", via, device=device.pk, left=device.token_set.count())
                else:
                    _audit(user, "verified", via, device=device.pk)
                return device
    _audit(user, "failed", via)
    return None


def confirm_identity(user: Any, password: str, code: str, via: str) -> None:
    """For commands acting as a person (e.g. recording a review): their own password and, where
    two-factor is required for them, a current code. PermissionError with a reason otherwise."""
    from django.conf import settings

    if not user.is_active or not user.check_password(password):
        record("auth.cli_refused", object_type="user", object_id=user.pk, data={"via": via, "reason": "password"})
        raise PermissionError("the password is not right")
    if getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False) and user.needs_two_factor:
        if not is_enrolled(user):
            raise PermissionError("this account has not completed its two-factor enrolment")
        if not verify(user, code, via=via):
            raise PermissionError("the two-factor code is not right (or was used already)")


def read_identity(stream: Any = None) -> tuple[str, str]:
    """For commands: the acting person's password (first line) and two-factor code (second line,
    may be empty) from standard input — never from arguments, which other accounts can see."""
    import sys

    source = stream or sys.stdin
    return source.readline().rstrip("\n"), source.readline().strip()


def _digits(code: str) -> str:
    digits = "".join(ch for ch in code.translate(ARABIC_DIGITS) if ch.isdigit())
    return digits if len(digits) == 6 else ""


def confirmed_device(user: Any) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def qr_svg(uri: str) -> str:
    """The provisioning URI as SVG markup (for ``athar user enrol --qr FILE``)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    text: Any = image.to_string(encoding="unicode")
    return str(text)
