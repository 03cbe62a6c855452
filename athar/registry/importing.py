"""``athar registry import``: reports from CSV or XLSX; no report lost.

A row is refused only when it names nobody or repeats another row (same ``report_id``, or the
same content when it has none). Any value athar cannot read (a status, sex, date, age, photo or
an over-long text) is kept verbatim in the report (``extra`` and notes) with a warning
``{row, column, value, reason}``, and the report is imported.

Identity of a report: ``source`` + ``report_id``. Re-importing an unchanged row adds nothing;
a changed row becomes a new version (the old one is kept). A row without a ``report_id`` is
identified by its content (a changed one is a new report: without an id it cannot be told
apart from another report).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from athar.audit.chain import record
from athar.core.crypto import master_key
from athar.core.csvio import CsvRow
from athar.core.errors import UserError
from athar.registry import keys
from athar.registry.bulk import insert_reports, new_report
from athar.registry.columns import SDF_COLUMNS, map_header
from athar.registry.models import ImportBatch, Report
from athar.registry.names import written_name_fields
from athar.registry.photos import check_photo, store_photo
from athar.registry.places import PlaceResolver
from athar.registry.reading import StreamTable, open_table
from athar.registry.rows import (
    ParsedRow,
    RowError,
    ValueWarning,
    build_fields,
    split_photos,
)

CHUNK = 2000  # rows per transaction: a crash loses at most this many rows
PLACE_FIELDS = {"birth_place": "birth_place_ref_id", "governorate": "governorate_ref_id",
                "city": "city_ref_id", "arrest_place": "arrest_place_ref_id"}


@dataclass
class ImportResult:
    imported: int = 0
    new_versions: int = 0
    unchanged: int = 0
    rejected: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    value_warnings: list[dict[str, Any]] = field(default_factory=list)
    report_ids: list[int] = field(default_factory=list)


def lineage_of(source: str, report_id: str) -> str:
    """The id shared by every version of one report."""
    return hashlib.sha256(f"{source}\x1f{report_id}".encode()).hexdigest()[:32]


def contact_owner(lineage: str) -> str:
    """The crypto owner reference of a report's contact details (all versions share the key)."""
    return f"report-lineage:{lineage}"


def content_key() -> bytes:
    """The key of content hashes (derived from the master key)."""
    return hashlib.sha256(b"athar-report-content" + master_key()).digest()


# ``json.dumps(..., sort_keys=True, default=str, ensure_ascii=False)`` made once: the same text, without
# building an encoder for every row. The text is the identity of an unchanged row: never change it.
_HASH_JSON = json.JSONEncoder(sort_keys=True, default=str, ensure_ascii=False)


def content_hash(parsed: ParsedRow, key: bytes) -> str:
    """A keyed hash of what the row says (keyed, so it cannot be used to guess a contact)."""
    body = _HASH_JSON.encode({"f": parsed.fields, "c": parsed.contact, "p": parsed.photos, "x": parsed.extra})
    return hmac.digest(key, body.encode("utf-8"), "sha256").hex()  # hmac.new(…).hexdigest(), in one call


def parse_row(row: CsvRow, mapping: dict[str, str], default_source: str, today: dt.date,
              columns: dict[str, str] | None = None) -> ParsedRow:
    """Map and read one row; RowError only when the row names nobody.

    A value that cannot be read is kept verbatim under its column in ``extra`` (and the notes)
    and named in ``ParsedRow.warnings``. ``columns``: the mapping reversed (field → column), when
    the caller has it already.
    """
    values: dict[str, str] = {}
    extra: dict[str, str] = {}
    for column, value in row.values.items():
        if column in mapping:
            values[mapping[column]] = value
        elif value:
            extra[column] = value
    if row.extra:
        extra["(cells beyond the header)"] = " | ".join(row.extra)
    warnings: list[ValueWarning] = []
    fields = build_fields(values, today, warnings)
    consent = _consent_cell(values, warnings)
    if columns is None:
        columns = {f: c for c, f in mapping.items()}
    for warning in warnings:
        extra.setdefault(columns.get(warning.field, warning.field), warning.value)
    if extra:
        lines = "\n".join(f"{k}: {v}" for k, v in extra.items())
        fields["notes"] = (fields.get("notes", "") + "\n" + lines).strip()
    source = (values.get("source") or default_source).strip()[:200]
    return ParsedRow(row.number, source, values.get("report_id", "").strip()[:200], fields,
                     contact=values.get("reporter_contact", "").strip(),
                     photos=split_photos(values.get("photos", "")), extra=extra, warnings=warnings,
                     consent=consent)


