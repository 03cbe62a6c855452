"""Phone numbers as one login: every phone athar reads is normalised to E.164 with ``phonenumbers``.

``0944 321 765`` (typed inside Syria), ``+963 944 321 765``, ``00963944321765`` and the same in
Arabic-Indic digits are one number, ``+963944321765``. A number written without its country code
is read in ``ATHAR_PHONE_REGION`` (default ``SY``).
"""

from __future__ import annotations

import phonenumbers
from django.conf import settings

from athar.core.errors import UserError
from athar.matching.digits import ARABIC_DIGITS


def default_region() -> str:
    """The region a number without a country code is read in (``ATHAR_PHONE_REGION``)."""
    return str(getattr(settings, "ATHAR_PHONE_REGION", "SY") or "SY").upper()


def normalise_phone(text: str, region: str | None = None) -> str:
    """The E.164 form of a phone number (``+963944321765``); ValueError when it is not a valid number."""
    raw = (text or "").translate(ARABIC_DIGITS).strip()
    try:
        number = phonenumbers.parse(raw, region or default_region())
    except phonenumbers.NumberParseException as exc:
        raise UserError(f"not a phone number: {text!r}") from exc
    if not phonenumbers.is_valid_number(number):
        raise UserError(f"not a valid phone number: {text!r}")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def try_normalise_phone(text: str, region: str | None = None) -> str | None:
    """The E.164 form, or None when the text is no valid phone number (callers keep it as it is)."""
    try:
        return normalise_phone(text, region)
    except ValueError:
        return None
