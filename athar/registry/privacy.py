"""A family's rights over a report: export what athar holds (JSON) and erase it.

Erasure keeps the report row (so links, decisions and the audit chain stay consistent) but
replaces every personal field of every version by a tombstone, shreds the contact key (the
ciphertext becomes unreadable everywhere, the sealed photos in backups included) and removes the
report's folder of the family uploads store (``registry/uploads.py``). The archive's evidence is in
another store, out of reach of erasure, even when a family uploaded the very same bytes. The audit event holds identifiers only.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from athar.audit.chain import actor_for_user, record
from athar.core.crypto import DecryptionError
from athar.registry import keys, policy
from athar.registry.importing import contact_owner
from athar.registry.models import LinkageKey, Report, ReportDraft, ReportLink, ReportPhoto
from athar.registry.signals import report_erased
from athar.registry.uploads import FamilyUploads

TOMBSTONE = "[erased]"
PERSONAL_TEXT = ("full_name_ar", "full_name_latin", "first_name", "father_name", "grandfather_name",
                 "family_name", "mother_name", "birth_place", "governorate", "city", "neighbourhood",
                 "arrest_place", "arresting_agency", "detainee_number", "distinguishing_marks", "clothing",
                 "belongings", "dental", "medical", "reporter_relation", "notes", "name_nickname", "name_place")
PERSONAL_LISTS = ("name_titles", "name_kunya", "name_notes")
PERSONAL_NULL = ("birth_year", "birth_date", "arrest_date", "height_cm", "reporter_contact", "birth_place_ref",
                 "governorate_ref", "city_ref", "arrest_place_ref")
EXPORT_FIELDS = ("source", "report_id", "version", "filed_at", "reporter_relation", "consent", *PERSONAL_TEXT[:-4],
                 "name_titles", "name_kunya", "name_nickname", "name_notes", "name_place", "sex", "height_cm", "build",
                 "birth_year", "birth_year_margin", "birth_date", "arrest_date", "arrest_date_precision",
                 "reported_status", "notes", "extra", "erased_at")

EXPORT_FORMAT = "athar-report-export/2"  # the keys: docs/data-export.md (2 added "format" and "places")
PLACE_KEYS = ("governorate", "city", "arrest_place", "birth_place")


def export_report(report: Report, *, include_contact: bool = True, actor: str = "system") -> dict[str, Any]:
    """Everything athar holds about one report (all versions), as JSON-ready data."""
    versions = Report.objects.filter(lineage=report.lineage).order_by("version")
    out = {"format": EXPORT_FORMAT, "lineage": report.lineage,
           "versions": [_version(v, include_contact) for v in versions]}
    record("registry.export_report", object_type="report", object_id=report.pk, actor=actor,
           data={"lineage": report.lineage, "versions": len(out["versions"]), "contact": include_contact})
    return out


def _version(report: Report, include_contact: bool) -> dict[str, Any]:
    data: dict[str, Any] = {name: getattr(report, name) for name in EXPORT_FIELDS}
    data = {k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in data.items()}
    data["photos"] = [{"sha256": p.sha256, "name": p.original_name} for p in report.photos.all()]
    data["places"] = _places(report)
    if include_contact and report.reporter_contact:
        try:
            data["reporter_contact"] = keys.decrypt_for(contact_owner(report.lineage), bytes(report.reporter_contact))
        except DecryptionError:
            data["reporter_contact"] = None
    return data


def _places(report: Report) -> dict[str, dict[str, str]]:
    """The places the family chose or athar recognised (the web form stores the governorate only
    as a choice from the list, never as text): code and both names."""
    out = {}
    for key in PLACE_KEYS:
        place = getattr(report, f"{key}_ref")
        if place is not None:
            out[key] = {"code": place.code, "name_ar": place.name_ar, "name_en": place.name_en}
    return out


def contact_for(report: Report, user: Any) -> str | None:
    """The reporter's contact details, for the report's own caseworker only (audited).

    Raises PermissionError for anyone else; None when there are none or they were erased.
    """
    if not policy.may_see_contact(user, report):
        raise PermissionError("only the report's caseworker may see the reporter's contact details")
    if not report.reporter_contact:
        return None
    record("registry.contact_viewed", object_type="report", object_id=report.pk, actor=actor_for_user(user))
    try:
        return keys.decrypt_for(contact_owner(report.lineage), bytes(report.reporter_contact))
    except DecryptionError:
        return None


def erasure_preview(report: Report) -> dict[str, bool]:
    """What erasing this report will do beyond the tombstones, from the facts, so the page promises
    exactly what the audit event will record: ``key`` — the report holds encrypted contact details,
    consent words or photos whose key will be shredded (the event's ``key_shredded``); ``account`` —
    a family account filed it, whose sign-in phone number is the account's, not the report's, and
    stays while the account exists."""
    return {"key": keys.holds(contact_owner(report.lineage)), "account": report.reporter_user_id is not None}


def erase_report(report: Report, *, actor: str = "system", reason_code: str = "family_request") -> dict[str, Any]:
    """Erase the personal data of every version of a report (see the module docstring)."""
    with transaction.atomic():
        versions = list(Report.objects.select_for_update().filter(lineage=report.lineage))
        photos = list(ReportPhoto.objects.filter(report__in=versions))
        now = timezone.now()
        for version in versions:
            for name in PERSONAL_TEXT:
                setattr(version, name, TOMBSTONE if getattr(version, name) else "")
            for name in PERSONAL_NULL:
                setattr(version, name, None)
            for name in PERSONAL_LISTS:
                setattr(version, name, [])
            version.extra, version.consent, version.sex, version.erased_at = {}, {}, "U", now
            version.build = ""
            version.save()
        shredded = keys.shred(contact_owner(report.lineage))
        ReportPhoto.objects.filter(pk__in=[p.pk for p in photos]).delete()
        ReportDraft.objects.filter(amends__in=versions).delete()  # a change being written is erased too
        persons = sorted(set(ReportLink.objects.filter(report__in=versions).values_list("person_id", flat=True)))
        LinkageKey.objects.filter(report__in=versions).delete()  # no longer found by the incremental linkage
        report_erased.send(sender=Report, reports=versions, persons=persons)
        record("registry.erase_report", object_type="report", object_id=report.pk, actor=actor,
               data={"lineage": report.lineage, "versions": len(versions), "photos": len(photos),
                     "key_shredded": shredded, "reason": reason_code})
    files = FamilyUploads().remove_lineage(report.lineage)  # after commit: a rollback keeps the files
    return {"report": report.pk, "versions": len(versions), "photos": len(photos), "files_removed": files,
            "key_shredded": shredded}