def _consent_cell(values: dict[str, str], warnings: list[ValueWarning]) -> str:
    """The publication consent cell: a value athar cannot read is named in a warning (and so kept
    verbatim in the report) and counts as no consent (``registry.consent.record_imported``)."""
    from athar.registry.consent import read_consent_cell

    raw = values.get("publication_consent", "").strip()
    if raw and read_consent_cell(raw) is None:
        warnings.append(ValueWarning("publication_consent", raw, _("not yes or no (نعم / لا): counts as no consent")))
    return raw


ProgressFn = Callable[[int, int | None, float], None]


def import_reports(path: Path, source: str = "", actor: str = "system",
                   ignore_columns: set[str] | None = None, progress: ProgressFn | None = None,
                   batch: ImportBatch | None = None) -> dict[str, Any]:
    """Import a report file by chunks; returns counts, warnings and the rejected rows.

    The file is checked whole first (``open_table``: a file that cannot be read is refused before
    anything is written), then streamed: every ``CHUNK`` rows are written and committed on their
    own with the batch's checkpoint, so a crash loses at most the chunk in hand. Importing the same
    file (same bytes, same source) while an earlier import of it is unfinished resumes that batch
    after its checkpoint: every row goes in exactly once, and the result counts the whole file.
    ``progress(rows_done, rows_total, rows_per_second)`` is called after each chunk.
    ``batch``: the web's queued batch (the worker imports it). ``ignore_columns`` are left out
    entirely (``eval linkage`` hides the truth column).
    """
    started = time.monotonic()
    path = Path(path)
    table = open_table(path)
    if ignore_columns:
        table = table.without(ignore_columns)
    mapping = map_header(table.header, table.sdf)
    result = ImportResult()
    _warn_columns(table, mapping, result)
    default_source = source or ("syrian-detainee-finder" if table.sdf else path.stem)
    batch = _claim_batch(batch, path, default_source, table, actor)
    committed = dict(batch.counts) if batch.checkpoint else {}
    result.imported = int(committed.get("imported", 0))
    result.new_versions = int(committed.get("new_versions", 0))
    result.unchanged = int(committed.get("unchanged", 0))
    resumed_after = batch.checkpoint
    writer = _ChunkWriter(batch, path.parent, result)
    reader = _RowReader(table, mapping, default_source, path.parent, result)
    done = 0
    with _fewer_collections(table.total > CHUNK):
        for chunk in _chunked(table.rows(), CHUNK):
            parsed = reader.parse(chunk)
            last = chunk[-1].number
            done += len(chunk)
            if last <= resumed_after:
                continue  # committed by the run that was interrupted: read again only for duplicates
            writer.write([p for p in parsed if p.number > resumed_after], last, done, len(result.rejected))
            if progress:
                progress(done, table.total, done / max(time.monotonic() - started, 1e-6))
    # a formula kept as written says why its value could not be read: no second warning on that cell
    formulas = {(w.row, w.value) for w in table.cell_warnings}
    result.value_warnings = [w for w in result.value_warnings if (w["row"], w["value"]) not in formulas]
    result.value_warnings.extend(
        {"row": w.row, "column": w.column, "value": w.value, "reason": w.reason} for w in table.cell_warnings)
    result.value_warnings.sort(key=lambda w: w["row"])
    _summarise_value_warnings(result)
    summary = {"imported": result.imported, "new_versions": result.new_versions, "unchanged": result.unchanged,
               "rejected": result.rejected, "warnings": result.warnings, "value_warnings": result.value_warnings,
               "format": table.file_format, "batch": batch.pk, "rows": done, "resumed_after_row": resumed_after,
               "seconds": round(time.monotonic() - started, 3)}
    writer.finish(summary)
    return summary


