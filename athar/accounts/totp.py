"""Two-factor sign-in with time-based one-time passwords (RFC 6238)."""

from __future__ import annotations

import pyotp

from athar.accounts.models import User

ISSUER = "athar"


def enrol(user: User) -> dict[str, str]:
    """Give the account a new secret; returns the secret and the provisioning URI."""
    secret = pyotp.random_base32()
    user.totp_secret = secret
    user.totp_confirmed = True
    user.save(update_fields=["totp_secret", "totp_confirmed"])
    uri = pyotp.TOTP(secret).provisioning_uri(name=f"user-{user.pk}", issuer_name=ISSUER)
    return {"totp_secret": secret, "totp_uri": uri}


def verify(user: User, code: str) -> bool:
    """A code is valid in its 30-second window or the one before/after (clock drift)."""
    if not user.totp_secret:
        return False
    return pyotp.TOTP(user.totp_secret).verify(code.strip().replace(" ", ""), valid_window=1)
