"""The web's door into the identification app: candidates, claims, reviews, conflicts.

Pages never query the identification models directly; they ask here, so a change of those models
touches one file. Decisions go through ``athar.identification.claims`` (rules, audit, two reviewers).
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

VERDICTS = {"yes": "is_them", "no": "not_them", "unsure": "not_sure"}


def _model(name: str) -> Any:
    try:
        return apps.get_model("identification", name)
    except LookupError:
        return None


def candidate_model() -> Any:
    return _model("Candidate")


def claim_model() -> Any:
    return _model("Claim")


def persons_of(reports: QuerySet[Any]) -> QuerySet[Any]:
    """Missing persons the current linkage run assigns these reports to (ids)."""
    from athar.registry.models import ReportLink

    return ReportLink.objects.filter(run__is_current=True, report__in=reports).values("person_id")


def current_rankings(reports: QuerySet[Any]) -> QuerySet[Any]:
    """Current rankings of these reports: of their linked persons, or of the reports themselves."""
    model = _model("Ranking")
    return model.objects.filter(is_current=True).filter(
        Q(person_id__in=persons_of(reports)) | Q(report__in=reports, person__isnull=True))


def candidates_for_reports(reports: QuerySet[Any], for_family: bool = False) -> QuerySet[Any]:
    """Candidates of these reports. Families (and caseworkers for them) see likely matches only:
    when no case is a likely match, they see no list of bodies at all."""
    model = candidate_model()
    if model is None:
        return reports.none()
    rows = model.objects.filter(ranking__in=current_rankings(reports)).select_related(
        "case__facility", "case__archive", "ranking")
    if for_family:
        rows = rows.filter(likely_match=True)
    return rows.order_by("ranking_id", "rank")


def public_identifications() -> list[dict[str, Any]]:
    """Published identifications whose family consented to publication: facts only, never a photo."""
    from athar.registry.lookup import reports_of
    from athar.web.templatetags.athar_web import facility_label, partial_date, place_name

    model = _model("Identification")
    if model is None:
        return []
    rows = []
    for ident in model.objects.filter(status="published").select_related("case__facility").order_by("published_at"):
        reports = [r for r in reports_of(ident.person) if not r.erased_at]
        consenting = [r for r in reports if (r.consent or {}).get("publication")]
        if not consenting or any((r.consent or {}).get("publication") is False for r in reports):
            continue  # every family who reported him or her must agree
        report = consenting[0]
        rows.append({"name": report.full_name_ar or report.full_name_latin,
                     "hometown": report.city or place_name(report.governorate_ref),
                     "birth_year": report.birth_year, "facility": facility_label(ident.case.facility),
                     "arrested": partial_date(report.arrest_date, report.arrest_date_precision),
                     "photographed": partial_date(ident.case.photographed, ident.case.photographed_precision)})
    return rows


def measured_error_rates() -> dict[str, Any] | None:
    """The latest measured error rates of the matching method (none published yet)."""
    return None


def report_summary(report: Any) -> dict[str, Any]:
    """What a family sees about one report: its status in plain words, never a score."""
    one = type(report).objects.filter(pk=report.pk)
    count = candidates_for_reports(one, for_family=True).count() if candidate_model() is not None else 0
    consent = report.consent or {}
    if count:
        status = _("There is something to look at, when you are ready.")
    elif candidate_model() is None or not current_rankings(one).exists():
        status = _("Filed. The comparison with the archives has not been done yet.")
    else:
        status = _("Compared with the archives: no case is a likely match. This is not proof of anything; the report stays open and is compared again when new archives arrive.")
    return {"report": report, "status": status, "candidates": count,
            "face_consent": bool(consent.get("face_processing")), "photos": report.photos.count()}


def candidate_view(candidate: Any, reports: QuerySet[Any] | None = None) -> dict[str, Any]:
    """A candidate for a page: its case, the report it belongs to (among ``reports``), the reasons."""
    from athar.registry.models import Report

    ranking = candidate.ranking
    report = ranking.report
    if report is None:
        linked = Report.objects.filter(links__run__is_current=True, links__person_id=ranking.person_id)
        if reports is not None:
            linked = linked.filter(pk__in=reports.values("pk"))
        report = linked.order_by("pk").first()
    return {"obj": candidate, "pk": candidate.pk, "case": candidate.case, "report": report,
            "person": ranking.person, "reasons": [reason_text(r) for r in candidate.reasons or []],
            "likely": candidate.likely_match}


def reason_text(reason: Any) -> str:
    if isinstance(reason, dict):
        return str(reason.get("detail") or reason.get("feature") or "")
    return str(reason)


def claim_of(candidate: Any, user: Any) -> Any:
    """This user's active claim on the candidate's case for the same person, if any."""
    model = claim_model()
    if model is None or candidate.ranking.person_id is None:
        return None
    return model.objects.filter(person_id=candidate.ranking.person_id, case=candidate.case, by=user,
                                withdrawn_at__isnull=True).first()


def make_claim(candidate: Any, user: Any, verdict: str, relation: str = "") -> Any:
    """Record "this is him/her" (yes), "not him/her" (no) or "not sure" (unsure), replacing this
    user's earlier answer on the same case. ValueError when it cannot be recorded yet."""
    from django.db import transaction

    from athar.identification import claims

    person = candidate.ranking.person
    if person is None:
        raise ValueError(_("Your answer cannot be recorded yet: the report is still being prepared. Your caseworker will record it with you."))
    certainty = "unsure" if verdict == "unsure" else "probable"
    with transaction.atomic():
        earlier = claim_of(candidate, user)
        if earlier is not None:
            claims.withdraw_claim(earlier, user, "answer changed by the claimant")
        on_behalf = "family" if getattr(user, "role", "") == "caseworker" else ""
        return claims.make_claim(person, candidate.case, VERDICTS[verdict], user, certainty=certainty,
                                 relation=relation, on_behalf_of=on_behalf)


