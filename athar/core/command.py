"""The conventions every ``athar`` command follows.

- ``--json``: the last line of standard output is one JSON object on one line.
- Progress bars and logs go to standard error.
- Exit 0 when the job was done (bad rows reported in the result), non-zero on failure.

A command implements ``run(options) -> dict`` and optionally ``describe(result) -> str`` for
people. Commands grouped by noun (``athar faces index``) register subcommands with
``@subcommand("faces", "index")`` in an app's ``subcommands`` module.
"""

from __future__ import annotations

import json
import sys
import traceback
from argparse import ArgumentParser
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.module_loading import autodiscover_modules
from rich.console import Console
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

stderr_console = Console(stderr=True)


def emit_json(result: dict[str, Any]) -> None:
    """Print one JSON object on one line, the last line of standard output."""
    sys.stdout.write(json.dumps(result, ensure_ascii=False, default=str, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class RateColumn(ProgressColumn):
    """Items per second."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:.0f}/s" if task.speed else "–/s")


@contextmanager
def progress_bar(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on standard error (files, rate and ETA); yields an ``advance(n)``."""
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=stderr_console, transient=False,
                  disable=not stderr_console.is_terminal) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        advance.set_total = lambda t: bar.update(task, total=t)  # type: ignore[attr-defined]
        yield advance


class AtharCommand(BaseCommand):
    """Base for athar commands: JSON output, clear failures, logs on standard error."""

    # Django's system checks belong to `athar check` and to serving, not to every batch job.
    requires_system_checks: list[str] = []

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name.replace("manage.py", "athar"), subcommand, **kwargs)
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object (last line)")
        self.add_command_arguments(parser)

    def add_command_arguments(self, parser: CommandParser) -> None:
        """Subclasses add their own arguments here."""

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, result: dict[str, Any]) -> str:
        """Human-readable result; the default lists the keys."""
        return "\n".join(f"{key}: {_short(value)}" for key, value in result.items())

    def handle(self, *args: Any, **options: Any) -> None:
        as_json = bool(options.get("json"))
        try:
            result = self.run(options)
        except CommandError as exc:
            self._fail(str(exc), as_json, getattr(exc, "returncode", 1))
        except (FileNotFoundError, ValueError, PermissionError) as exc:
            self._fail(str(exc), as_json, 1)
        except Exception as exc:  # noqa: BLE001 - report, with the traceback on standard error
            traceback.print_exc(file=sys.stderr)
            self._fail(f"unexpected failure: {type(exc).__name__}: {exc}", as_json, 1)
        self.finish(result, as_json)

    def finish(self, result: dict[str, Any], as_json: bool) -> None:
        exit_code = int(result.pop("_exit_code", 0))
        if as_json:
            emit_json(result)
        else:
            self.stdout.write(self.describe(result))
        if exit_code:
            sys.exit(exit_code)

    def _fail(self, message: str, as_json: bool, code: int) -> None:
        stderr_console.print(f"[bold red]error:[/] {message}", highlight=False)
        if as_json:
            emit_json({"ok": False, "error": message})
        sys.exit(code or 1)


def _short(value: Any) -> str:
    if isinstance(value, list):
        if not value:
            return "none"
        return f"{len(value)}\n" + "\n".join(f"  - {json.dumps(v, ensure_ascii=False)}" for v in value[:50])
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


@dataclass
class Subcommand:
    group: str
    name: str
    help: str
    add_arguments: Callable[[ArgumentParser], None]
    run: Callable[[dict[str, Any]], dict[str, Any]]
    describe: Callable[[dict[str, Any]], str] | None = None


_SUBCOMMANDS: dict[str, dict[str, Subcommand]] = {}


def subcommand(group: str, name: str, help: str,
               arguments: Callable[[ArgumentParser], None] = lambda p: None,
               describe: Callable[[dict[str, Any]], str] | None = None
               ) -> Callable[[Callable[[dict[str, Any]], dict[str, Any]]], Callable[[dict[str, Any]], dict[str, Any]]]:
    """Register ``athar GROUP NAME`` (e.g. ``athar faces index``)."""

    def register(func: Callable[[dict[str, Any]], dict[str, Any]]) -> Callable[[dict[str, Any]], dict[str, Any]]:
        _SUBCOMMANDS.setdefault(group, {})[name] = Subcommand(group, name, help, arguments, func, describe)
        return func

    return register


def subcommands(group: str) -> dict[str, Subcommand]:
    autodiscover_modules("subcommands")
    return dict(sorted(_SUBCOMMANDS.get(group, {}).items()))


class GroupCommand(AtharCommand):
    """``athar GROUP SUB ...``: dispatches to the registered subcommands of one group."""

    group = ""

    def add_arguments(self, parser: CommandParser) -> None:
        subs = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        for sub in subcommands(self.group).values():
            sub_parser = subs.add_parser(sub.name, help=sub.help, description=sub.help)
            sub_parser.add_argument("--json", action="store_true",
                                    help="print the result as one JSON object (last line)")
            sub.add_arguments(sub_parser)

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        return subcommands(self.group)[options["action"]].run(options)

    def describe(self, result: dict[str, Any]) -> str:
        sub = subcommands(self.group).get(self._action, None) if hasattr(self, "_action") else None
        if sub and sub.describe:
            return sub.describe(result)
        return super().describe(result)

    def handle(self, *args: Any, **options: Any) -> None:
        self._action = options.get("action", "")
        super().handle(*args, **options)
