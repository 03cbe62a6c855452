"""Who acts from the command line: one resolver for every ``--by LOGIN``.

A decision taken from a terminal is recorded for an account, so the terminal must prove it is that
account, exactly as a sign-in would: the account's password on the first line of standard input
(never an argument, which other accounts on the machine can read) and, where two-factor sign-in is
required for the account's role (``ATHAR_REQUIRE_TWO_FACTOR`` and ``User.needs_two_factor``), a
current code on the second. An inactive account can do nothing. Every outcome is written to the
audit chain with identifiers only (the account's id, the reason code), never the login typed.

What the account may then *do* is not decided here: each domain function asks its own policy
(``identification.policy``, ``registry.policy``), so the web, the API and the command line agree.
"""

from __future__ import annotations

from typing import IO

from athar.accounts import second_factor
from athar.accounts.models import User
from athar.audit.chain import record
from athar.core.errors import UserError

CLI_ACTOR = "cli"


def _refused(user: User | None, reason: str) -> None:
    record("cli.actor_refused", object_type="user", object_id=user.pk if user is not None else "",
           actor=CLI_ACTOR, data={"via": "cli", "reason": reason})


def acting_user(login: str, stdin: IO[str] | None = None) -> User:
    """The account named by ``--by``, proven by its own credentials read from standard input.

    Raises ``UserError`` (plain words, exit 1) when the account does not exist, is inactive, or its
    password or two-factor code is not accepted; each refusal is audited (``cli.actor_refused``)
    and each success too (``cli.actor_authenticated``)."""
    login = str(login or "").strip()
    user = User.objects.by_login(login) if login else None
    password, code = second_factor.read_identity(stdin)
    if user is None:
        _refused(None, "unknown_account")
        raise UserError(f"no account {login!r}: give the acting account's email or phone with --by")
    if not user.is_active:
        _refused(user, "inactive")
        raise UserError(f"the account {login!r} is not active: an inactive account can do nothing")
    try:
        if not password:
            raise PermissionError("no password was given")
        second_factor.confirm_identity(user, password, code, via="cli")
    except PermissionError as exc:
        _refused(user, "credentials")
        raise UserError(f"the credentials of {login!r} were not accepted ({exc}): give the account's password on "
                        "the first line of standard input (and a current two-factor code on the second)") from None
    record("cli.actor_authenticated", object_type="user", object_id=user.pk, actor=f"user:{user.pk}",
           data={"via": "cli"})
    return user


def find_account(login: str, what: str = "") -> User:
    """An account named on the command line that does *not* act (the family taken on, the new
    caseworker): it must exist; ``what`` names it in the message."""
    user = User.objects.by_login(str(login or "").strip())
    if user is None:
        raise UserError(f"no {what + ' ' if what else ''}account {login!r}")
    return user

