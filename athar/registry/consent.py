"""Has this report's family consented to publication, and how? One answer for every page, command
and rule (the publication check, the public list, a family's status, the caseworker's view).

A family says it in one of three ways:

- on the web, itself (``Report.consent``: ``{"publication": …, "changed_at": …}``, set by the filing
  form and the consent page);
- to a caseworker, on paper, by phone or in person: the caseworker records it (``record_consent``),
  with the day, the way and, if they wish, the family's own words (encrypted with the report's data
  key, shredded with it on erasure; never in the audit chain);
- through an organisation's list: ``athar registry import`` reads a consent column and records what
  it says as given by that source (``record_imported``). A value athar cannot read is kept verbatim in
  the report with a warning and counts as no consent.

The latest statement wins, whoever recorded it: a family that withdraws on the web after saying
yes on paper has withdrawn, and a caseworker's record of a "yes" given by phone after the family
left the box unticked on the web counts. Statements are kept per report lineage (every version),
never changed nor deleted; a withdrawal is a new statement.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from athar.audit.chain import actor_for_user, record
from athar.core.crypto import DecryptionError
from athar.core.errors import UserError
from athar.matching.names.normalize import normalize_arabic
from athar.registry import importing, keys, policy
from athar.registry.models import ConsentRecord, ImportBatch, Report

WEB = "web"
STAFF_METHODS = (ConsentRecord.Method.PAPER, ConsentRecord.Method.PHONE, ConsentRecord.Method.IN_PERSON)
WORDS_MAX = 4000


@dataclass(frozen=True)
class Consent:
    """A report's consent to publication: whether it is given, how (``web``, ``paper``, ``phone``,
    ``in_person``, ``import``; '' when the family never said), when it was recorded, by whom (an
    account id) or which source (an import)."""

    given: bool
    how: str = ""
    recorded_at: dt.datetime | None = None
    given_on: dt.date | None = None
    recorded_by: int | None = None
    source: str = ""
    record: ConsentRecord | None = None


NO_STATEMENT = Consent(given=False)


def _web(report: Report) -> Consent | None:
    """The family's own choice on the web, when it made one."""
    choice = report.consent or {}
    if "publication" not in choice:
        return None
    at = None
    if choice.get("changed_at"):
        try:
            at = dt.datetime.fromisoformat(str(choice["changed_at"]))
        except ValueError:
            at = None
    if at is not None and timezone.is_naive(at):
        at = timezone.make_aware(at, dt.UTC)
    return Consent(given=bool(choice["publication"]), how=WEB, recorded_at=at,
                   given_on=at.date() if at else None, recorded_by=report.reporter_user_id)


def _staff(row: ConsentRecord) -> Consent:
    return Consent(given=row.publication, how=row.method, recorded_at=row.recorded_at, given_on=row.given_on,
                   recorded_by=row.recorded_by_id, source=row.source, record=row)


def _latest(web: Consent | None, staff: Consent | None) -> Consent:
    """The later of two statements; a web choice without a time (older rows) loses to a record."""
    if web is None:
        return staff or NO_STATEMENT
    if staff is None:
        return web
    if web.recorded_at is None or (staff.recorded_at is not None and staff.recorded_at > web.recorded_at):
        return staff
    return web


def publication_consent(report: Report) -> Consent:
    """Has this report's family consented to publication, and how (the latest statement)."""
    row = ConsentRecord.objects.filter(lineage=report.lineage).order_by("-recorded_at", "-id").first()
    return _latest(_web(report), _staff(row) if row is not None else None)


def publication_consents(reports: Iterable[Report]) -> dict[int, Consent]:
    """``publication_consent`` of many reports in one query (by report id)."""
    reports = list(reports)
    latest: dict[str, ConsentRecord] = {}
    for row in ConsentRecord.objects.filter(lineage__in={r.lineage for r in reports}).order_by("recorded_at", "id"):
        latest[row.lineage] = row
    return {r.pk: _latest(_web(r), _staff(latest[r.lineage]) if r.lineage in latest else None) for r in reports}


def consents_to_publication(report: Report) -> bool:
    return publication_consent(report).given


# ---- recorded by a caseworker -----------------------------------------------------------------

