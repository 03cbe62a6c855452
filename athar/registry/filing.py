"""Filing a report from a form: one new Report (source ``web``) with its photos, the drafts saved at each
step, and later versions. Domain code (the pages only call it), so that the API or a command can file and
amend reports under the same rules."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import uuid
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.audit.chain import actor_for_user, record
from athar.core import crypto
from athar.core.errors import UserError
from athar.registry.importing import lineage_of
from athar.registry.models import Report, ReportDraft, ReportPhoto
from athar.registry.names import written_name_fields
from athar.registry.photos import MAX_PHOTO_BYTES, UploadRefused, remove_photo_files, store_upload
from athar.registry.places import PlaceResolver

WEB_SOURCE = "web"
TEXT_FIELDS = ("full_name_ar", "full_name_latin", "father_name", "mother_name", "sex", "city", "arrest_place",
               "arresting_agency", "detainee_number", "distinguishing_marks", "reporter_relation",
               "build", "clothing", "belongings", "dental", "medical")


def _content_hash(fields: dict[str, Any]) -> str:
    body = json.dumps(fields, sort_keys=True, default=str, ensure_ascii=False)
    key = hashlib.sha256(b"athar-report-content" + crypto.master_key()).digest()
    return hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()


def consent_record(face_processing: bool, publication: bool) -> dict[str, Any]:
    return {"face_processing": bool(face_processing), "publication": bool(publication),
            "changed_at": timezone.now().isoformat()}


def report_fields(draft: dict[str, Any]) -> dict[str, Any]:
    """Model fields from the wizard's draft (plain JSON in the session)."""
    fields: dict[str, Any] = {k: str(draft.get(k) or "").strip() for k in TEXT_FIELDS}
    fields["sex"] = fields["sex"] or "U"
    if draft.get("height_cm"):
        fields["height_cm"] = int(draft["height_cm"])
    if draft.get("birth_year"):
        fields["birth_year"] = int(draft["birth_year"])
        fields["birth_year_margin"] = 2 if draft.get("birth_year_approximate") else 0
    if draft.get("arrest_date"):
        fields["arrest_date"] = dt.date.fromisoformat(str(draft["arrest_date"]))
        fields["arrest_date_precision"] = draft.get("arrest_date_precision", "day")
    resolver = PlaceResolver.load()
    if draft.get("governorate"):
        fields["governorate_ref_id"] = int(draft["governorate"])
    for text, ref in (("city", "city_ref_id"), ("arrest_place", "arrest_place_ref_id")):
        if fields[text]:
            fields[ref] = resolver.resolve(fields[text])
    return fields


@transaction.atomic
def file_report(draft: dict[str, Any], user: Any, family: Any, caseworker: Any) -> Report:
    """Create the report; ``family`` is the family account it belongs to (None: caseworker keeps it)."""
    fields = report_fields(draft)
    report_id = uuid.uuid4().hex
    report = Report.objects.create(
        source=WEB_SOURCE, report_id=report_id, lineage=lineage_of(WEB_SOURCE, report_id),
        content_hash=_content_hash(fields), reporter_user=family, caseworker=caseworker,
        consent=consent_record(draft.get("face_processing", False), draft.get("publication", False)),
        **fields, **written_name_fields(fields))
    record("report.filed", object_type="report", object_id=report.pk, actor=actor_for_user(user),
           data={"source": WEB_SOURCE, "consent_face": report.consent["face_processing"]})
    return report


def add_photo(report: Report, upload: Any, user: Any, via: str = "") -> ReportPhoto:
    """Store one uploaded photo (JPEG, PNG, HEIC ...); ValueError with a reason when refused.
    ``via`` names the interface in the audit record when it is not the web form ("api")."""
    if upload.size > MAX_PHOTO_BYTES:
        raise UploadRefused(f"larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB", code="too_large")
    photo = store_upload(report, upload, user)  # checked before stored; UploadRefused is a ValueError
    record("report.photo_added", object_type="report", object_id=report.pk, actor=actor_for_user(user),
           data={"photo": photo.pk, "sha256": photo.sha256, **({"via": via} if via else {})})
    return photo


# ---- drafts: saved on the server at each step, found again after signing out and in ----------

def draft_of(user: Any, amends: Report | None = None) -> ReportDraft | None:
    return ReportDraft.objects.filter(owner=user, amends=amends).first()


def start_draft(user: Any, amends: Report | None = None, data: dict[str, Any] | None = None) -> ReportDraft:
    """A fresh draft (replacing this account's earlier one for the same purpose)."""
    draft, _ = ReportDraft.objects.update_or_create(owner=user, amends=amends, defaults={"data": data or {}, "step": ""})
    return draft


def discard_draft(user: Any, draft_id: int) -> bool:
    """Delete one of this account's own drafts; False when it has no such draft. Audited (who, when,
    which draft, the report a change was for), never with what the draft said: it was not sent."""
    with transaction.atomic():
        draft = ReportDraft.objects.select_for_update().filter(pk=draft_id, owner=user).first()
        if draft is None:
            return False
        amends = draft.amends_id
        draft.delete()
        record("report.draft_discarded", object_type="report" if amends else "draft",
               object_id=amends or draft_id, actor=actor_for_user(user),
               data={"draft": draft_id, **({"change_of_report": amends} if amends else {})})
    return True


