"""``athar archive stats`` and ``athar export evidence``."""

from __future__ import annotations

import re
import resource
import time
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from athar.accounts.acting import acting_user
from athar.archive import number_review, number_use
from athar.archive.evidence import (
    case_scope,
    export_evidence,
    facility_by_code,
    facility_scope,
    facility_stats,
    find_case,
)
from athar.archive.face_eval import evaluate
from athar.archive.face_indexing import index_photos, pending_photos, rebuild_index
from athar.archive.face_search import search
from athar.archive.ingest import IngestOptions, ingest
from athar.archive.models import Archive, Photo
from athar.archive.numbers import index_archive_numbers, read_images
from athar.archive.verify import verify_store
from athar.audit.tlog import current_tree, verify_against_checkpoint, witness_verifiers
from athar.core.command import command, progress_bar, subcommand
from athar.core.errors import UserError
from athar.core.scratch import in_scratch_store, run_in_scratch_store
from athar.core.signed_note import NoteError


def _describe_stats(result: dict[str, Any]) -> str:
    lines = [f"{result['archives']} archives, {result['cases']} cases, {result['photos']} photos"]
    lines += [f"  {r['archive']} / {r['facility']} {r['name']}: {r['cases']} cases, {r['photos']} photos"
              for r in result["facilities"]]
    return "\n".join(lines)


@subcommand("archive", "stats", "Cases and photos per facility.", describe=_describe_stats)
def archive_stats(options: dict[str, Any]) -> dict[str, Any]:
    rows = facility_stats()
    return {"archives": Archive.objects.count(), "cases": sum(r["cases"] for r in rows),
            "photos": Photo.objects.count(), "facilities": rows}


def _export_arguments(parser: ArgumentParser) -> None:
    scope = parser.add_mutually_exclusive_group(required=True)
    scope.add_argument("--case", metavar="ID", help="a case (id or public id)")
    scope.add_argument("--facility", metavar="CODE", help="every case of a facility (e.g. 215)")
    parser.add_argument("out_dir", metavar="OUT_DIR", help="an empty or new folder")


@subcommand("export", "evidence", "Originals of a case or facility with a verifiable manifest (sha256sum -c).",
            arguments=_export_arguments)
def export_evidence_command(options: dict[str, Any]) -> dict[str, Any]:
    if options.get("case"):
        sightings, scope = case_scope(find_case(options["case"]))
    else:
        sightings, scope = facility_scope(facility_by_code(options["facility"]))
    return export_evidence(sightings, Path(options["out_dir"]), scope)


def _index_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--rebuild", action="store_true", help="rebuild the vector index from the stored faces")
    parser.add_argument("--workers", type=int, default=0, help="processes (default: up to two)")
    parser.add_argument("--redo", action="store_true",
                        help="embed every photo again with the current pipeline, replacing its faces photo by photo "
                             "(after an upgrade that changed which detections are kept as faces)")


@subcommand("faces", "index", "Find and embed faces of ingested photos not yet indexed (resumable).",
            arguments=_index_arguments)
def faces_index(options: dict[str, Any]) -> dict[str, Any]:
    redo = bool(options.get("redo"))
    if redo and options.get("rebuild"):
        raise UserError("--redo and --rebuild do different jobs: give one of them")
    if options.get("rebuild"):
        index = rebuild_index()
        return {"rebuilt": True, "index_size": len(index), "model": index.model_name}
    with progress_bar("faces", total=len(pending_photos(redo=redo))) as advance:
        return index_photos(progress=advance, workers=options.get("workers", 0), redo=redo)


def _search_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("photos", nargs="+", metavar="PHOTO", help="photos of the person alive (JPEG, PNG, HEIC)")
    parser.add_argument("--face", type=int, metavar="N",
                        help="which face when a photo shows several (numbered from 1, left to right); default: the largest")
    parser.add_argument("--limit", type=int, default=10, metavar="N", help="how many cases to list")


def _describe_search(result: dict[str, Any]) -> str:
    lines = [result["message"]]
    lines += [f"warning: {w}" for w in result["warnings"]]
    if result["cases"]:
        lines.append(f"ranked cases ({result['cases_searched']} searched; model {result['model']}):")
        lines += [f"  {c['rank']:>3}. case {c['case_id']}  facility {c['facility']}  case {c['case_label']}  "
                  f"detainee no. {c['detainee_number'] or '-'}  score {c['score']:.3f}  "
                  f"probability {c['probability']:.3f}{'  LIKELY MATCH' if c['likely_match'] else ''}"
                  for c in result["cases"]]
    return "\n".join(lines)


