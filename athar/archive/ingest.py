"""``athar ingest``: take in an archive without losing or altering a single file.

Workers hash, keep and decode files in parallel; the main process writes rows in small
transactions, so an interrupted run (even ``kill -9``) resumes with nothing lost or doubled.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from athar.archive import layout
from athar.archive.face_indexing import index_photos, pending_photos
from athar.archive.facilities import facility_key
from athar.archive.facility_store import (
    FacilityResolver,
    agency_for_label,
    load_starting_table,
)
from athar.archive.imaging import FileResult, process_file
from athar.archive.ingest_batch import Recorded, new_photo, record_batch
from athar.archive.models import (
    Agency,
    Archive,
    Case,
    DatePrecision,
    Derivative,
    Facility,
    IngestRun,
    NearDuplicate,
    Photo,
    PhotoSighting,
    RejectedFile,
)
from athar.archive.near_duplicates import NearDuplicateFinder
from athar.archive.numbers import read_numbers_after_ingest
from athar.archive.rejections import Problem, english
from athar.archive.signals import archive_ingested
from athar.archive.storage import MediaStore, flush_to_disk
from athar.audit.chain import EventSpec, record, record_many
from athar.core.batching import batches

BATCH = 128  # files per transaction (and per os.sync): fewer commits, at most one batch re-done after a crash

logger = logging.getLogger(__name__)


@dataclass
class IngestOptions:
    root: Path
    archive: str
    manifest: Path | None = None
    pattern: str | None = None
    faces: bool = True
    workers: int = 0
    numbers: bool = True  # read the numbers written in the photos (athar.archive.numbers)


@dataclass
class IngestSummary:
    archive: str
    files_seen: int = 0
    photos_added: int = 0
    duplicates: int = 0
    near_duplicates: int = 0
    already_ingested: int = 0
    cases_added: int = 0
    rejected: list[dict[str, Any]] = field(default_factory=list)
    photo_ids: list[int] = field(default_factory=list)
    faces: dict[str, Any] | None = None
    numbers: dict[str, Any] | None = None

    def as_dict(self, archive: Archive) -> dict[str, Any]:
        return {
            "archive": self.archive,
            "files_seen": self.files_seen,
            "photos_added": self.photos_added,
            "duplicates": self.duplicates,
            "near_duplicates": self.near_duplicates,
            "already_ingested": self.already_ingested,
            "cases": Case.objects.filter(archive=archive).count(),
            "cases_added": self.cases_added,
            "facilities": Facility.objects.filter(cases__archive=archive).distinct().count(),
            "rejected": self.rejected,
            **({"faces": self.faces} if self.faces is not None else {}),
            **({"numbers": self.numbers} if self.numbers is not None else {}),
        }


# What an ingest counts, in the reader's language (pages show these labels, never the keys).
COUNT_LABELS = {
    "files_seen": _("files seen"), "photos_added": _("photos added"), "duplicates": _("exact duplicates"),
    "near_duplicates": _("near-duplicates"), "already_ingested": _("already ingested"), "cases": _("cases"),
    "cases_added": _("cases added"), "facilities": _("facilities"), "rejected": _("files refused"),
    "faces": _("faces found"), "numbers": _("numbers suggested"),
}

NOT_COUNTS = {"archive"}  # the archive's name, stored with the counts: pages name the archive apart


def count_rows(counts: dict[str, Any]) -> list[tuple[str, Any]]:
    """An ingest's counts as (label, number) in a stable order; unknown keys keep their name.
    ``faces`` holds the face indexing's own summary: its number of faces is shown."""
    def number(key: str) -> Any:
        value = counts[key]
        if isinstance(value, dict) and key in ("faces", "numbers"):
            return value.get(key, 0)
        return value

    known = [(str(label), number(key)) for key, label in COUNT_LABELS.items() if key in counts]
    return known + [(key, value) for key, value in counts.items() if key not in COUNT_LABELS and key not in NOT_COUNTS]


@dataclass
class Target:
    """Where one file belongs, and what is known about it."""

    entry: layout.WalkEntry
    facility: str
    case: str
    manifest: layout.ManifestEntry | None


Progress = Callable[[int], None]


