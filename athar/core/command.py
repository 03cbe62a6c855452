"""The conventions every ``athar`` command follows.

- ``--json``: the last line of standard output is one JSON object on one line.
- Progress bars and logs go to standard error.
- Exit 0 when the job was done (bad rows reported in the result), non-zero on failure.

One way to write a command: the app that owns it registers a function ``run(options) -> dict``
(and optionally ``describe(result) -> str`` for people) in its ``subcommands`` module, with
``@subcommand("faces", "index", ...)`` for ``athar faces index`` or ``@command("worker", ...)`` for a
command without actions. The app's ``management/commands/<name>.py`` is a two-line shell
(``class Command(GroupCommand): group = "faces"``) so Django (``call_command``, ``athar --help``)
finds it.

Failures follow one contract (``athar.core.failures``): a ``UserError`` (``athar.core.errors``),
``CommandError``, a missing file, a refused permission, a database that does not answer or a full
disk is said in one line (and the ``{"ok": false, "error": ...}`` JSON line), exit 1 (2 for bad
arguments), no traceback. Anything else is a bug: the traceback goes to standard error and to the
error log, and the message says "unexpected failure" and "please report".
"""

from __future__ import annotations

import json
import sys
import time
from argparse import SUPPRESS, ArgumentParser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser, no_translations
from django.utils.module_loading import autodiscover_modules
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from athar.core.failures import emit_json, fail_on, usage_error, wants_json

stderr_console = Console(stderr=True)
__all__ = ["emit_json"]  # re-exported: commands print their JSON line with it


class RateColumn(ProgressColumn):
    """Items per second."""

    def render(self, task: Task) -> Text:
        return Text(f"{task.speed:.0f}/s" if task.speed else "–/s")


LOG_EVERY = 10.0  # seconds between progress lines when standard error is not a terminal


@contextmanager
def progress_bar(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """Progress on standard error, yielding an ``advance(n)`` (with ``advance.set_total(n)``): a
    rich bar (files, rate and ETA) on a terminal; otherwise — a log, a service, a pipe — one plain
    line every ``LOG_EVERY`` seconds (``ingest: 300/1200 files (25%), 41/s``) and one at the end
    when any was written."""
    if not stderr_console.is_terminal:
        with _progress_lines(description, total) as advance:
            yield advance
        return
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
               TimeElapsedColumn(), TimeRemainingColumn()]
    with Progress(*columns, console=stderr_console, transient=False) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        advance.set_total = lambda t: bar.update(task, total=t)  # type: ignore[attr-defined]
        yield advance


@contextmanager
def _progress_lines(description: str, total: int | None) -> Iterator[Callable[[int], None]]:
    state: dict[str, Any] = {"done": 0, "total": total, "started": time.monotonic(), "said": time.monotonic(),
                             "lines": 0}

    def say() -> None:
        elapsed = max(time.monotonic() - state["started"], 1e-9)
        of = f"/{state['total']}" if state["total"] else ""
        share = f" ({100 * state['done'] // state['total']}%)" if state["total"] else ""
        sys.stderr.write(f"{description}: {state['done']}{of}{share}, {state['done'] / elapsed:.0f}/s\n")
        sys.stderr.flush()
        state["said"], state["lines"] = time.monotonic(), state["lines"] + 1

    def advance(n: int = 1) -> None:
        state["done"] += n
        if time.monotonic() - state["said"] >= LOG_EVERY:
            say()

    advance.set_total = lambda t: state.update(total=t)  # type: ignore[attr-defined]
    yield advance
    if state["lines"]:
        say()


class AtharCommand(BaseCommand):
    """Base for athar commands: JSON output, clear failures, logs on standard error."""

    # Django's system checks belong to `athar check` and to serving, not to every batch job.
    requires_system_checks: list[str] = []

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name.replace("manage.py", "athar"), subcommand, **kwargs)
        json_usage_errors(parser)
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

    @no_translations  # operators' messages and JSON in English, whatever the site's default language
    def handle(self, *args: Any, **options: Any) -> None:
        as_json = bool(options.get("json"))
        try:
            result = self.run(options)
        except Exception as exc:  # noqa: BLE001 - explained in one line, or a bug with its traceback and log
            fail_on(exc, as_json)
        self.finish(result, as_json)

    def finish(self, result: dict[str, Any], as_json: bool) -> None:
        """Print the result; then run what the command left to do after it (``_then``: serving
        after the demo was built, so the JSON line comes first) and exit with its code."""
        exit_code = int(result.pop("_exit_code", 0))
        then = result.pop("_then", None)
        if as_json:
            emit_json(result)
        else:
            self.stdout.write(self.describe(result))
        if then is not None:
            self.stdout.flush()
            then()
        if exit_code:
            sys.exit(exit_code)