@contextlib.contextmanager
def _fewer_collections(large: bool) -> Iterator[None]:
    """A large import makes and keeps many objects (a chunk's rows and reports, the identities seen,
    the name readers' caches); Python's default thresholds then walk every live object again and
    again: a fifth of an import's CPU time. For a file of more than one chunk, the youngest
    generation is collected every 50,000 allocations instead of 700 while the import runs (nothing
    is left uncollected: the thresholds are set back afterwards)."""
    if not large:
        yield
        return
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _chunked(rows: Iterator[CsvRow], size: int) -> Iterator[list[CsvRow]]:
    while chunk := list(islice(rows, size)):
        yield chunk


def _claim_batch(batch: ImportBatch | None, path: Path, source: str, table: StreamTable,
                 actor: str) -> ImportBatch:
    """The batch this run writes: the one given (the web's), an unfinished import of the same file
    and source (resumed), or a new one. Claimed with a conditional update of ``runner``."""
    runner = uuid.uuid4().hex
    now = timezone.now()
    if batch is None:
        file_sha = _file_sha256(path)
        batch = (ImportBatch.objects.filter(file_sha256=file_sha, source=source[:200],
                                            status__in=[ImportBatch.Status.RUNNING, ImportBatch.Status.FAILED])
                 .order_by("-pk").first())
        if batch is None:
            batch = ImportBatch.objects.create(source=source[:200], file_name=path.name[:512], file_sha256=file_sha,
                                               file_format=table.file_format, actor=actor,
                                               status=ImportBatch.Status.RUNNING, rows_total=table.total,
                                               runner=runner, updated_at=now)
            return batch
    ImportBatch.objects.filter(pk=batch.pk).update(runner=runner, status=ImportBatch.Status.RUNNING,
                                                   rows_total=table.total, file_format=table.file_format,
                                                   updated_at=now, error="")
    batch.refresh_from_db()
    return batch


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class RowPreparer:
    """What one row becomes before the database is asked anything: mapped and read, its photos
    checked, its content hash, its report_id (the hash when it has none) and lineage. Plain data and
    no database (the writer reads the written names, of changed rows only)."""

    mapping: dict[str, str]
    source: str
    folder: Path
    today: dt.date
    key: bytes

    def __post_init__(self) -> None:
        self.columns = {f: c for c, f in self.mapping.items()}
        self.photo_column = self.columns.get("photos", "photos")

    def __call__(self, row: CsvRow) -> ParsedRow:
        """The row prepared; RowError for a row that cannot go in (no name, a photo outside the folder)."""
        parsed = parse_row(row, self.mapping, self.source, self.today, self.columns)
        if parsed.photos:
            _check_photos(parsed, self.folder, self.photo_column)
        parsed.digest = content_hash(parsed, self.key)
        if not parsed.report_id:
            parsed.report_id = "content:" + parsed.digest[:32]
        parsed.lineage = lineage_of(parsed.source, parsed.report_id)
        return parsed


class _RowReader:
    """Parses rows chunk by chunk, refusing duplicates across the whole file."""

    def __init__(self, table: StreamTable, mapping: dict[str, str], source: str, folder: Path,
                 result: ImportResult) -> None:
        self.result = result
        self.preparer = RowPreparer(mapping, source, folder, timezone.now().date(), content_key())
        self.columns = self.preparer.columns
        self.seen: dict[tuple[str, str], int] = {}

    def parse(self, rows: list[CsvRow]) -> list[ParsedRow]:
        return [p for p in (self._one(row) for row in rows) if p is not None]

    def _one(self, row: CsvRow) -> ParsedRow | None:
        try:
            parsed = self.preparer(row)
            identity = (parsed.source, parsed.report_id)
            if identity in self.seen:
                raise RowError(_("a duplicate: report_id %(id)s already appears in row %(row)s")
                               % {"id": repr(parsed.report_id), "row": self.seen[identity]}
                               if not parsed.report_id.startswith("content:")
                               else _("a duplicate: the same report as row %(row)s") % {"row": self.seen[identity]})
            self.seen[identity] = row.number
        except RowError as exc:
            self.result.rejected.append({"row": row.number, "reason": str(exc)})
            return None
        self.result.value_warnings.extend(
            {"row": row.number, "column": self.columns.get(w.field, w.field), "value": w.value, "reason": w.reason}
            for w in parsed.warnings)
        return parsed