class StoredProgress:
    """How far a run got, written on its row for the web to read: the phase, ``done`` of ``total``
    and when (at most once every ``INTERVAL`` seconds, and at every change of phase)."""

    INTERVAL = 1.0

    def __init__(self, run_id: int) -> None:
        self.run_id, self.done, self.written = run_id, 0, 0.0

    def phase(self, phase: str, total: int | None) -> None:
        self.done = 0
        IngestRun.objects.filter(pk=self.run_id).update(phase=phase, done=0, total=total, progress_at=timezone.now())
        self.written = time.monotonic()

    def advance(self, n: int) -> None:
        self.done += n
        if time.monotonic() - self.written >= self.INTERVAL:
            self.flush()

    def flush(self) -> None:
        IngestRun.objects.filter(pk=self.run_id).update(done=self.done, progress_at=timezone.now())
        self.written = time.monotonic()


def _both(first: Progress | None, stored: Progress) -> Progress:
    """The caller's progress (a bar, a log line) after the stored one."""
    def advance(n: int) -> None:
        stored(n)
        if first:
            first(n)

    return advance


def ingest(options: IngestOptions, progress: Progress | None = None,
           on_total: Callable[[int], None] | None = None,
           face_progress: Progress | None = None, run: IngestRun | None = None,
           on_face_total: Callable[[int], None] | None = None) -> tuple[IngestSummary, Archive]:
    """Ingest one archive folder (and, unless ``faces`` is off, find and embed the faces of the
    new photos, resuming any left unindexed by an interrupted run); returns the summary.

    ``run``: a run queued from the web (``queue_run``), or the same run again after its worker
    was stopped; otherwise a new run is recorded. Its row says how far it got as it goes."""
    root = options.root
    if not root.is_dir():
        raise FileNotFoundError(f"archive folder not found: {root}")
    pattern = re.compile(options.pattern) if options.pattern else None
    meta = layout.read_metadata(root, options.manifest)
    load_starting_table()
    cleared = MediaStore(settings.MEDIA_ROOT).clear_stale_temporaries()
    if cleared:
        logger.info("cleared %d temporary file(s) left by an interrupted run", cleared)
    if run is None:
        archive, _created = Archive.objects.get_or_create(name=options.archive)
        run = IngestRun.objects.create(archive=archive, source=str(root))
    else:
        archive = run.archive
        IngestRun.objects.filter(pk=run.pk).update(status=IngestRun.Status.RUNNING, error="", finished_at=None)
    record("ingest.started", object_type="archive", object_id=archive.pk, data={"run": run.pk})
    job = _IngestJob(archive, run, meta, IngestSummary(options.archive))
    stored = StoredProgress(run.pk)
    try:
        entries = layout.walk_archive(root)
        stored.phase(IngestRun.Phase.FILES, len(entries))
        if on_total:
            on_total(len(entries))
        job.run(entries, pattern, options, _both(progress, stored.advance))
        if options.faces:
            pending = len(pending_photos())
            stored.phase(IngestRun.Phase.FACES, pending)
            if on_face_total:
                on_face_total(pending)
            job.summary.faces = index_photos(None, _both(face_progress, stored.advance))
        if options.numbers:
            job.summary.numbers = read_numbers_after_ingest(archive)
    except BaseException as exc:
        IngestRun.objects.filter(pk=run.pk).update(status=IngestRun.Status.FAILED, finished_at=timezone.now(),
                                                   error=f"{type(exc).__name__}: {exc}"[:2000])
        raise
    result = job.summary.as_dict(archive)
    IngestRun.objects.filter(pk=run.pk).update(
        status=IngestRun.Status.DONE, finished_at=timezone.now(), phase=IngestRun.Phase.DONE, done=stored.done,
        counts={k: v for k, v in result.items() if k != "rejected"} | {"rejected": len(job.summary.rejected)},
    )
    record("ingest.finished", object_type="archive", object_id=archive.pk,
           data={"run": run.pk, "photos_added": job.summary.photos_added})
    if job.summary.photos_added or job.summary.cases_added:
        # candidates are recomputed by `athar worker`, never here: identification listens
        archive_ingested.send(sender=Archive, archive_id=archive.pk)
    return job.summary, archive


