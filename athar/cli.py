"""The ``athar`` command: one entry point for everything (Django management commands behind it).

Every command works on an empty or missing ``ATHAR_HOME``: the store is created and migrated
before the command runs.
"""

from __future__ import annotations

import os
import sys

import django
from django.core.exceptions import ImproperlyConfigured
from django.core.management import ManagementUtility, get_commands, load_command_class

from athar import __version__
from athar.config import use_ephemeral_secret_key
from athar.core.command import SINGLE, GroupCommand, subcommands
from athar.core.failures import fail_on, usage_error, wants_json
from athar.core.store import ensure_store

NO_STORE_COMMANDS = {"makemigrations", "help", "version", "makemessages", "compilemessages", "check",
                     "shell", "dbshell", "diffsettings",
                     "restore"}  # restore: into an empty home, so never migrate first


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``athar`` console script: every failure, even before a command runs
    (settings, a database that does not answer while the store is migrated), ends by the one
    error contract of ``athar.core.failures``."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        _main(args)
    except (SystemExit, KeyboardInterrupt):
        raise
    except Exception as exc:  # noqa: BLE001 - explained in one line, or a bug with its traceback and log
        fail_on(exc, wants_json(args))


def _main(args: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    asks_help = wants_help(args)
    if asks_help:
        use_ephemeral_secret_key()
    _setup_django()
    if not args or args[0] in ("-h", "--help", "help") and len(args) == 1:
        sys.stdout.write(main_help())
        return
    if args[0] in ("--version", "version"):
        sys.stdout.write(f"athar {__version__}\n")
        return
    if args[0] not in get_commands() and not args[0].startswith("-"):
        usage_error("athar", f"unknown command {args[0]!r}", wants_json(args))
    if args[0] not in NO_STORE_COMMANDS and not asks_help:
        ensure_store()
    ManagementUtility(["athar", *args]).execute()


def wants_help(args: list[str]) -> bool:
    """``athar COMMAND --help`` only reads: it must not create or migrate a data store."""
    return bool({"-h", "--help"} & set(args))


def _setup_django() -> None:
    try:
        django.setup()
    except ImproperlyConfigured as exc:
        sys.stderr.write(f"athar: configuration error: {exc}\n")
        sys.exit(2)


def athar_commands() -> dict[str, str]:
    """athar's own commands (from athar apps) with their help text."""
    out = {}
    for name, app in sorted(get_commands().items()):
        if app.startswith("athar"):
            out[name] = load_command_class(app, name).help
    return out


def main_help() -> str:
    """``athar --help``: every command, grouped by noun, with its help text."""
    lines = ["usage: athar COMMAND [ARGS] [--json]", "",
             "athar (أثر): archives of evidence, the registry of the missing, matching and identification.",
             "With --json the last line of standard output is one JSON object.", "", "commands:"]
    for name, help_text in athar_commands().items():
        lines.append(f"  {name:<22} {help_text}")
        command = load_command_class(get_commands()[name], name)
        if isinstance(command, GroupCommand):
            for sub in subcommands(command.group).values():
                if sub.name == SINGLE:
                    continue
                lines.append(f"    {name} {sub.name:<{max(1, 17 - len(name))}} {sub.help}")
    lines += ["", "Django commands also work (e.g. athar check --deploy, athar migrate).",
              "Run 'athar COMMAND --help' for a command's options.", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    main()