def json_usage_errors(parser: ArgumentParser) -> None:
    """Bad arguments exit 2 with one line — and, when ``--json`` was asked for, the JSON line —
    instead of argparse's usage block alone (for this parser; sub-parsers are set up as they are made)."""
    if not getattr(parser, "called_from_command_line", True):
        return  # call_command: Django raises CommandError, which handle() reports

    def error(message: str) -> NoReturn:
        usage_error(parser.prog, message, wants_json(sys.argv))

    parser.error = error  # type: ignore[method-assign]  # argparse calls self.error on refusal


def _short(value: Any) -> str:
    if isinstance(value, list):
        if not value:
            return "none"
        return f"{len(value)}\n" + "\n".join(f"  - {json.dumps(v, ensure_ascii=False)}" for v in value[:50])
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


Runner = Callable[[dict[str, Any]], dict[str, Any]]
Describer = Callable[[dict[str, Any]], str]
Arguments = Callable[[ArgumentParser], None]
SINGLE = ""  # the action name of a command without actions (``athar worker``)


@dataclass
class Subcommand:
    group: str
    name: str
    help: str
    add_arguments: Arguments
    run: Runner
    describe: Describer | None = None
    default: bool = False  # the action run when none is named (``athar claims`` lists)


_SUBCOMMANDS: dict[str, dict[str, Subcommand]] = {}


def _no_arguments(parser: ArgumentParser) -> None:
    """A command that takes no arguments of its own."""


def subcommand(group: str, name: str, help: str, arguments: Arguments = _no_arguments,
               describe: Describer | None = None, default: bool = False) -> Callable[[Runner], Runner]:
    """Register ``athar GROUP NAME`` (e.g. ``athar faces index``); ``default`` when ``athar GROUP``
    alone runs it."""

    def register(func: Runner) -> Runner:
        _SUBCOMMANDS.setdefault(group, {})[name] = Subcommand(group, name, help, arguments, func, describe, default)
        return func

    return register


def command(name: str, help: str, arguments: Arguments = _no_arguments,
            describe: Describer | None = None) -> Callable[[Runner], Runner]:
    """Register ``athar NAME`` without actions (``athar worker``, ``athar backup OUT``)."""
    return subcommand(name, SINGLE, help, arguments, describe)


def subcommands(group: str) -> dict[str, Subcommand]:
    autodiscover_modules("subcommands")
    return dict(sorted(_SUBCOMMANDS.get(group, {}).items()))


def all_subcommands() -> list[Subcommand]:
    """Every registered command and action (for sweeps over the whole command line)."""
    autodiscover_modules("subcommands")
    return [sub for group in sorted(_SUBCOMMANDS) for _name, sub in sorted(_SUBCOMMANDS[group].items())]


class GroupCommand(AtharCommand):
    """``athar GROUP [ACTION] ...``: the shell Django finds; runs what the owning app registered."""

    group = ""

    def _actions(self) -> dict[str, Subcommand]:
        actions = subcommands(self.group)
        if not actions:
            raise LookupError(f"no command registered for 'athar {self.group}'")
        return actions

    def add_arguments(self, parser: CommandParser) -> None:
        actions = self._actions()
        if SINGLE in actions:
            super().add_arguments(parser)
            actions[SINGLE].add_arguments(parser)
            return
        default = next((sub for sub in actions.values() if sub.default), None)
        if default is not None:  # ``athar claims --person 3`` lists, as ``athar claims list --person 3``
            default.add_arguments(parser)
        subs = parser.add_subparsers(dest="action", required=default is None, metavar="ACTION")
        for sub in actions.values():
            sub_parser = subs.add_parser(sub.name, help=sub.help, description=sub.help)
            json_usage_errors(sub_parser)
            sub_parser.add_argument("--json", action="store_true", default=SUPPRESS,
                                    help="print the result as one JSON object (last line)")
            sub.add_arguments(sub_parser)
        parser.add_argument("--json", action="store_true", help="print the result as one JSON object (last line)")

    def _chosen(self, options: dict[str, Any]) -> Subcommand:
        actions = self._actions()
        name = options.get("action") or SINGLE
        if name in actions:
            return actions[name]
        return next(sub for sub in actions.values() if sub.default)

    def run(self, options: dict[str, Any]) -> dict[str, Any]:
        return self._chosen(options).run(options)

    def describe(self, result: dict[str, Any]) -> str:
        sub = self._chosen(self._options)
        if sub.describe is not None:
            return sub.describe(result)
        return super().describe(result)

    def handle(self, *args: Any, **options: Any) -> None:
        self._options = options
        super().handle(*args, **options)
