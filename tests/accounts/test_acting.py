"""One ``acting_user`` for every ``--by``: a sweep over every command of the command line.

The commands are discovered from the command registry (``athar.core.command.all_subcommands``), never
listed by hand: a new command that takes ``--by`` is swept the day it is added. Each is run with
arguments its parser accepts and must refuse, before it looks anything up or changes anything, an
account whose password is wrong, an inactive account, an unknown one, and a reviewer or administrator
without its two-factor code where two-factor sign-in is required.
"""

from __future__ import annotations

import io
import sys
from argparse import ArgumentParser
from typing import Any
from unittest.mock import patch

import pytest
from django.test import override_settings

from athar.audit.models import AuditEvent
from athar.core.command import Subcommand, all_subcommands
from athar.core.errors import UserError
from tests.accounts.otp import code_of, enrolled

pytestmark = pytest.mark.django_db

PASSWORD = "a long test password"
ALLOWED_ON_REFUSAL = {"cli.actor_refused", "auth.cli_refused", "auth.two_factor.failed", "auth.two_factor.refused"}


def _parser(sub: Subcommand) -> ArgumentParser:
    parser = ArgumentParser(prog=f"athar {sub.group} {sub.name}".strip())
    sub.add_arguments(parser)
    return parser


def commands_with_by() -> list[Subcommand]:
    return [sub for sub in all_subcommands() if "--by" in _parser(sub)._option_string_actions]


def _value(action: Any) -> list[str]:
    """A value the parser accepts for ``action`` (the first choice, else a number)."""
    if action.nargs == 0:
        return []
    one = str(action.choices[0]) if action.choices else "1"
    count = action.nargs if isinstance(action.nargs, int) else 1
    return [one] * count


def options_for(sub: Subcommand, login: str) -> dict[str, Any]:
    """Options as the parser gives them, with every required argument filled in and ``--by login``."""
    parser = _parser(sub)
    argv: list[str] = []
    chosen = set()
    for group in parser._mutually_exclusive_groups:
        if group.required:
            chosen.add(id(group._group_actions[0]))
    for action in parser._actions:
        if action.dest in ("help", "by"):
            continue
        if not action.option_strings:
            argv += _value(action)
        elif action.required or id(action) in chosen:
            argv += [action.option_strings[0], *_value(action)]
    return vars(parser.parse_args([*argv, "--by", login]))


def run_as(sub: Subcommand, login: str, stdin: str) -> Any:
    with patch.object(sys, "stdin", io.StringIO(stdin)):
        return sub.run(options_for(sub, login))


def test_the_sweep_finds_every_decision_of_the_command_line() -> None:
    found = {(s.group, s.name) for s in commands_with_by()}
    # Not the list the sweep uses (it discovers its own): a floor, so discovery can never find nothing.
    assert {("registry", "decide"), ("registry", "undecide"), ("registry", "consent"), ("claims", "review"),
            ("claims", "add"), ("conflicts", "resolve"), ("user", "take-on"), ("user", "reassign")} <= found


@pytest.mark.parametrize("sub", commands_with_by(), ids=lambda s: f"{s.group}-{s.name}")
def test_every_by_refuses_a_wrong_password_an_inactive_or_unknown_account(sub: Subcommand, make_user: Any) -> None:
    user = make_user("admin")
    before = AuditEvent.objects.count()
    for stdin in ("", "wrong password\n", "\n" + PASSWORD + "\n"):
        with pytest.raises(UserError, match="credentials"):
            run_as(sub, user.login, stdin)
    user.is_active = False
    user.save(update_fields=["is_active"])
    with pytest.raises(UserError, match="not active"):
        run_as(sub, user.login, PASSWORD + "\n")
    with pytest.raises(UserError, match="no account"):
        run_as(sub, "nobody@example.org", PASSWORD + "\n")
    events = list(AuditEvent.objects.filter(seq__gt=before).values_list("action", "data"))
    assert {action for action, _data in events} <= ALLOWED_ON_REFUSAL  # refused before anything happened
    refusals = [data["reason"] for action, data in events if action == "cli.actor_refused"]
    assert refusals == ["credentials"] * 3 + ["inactive", "unknown_account"]
    assert all("nobody" not in str(data) for _action, data in events)  # identifiers only


@pytest.mark.parametrize("sub", commands_with_by(), ids=lambda s: f"{s.group}-{s.name}")
@override_settings(ATHAR_REQUIRE_TWO_FACTOR=True)
def test_every_by_needs_the_two_factor_code_where_the_role_requires_it(sub: Subcommand, make_user: Any) -> None:
    reviewer = make_user("reviewer")
    device = enrolled(reviewer)
    with pytest.raises(UserError, match="two-factor"):
        run_as(sub, reviewer.login, PASSWORD + "\n")
    with pytest.raises(UserError, match="two-factor"):
        run_as(sub, reviewer.login, PASSWORD + "\n000000\n" if code_of(device) != "000000" else PASSWORD + "\n111111\n")
    # With the code, the account is accepted: whatever the command then says, it is not about who acts.
    # (A fresh account: django-otp throttles a device after a wrong code.)
    reviewer = make_user("reviewer")
    device = enrolled(reviewer)
    try:
        run_as(sub, reviewer.login, f"{PASSWORD}\n{code_of(device)}\n")
    except (UserError, PermissionError, LookupError) as exc:
        assert "credentials" not in str(exc) and "not active" not in str(exc)
    assert AuditEvent.objects.filter(action="cli.actor_authenticated", object_id=str(reviewer.pk)).exists()


@override_settings(ATHAR_REQUIRE_TWO_FACTOR=True)
def test_a_family_or_caseworker_needs_no_code(make_user: Any) -> None:
    from athar.accounts.acting import acting_user

    caseworker = make_user("caseworker")
    assert acting_user(caseworker.login, io.StringIO(PASSWORD + "\n")) == caseworker
