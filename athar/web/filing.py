"""Filing a report from the web form: one new Report (source ``web``) with its photos."""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from typing import Any

from django.db import transaction
from django.utils import timezone

from athar.audit.chain import actor_for_user, record
from athar.core import crypto
from athar.core.errors import UserError
from athar.registry.importing import lineage_of
from athar.registry.models import Report, ReportPhoto
from athar.registry.names import written_name_fields
from athar.registry.photos import MAX_PHOTO_BYTES, store_upload
from athar.registry.places import PlaceResolver

WEB_SOURCE = "web"
TEXT_FIELDS = ("full_name_ar", "full_name_latin", "father_name", "mother_name", "sex", "city", "arrest_place",
               "arresting_agency", "detainee_number", "distinguishing_marks", "reporter_relation")


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
    if draft.get("birth_year"):
        fields["birth_year"] = int(draft["birth_year"])
        fields["birth_year_margin"] = 2 if draft.get("birth_year_approximate") else 0
    if draft.get("arrest_date"):
        fields["arrest_date"] = draft["arrest_date"]
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


def add_photo(report: Report, upload: Any, user: Any) -> ReportPhoto:
    """Store one uploaded photo (JPEG, PNG, HEIC ...); ValueError with a reason when refused."""
    if upload.size > MAX_PHOTO_BYTES:
        raise UserError("too large")
    photo = store_upload(report, upload, user)  # checked before stored; UploadRefused is a ValueError
    record("report.photo_added", object_type="report", object_id=report.pk, actor=actor_for_user(user),
           data={"photo": photo.pk, "sha256": photo.sha256})
    return photo
