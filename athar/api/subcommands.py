"""``athar api token|tokens|revoke``: issue a per-user API token (printed once; only its hash is
kept), list a user's tokens (never their values), revoke one or all of them."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import Any

from django.db import transaction
from django.utils import timezone

from athar.accounts import second_factor
from athar.accounts.models import User
from athar.api.models import ApiToken
from athar.audit.chain import record
from athar.core.command import subcommand
from athar.core.errors import UserError


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--login", required=True, help="the user's email or phone (their sign-in)")
    parser.add_argument("--name", required=True, help="what the token is for, e.g. 'ngo-sync'")
    parser.add_argument("--totp-code", default="", help="a current code of the user's authenticator (or a recovery "
                        "code): required for reviewers, archivists and administrators where two-factor is required")
    parser.add_argument("--code-stdin", action="store_true", help="read that code from standard input instead")
    parser.add_argument("--days", type=int, default=None,
                        help="days the token stays valid (default: ATHAR_API_TOKEN_DAYS, 90)")


@subcommand("api", "token", "Issue an API token for a user; it acts with exactly that user's permissions.",
            arguments=_arguments)
def api_token(options: dict[str, Any]) -> dict[str, Any]:
    user = _user(options["login"])
    if not user.is_active:
        raise UserError(f"no active account {options['login']!r}")
    code = sys.stdin.readline().strip() if options.get("code_stdin") else options.get("totp_code") or ""
    _second_factor(user, code)
    row, token = ApiToken.issue(user, options["name"], options.get("days"))
    expires_at = row.expires_at.isoformat() if row.expires_at else None  # issue() always sets it
    record("api.token_issued", object_type="user", object_id=user.pk, data={"token": row.pk, "expires_at": expires_at})
    return {"token_id": row.pk, "user_id": user.pk, "token": token, "expires_at": expires_at}


def _user(login: str) -> User:
    user = User.objects.by_login(login)
    if user is None:
        raise UserError(f"no account {login!r}")
    return user


def _when(value: Any) -> str | None:
    return value.isoformat() if value else None


def _list_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--login", required=True, help="the user's email or phone (their sign-in)")


@subcommand("api", "tokens", "List a user's API tokens: name, status, issued, last used, expiry (never the token).",
            arguments=_list_arguments,
            describe=lambda r: "\n".join(f"{t['token_id']:>5}  {t['status']:<8} {t['name']}  expires {t['expires_at']}"
                                         for t in r["tokens"]) or "no tokens")
def api_tokens(options: dict[str, Any]) -> dict[str, Any]:
    user = _user(options["login"])
    rows = [{"token_id": t.pk, "name": t.name, "status": t.status, "created_at": _when(t.created_at),
             "last_used_at": _when(t.last_used_at), "expires_at": _when(t.expires_at),
             "revoked_at": _when(t.revoked_at)} for t in user.api_tokens.all()]
    return {"user_id": user.pk, "tokens": rows}


def _revoke_arguments(parser: ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--token-id", type=int, help="the token to revoke (see `athar api tokens`)")
    which.add_argument("--login", help="revoke every token of this account not yet revoked")


@subcommand("api", "revoke", "Revoke one API token (--token-id) or every token of an account (--login); "
            "a revoked token stops working at once.", arguments=_revoke_arguments)
def api_revoke(options: dict[str, Any]) -> dict[str, Any]:
    if options.get("token_id") is not None:
        rows = ApiToken.objects.filter(pk=options["token_id"])
        if not rows.exists():
            raise UserError(f"no API token {options['token_id']}")
    else:
        rows = _user(options["login"]).api_tokens.all()
    now, revoked = timezone.now(), []
    with transaction.atomic():  # all the account's tokens, or none, with their audit records
        for row in rows.filter(revoked_at=None):
            ApiToken.objects.filter(pk=row.pk).update(revoked_at=now)
            record("api.token_revoked", object_type="user", object_id=row.user_id, data={"token": row.pk})
            revoked.append(row.pk)
    return {"revoked": revoked, "already_revoked": [r.pk for r in rows if r.pk not in revoked]}


def _second_factor(user: User, code: str) -> None:
    """A staff token is a standing credential: issue it only against the account's second factor
    (athar.accounts.second_factor.verify: the one path for web, API and CLI, throttled and audited)."""
    from django.conf import settings

    if not (getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False) and user.needs_two_factor):
        return
    if not second_factor.is_enrolled(user):
        raise UserError(f"{user.role} accounts need two-factor sign-in: complete the enrolment first "
                         "(`athar user enrol --login ...`, then a code at web sign-in)")
    if not second_factor.verify(user, code, via="api-token"):
        record("api.token_refused", object_type="user", object_id=user.pk, data={"reason": "second_factor"})
        raise UserError("a current two-factor code of this account is required: pass --totp-code 123456 "
                         "(or --code-stdin)")
