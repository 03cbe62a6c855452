"""``athar user add`` for scripted set-up; ``athar user enrol`` to (re)start a two-factor enrolment."""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.accounts.acting import acting_user, find_account
from athar.accounts.caseworkers import reassign, take_on
from athar.accounts.models import Role, User
from athar.accounts.second_factor import qr_svg, start_enrolment
from athar.accounts.users import PasswordRefused, create_account
from athar.core.command import subcommand
from athar.core.errors import UserError


def _arguments(parser: ArgumentParser) -> None:
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--email", metavar="E")
    who.add_argument("--phone", metavar="P")
    parser.add_argument("--role", required=True, choices=[r.value for r in Role])
    parser.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    parser.add_argument("--totp", action="store_true", help="start a two-factor enrolment for any role (reviewers, "
                        "archivists and administrators always get one); prints the key and URI once")
    parser.add_argument("--name", default="", help="display name")


@subcommand("user", "add", "Create an account with a role (family, caseworker, reviewer, archivist, admin).",
            arguments=_arguments)
def user_add(options: dict[str, Any]) -> dict[str, Any]:
    password = sys.stdin.readline().rstrip("\n") if options.get("password_stdin") else None
    try:
        result = create_account(None, role=options["role"], email=options.get("email") or "",
                                phone=options.get("phone") or "", name=options.get("name", ""),
                                password=password, totp=bool(options.get("totp")), via="cli")
    except PasswordRefused as exc:
        raise UserError(f"password refused: {exc}") from exc
    result.pop("user")
    return result


def _enrol_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--login", required=True, help="the account's email or phone (its sign-in)")
    parser.add_argument("--qr", metavar="FILE", help="also write the key as a QR code (SVG) to FILE")


@subcommand("user", "enrol", "Start (or restart) an account's two-factor enrolment: removes its authenticator and "
            "recovery codes and prints a new key once; the person completes it at sign-in with a code.",
            arguments=_enrol_arguments)
def user_enrol(options: dict[str, Any]) -> dict[str, Any]:
    user = User.objects.by_login(options["login"])
    if user is None:
        raise UserError(f"no account {options['login']!r}")
    result: dict[str, Any] = {"user_id": user.pk, **start_enrolment(user, via="cli")}
    if options.get("qr"):
        path = Path(options["qr"])
        path.write_text(qr_svg(result["totp_uri"]), encoding="utf-8")
        path.chmod(0o600)
        result["qr"] = str(path)
    return result


def _take_on_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--by", required=True, metavar="LOGIN", help="the caseworker's login; their password on stdin")
    parser.add_argument("--family", required=True, metavar="LOGIN", help="the family's login")
    parser.add_argument("--code", required=True, help="the code the family read from its page")


@subcommand("user", "take-on", "A caseworker takes on a self-registered family with the family's code "
            "(the caseworker's password on the first line of stdin).", arguments=_take_on_arguments)
def user_take_on(options: dict[str, Any]) -> dict[str, Any]:
    caseworker = acting_user(options["by"])
    family = find_account(options["family"], "family")
    take_on(caseworker, family, options["code"])
    return {"family_id": family.pk, "caseworker_id": caseworker.pk}


def _reassign_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the administrator's login; their password, then a two-factor code, on stdin")
    parser.add_argument("--family", required=True, metavar="LOGIN", help="the family's login")
    parser.add_argument("--caseworker", metavar="LOGIN", help="the new caseworker's login (none: nobody)")
    parser.add_argument("--reason", required=True, help="why (kept with the assignment, not in the audit chain)")


@subcommand("user", "reassign", "An administrator moves a family to another caseworker, with a reason.",
            arguments=_reassign_arguments)
def user_reassign(options: dict[str, Any]) -> dict[str, Any]:
    admin = acting_user(options["by"])
    family = find_account(options["family"], "family")
    caseworker = find_account(options["caseworker"], "caseworker") if options.get("caseworker") else None
    row = reassign(admin, family, caseworker, options["reason"])
    return {"family_id": family.pk, "caseworker_id": caseworker.pk if caseworker else None, "assignment": row.pk}
