"""``athar backup``, ``restore``, ``serve`` and ``demo``: operations over every app."""

from __future__ import annotations

from argparse import ArgumentParser
from io import StringIO
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connection

from athar.archive.verify import verify_store
from athar.core.command import command, progress_bar
from athar.core.demo import DemoContext, run_demo
from athar.core.errors import UserError
from athar.ops.backup import make_backup, prune_backups, restore_backup, unreadable_message
from athar.ops.server import serve
from athar.ops.supervisor import supervised_worker
from athar.registry.keys import unreadable_count


def _backup_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT", help="a new .tar file, or a folder")
    parser.add_argument("--retention-days", type=int, default=None, metavar="N",
                        help="after a backup into a folder, delete athar backups there older than N days")


def _describe_backup(result: dict[str, Any]) -> str:
    text = (f"backup written: {result['backup']} ({result['bytes'] / 1e6:.1f} MB, {result['members']} files, "
            f"{result['photos']} photos, {result['audit_events']} audit events, {result['seconds']} s)")
    if result.get("pruned"):
        text += f"\npruned {len(result['pruned'])} older backups"
    return text


@command("backup", "Back up the database and the media store into one tar archive with a sha256 manifest "
         "(OUT: a new file, or a folder for a dated file; --retention-days prunes older ones there).",
         arguments=_backup_arguments, describe=_describe_backup)
def backup(options: dict[str, Any]) -> dict[str, Any]:
    out = Path(options["out"])
    if options.get("retention_days") is not None and not out.is_dir():
        raise UserError("--retention-days needs OUT to be a folder of backups")
    with progress_bar("backup") as advance:
        result = make_backup(out, progress=advance)
    if options.get("retention_days") is not None:
        result["pruned"] = prune_backups(out, options["retention_days"])
    return result


def _restore_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("archive", metavar="IN", help="a backup file made by athar backup")
    parser.add_argument("--force", action="store_true", help="replace the data already in ATHAR_HOME/database")
    parser.add_argument("--accept-unreadable", action="store_true",
                        help="restore even when the configured ATHAR_DATA_KEY cannot open the backup's personal data "
                             "(contact details, notes, family uploads then stay unreadable)")


def _describe_restore(result: dict[str, Any]) -> str:
    verify = result["verify"]
    state = "OK" if verify["ok"] else "ALTERED"
    lines = [f"restored {result['restored']} ({result['engine']}, {result['photos']} photos, "
             f"{result['audit_events']} audit events) in {result['seconds']} s",
             f"verify: {state}: {verify['originals']} originals, {verify['derivatives']} derivatives, "
             f"{verify['audit_events']} audit events"]
    if result.get("unreadable_data_keys"):
        lines.append(f"UNREADABLE: the personal data of {result['unreadable_data_keys']} owners does not open with "
                     "the configured ATHAR_DATA_KEY")
    return "\n".join(lines + [f"  - {p}" for p in verify["problems"]])


@command("restore", "Restore a backup (athar backup) into an empty ATHAR_HOME and database, then migrate and "
         "verify it; --force replaces existing data.",
         arguments=_restore_arguments, describe=_describe_restore)
def restore(options: dict[str, Any]) -> dict[str, Any]:
    accept = bool(options.get("accept_unreadable"))
    result = restore_backup(Path(options["archive"]), force=options["force"], accept_unreadable=accept)
    call_command("migrate", interactive=False, verbosity=0, stdout=StringIO())
    report = verify_store()
    result["verify"] = report.as_dict()
    result["unreadable_data_keys"] = unreadable_count()  # now from the restored rows themselves
    silently_broken = result["unreadable_data_keys"] and not accept
    result["_exit_code"] = 3 if report.problems or silently_broken else 0
    if silently_broken:  # an older PostgreSQL backup, which could not be checked before
        result["error"] = unreadable_message(result["unreadable_data_keys"])
    return result


def _serve_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=None,
                        help="web server processes (default: two per core, at least two)")
    _worker_choice(parser)


def _worker_choice(parser: ArgumentParser) -> None:
    parser.add_argument("--no-worker", action="store_true",
                        help="do not run the matching worker beside the web server (run 'athar worker' yourself)")


def _serve_with_worker(host: str, port: int, workers: int | None, with_worker: bool) -> None:
    with supervised_worker(with_worker):
        serve(host, port, workers)


@command("serve", "Serve the web site (gunicorn; static files included) at http://HOST:PORT, with the "
         "matching worker beside it.", arguments=_serve_arguments)
def serve_command(options: dict[str, Any]) -> dict[str, Any]:
    _serve_with_worker(options["host"], options["port"], options["workers"], not options.get("no_worker"))
    return {"served": True}


def _demo_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--no-serve", action="store_true", help="only build the demo")
    parser.add_argument("--faces", metavar="DIR", help="a folder of <person>/<photo> face images, two or more per person (e.g. LFW): "
                        "the demo's cases then carry faces; without it the archive's pictures show none")
    _worker_choice(parser)


@command("demo", "Build a demo in the data directory and serve it with the matching worker: a synthetic archive "
         "(faces only with --faces DIR), accounts for every role (two reviewers, three families), reports filed by "
         "a family, by a caseworker and from an imported list, a claim waiting for review and a conflict.", arguments=_demo_arguments,
         describe=lambda result: "\n".join(result["instructions"]))
def demo(options: dict[str, Any]) -> dict[str, Any]:
    if settings.PRODUCTION:
        raise UserError("athar demo refuses to run with ATHAR_ENV=production (it creates known accounts)")
    faces = Path(options["faces"]) if options.get("faces") else None
    if faces is not None and not faces.is_dir():
        raise UserError(f"--faces: folder not found: {faces}")
    context = run_demo(DemoContext(settings.ATHAR_HOME, faces))  # says first whether the archive has faces
    url = f"http://{options['host']}:{options['port']}/"
    result: dict[str, Any] = {"home": str(settings.ATHAR_HOME), **context.made, "url": url,
                              "instructions": [*context.lines, f"Site: {url}"]}
    if not options["no_serve"]:  # the JSON line first, then serve until stopped
        result["_then"] = lambda: _serve_with_worker(options["host"], options["port"], 2,
                                                     not options.get("no_worker"))
    return result


def _describe_status(result: dict[str, Any]) -> str:
    worker = result["worker"]
    state = f"running (pid {worker['pid']})" if worker["alive"] else "NOT RUNNING"
    lines = [f"athar {result['version']} — data in {result['home']} ({result['engine']})",
             f"matching worker: {state}; last heartbeat {worker['last_heartbeat'] or 'never'}",
             f"jobs: {worker['queue']} queued, {worker['running']} running, {worker['failed']} failed"]
    if worker["last_error"]:
        lines.append(f"last error: {worker['last_error']}")
    return "\n".join(lines)


@command("status", "Is athar working: the matching worker (alive, process id, last heartbeat), its queue, failed "
         "jobs and last error.", describe=_describe_status)
def status(options: dict[str, Any]) -> dict[str, Any]:
    from athar import __version__
    from athar.identification.worker_state import worker_status

    return {"version": __version__, "home": str(settings.ATHAR_HOME), "engine": connection.vendor,
            "worker": worker_status()}
