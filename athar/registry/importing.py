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

import datetime as dt
import hashlib
import hmac
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.audit.chain import record
from athar.core.crypto import master_key
from athar.core.csvio import CsvRow
from athar.core.errors import UserError
from athar.registry import keys
from athar.registry.columns import SDF_COLUMNS, map_header
from athar.registry.models import ImportBatch, Report
from athar.registry.names import read_written_names
from athar.registry.photos import check_photo, store_photo
from athar.registry.places import PlaceResolver
from athar.registry.reading import Table, read_table
from athar.registry.rows import (
    ParsedRow,
    RowError,
    ValueWarning,
    build_fields,
    split_photos,
)

BATCH = 2000
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


def content_hash(parsed: ParsedRow, key: bytes) -> str:
    """A keyed hash of what the row says (keyed, so it cannot be used to guess a contact)."""
    body = json.dumps({"f": parsed.fields, "c": parsed.contact, "p": parsed.photos, "x": parsed.extra},
                      sort_keys=True, default=str, ensure_ascii=False)
    return hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()


def parse_row(row: CsvRow, mapping: dict[str, str], default_source: str, today: dt.date) -> ParsedRow:
    """Map and read one row; RowError only when the row names nobody.

    A value that cannot be read is kept verbatim under its column in ``extra`` (and the notes)
    and named in ``ParsedRow.warnings``.
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


def import_reports(path: Path, source: str = "", actor: str = "system",
                   ignore_columns: set[str] | None = None) -> dict[str, Any]:
    """Import a report file; returns counts, warnings and the rejected rows.

    ``ignore_columns`` are left out entirely (``eval linkage`` hides the truth column).
    """
    path = Path(path)
    table = read_table(path)
    if ignore_columns:
        table = table.without(ignore_columns)
    mapping = map_header(table.header, table.sdf)
    result = ImportResult()
    _warn_columns(table, mapping, result)
    default_source = source or ("syrian-detainee-finder" if table.sdf else path.stem)
    parsed = _parse_all(table, mapping, default_source, path.parent, result)
    file_sha = hashlib.sha256(path.read_bytes()).hexdigest()
    with transaction.atomic():
        batch = ImportBatch.objects.create(source=default_source, file_name=path.name[:512], file_sha256=file_sha,
                                           file_format=table.file_format, actor=actor)
        _write(parsed, batch, path.parent, result)
        _record_consent(parsed, batch, actor)
        batch.counts = {"imported": result.imported, "new_versions": result.new_versions,
                        "unchanged": result.unchanged, "rejected": len(result.rejected)}
        batch.save(update_fields=["counts"])
        record("registry.import", object_type="import_batch", object_id=batch.pk, actor=actor,
               data={"file_sha256": file_sha, **batch.counts})
    _summarise_value_warnings(result)
    return {"imported": result.imported, "new_versions": result.new_versions, "unchanged": result.unchanged,
            "rejected": result.rejected, "warnings": result.warnings, "value_warnings": result.value_warnings,
            "format": table.file_format, "batch": batch.pk}


def _record_consent(parsed: list[ParsedRow], batch: ImportBatch, actor: str) -> None:
    """The per-row hook of the consent column: each report's consent, as given by its source."""
    from athar.registry.consent import record_imported

    record_imported(((lineage_of(p.source, p.report_id), p.source, p.consent) for p in parsed if p.consent),
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
        result.warnings.append(_("… and %(more)s more values kept as written") % {"more": more})


def _warn_columns(table: Table, mapping: dict[str, str], result: ImportResult) -> None:
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


def _parse_all(table: Table, mapping: dict[str, str], source: str, folder: Path,
               result: ImportResult) -> list[ParsedRow]:
    today = timezone.now().date()
    key = content_key()
    columns = {f: c for c, f in mapping.items()}
    seen: dict[tuple[str, str], int] = {}
    out = []
    for row in table.rows:
        try:
            parsed = parse_row(row, mapping, source, today)
            _check_photos(parsed, folder, columns.get("photos", "photos"))
            if not parsed.report_id:
                parsed.report_id = "content:" + content_hash(parsed, key)[:32]
            identity = (parsed.source, parsed.report_id)
            if identity in seen:
                raise RowError(_("a duplicate: report_id %(id)s already appears in row %(row)s")
                               % {"id": repr(parsed.report_id), "row": seen[identity]}
                               if not parsed.report_id.startswith("content:")
                               else _("a duplicate: the same report as row %(row)s") % {"row": seen[identity]})
            seen[identity] = row.number
            out.append(parsed)
        except RowError as exc:
            result.rejected.append({"row": row.number, "reason": str(exc)})
            continue
        result.value_warnings.extend(
            {"row": row.number, "column": columns.get(w.field, w.field), "value": w.value, "reason": w.reason}
            for w in parsed.warnings)
    return out


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


def _write(parsed: list[ParsedRow], batch: ImportBatch, folder: Path, result: ImportResult) -> None:
    resolver = PlaceResolver.load()
    key = content_key()
    for start in range(0, len(parsed), BATCH):
        chunk = parsed[start:start + BATCH]
        current = _current_versions(chunk)
        new_rows: list[tuple[ParsedRow, Report]] = []
        for item in chunk:
            digest = content_hash(item, key)
            old = current.get((item.source, item.report_id))
            if old is not None and old.content_hash == digest:
                result.unchanged += 1
                continue
            new_rows.append((item, _report(item, digest, old, batch, resolver)))
        _save(new_rows, current, folder, result)


def _current_versions(chunk: list[ParsedRow]) -> dict[tuple[str, str], Report]:
    lineages = {lineage_of(p.source, p.report_id) for p in chunk}
    rows = Report.objects.filter(lineage__in=lineages, is_current=True)
    return {(r.source, r.report_id): r for r in rows}


def _report(item: ParsedRow, digest: str, old: Report | None, batch: ImportBatch,
            resolver: PlaceResolver) -> Report:
    lineage = lineage_of(item.source, item.report_id)
    report = Report(source=item.source, report_id=item.report_id, lineage=lineage,
                    version=old.version + 1 if old else 1, supersedes=old, content_hash=digest,
                    batch=batch, row_number=item.number, extra=item.extra, **item.fields)
    for text_field, ref_field in PLACE_FIELDS.items():
        value = item.fields.get(text_field)
        if value:
            setattr(report, ref_field, resolver.resolve(value))
    if item.contact:
        report.reporter_contact = keys.encrypt_for(contact_owner(lineage), item.contact)
    return read_written_names(report)


def _save(new_rows: list[tuple[ParsedRow, Report]], current: dict[tuple[str, str], Report],
          folder: Path, result: ImportResult) -> None:
    superseded = [current[(p.source, p.report_id)].pk for p, _report in new_rows if (p.source, p.report_id) in current]
    Report.objects.filter(pk__in=superseded).update(is_current=False)
    created = Report.objects.bulk_create([r for _parsed, r in new_rows])
    for (item, report) in zip((p for p, _report in new_rows), created):
        for photo in item.photos:
            path = _photo_path(folder, photo)
            store_photo(report, path, path.read_bytes())
        result.report_ids.append(report.pk)
    result.new_versions += len(superseded)
    result.imported += len(created)
