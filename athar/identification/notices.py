"""Caseworkers' in-app notices: stored when the identification app says something happened.

A likely match in a new ranking, or a change of an identification's status, becomes one Notice per
caseworker of the reports concerned (the report's caseworker, and the caseworker of the family who
filed it). Keys make them idempotent: a re-ranking that finds the same likely case again does not
notify twice. Notices hold identifiers only; names are rendered from the report for those allowed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from athar.identification.models import Notice
from athar.registry.lookup import caseworker_ids, reports_of


def caseworkers_of(reports: Iterable[Any]) -> dict[int, Any]:
    """caseworker id → one report of theirs among ``reports`` (the one the notice points to)."""
    out: dict[int, Any] = {}
    for report in reports:
        for user_id in caseworker_ids(report):
            out.setdefault(user_id, report)
    return out


def _reports_of_ranking(ranking: Any) -> list[Any]:
    if ranking.person_id is not None:
        return [r for r in reports_of(ranking.person) if not r.erased_at]
    return [ranking.report] if ranking.report_id and not ranking.report.erased_at else []


def on_ranking_stored(sender: Any, ranking: Any, **_: Any) -> None:
    """A likely match in a report's own ranking (what its family would be shown); a person's
    ranking, for reviewers, notifies nobody (its reports' own rankings do)."""
    if not ranking.likely_match or ranking.person_id is not None:
        return
    reports = _reports_of_ranking(ranking)
    subject = f"person{ranking.person_id}" if ranking.person_id else f"report{ranking.report_id}"
    rows = [Notice(user_id=user_id, kind=Notice.Kind.CANDIDATE, key=f"candidate:{subject}:{c.case_id}",
                   report=report, case_id=c.case_id)
            for c in ranking.candidates.filter(likely_match=True)
            for user_id, report in caseworkers_of(reports).items()]
    Notice.objects.bulk_create(rows, ignore_conflicts=True)


def on_identification_status_changed(sender: Any, identification: Any, previous: str, status: str, **_: Any) -> None:
    """Decision notices (and 'inform' tasks once verified) for the caseworkers of the families this
    identification concerns; a report linked to the person by name alone gets nothing."""
    from athar.identification.concerned import family_reports

    reports = family_reports(identification)
    stamp = int(timezone.now().timestamp() * 1000)
    rows = [Notice(user_id=user_id, kind=Notice.Kind.DECISION, report=report, case_id=identification.case_id,
                   status=status, key=f"decision:{identification.pk}:{status}:{stamp}")
            for user_id, report in caseworkers_of(reports).items()]
    if status == "verified":
        rows += _inform_tasks(identification, reports)
    Notice.objects.bulk_create(rows, ignore_conflicts=True)


def _inform_tasks(identification: Any, reports: list[Any]) -> list[Notice]:
    """One task per family (report) and caseworker: tell the family, in person or by phone, before
    anything is published. It stays open until the informing is recorded."""
    out = []
    for report in reports:
        for user_id in caseworker_ids(report):
            out.append(Notice(user_id=user_id, kind=Notice.Kind.INFORM, report=report,
                              case_id=identification.case_id, status=str(identification.pk),
                              key=f"inform:{identification.pk}:{report.pk}"))
    return out


def on_family_informed(sender: Any, identification: Any, report: Any, **_: Any) -> None:
    """The family was told: its caseworkers' tasks for it are done."""
    Notice.objects.filter(kind=Notice.Kind.INFORM, key=f"inform:{identification.pk}:{report.pk}",
                          done_at__isnull=True).update(done_at=timezone.now(), read_at=timezone.now())


def _tell(report: Any, key: str, **fields: Any) -> list[Notice]:
    return [Notice(user_id=user_id, kind=Notice.Kind.TELL, report=report, key=f"{key}:{user_id}", **fields)
            for user_id in caseworker_ids(report)]


def tell_set_aside(claims: Iterable[Any]) -> None:
    """A family's claim was set aside by a reviewer: its caseworker tells the family, in careful
    words, with the reviewer's reason at hand (``Notice.claim``). One task per family, case and
    decision: a family that repeats itself is not a new task."""
    rows: list[Notice] = []
    for claim in claims:
        report = claim.report
        if report is None or report.erased_at is not None:
            continue
        decision = f"conflict{claim.set_aside_by_conflict_id}" if claim.set_aside_by_conflict_id else f"claim{claim.pk}"
        rows += _tell(report, f"tell:set_aside:{report.lineage[:16]}:{claim.case_id}:{decision}",
                      case_id=claim.case_id, claim=claim, status="set_aside")
    Notice.objects.bulk_create(rows, ignore_conflicts=True)


def tell_informed_families(identification: Any, status: str) -> None:
    """A decided identification changed: every family already told of it is told again, by its
    caseworker (the 'informed' records stay: they are the list of whom to tell)."""
    from athar.identification.models import FamilyInformed

    stamp = int(timezone.now().timestamp() * 1000)
    rows: list[Notice] = []
    for row in FamilyInformed.objects.filter(identification=identification).select_related("report"):
        current = type(row.report).objects.current().filter(lineage=row.report.lineage,
                                                  erased_at__isnull=True).first()
        if current is not None:
            rows += _tell(current, f"tell:change:{identification.pk}:{current.lineage[:16]}:{status}:{stamp}",
                          case_id=identification.case_id, identification=identification, status=status)
    Notice.objects.bulk_create(rows, ignore_conflicts=True)


def mark_told(user: Any, notice_id: int) -> Notice:
    """The caseworker told the family (a TELL task): closed, audited. LookupError for anyone
    else's task, or one that is not a TELL task."""
    from athar.audit.chain import actor_for_user, record
    from athar.identification import policy

    row = Notice.objects.filter(pk=notice_id, kind=Notice.Kind.TELL).first()
    if row is None or not policy.may_close_task(user, row):
        raise LookupError(notice_id)
    if row.done_at is None:
        now = timezone.now()
        Notice.objects.filter(pk=row.pk, done_at__isnull=True).update(done_at=now, read_at=now)
        record("identification.family_told", object_type="notice", object_id=row.pk, actor=actor_for_user(user),
               data={"report": row.report_id, "case": row.case_id, "claim": row.claim_id,
                     "identification": row.identification_id, "status": row.status})
        row.refresh_from_db()
    return row


def open_tasks(user: Any) -> QuerySet[Notice]:
    """The caseworker's open tasks: families to inform of a verified identification, and families
    to tell of a change (their claim set aside; an identification they were told of changed)."""
    return Notice.objects.filter(user=user, kind__in=(Notice.Kind.INFORM, Notice.Kind.TELL),
                                 done_at__isnull=True).select_related(
        "report", "case__facility", "claim", "identification").order_by("created_at")


def notices_of(user: Any) -> QuerySet[Notice]:
    """Unread first, then the most recent read ones (the page shows a bounded list)."""
    return Notice.objects.filter(user=user).select_related("report", "case__facility").order_by(
        "read_at", "-created_at", "-pk")


def unread_count(user: Any) -> int:
    return Notice.objects.filter(user=user, read_at__isnull=True).count()


def mark_read(user: Any, notice_id: int | None = None) -> int:
    """Mark one notice (or all) of this user read; another user's notice is never touched."""
    rows = Notice.objects.filter(user=user, read_at__isnull=True).exclude(kind__in=(Notice.Kind.INFORM,
                                                                                    Notice.Kind.TELL))
    if notice_id is not None:
        rows = rows.filter(pk=notice_id)
    return rows.update(read_at=timezone.now())


# What a decision notice says, per the identification's new status: words in the reader's language,
# never the stored code. Publication is its own act, not "a review decision".
_DECISION: dict[str, Promise] = {
    "under_review": _("An identification is under review (again) for a report:"),
    "verified": _("Two reviewers verified an identification for a report; inform the family before anything "
                  "is published:"),
    "published": _("An identification was published, after the family was told and consented, for a report:"),
    "rejected": _("Reviewers rejected an identification for a report:"),
    "withdrawn": _("An identification was withdrawn (its claims were withdrawn) for a report:"),
    "set_aside": _("An identification was set aside in favour of another claim, for a report:"),
}
# What changed in an identification a family was already told of (a TELL task without a claim).
_CHANGE: dict[str, Promise] = {
    "under_review": _("An identification this family was told of went back to review. Tell the family again."),
    "verified": _("An identification this family was told of is verified again. Tell the family again."),
    "published": _("An identification this family was told of was published. Tell the family again."),
    "rejected": _("An identification this family was told of was rejected on review. Tell the family again."),
    "withdrawn": _("An identification this family was told of was withdrawn. Tell the family again."),
    "set_aside": _("An identification this family was told of was set aside in favour of another claim. "
                   "Tell the family again."),
}


def describe(notice: Notice) -> str:
    """The notice in words, in the active language, from its structured fields (kind, status):
    never a raw status code nor an identifier in brackets."""
    if notice.kind == Notice.Kind.CANDIDATE:
        return str(_("A likely match was found for a report:"))
    if notice.kind == Notice.Kind.INFORM:
        return str(_("An identification was verified: inform the family of this report, then record it:"))
    if notice.kind == Notice.Kind.TELL:
        if notice.claim_id is not None or notice.status == "set_aside" and notice.identification_id is None:
            return str(_("The family's claim was set aside after review. Tell the family, in careful words:"))
        return str(_CHANGE.get(notice.status, _("An identification this family was told of has changed. "
                                                "Tell the family again.")))
    return str(_DECISION.get(notice.status, _("An identification of a report changed:")))