@subcommand("faces", "search", "Rank archive cases for photos of a person alive, with a likely-match decision.",
            arguments=_search_arguments, describe=_describe_search)
def faces_search(options: dict[str, Any]) -> dict[str, Any]:
    paths = [Path(p) for p in options["photos"]]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise UserError(f"photo not found: {', '.join(missing)}")
    if options.get("limit", 10) < 1:
        raise UserError("--limit must be at least 1")
    photos: list[Path | bytes] = list(paths)
    return search(photos, options.get("face"), options.get("limit", 10))


def _eval_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--gallery", required=True, metavar="G", help="archive photos: G/<identity>/*")
    parser.add_argument("--probes", required=True, metavar="P", help="family photos: P/<identity>/*")


@subcommand("eval", "faces", "Face benchmark: ingest G into a scratch store, search every photo of P, report ranks.",
            arguments=_eval_arguments)
def eval_faces(options: dict[str, Any]) -> dict[str, Any]:
    gallery, probes = Path(options["gallery"]).resolve(), Path(options["probes"]).resolve()
    for folder in (gallery, probes):
        if not folder.is_dir():
            raise UserError(f"folder not found: {folder}")
    if not in_scratch_store():
        return run_in_scratch_store(["eval", "faces", "--gallery", str(gallery), "--probes", str(probes)])
    with progress_bar("eval faces") as advance:
        return evaluate(gallery, probes, advance)


# --- ingest, verify ------------------------------------------------------------------------------
def _ingest_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("archive_dir", metavar="ARCHIVE_DIR", help="the archive folder")
    parser.add_argument("--archive", required=True, metavar="NAME", help="the archive's name")
    parser.add_argument("--manifest", metavar="FILE", help="per-photo facts (path, facility, case, ...)")
    parser.add_argument("--pattern", metavar="REGEX",
                        help="read facility/case from file names, e.g. '(?P<facility>\\d+)_(?P<case>\\d+)_(?P<n>\\d+)'")
    parser.add_argument("--no-faces", action="store_true", help="skip face detection and embedding")
    parser.add_argument("--no-numbers", action="store_true",
                        help="skip reading the numbers written in the photos (athar numbers index does it later)")
    parser.add_argument("--workers", type=int, default=0, help="worker processes (default: one per core)")


def _describe_ingest(result: dict[str, Any]) -> str:
    lines = [
        f"archive {result['archive']}: {result['files_seen']} files seen, {result['photos_added']} photos added, "
        f"{result['duplicates']} exact duplicates, {result['near_duplicates']} near-duplicates, "
        f"{result['cases']} cases in {result['facilities']} facilities",
    ]
    if result["rejected"]:
        lines.append(f"{len(result['rejected'])} files reported:")
        lines += [f"  {r['path']}: {r['reason']}" for r in result["rejected"]]
    return "\n".join(lines)


@command("ingest", "Ingest an archive folder of photos (<facility>/<case>/<photo>), hashed and tamper-evident.",
         arguments=_ingest_arguments, describe=_describe_ingest)
def ingest_command(options: dict[str, Any]) -> dict[str, Any]:
    pattern = options.get("pattern")
    if pattern:
        _check_pattern(pattern)
    opts = IngestOptions(
        root=Path(options["archive_dir"]), archive=options["archive"],
        manifest=Path(options["manifest"]) if options.get("manifest") else None,
        pattern=pattern, faces=not options["no_faces"], workers=options["workers"],
        numbers=not options.get("no_numbers", False),
    )
    started, cpu = time.perf_counter(), _cpu_seconds()
    with progress_bar("ingest") as advance, progress_bar("faces") as face_advance:
        summary, archive = ingest(opts, progress=advance, on_total=advance.set_total,  # type: ignore[attr-defined]
                                  face_progress=face_advance, on_face_total=face_advance.set_total)  # type: ignore[attr-defined]
    return {**summary.as_dict(archive), "seconds": round(time.perf_counter() - started, 3),
            "cpu_seconds": round(_cpu_seconds() - cpu, 3)}


def _cpu_seconds() -> float:
    """CPU seconds of this process and of the worker processes it waited for."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _check_pattern(pattern: str) -> None:
    try:
        compiled = re.compile(pattern)
    except re.error as exc:
        raise UserError(f"--pattern is not a valid regular expression: {exc}") from exc
    missing = {"facility", "case"} - set(compiled.groupindex)
    if missing:
        raise UserError("--pattern needs named groups (?P<facility>…) and (?P<case>…); missing: "
                        + ", ".join(sorted(missing)))


def _describe_verify(result: dict[str, Any]) -> str:
    head = (f"{result['originals']} originals, {result['derivatives']} derivatives, "
            f"{result['audit_events']} audit events (head {result['audit_head'][:16]}…)")
    lines = []
    for checked in result.get("checkpoints", []):
        attested = checked["checkpoint"]
        lines.append(f"checkpoint {checked['file']}: {attested.get('size', '?')} events attested, "
                     + ("extended by the current log" if checked["ok"] else "NOT extended by the current log"))
        lines += [f"  witness {w['name']}: " + (f"cosigned at {w['at']}" if w["cosigned"] else "no valid cosignature")
                  for w in checked["witnesses"]]
    if result["ok"]:
        return "\n".join([f"OK: {head} verified", *lines])
    return "\n".join(["ALTERED: " + head, *[f"  - {p}" for p in result["problems"]], *lines])


def _verify_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--checkpoint", metavar="FILE", action="append", default=[],
                        help="a signed checkpoint kept off this machine: prove the audit log is an append-only "
                             "extension of it (fails on a rollback, a fork or a rewritten event); repeatable")
    parser.add_argument("--witness-key", metavar="VKEY", action="append", default=[],
                        help="a witness's verifier key: report whether it cosigned (also ATHAR_LOG_WITNESSES)")


@command("verify", "Re-hash every stored original and derivative and re-check the audit chain; non-zero exit "
         "if anything changed.", describe=_describe_verify, arguments=_verify_arguments)
def verify_command(options: dict[str, Any]) -> dict[str, Any]:
    with progress_bar("verify", total=Photo.objects.count()) as advance:
        report = verify_store(progress=advance)
    result = report.as_dict()
    if options.get("checkpoint"):
        checked = check_checkpoints([Path(p) for p in options["checkpoint"]], options.get("witness_key") or [])
        result["checkpoints"] = checked
        result["problems"] += [p for c in checked for p in c["problems"]]
        result["ok"] = not result["problems"]
    result["_exit_code"] = 0 if result["problems"] == [] else 3
    return result


def _numbers_read_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("images", metavar="IMAGE", nargs="+", help="photo files to read")


def _describe_numbers(result: dict[str, Any]) -> str:
    lines = []
    for image in result["images"]:
        found = ", ".join(f"{n['text']} ({n['confidence']:.2f}{', ' + n['kind'] if n['kind'] else ''})"
                          for n in image["numbers"])
        lines.append(f"{image['path']}: {image.get('error') or found or 'no number'}")
    return "\n".join(lines)


@subcommand("numbers", "read", "Read the numbers written in photos (cards, skin; both digit scripts); "
            "only readings confident enough to suggest to a person.",
            arguments=_numbers_read_arguments, describe=_describe_numbers)
def numbers_read(options: dict[str, Any]) -> dict[str, Any]:
    return read_images(list(options["images"]))


def _numbers_index_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--archive", metavar="NAME", help="only this archive (default: every archive)")


@subcommand("numbers", "index", "Read the numbers of every archive photo not yet read by this reader version and "
            "store them as suggestions for archivists (resumable).", arguments=_numbers_index_arguments,
            describe=lambda r: f"{r['photos_read']} photos read, {r['numbers']} numbers suggested, "
                               f"{r['unreadable']} unreadable; {r['pending']} left (reader {r['reader_version']})")
def numbers_index(options: dict[str, Any]) -> dict[str, Any]:
    with progress_bar("numbers") as advance:
        return index_archive_numbers(options.get("archive"), progress=advance,
                                     on_total=advance.set_total)  # type: ignore[attr-defined]


def _by(parser: ArgumentParser) -> None:
    parser.add_argument("--by", required=True, metavar="LOGIN",
                        help="the acting archivist (password on the first line of standard input)")


def _numbers_review_arguments(parser: ArgumentParser) -> None:
    _by(parser)
    parser.add_argument("--status", default="suggested",
                        choices=["suggested", "second", "confirmed", "corrected", "rejected"],
                        help="suggested (undecided, the default), second (awaiting you as second archivist), ...")
    parser.add_argument("--archive", metavar="NAME", help="only this archive")
    parser.add_argument("--limit", type=int, default=50, metavar="N")


def _describe_readings(result: dict[str, Any]) -> str:
    rows = result["readings"] if "readings" in result else [result["reading"]]
    return "\n".join(
        f"#{r['id']} photo {r['photo']} case {r['case'] or '-'} (detainee no. {r['case_detainee_number'] or '-'}): "
        f"{r['number']} {r['kind'] or ''} conf {r['confidence']:.2f} [{r['status']}"
        f"{', awaits a second archivist' if r['needs_second'] and not r['second_by'] else ''}]"
        for r in rows) or "no suggestions"


@subcommand("numbers", "review", "Number suggestions for an archivist to decide.",
            arguments=_numbers_review_arguments, describe=_describe_readings)
def numbers_review(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    if options.get("limit", 50) < 1:
        raise UserError("--limit must be at least 1")
    query = number_review.suggestions_for(by, options.get("status") or "suggested", options.get("archive"))
    return {"count": query.count(),
            "readings": [number_review.reading_dict(r) for r in query[: options.get("limit", 50)]]}


def _reading_id(value: str) -> int:
    if not str(value).isdigit():
        raise UserError(f"not a suggestion id: {value!r}")
    return int(value)


def _decide_arguments(correct: bool = False, reason: bool = False) -> Any:
    def arguments(parser: ArgumentParser) -> None:
        parser.add_argument("reading", metavar="ID", help="the suggestion's id (athar numbers review)")
        if correct:
            parser.add_argument("number", metavar="NUMBER", help="the number the photo shows (either digit script)")
        _by(parser)
        parser.add_argument("--kind", choices=["detainee", "branch", "other"], help="what the number is")
        if reason:
            parser.add_argument("--reason", default="", help="why (required for a correction)")
    return arguments


@subcommand("numbers", "confirm", "Confirm a suggested number (or agree, as the second archivist).",
            arguments=_decide_arguments(), describe=_describe_readings)
def numbers_confirm(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    reading = number_review.confirm(by, _reading_id(options["reading"]), options.get("kind"))
    return {"reading": number_review.reading_dict(reading)}


@subcommand("numbers", "correct", "Correct a suggested number, with a reason.",
            arguments=_decide_arguments(correct=True, reason=True), describe=_describe_readings)
def numbers_correct(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    reading = number_review.decide(by, _reading_id(options["reading"]), "correct", number=options["number"],
                                   reason=options["reason"], kind=options.get("kind"))
    return {"reading": number_review.reading_dict(reading)}


@subcommand("numbers", "reject", "Reject a suggested number (no number there, or not readable).",
            arguments=_decide_arguments(reason=True), describe=_describe_readings)
def numbers_reject(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    reading = number_review.decide(by, _reading_id(options["reading"]), "reject", reason=options.get("reason", ""),
                                   kind=options.get("kind"))
    return {"reading": number_review.reading_dict(reading)}


def _joins_arguments(parser: ArgumentParser) -> None:
    _by(parser)


def _describe_joins(result: dict[str, Any]) -> str:
    lines = [f"{result['count']} confirmed detainee numbers appear in more than one archive (possible joins, "
             "for people to decide)"]
    for join in result["joins"]:
        where = "; ".join(f"{a['archive']}: " + (", ".join(f"case {c['case']} {c['facility']}/{c['label']}"
                                                           for c in a["cases"]) or "no case")
                          for a in join["archives"])
        lines.append(f"  {join['number']}: {where}")
    return "\n".join(lines)


@subcommand("numbers", "joins", "The same confirmed detainee number in photos of two or more archives: possible "
            "joins for people to decide (nothing is joined).", arguments=_joins_arguments, describe=_describe_joins)
def numbers_joins(options: dict[str, Any]) -> dict[str, Any]:
    by = acting_user(options["by"])
    joins = number_use.number_joins(by)
    return {"count": len(joins), "joins": joins}


def check_checkpoints(paths: list[Path], witness_keys: list[str]) -> list[dict[str, Any]]:
    """Each checkpoint file against the current audit log (one tree for all of them)."""
    try:
        witnesses = witness_verifiers(witness_keys)
    except NoteError as exc:
        raise UserError(f"a witness key cannot be read: {exc}") from exc
    tree = current_tree()
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        out.append({"file": str(path), **verify_against_checkpoint(text, witnesses, tree=tree).as_dict()})
    return out