def _record_consent(parsed: list[ParsedRow], batch: ImportBatch, actor: str) -> None:
    """The per-row hook of the consent column: each report's consent, as given by its source."""
    from athar.registry.consent import record_imported

    record_imported(((p.lineage, p.source, p.consent) for p in parsed if p.consent),
                    batch, actor)


SHOWN_VALUE_WARNINGS = 50


def _summarise_value_warnings(result: ImportResult) -> None:
    """One readable line per kept value (the first 50; all are in ``value_warnings``)."""
    for item in result.value_warnings[:SHOWN_VALUE_WARNINGS]:
        result.warnings.append(_("row %(row)s, column %(column)s: %(value)s %(reason)s — kept as written, report "
                                 "imported") % {"row": item["row"], "column": item["column"],
                                                "value": repr(item["value"]), "reason": item["reason"]})
    more = len(result.value_warnings) - SHOWN_VALUE_WARNINGS
    if more > 0:
        result.warnings.append(ngettext("… and %(more)s more value kept as written",
                                        "… and %(more)s more values kept as written", more) % {"more": more})


def _warn_columns(table: StreamTable, mapping: dict[str, str], result: ImportResult) -> None:
    result.warnings.extend(table.warnings)
    unknown = [h for h in table.header if h and h not in mapping]
    if unknown:
        result.warnings.append(_("columns athar does not know, kept in each report's notes: %(columns)s")
                               % {"columns": ", ".join(unknown)})
    if table.skipped_rows:
        result.warnings.append(_("row %(row)s is a second header row of labels: skipped")
                               % {"row": table.skipped_rows[0]})
    if table.sdf:
        result.warnings.append(_("read as the Syrian Detainee Finder format (%(columns)s, …)")
                               % {"columns": ", ".join(SDF_COLUMNS[:3])})
    names = {"full_name_ar", "full_name_latin", "first_name", "family_name", "full_name"}
    if not names & set(mapping.values()):
        raise UserError(_("the file has no name column (full_name_ar, full_name_latin, first_name or family_name)"))


def _check_photos(parsed: ParsedRow, folder: Path, column: str) -> None:
    """A photo that cannot be stored is named in a warning; the report goes in without it."""
    kept = []
    for photo in parsed.photos:
        try:
            check_photo(_photo_path(folder, photo))
        except ValueError as exc:
            parsed.warnings.append(ValueWarning("photos", photo, f"photo not stored ({exc})"))
            continue
        kept.append(photo)
    if len(kept) != len(parsed.photos):
        parsed.extra.setdefault(column, "; ".join(parsed.photos))
        parsed.photos = kept


def _photo_path(folder: Path, name: str) -> Path:
    path = (folder / name).resolve()
    if folder.resolve() not in path.parents:
        raise RowError(f"photo {name!r} is outside the folder of the file")
    return path