class _IngestJob:
    def __init__(self, archive: Archive, run: IngestRun, meta: layout.ArchiveMetadata,
                 summary: IngestSummary) -> None:
        self.archive, self.ingest_run, self.meta, self.summary = archive, run, meta, summary
        self.facilities = FacilityResolver()
        self.cases: dict[tuple[int, str], Case] = {}
        self.case_facts = {(facility_key(f).code, c.strip()): facts for (f, c), facts in meta.cases.items()}
        self.near = NearDuplicateFinder.for_existing_photos()
        self.agencies: dict[str, Agency | None] = {}
        # a run resumed after its worker stopped has stored some refusals already: not twice
        self.refused = set(RejectedFile.objects.filter(run=run).values_list("path", flat=True))

    def run(self, entries: list[layout.WalkEntry], pattern: re.Pattern[str] | None,
            options: IngestOptions, progress: Progress | None) -> None:
        for where, problem in self.meta.problems:
            self._reject_problem(where, problem)
        known = set(PhotoSighting.objects.filter(archive=self.archive).values_list("path", flat=True))
        todo: list[Target] = []
        for entry in entries:
            self.summary.files_seen += 1
            if entry.problem:
                self._reject_problem(entry.relpath, entry.problem)
                _tick(progress)
            elif entry.relpath in known:
                self.summary.already_ingested += 1
                _tick(progress)
            else:
                todo.append(self._target(entry, pattern))
        for batch in batches(self._process(todo, options), BATCH):
            self._write(batch)
            if progress:
                progress(len(batch))
        self._apply_case_facts_without_photos()

    def _target(self, entry: layout.WalkEntry, pattern: re.Pattern[str] | None) -> Target:
        placed = layout.place_by_path(entry.relpath, pattern)
        manifest = self.meta.manifest.get(entry.relpath)
        facility = (manifest.facility if manifest and manifest.facility else placed.facility).strip()
        case = (manifest.case if manifest and manifest.case else placed.case).strip()
        return Target(entry, facility, case, manifest)

    def _process(self, targets: list[Target], options: IngestOptions) -> Iterator[tuple[Target, FileResult]]:
        """Results in input order, computed by a process pool (or inline for one worker)."""
        media, limit = str(settings.MEDIA_ROOT), settings.ATHAR_MAX_IMAGE_PIXELS
        workers = options.workers or settings.ATHAR_INGEST_WORKERS or (os.cpu_count() or 1)
        if workers <= 1 or len(targets) < 8:
            for target in targets:
                yield target, process_file(target.entry.abs_path, target.entry.relpath, media, limit)
            return
        with ProcessPoolExecutor(max_workers=workers) as pool:
            window: list[tuple[Target, Future[FileResult]]] = []
            for target in targets:
                window.append((target, pool.submit(process_file, target.entry.abs_path,
                                                   target.entry.relpath, media, limit)))
                if len(window) >= workers * 16:
                    head, future = window.pop(0)
                    yield head, future.result()
            for head, future in window:
                yield head, future.result()

    def _write(self, batch: list[tuple[Target, FileResult]]) -> None:
        """One transaction per batch, after the batch's files are on disk: the batch's rows in a
        few bulk queries, or file by file when a concurrent ingest of the same files got there first."""
        flush_to_disk()
        with transaction.atomic():
            cases = self._cases_of_new_files(batch)
            try:
                with transaction.atomic():
                    recorded = record_batch(self.archive, self.ingest_run, batch, cases, self.refused)
            except IntegrityError:
                events: list[EventSpec] = []
                for target, result in batch:
                    self._write_one(target, result, events)
                record_many(events)
                return
            self._count_batch(recorded, len(batch) - len(cases) - len(
                [1 for _t, r in batch if not r.kept]))
            record_many(recorded.events)

    def _cases_of_new_files(self, batch: list[tuple[Target, FileResult]]) -> dict[str, Case | None]:
        """The case of each kept file not yet sighted in this archive (created when new; its date
        from the manifest filled in): resolved before the batch's savepoint, so a rolled-back
        savepoint never leaves a case in the cache that the database does not hold."""
        paths = [t.entry.relpath for t, r in batch if r.kept]
        seen = set(PhotoSighting.objects.filter(archive=self.archive, path__in=paths).values_list("path", flat=True))
        cases: dict[str, Case | None] = {}
        for target, result in batch:
            if not result.kept or target.entry.relpath in seen:
                continue
            case = self._case(target.facility, target.case) if target.facility and target.case else None
            if case is not None and manifest_date(target) and case.photographed is None:
                case.photographed, case.photographed_precision = manifest_date(target)  # type: ignore[misc]
                case.save(update_fields=["photographed", "photographed_precision"])
            cases[target.entry.relpath] = case
        return cases

    def _count_batch(self, recorded: Recorded, already: int) -> None:
        """A recorded batch in the summary; its new photos join the near-duplicate table."""
        self.summary.already_ingested += already  # a concurrent ingest of the same archive got here first
        self.summary.duplicates += recorded.duplicates
        self.summary.photos_added += len(recorded.new_photos)
        self.summary.photo_ids += [p.pk for p in recorded.new_photos]
        self.summary.rejected += [{k: v for k, v in r.items() if k != "kept_sha256"} for r in recorded.rejected]
        self.refused.update(r["path"] for r in recorded.rejected)
        links = []
        for photo in recorded.new_photos:
            for other_id, distance in (self.near.add(photo.pk, photo.phash, photo.dhash) if photo.phash else []):
                links.append(NearDuplicate(photo=photo, other_id=other_id, distance=distance))
        NearDuplicate.objects.bulk_create(links)
        self.summary.near_duplicates += len(links)

    def _write_one(self, target: Target, result: FileResult, events: list[EventSpec]) -> None:
        if not result.kept:
            self._reject(target.entry.relpath, result.problem, result.problem_code, result.problem_params)
            return
        if PhotoSighting.objects.filter(archive=self.archive, path=target.entry.relpath).exists():
            self.summary.already_ingested += 1  # a concurrent ingest of the same archive got here first
            return
        case = self._case(target.facility, target.case) if target.facility and target.case else None
        photo, created = self._photo(target, result, case)
        try:
            with transaction.atomic():
                PhotoSighting.objects.create(photo=photo, archive=self.archive, case=case,
                                             path=target.entry.relpath, ingest_run=self.ingest_run)
        except IntegrityError:
            self.summary.already_ingested += 1
            return
        self._count_photo(photo, created, case, events)
        if case is not None and manifest_date(target) and case.photographed is None:
            case.photographed, case.photographed_precision = manifest_date(target)  # type: ignore[misc]
            case.save(update_fields=["photographed", "photographed_precision"])
        if result.problem:
            self._reject(target.entry.relpath, result.problem, result.problem_code, result.problem_params,
                         result.sha256)
        elif case is None:
            self._reject(target.entry.relpath, english("no_case", {}), "no_case", {}, result.sha256)

    def _photo(self, target: Target, result: FileResult, case: Case | None) -> tuple[Photo, bool]:
        """The stored photo for these bytes, created if new (safe against a concurrent ingest)."""
        photo = Photo.objects.filter(sha256=result.sha256).first()
        if photo is not None:
            return photo, False
        try:
            with transaction.atomic():
                photo = self._new_photo(target, result, case)
        except IntegrityError:
            return Photo.objects.get(sha256=result.sha256), False
        self._link_near_duplicates(photo)
        return photo, True

    def _count_photo(self, photo: Photo, created: bool, case: Case | None, events: list[EventSpec]) -> None:
        data = {"sha256": photo.sha256, "archive": self.archive.pk, "case": case.pk if case else None,
                "run": self.ingest_run.pk}
        if created:
            events.append(EventSpec("photo.ingested", "photo", str(photo.pk), data))
            self.summary.photos_added += 1
            self.summary.photo_ids.append(photo.pk)
        else:
            events.append(EventSpec("photo.sighted_again", "photo", str(photo.pk), data))
            self.summary.duplicates += 1

    def _new_photo(self, target: Target, result: FileResult, case: Case | None) -> Photo:
        photo = new_photo(self.archive, target, result, case)
        photo.save(force_insert=True)
        Derivative.objects.bulk_create([
            Derivative(photo=photo, kind=d.kind, path=d.relpath, sha256=d.sha256, width=d.width, height=d.height)
            for d in result.derivatives
        ])
        return photo

    def _link_near_duplicates(self, photo: Photo) -> None:
        if not photo.phash:
            return
        for other_id, distance in self.near.add(photo.pk, photo.phash, photo.dhash):
            NearDuplicate.objects.get_or_create(photo=photo, other_id=other_id, defaults={"distance": distance})
            self.summary.near_duplicates += 1

    def _case(self, facility_label: str, case_label: str) -> Case:
        """The case of a file, created with its cases.csv facts in one insert when new."""
        facility = self.facilities.resolve(facility_label)
        key = (facility.pk, case_label)
        if key not in self.cases:
            facts_key = (facility_key(facility_label).code, case_label)
            facts = self.case_facts.get(facts_key)
            case, made = Case.objects.get_or_create(archive=self.archive, facility=facility, label=case_label,
                                                    defaults=fact_fields(facts) if facts else {})
            if made:
                self.summary.cases_added += 1
                if facts is not None:
                    del self.case_facts[facts_key]
                    self._agency_of(facility, facts)
            self.cases[key] = case
        return self.cases[key]

    def _agency_of(self, facility: Facility, facts: layout.CaseFacts) -> None:
        """cases.csv names the agency of a facility that has none yet (labels looked up once a job)."""
        if not facts.agency or facility.agency_id is not None:
            return
        if facts.agency not in self.agencies:
            self.agencies[facts.agency] = agency_for_label(facts.agency)
        agency = self.agencies[facts.agency]
        if agency is not None:
            Facility.objects.filter(pk=facility.pk, agency=None).update(agency=agency)
            facility.agency_id = agency.pk

    def _apply_case_facts_without_photos(self) -> None:
        """cases.csv rows also fill in facts of cases created by earlier runs or without photos."""
        for (_facility, case_label), facts in self.case_facts.items():
            facility = self.facilities.resolve(facts.facility)
            case, made = Case.objects.get_or_create(archive=self.archive, facility=facility, label=case_label)
            self.summary.cases_added += int(made)
            if made or _facts_differ(case, facts):
                apply_case_facts(case, facts)
                self._agency_of(case.facility, facts)

    def _reject(self, path: str, reason: str, code: str, params: dict[str, Any], sha256: str = "") -> None:
        """A refused file: its English reason, and its code and values (archive/rejections.py)."""
        self.summary.rejected.append({"path": path, "reason": reason, "code": code, "params": params})
        if path in self.refused:
            return
        self.refused.add(path)
        RejectedFile.objects.create(run=self.ingest_run, path=path, reason=reason[:500], code=code,
                                    params=params, kept_sha256=sha256)

    def _reject_problem(self, path: str, problem: Problem) -> None:
        self._reject(path, str(problem), problem.code, problem.params)


