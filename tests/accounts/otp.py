"""Two-factor helpers for tests: an enrolled authenticator and its current code (django-otp)."""

from __future__ import annotations

import time
from typing import Any

from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


def enrolled(user: Any) -> TOTPDevice:
    """A confirmed authenticator for ``user`` (as after a completed enrolment)."""
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)


def code_of(device: TOTPDevice, offset_steps: int = 0) -> str:
    """The code the person's app shows now (or ``offset_steps`` windows later)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + offset_steps * device.step
    return f"{totp.token():06d}"


def wrong_code(device: TOTPDevice) -> str:
    codes = {code_of(device, k) for k in (-1, 0, 1)}
    return next(c for c in ("000000", "111111", "222222", "333333") if c not in codes)