# ---- reviewers -------------------------------------------------------------------------------

def open_identifications() -> list[Any]:
    """Identifications waiting for review, with their approvals so far (the two-reviewer rule)."""
    model = _model("Identification")
    if model is None:
        return []
    rows = list(model.objects.filter(status="under_review").select_related("case__facility").order_by("created_at")[:200])
    for row in rows:
        row.approvals = row.reviews.filter(reversed_at__isnull=True, decision="approve").count()
        row.claim_count = claim_model().objects.filter(person=row.person, case=row.case, withdrawn_at__isnull=True).count()
    return rows


def open_conflicts() -> list[Any]:
    model = _model("Conflict")
    if model is None:
        return []
    return list(model.objects.filter(resolved_at__isnull=True).select_related("case__facility").order_by("opened_at")[:200])


def identification_view(identification_id: int) -> dict[str, Any] | None:
    """Everything the comparison page needs for one identification."""
    from athar.registry.lookup import reports_of

    model = _model("Identification")
    if model is None:
        return None
    ident = model.objects.filter(pk=identification_id).select_related("case__facility", "person").first()
    if ident is None:
        return None
    reports = reports_of(ident.person)
    candidate = (candidate_model().objects.filter(ranking__person=ident.person, ranking__is_current=True,
                                                  case=ident.case).first())
    claims = list(claim_model().objects.filter(person=ident.person, case=ident.case).order_by("created_at"))
    reviews = list(ident.reviews.filter(reversed_at__isnull=True).order_by("created_at"))
    conflicts = list(_model("Conflict").objects.filter(Q(person=ident.person) | Q(case=ident.case),
                                                       resolved_at__isnull=True))
    return {"obj": ident, "case": ident.case, "reports": reports, "report": reports[0] if reports else None,
            "reasons": [reason_text(r) for r in (candidate.reasons if candidate else [])],
            "score": candidate.score if candidate else None, "claims": claims, "reviews": reviews,
            "approvals": sum(1 for r in reviews if r.decision == "approve"), "conflicts": conflicts}


def decide(identification: Any, user: Any, decision: str, reason: str) -> Any:
    """A reviewer's approval or rejection, through the two-reviewer rules of the identification app."""
    from athar.identification import claims

    return claims.review(identification, user, decision, reason)


def notices_for(user: Any) -> list[dict[str, Any]]:
    """In-app notices for a caseworker: likely matches and decisions on their families' reports."""
    from athar.web import access

    if candidate_model() is None:
        return []
    reports = access.reports_visible_to(user)
    notices = []
    for candidate in candidates_for_reports(reports, for_family=True)[:50]:
        view = candidate_view(candidate, reports)
        notices.append({"report": view["report"], "kind": "candidate", "candidate": candidate.pk,
                        "text": _("A likely match was found for a report.")})
    model = _model("Identification")
    persons = persons_of(reports)
    for ident in model.objects.filter(person_id__in=persons).exclude(status="under_review")[:50]:
        notices.append({"kind": "decision", "text": _("A review decision was taken: %(status)s") % {
            "status": ident.get_status_display()}})
    return notices


def resolve_conflict(conflict_id: int, user: Any, reason: str) -> Any:
    """Resolve one open conflict (LookupError when there is none with this id)."""
    from athar.identification import conflicts

    conflict = _model("Conflict").objects.filter(pk=conflict_id).first()
    if conflict is None:
        raise LookupError(conflict_id)
    return conflicts.resolve(conflict, user, reason)