def fact_fields(facts: layout.CaseFacts) -> dict[str, Any]:
    """The case fields a cases.csv row gives a value (an empty cell leaves the field as it is)."""
    fields: dict[str, Any] = {}
    if facts.detainee_number:
        fields["detainee_number"] = facts.detainee_number
    if facts.hospital_number:
        fields["hospital_number"] = facts.hospital_number
    if facts.photographed:
        fields["photographed"], fields["photographed_precision"] = facts.photographed.date, facts.photographed.precision
    if facts.sex != "U":
        fields["sex"] = facts.sex
    if facts.age_min is not None:
        fields["age_min"] = facts.age_min
    if facts.age_max is not None:
        fields["age_max"] = facts.age_max
    if facts.marks:
        fields["marks"] = facts.marks
    return fields


def apply_case_facts(case: Case, facts: layout.CaseFacts) -> None:
    """Write cases.csv facts onto a case (cases.csv wins over manifest and paths); the facility's
    agency is the job's business (``_IngestJob._agency_of``)."""
    for name, value in fact_fields(facts).items():
        setattr(case, name, value)
    case.save()


def manifest_date(target: Target) -> tuple[Any, str] | None:
    """The manifest's photographed date for a file, with its precision."""
    if target.manifest and target.manifest.photographed:
        return target.manifest.photographed.date, target.manifest.photographed.precision
    return None


def _facts_differ(case: Case, facts: layout.CaseFacts) -> bool:
    return bool(
        (facts.detainee_number and facts.detainee_number != case.detainee_number)
        or (facts.marks and facts.marks != case.marks)
        or (facts.sex != "U" and facts.sex != case.sex)
        or (facts.photographed and case.photographed_precision == DatePrecision.UNKNOWN)
    )


def _tick(progress: Progress | None) -> None:
    if progress:
        progress(1)