TYPED = "_typed"  # per step, what was typed but not yet complete (kept apart: never filed)


def save_step(draft: ReportDraft, values: dict[str, Any], next_step: str, finished_step: str = "") -> None:
    """A step's complete answers join the draft (and what was typed on it before is done with)."""
    typed = {k: v for k, v in draft.data.get(TYPED, {}).items() if k != finished_step}
    draft.data = {**draft.data, **values, TYPED: typed}
    if not typed:
        draft.data.pop(TYPED)
    draft.step = next_step
    draft.save(update_fields=["data", "step", "updated_at"])


def keep_typed(draft: ReportDraft, step: str, typed: dict[str, Any], next_step: str) -> None:
    """What was typed on a step left before it was complete ("Back"), kept as typed."""
    draft.data = {**draft.data, TYPED: {**draft.data.get(TYPED, {}), step: typed}}
    draft.step = next_step
    draft.save(update_fields=["data", "step", "updated_at"])


def typed_on(draft: ReportDraft, step: str) -> dict[str, Any]:
    """What was typed on ``step`` and not yet saved as complete (shown again on that step)."""
    return dict(draft.data.get(TYPED, {}).get(step, {}))


def draft_from_report(report: Report) -> dict[str, Any]:
    """The form's values from a filed report, to change it."""
    data: dict[str, Any] = {k: getattr(report, k) for k in TEXT_FIELDS}
    data.update(birth_year=report.birth_year, birth_year_approximate=bool(report.birth_year_margin),
                height_cm=report.height_cm, governorate=str(report.governorate_ref_id or ""))
    if report.arrest_date:
        precision = report.arrest_date_precision
        data.update(arrest_date=report.arrest_date.isoformat(), arrest_date_precision=precision,
                    arrest_year=report.arrest_date.year,
                    arrest_month=report.arrest_date.month if precision in ("day", "month") else None,
                    arrest_day=report.arrest_date.day if precision == "day" else None)
    return data


def preview(draft: dict[str, Any]) -> Report:
    """An unsaved report showing what the draft would file (for the summary)."""
    return Report(**report_fields(draft))


# Fields the form sets; a value taken out of the form is taken out of the new version too.
CLEARED = {"birth_year": None, "birth_year_margin": 0, "arrest_date": None, "arrest_date_precision": "unknown",
           "height_cm": None, "governorate_ref_id": None, "city_ref_id": None, "arrest_place_ref_id": None}
KEPT_AS_IS = {"id", "version", "supersedes_id", "is_current", "content_hash", "filed_at", "batch_id", "row_number"}


def amend_report(report: Report, draft: dict[str, Any], user: Any) -> Report:
    """A new version of a filed report (the old one is kept, no longer current). Unchanged: the
    report as it was. Everything the form does not ask (imported columns, contact) is carried over.
    Two people saving changes to one report at once: the first makes the new version, the second
    is told to open the report again (the row lock, and in the end the database's "one current
    version" and "one row per version" constraints, decide)."""
    try:
        with transaction.atomic():
            return _amend(report, draft, user)
    except IntegrityError as exc:
        raise UserError(_("This report was changed or erased in the meantime. Open it again.")) from exc


def _amend(report: Report, draft: dict[str, Any], user: Any) -> Report:
    old = Report.objects.select_for_update().get(pk=report.pk)
    if not old.is_current or old.erased_at is not None:
        raise UserError(_("This report was changed or erased in the meantime. Open it again."))
    fields = {**CLEARED, **report_fields(draft)}
    if all(getattr(old, k) == v for k, v in fields.items()):
        return old
    values = {f.attname: getattr(old, f.attname) for f in Report._meta.concrete_fields if f.attname not in KEPT_AS_IS}
    values.update(fields)
    Report.objects.filter(pk=old.pk).update(is_current=False)
    new = Report.objects.create(version=old.version + 1, supersedes=old, content_hash=_content_hash(fields),
                                **values)
    for photo in old.photos.all():  # the photos go on with the report (the files are kept by content)
        ReportPhoto.objects.create(report=new, sha256=photo.sha256, original_name=photo.original_name,
                                   size=photo.size, derivatives=photo.derivatives, faces=photo.faces)
    record("report.amended", object_type="report", object_id=new.pk, actor=actor_for_user(user),
           data={"supersedes": old.pk, "version": new.version})
    return new


def remove_photo(photo: ReportPhoto, user: Any) -> None:
    """Take a wrongly uploaded photo out of the report (every version of it); the files go when no
    other report holds the same bytes. Audited with the photo's hash, never its content."""
    lineage = photo.report.lineage
    with transaction.atomic():
        rows = list(ReportPhoto.objects.filter(report__lineage=lineage, sha256=photo.sha256))
        ReportPhoto.objects.filter(pk__in=[r.pk for r in rows]).delete()
        record("report.photo_removed", object_type="report", object_id=photo.report_id, actor=actor_for_user(user),
               data={"photo": photo.pk, "sha256": photo.sha256, "rows": len(rows)})
    remove_photo_files(photo, lineage)  # after commit: a rollback keeps the files
