"""One way to write a command: registered functions, clear refusals, tracebacks for bugs."""

from __future__ import annotations

import io
import json
from argparse import ArgumentParser
from typing import Any

import pytest
from django.core.management import call_command

from athar.core import command as commands
from athar.core.command import GroupCommand, command, subcommand
from athar.core.errors import UserError

pytestmark = pytest.mark.nodb


def _arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--what", default="fine")


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> type[GroupCommand]:
    """A throw-away group 'probe' (actions ok, refuse, bug) and a single command 'probe1'."""
    monkeypatch.setattr(commands, "_SUBCOMMANDS", {})

    @subcommand("probe", "ok", "works", arguments=_arguments, default=True)
    def ok(options: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "what": options["what"]}

    @subcommand("probe", "refuse", "the user's mistake")
    def refuse(options: dict[str, Any]) -> dict[str, Any]:
        raise UserError("no such thing: give an existing id")

    @subcommand("probe", "bug", "athar's mistake")
    def bug(options: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("a bug, not the user's fault")

    @command("probe1", "a command without actions", arguments=_arguments)
    def single(options: dict[str, Any]) -> dict[str, Any]:
        return {"single": options["what"]}

    monkeypatch.setattr(commands, "autodiscover_modules", lambda *_: None)
    return GroupCommand


def run(group: str, *args: str) -> tuple[int, str, str]:
    shell = GroupCommand()
    shell.group = group
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", out)
        patch.setattr("sys.stderr", err)
        patch.setattr(commands, "stderr_console", commands.Console(file=err))
        try:
            shell.run_from_argv(["athar", group, *args])
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_a_user_error_is_a_message_without_a_traceback(registered: Any) -> None:
    code, out, err = run("probe", "refuse", "--json")
    assert code == 1
    assert json.loads(out.strip().splitlines()[-1]) == {"ok": False, "error": "no such thing: give an existing id"}
    assert "Traceback" not in err


def test_any_other_exception_is_a_bug_reported_with_its_traceback(registered: Any) -> None:
    code, out, err = run("probe", "bug", "--json")
    assert code == 1
    assert "Traceback" in err and "ValueError: a bug" in err
    assert json.loads(out.strip().splitlines()[-1])["error"].startswith("unexpected failure: ValueError")


def test_the_default_action_runs_when_none_is_named_and_json_goes_last(registered: Any) -> None:
    assert run("probe", "--what", "x", "--json")[:2] == (0, '{"ok":true,"what":"x"}\n')
    assert run("probe", "ok", "--json", "--what", "y")[1] == '{"ok":true,"what":"y"}\n'


def test_a_command_without_actions_takes_its_arguments_directly(registered: Any) -> None:
    assert run("probe1", "--what", "z", "--json")[1] == '{"single":"z"}\n'


@pytest.mark.django_db
def test_every_athar_command_is_a_registered_group() -> None:
    """No command is written another way: every athar management command is a GroupCommand shell
    whose group the owning app registered."""
    from django.core.management import get_commands, load_command_class

    from athar.cli import athar_commands

    for name in athar_commands():
        shell = load_command_class(get_commands()[name], name)
        assert isinstance(shell, GroupCommand), name
        assert commands.subcommands(shell.group), name


def test_call_command_still_works(tmp_path: Any) -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as stopped:
        call_command("conflicts", "resolve", "--help", stdout=out)
    assert stopped.value.code == 0


def test_progress_off_a_terminal_is_plain_lines_on_stderr_now_and_then(capsys, monkeypatch) -> None:
    """A log or a service gets periodic lines (a bar would be escape codes); stdout stays clean."""
    from athar.core import command

    monkeypatch.setattr(command, "LOG_EVERY", 0.0)
    with command.progress_bar("ingest") as advance:
        advance.set_total(4)  # type: ignore[attr-defined]
        advance(1)
        advance(3)
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and lines[0].startswith("ingest: 1/4 (25%), ") and lines[1].startswith("ingest: 4/4 (100%), ")
    assert lines[-1].startswith("ingest: 4/4 (100%)") and all(line.endswith("/s") for line in lines)


def test_progress_off_a_terminal_says_nothing_for_a_short_job(capsys, monkeypatch) -> None:
    from athar.core import command

    monkeypatch.setattr(command, "LOG_EVERY", 3600.0)
    with command.progress_bar("faces") as advance:
        advance(10)
    assert capsys.readouterr().err == ""