class _ChunkWriter:
    """Writes one chunk per transaction: reports (bulk), data keys (bulk), superseded versions, the
    batch's checkpoint and counts, and one audit event with identifiers only."""

    def __init__(self, batch: ImportBatch, folder: Path, result: ImportResult) -> None:
        self.batch, self.folder, self.result = batch, folder, result
        self.resolver = _MemoResolver(PlaceResolver.load())
        self.caseworker_id = batch.uploaded_by_id

    def write(self, chunk: list[ParsedRow], last_row: int, rows_done: int, rejected: int) -> None:
        for item in chunk:  # RowPreparer sets it; a row made otherwise gets it here
            item.lineage = item.lineage or lineage_of(item.source, item.report_id)
        try:
            self._write(chunk, last_row, rows_done, rejected)
        except IntegrityError as exc:  # report_one_current_version: another import wrote these reports
            raise UserError(_("another import is writing the same reports at this moment: run this import "
                              "again once it has finished (nothing of this chunk was written)")) from exc

    def _write(self, chunk: list[ParsedRow], last_row: int, rows_done: int, rejected: int) -> None:
        before = (self.result.imported, self.result.new_versions, self.result.unchanged)
        with transaction.atomic():
            current = _current_versions(chunk)
            new_rows = [(item, current.get((item.source, item.report_id))) for item in chunk]
            changed = [(item, old) for item, old in new_rows if old is None or old.content_hash != item.digest]
            self.result.unchanged += len(chunk) - len(changed)
            contact_keys = keys.data_keys(contact_owner(i.lineage) for i, _old in changed if i.contact)
            reports = [(item, self._report(item, old, contact_keys)) for item, old in changed]
            created = _save(reports, current, self.folder, self.result, self.batch.pk)
            _record_consent(chunk, self.batch, self.batch.actor)  # the consent column, as given by its source
            counts = {"imported": self.result.imported, "new_versions": self.result.new_versions,
                      "unchanged": self.result.unchanged, "rejected": rejected}
            claimed = ImportBatch.objects.filter(pk=self.batch.pk, runner=self.batch.runner).update(
                checkpoint=last_row, rows_done=rows_done, counts=counts, updated_at=timezone.now())
            if claimed != 1:
                raise UserError(_("another import of the same file took over this one: it stops here "
                                  "(nothing of this chunk was written)"))
            record("registry.import_chunk", object_type="import_batch", object_id=self.batch.pk,
                   actor=self.batch.actor,
                   data={"rows_through": last_row, "imported": self.result.imported - before[0],
                         "new_versions": self.result.new_versions - before[1],
                         "unchanged": self.result.unchanged - before[2],
                         "report_ids": [min(created), max(created)] if created else []})

    def _report(self, item: ParsedRow, old: Report | None, contact_keys: dict[str, bytes]) -> Report:
        report = _report(item, item.digest, old, self.batch, self.resolver, contact_keys)
        report.caseworker_id = self.caseworker_id
        return report

    def finish(self, summary: dict[str, Any]) -> None:
        """The batch is done: final counts, what the page shows, the import's audit event."""
        counts = {"imported": summary["imported"], "new_versions": summary["new_versions"],
                  "unchanged": summary["unchanged"], "rejected": len(summary["rejected"])}
        kept = {k: summary[k] for k in ("warnings", "format", "rows")}
        kept["rejected"] = summary["rejected"][:1000]
        kept["value_warnings"] = summary["value_warnings"][:1000]
        with transaction.atomic():
            ImportBatch.objects.filter(pk=self.batch.pk).update(
                status=ImportBatch.Status.DONE, counts=counts, result=kept, finished_at=timezone.now(),
                updated_at=timezone.now(), upload_path="")
            record("registry.import", object_type="import_batch", object_id=self.batch.pk, actor=self.batch.actor,
                   data={"file_sha256": self.batch.file_sha256, **counts,
                         "resumed_after_row": summary["resumed_after_row"]})


class _MemoResolver:
    """Places repeat on every other row: each spelling is resolved once per import."""

    def __init__(self, resolver: PlaceResolver) -> None:
        self.resolver, self.known = resolver, dict[str, int | None]()

    def resolve(self, text: str) -> int | None:
        if text not in self.known:
            self.known[text] = self.resolver.resolve(text)
        return self.known[text]


def _current_versions(chunk: list[ParsedRow]) -> dict[tuple[str, str], Report]:
    lineages = {p.lineage for p in chunk}
    rows = Report.objects.current().filter(lineage__in=lineages).only(
        "id", "source", "report_id", "version", "content_hash", "lineage")
    return {(r.source, r.report_id): r for r in rows}


