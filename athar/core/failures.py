"""One error contract for every ``athar`` command: what a failure is, and how it is said.

- A user's mistake (``UserError``, ``CommandError``, a missing file, a refused permission) and an
  outage (the database does not answer, the disk is full) are said in one plain line on standard
  error, as ``{"ok": false, "error": ...}`` — the last line of standard output — under ``--json``,
  and exit 1 (2 for a usage error); never a traceback: nothing is wrong with athar.
- Anything else is a bug: its traceback goes to standard error *and* to ``ATHAR_HOME/logs/errors.log``
  (private), and the message says "please report" and where the log is.

Used both around a command's ``run`` (``AtharCommand.handle``) and around everything before it
(``athar.cli.main``: settings, migrating the store), so a database that is down before any command
runs still ends with the JSON line.
"""

from __future__ import annotations

import datetime as dt
import errno
import json
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

from django.core.management.base import CommandError

from athar.core.errors import UserError

DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT}


def emit_json(result: dict[str, Any]) -> None:
    """Print one JSON object on one line, the last line of standard output."""
    sys.stdout.write(json.dumps(result, ensure_ascii=False, default=str, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def _database_errors() -> tuple[type[BaseException], ...]:
    from django.db import InterfaceError, OperationalError

    return (OperationalError, InterfaceError)


def explain(exc: BaseException) -> tuple[str, int] | None:
    """The plain message and exit code of an expected failure (a mistake or an outage); None for a bug."""
    if isinstance(exc, CommandError):
        return str(exc), int(getattr(exc, "returncode", 1) or 1)
    if isinstance(exc, UserError):
        return str(exc), 1
    if isinstance(exc, OSError) and exc.errno in DISK_ERRNOS:
        where = f" ({exc.filename})" if exc.filename else ""
        return f"the disk is full{where}: free space (or move ATHAR_HOME to a larger volume) and run it again; " \
               "nothing half-written was kept", 1
    if isinstance(exc, FileNotFoundError | PermissionError | IsADirectoryError | NotADirectoryError):
        return str(exc), 1
    if isinstance(exc, _database_errors()):
        return _database_message(exc), 1
    from django.core.exceptions import ImproperlyConfigured

    if isinstance(exc, ImproperlyConfigured):
        return f"configuration error: {exc}", 1
    return None


def _database_message(exc: BaseException) -> str:
    """One line about a database outage, without the driver's multi-line detail (or a password)."""
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db.get("NAME") if str(db.get("ENGINE", "")).endswith("sqlite3") else \
        f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}/{db.get('NAME')}"
    return f"the database cannot be reached ({where}): {first[:300]}. Check that it runs and DATABASE_URL"


def error_log() -> Path | None:
    """Where bugs' tracebacks are kept (``ATHAR_HOME/logs/errors.log``), or None when unwritable."""
    try:
        from django.conf import settings

        folder = Path(settings.ATHAR_HOME) / "logs"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder / "errors.log"
    except Exception:  # noqa: BLE001 - no settings, read-only disk: the traceback is on stderr anyway
        return None


def _log_bug(exc: BaseException) -> Path | None:
    text = "".join(traceback.format_exception(exc))
    sys.stderr.write(text)
    log = error_log()
    if log is None:
        return None
    try:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"--- {dt.datetime.now(dt.UTC).isoformat()} athar {' '.join(sys.argv[1:2])}\n{text}")
    except OSError:
        return None
    return log


def fail(message: str, as_json: bool, code: int = 1) -> NoReturn:
    """Say a failure in one line (stderr; and the JSON line under ``--json``) and exit."""
    one_line = " ".join(message.split())
    sys.stderr.write(f"error: {one_line}\n")
    sys.stderr.flush()
    if as_json:
        emit_json({"ok": False, "error": one_line})
    sys.exit(code or 1)


def fail_on(exc: BaseException, as_json: bool) -> NoReturn:
    """Report any exception by the contract: explained, or a bug with its traceback and log."""
    explained = explain(exc)
    if explained is not None:
        fail(explained[0], as_json, explained[1])
    log = _log_bug(exc)
    where = f"the log is {log}" if log else "the traceback is above"
    fail(f"unexpected failure: {type(exc).__name__}: {exc} — a bug in athar; please report it to "
         f"athar's developers with the log ({where})", as_json, 1)


def usage_error(prog: str, message: str, as_json: bool) -> NoReturn:
    """argparse's refusal of the arguments: exit 2, and the JSON line under ``--json``."""
    fail(f"{prog}: {message} (see {prog} --help)", as_json, 2)


def wants_json(argv: list[str]) -> bool:
    return "--json" in argv
