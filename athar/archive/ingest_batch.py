"""Recording one batch of processed files with a handful of queries (``athar ingest``'s hot path).

A batch of files becomes: one query for the photos already stored under the same hashes, one bulk
insert each of photos, derivatives, sightings and refused files, and (in the caller) one append of
the batch's audit events. The caller runs this inside a savepoint: when a concurrent ingest of the
same files wins a unique constraint (a hash or an archive path), the savepoint is rolled back and
the batch is recorded again file by file, where each conflict is told apart (``ingest.py``).

Nothing here changes state outside the database: the caller applies the counts, the refused files
and the near-duplicate links only once the savepoint holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from athar.archive.imaging import FileResult
from athar.archive.models import Archive, Case, Derivative, IngestRun, Photo, PhotoSighting, RejectedFile
from athar.archive.rejections import english
from athar.audit.chain import EventSpec

if TYPE_CHECKING:
    from athar.archive.ingest import Target


@dataclass
class Recorded:
    """What a batch added, for the job's summary and audit chain (applied once it holds)."""

    events: list[EventSpec] = field(default_factory=list)
    new_photos: list[Photo] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    duplicates: int = 0


def refusal(path: str, reason: str, code: str, params: dict[str, Any], sha256: str = "") -> dict[str, Any]:
    """A refused file as the summary lists it (``kept_sha256``: its bytes were kept as evidence)."""
    return {"path": path, "reason": reason, "code": code, "params": params, "kept_sha256": sha256}


def rejected_row(run: IngestRun, item: dict[str, Any]) -> RejectedFile:
    return RejectedFile(run=run, path=item["path"], reason=item["reason"][:500], code=item["code"],
                        params=item["params"], kept_sha256=item["kept_sha256"])


def record_batch(archive: Archive, run: IngestRun, batch: list[tuple[Target, FileResult]],
                 cases: dict[str, Case | None], refused: set[str]) -> Recorded:
    """Record the files of ``batch`` whose paths are in ``cases`` (the new ones, with their case)
    and the refused ones (a refusal the run stored before it was resumed, in ``refused``, is not
    stored twice); raises ``IntegrityError`` when a concurrent ingest got there first."""
    out = Recorded()
    fresh = [(t, r) for t, r in batch if r.kept and t.entry.relpath in cases]
    stored = dict(Photo.objects.filter(sha256__in={r.sha256 for _t, r in fresh}).values_list("sha256", "id"))
    new: dict[str, Photo] = {}
    derivatives: list[Derivative] = []
    for target, result in fresh:
        if result.sha256 not in stored and result.sha256 not in new:
            photo = new[result.sha256] = new_photo(archive, target, result, cases[target.entry.relpath])
            derivatives += [Derivative(photo=photo, kind=d.kind, path=d.relpath, sha256=d.sha256, width=d.width,
                                       height=d.height) for d in result.derivatives]
    Photo.objects.bulk_create(list(new.values()))
    for derivative in derivatives:
        derivative.photo_id = derivative.photo.pk  # set once the photos have their ids
    Derivative.objects.bulk_create(derivatives)
    sightings, firsts = [], set()
    for target, result in batch:
        if not result.kept:
            out.rejected.append(refusal(target.entry.relpath, result.problem, result.problem_code,
                                        result.problem_params))
            continue
        if target.entry.relpath not in cases:
            continue
        case = cases[target.entry.relpath]
        created = result.sha256 in new and result.sha256 not in firsts
        firsts.add(result.sha256)
        photo_id = new[result.sha256].pk if result.sha256 in new else stored[result.sha256]
        sightings.append(PhotoSighting(photo_id=photo_id, archive=archive, case=case, path=target.entry.relpath,
                                       ingest_run=run))
        data = {"sha256": result.sha256, "archive": archive.pk, "case": case.pk if case else None, "run": run.pk}
        out.events.append(EventSpec("photo.ingested" if created else "photo.sighted_again", "photo",
                                    str(photo_id), data))
        out.duplicates += not created
        if result.problem:
            out.rejected.append(refusal(target.entry.relpath, result.problem, result.problem_code,
                                        result.problem_params, result.sha256))
        elif case is None:
            out.rejected.append(refusal(target.entry.relpath, english("no_case", {}), "no_case", {}, result.sha256))
    PhotoSighting.objects.bulk_create(sightings)
    RejectedFile.objects.bulk_create([rejected_row(run, item) for item in out.rejected if item["path"] not in refused])
    out.new_photos = list(new.values())
    return out


def new_photo(archive: Archive, target: Target, result: FileResult, case: Case | None) -> Photo:
    """The photo row for new bytes (not saved)."""
    manifest = target.manifest
    return Photo(
        sha256=result.sha256, archive=archive, case=case, original_path=target.entry.relpath,
        original_name=target.entry.relpath.rsplit("/", 1)[-1], size=result.size, width=result.width,
        height=result.height, format=result.format, exif=result.exif, phash=result.phash,
        dhash=result.dhash, viewable=not result.problem, problem=result.problem[:300],
        kind=(manifest.kind if manifest and manifest.kind else Photo.Kind.UNKNOWN),
        photographed=manifest.photographed.date if manifest and manifest.photographed else None,
        note=manifest.note if manifest else "",
    )
