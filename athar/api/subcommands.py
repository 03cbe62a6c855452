"""``athar api token``: issue a per-user API token (printed once; only its hash is kept)."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from athar.accounts.models import User
from athar.api.models import ApiToken
from athar.audit.chain import record
from athar.core.command import subcommand


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--login", required=True, help="the user's email or phone (their sign-in)")
    parser.add_argument("--name", required=True, help="what the token is for, e.g. 'ngo-sync'")


@subcommand("api", "token", "Issue an API token for a user; it acts with exactly that user's permissions.",
            arguments=_arguments)
def api_token(options: dict[str, Any]) -> dict[str, Any]:
    user = User.objects.filter(login=options["login"].strip().lower()).first() or \
        User.objects.filter(login=options["login"].strip()).first()
    if user is None or not user.is_active:
        raise ValueError(f"no active account {options['login']!r}")
    row, token = ApiToken.issue(user, options["name"])
    record("api.token_issued", object_type="user", object_id=user.pk, data={"token": row.pk})
    return {"token_id": row.pk, "user_id": user.pk, "token": token}