def _report(item: ParsedRow, digest: str, old: Report | None, batch: ImportBatch,
            resolver: PlaceResolver | _MemoResolver, contact_keys: dict[str, bytes]) -> Report:
    lineage = item.lineage
    report = new_report(source=item.source, report_id=item.report_id, lineage=lineage,
                        version=old.version + 1 if old else 1, supersedes_id=old.pk if old else None,
                        content_hash=digest, batch_id=batch.pk, row_number=item.number, extra=item.extra,
                        **item.fields)
    for text_field, ref_field in PLACE_FIELDS.items():
        value = item.fields.get(text_field)
        if value:  # the instance is new, no related object cached: as setattr, without its descriptor
            report.__dict__[ref_field] = resolver.resolve(value)
    if item.contact:
        owner = contact_owner(lineage)
        report.reporter_contact = keys.encrypt_with(contact_keys[owner], owner, item.contact)
    report.__dict__.update(written_name_fields(item.fields))  # as names.read_written_names sets them
    return report


def _save(new_rows: list[tuple[ParsedRow, Report]], current: dict[tuple[str, str], Report],
          folder: Path, result: ImportResult, batch_id: int) -> list[int]:
    superseded = [current[(p.source, p.report_id)].pk for p, _report in new_rows if (p.source, p.report_id) in current]
    Report.objects.filter(pk__in=superseded).update(is_current=False)
    created = [r for _parsed, r in new_rows]
    insert_reports(created, batch_id)
    ids = []
    for (item, report) in new_rows:
        for photo in item.photos:
            path = _photo_path(folder, photo)
            store_photo(report, path, path.read_bytes())
        ids.append(report.pk)
    result.report_ids.extend(ids)
    result.new_versions += len(superseded)
    result.imported += len(created)
    return ids


# A file uploaded in the web, imported by the worker (issue 28). The registry keeps the file and
# the batch; the job queue (identification.jobs, kind "import") calls ``run_queued_import``.
UPLOADS = "imports"


def queue_upload(data: bytes, name: str, source: str, user: Any, actor: str) -> ImportBatch:
    """Keep an uploaded file in the store (private folder, one per upload) and its batch, queued."""
    from django.conf import settings
    from django.utils.text import get_valid_filename

    folder = Path(settings.ATHAR_HOME) / UPLOADS / uuid.uuid4().hex
    folder.mkdir(mode=0o700, parents=True)
    path = folder / (get_valid_filename(Path(name).name) or "upload.csv")[-120:]
    path.write_bytes(data)
    path.chmod(0o600)
    return ImportBatch.objects.create(
        source=source[:200], file_name=Path(name).name[:512], file_sha256=hashlib.sha256(data).hexdigest(),
        file_format="", actor=actor, status=ImportBatch.Status.QUEUED, upload_path=str(path), uploaded_by=user)


def run_queued_import(batch_id: int) -> dict[str, Any]:
    """The worker's part: import a queued upload (resuming after its checkpoint when a worker died
    in the middle). A file athar cannot read fails the batch with its reason, for the page; the
    uploaded file is removed once the batch is done or failed."""
    batch = ImportBatch.objects.get(pk=batch_id)
    if batch.status == ImportBatch.Status.DONE:
        return {"batch": batch.pk, "already": "done"}
    path = Path(batch.upload_path)
    try:
        result = import_reports(path, source=batch.source, actor=batch.actor, batch=batch)
    except (UserError, FileNotFoundError) as exc:
        ImportBatch.objects.filter(pk=batch.pk).update(status=ImportBatch.Status.FAILED, error=str(exc)[:2000],
                                                       finished_at=timezone.now(), upload_path="")
        _remove_upload(path)
        return {"batch": batch.pk, "error": str(exc)}
    _remove_upload(path)
    return {"batch": batch.pk, "imported": result["imported"], "unchanged": result["unchanged"],
            "rejected": len(result["rejected"])}


def _remove_upload(path: Path) -> None:
    from django.conf import settings

    root = (Path(settings.ATHAR_HOME) / UPLOADS).resolve()
    if root in path.resolve().parents:
        path.unlink(missing_ok=True)
        if path.parent != root:
            with contextlib.suppress(OSError):
                path.parent.rmdir()