def record_consent(report: Report, user: Any, *, publication: bool, method: str,
                   given_on: dt.date | None = None, words: str = "") -> ConsentRecord:
    """A caseworker (or administrator) records what the family said on paper, by phone or in person:
    its consent to publication, or its withdrawal (``publication=False``). Audited with identifiers
    only; the family's words are encrypted with the report's key."""
    if not policy.may_record_consent(user, report):
        raise policy.NotAllowed(_("only a caseworker who looks after this report (or an administrator) records "
                                  "the family's consent"))
    if method not in STAFF_METHODS:
        raise UserError(_("say how the family gave its answer: on paper, by phone or in person"))
    given_on = given_on or timezone.localdate()
    if given_on > timezone.localdate():
        raise UserError(_("the day the family said so cannot be in the future"))
    words = (words or "").strip()
    if len(words) > WORDS_MAX:
        raise UserError(_("the family's words are longer than %(max)s characters") % {"max": WORDS_MAX})
    with transaction.atomic():
        current = Report.objects.select_for_update().current().filter(lineage=report.lineage).first()
        if current is None or current.erased_at is not None:
            raise UserError(_("this report was erased or replaced: open it again"))
        row = ConsentRecord.objects.create(
            lineage=current.lineage, report=current, publication=bool(publication), method=method,
            given_on=given_on, recorded_by=user,
            words=keys.encrypt_for(importing.contact_owner(current.lineage), words) if words else None)
        record("consent.recorded", object_type="report", object_id=current.pk, actor=actor_for_user(user),
               data={"record": row.pk, "publication": row.publication, "method": method,
                     "given_on": given_on.isoformat(), "words": bool(words)})
    return row


def words_of(row: ConsentRecord, user: Any) -> str | None:
    """The family's words kept with a record, for whoever may record consent for that report;
    None when there are none or the report was erased (its key shredded)."""
    if not policy.may_record_consent(user, row.report) or not row.words:
        return None
    try:
        return keys.decrypt_for(importing.contact_owner(row.lineage), bytes(row.words))
    except DecryptionError:
        return None


def history(report: Report) -> list[ConsentRecord]:
    """Every statement recorded for this report (any version), oldest first."""
    return list(ConsentRecord.objects.filter(lineage=report.lineage).select_related("recorded_by")
                .order_by("recorded_at", "id"))


# ---- carried by an import ---------------------------------------------------------------------

def _key(text: str) -> str:
    return " ".join(normalize_arabic(text or "").strip().lower().split())


YES = {_key(w) for w in ("yes", "y", "true", "1", "agree", "agreed", "consent", "consents", "given",
                         "نعم", "موافق", "موافقة", "أوافق", "يوافق", "توافق", "موافق على النشر")}
NO = {_key(w) for w in ("no", "n", "false", "0", "refused", "refuses", "withdrawn", "declined",
                        "لا", "غير موافق", "غير موافقة", "لا أوافق", "رفض", "مرفوض", "يرفض", "سحب")}


def read_consent_cell(raw: str) -> bool | None:
    """What a consent cell says: True, False, or None when athar cannot read it (empty is None too:
    callers tell empty from unreadable by the raw text)."""
    key = _key(raw)
    if key in YES:
        return True
    if key in NO:
        return False
    return None


def record_imported(statements: Iterable[tuple[str, str, str]], batch: ImportBatch, actor: str = "system") -> int:
    """Record the consent an import carries, per report: ``(lineage, source, raw cell)`` — given by
    that source (the row's source, else the import's). An empty cell says
    nothing; an unreadable one counts as no consent (the importer warned and kept it verbatim). A
    statement is recorded only when it differs from this source's last one for the report, so
    importing the same list again never outvotes what the family said since. Returns how many were
    recorded."""
    wanted = {lineage: (source[:200], read_consent_cell(raw) is True)
              for lineage, source, raw in statements if (raw or "").strip()}
    if not wanted:
        return 0
    last: dict[tuple[str, str], bool] = {}
    for row in (ConsentRecord.objects.filter(lineage__in=wanted, method=ConsentRecord.Method.IMPORT)
                .order_by("recorded_at", "id")):
        last[(row.lineage, row.source)] = row.publication
    changed = {lineage: (source, given) for lineage, (source, given) in wanted.items()
               if last.get((lineage, source)) != given}
    current = {r.lineage: r for r in Report.objects.current().filter(lineage__in=changed)}
    rows = [ConsentRecord(lineage=lineage, report=current[lineage], publication=given,
                          method=ConsentRecord.Method.IMPORT, given_on=timezone.localdate(), source=source,
                          batch=batch)
            for lineage, (source, given) in changed.items() if lineage in current]
    ConsentRecord.objects.bulk_create(rows)
    if rows:
        record("consent.imported", object_type="import_batch", object_id=batch.pk, actor=actor,
               data={"given": sum(r.publication for r in rows), "not_given": sum(not r.publication for r in rows)})
    return len(rows)
