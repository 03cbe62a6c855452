"""``athar api token``: issue a per-user API token (printed once; only its hash is kept)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

import pyotp

from athar.accounts.models import User
from athar.api.models import ApiToken
from athar.audit.chain import record
from athar.core.command import subcommand


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--login", required=True, help="the user's email or phone (their sign-in)")
    parser.add_argument("--name", required=True, help="what the token is for, e.g. 'ngo-sync'")
    parser.add_argument("--totp-code", default="", help="a current code of the user's authenticator: required "
                        "for reviewers, archivists and administrators where two-factor sign-in is required")


@subcommand("api", "token", "Issue an API token for a user; it acts with exactly that user's permissions.",
            arguments=_arguments)
def api_token(options: dict[str, Any]) -> dict[str, Any]:
    user = User.objects.filter(login=options["login"].strip().lower()).first() or \
        User.objects.filter(login=options["login"].strip()).first()
    if user is None or not user.is_active:
        raise ValueError(f"no active account {options['login']!r}")
    _second_factor(user, options.get("totp_code") or "")
    row, token = ApiToken.issue(user, options["name"])
    record("api.token_issued", object_type="user", object_id=user.pk, data={"token": row.pk})
    return {"token_id": row.pk, "user_id": user.pk, "token": token}


def _second_factor(user: User, code: str) -> None:
    """A staff token is a standing credential: issue it only against the account's second factor."""
    from django.conf import settings

    if not (getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False) and user.needs_two_factor):
        return
    if not user.totp_confirmed:
        raise ValueError(f"{user.role} accounts need two-factor sign-in: enrol TOTP first "
                         "(web: sign in and follow the enrolment step; or `athar user add --totp`)")
    digits = "".join(ch for ch in code if ch.isdigit())
    if len(digits) != 6 or not pyotp.TOTP(user.totp_secret).verify(digits, valid_window=1):
        record("api.token_refused", object_type="user", object_id=user.pk, data={"reason": "totp"})
        raise ValueError("a current TOTP code of this account is required: pass --totp-code 123456")
