"""The web's only door into the identification app (candidates, claims, reviews, conflicts).

The identification app is being written alongside the web; until its models exist these helpers
answer "nothing yet" so the pages that need them say so instead of pretending (docs/web.md).
"""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import QuerySet


def _model(name: str) -> Any:
    try:
        return apps.get_model("identification", name)
    except LookupError:
        return None


def candidate_model() -> Any:
    return _model("Candidate")


def candidates_for_reports(reports: QuerySet[Any], for_family: bool = False) -> QuerySet[Any]:
    """Candidates of these reports (families: only likely matches shown to families)."""
    model = candidate_model()
    if model is None:
        return reports.none()
    return model.objects.filter(report__in=reports)


def public_identifications() -> list[dict[str, Any]]:
    """Identified people whose families consented to publication: name, hometown, birth year,
    facility, dates. Never a photo. Empty until the identification app provides them."""
    model = _model("Identification")
    if model is None or not hasattr(model, "public_rows"):
        return []
    return list(model.public_rows())


def measured_error_rates() -> dict[str, Any] | None:
    """The latest measured error rates of the matching method, if the identification app has them."""
    try:
        from athar.identification import metrics  # type: ignore[attr-defined]
    except ImportError:
        return None
    return metrics.latest() if hasattr(metrics, "latest") else None


def report_summary(report: Any) -> dict[str, Any]:
    """What a family sees about one report: its status in plain words, never a score."""
    from django.utils.translation import gettext as _

    candidates = candidates_for_reports(type(report).objects.filter(pk=report.pk), for_family=True)
    count = candidates.count() if candidate_model() is not None else 0
    consent = report.consent or {}
    if count:
        status = _("There is something to look at, when you are ready.")
    elif candidate_model() is None or not report_compared(report):
        status = _("Filed. The comparison with the archives has not been done yet.")
    else:
        status = _("Compared with the archives: no case is a likely match. This is not proof of anything; the report stays open and is compared again when new archives arrive.")
    return {"report": report, "status": status, "candidates": count,
            "face_consent": bool(consent.get("face_processing")), "photos": report.photos.count()}


def report_compared(report: Any) -> bool:
    """Whether the identification app has ranked candidates for this report at least once."""
    model = _model("Ranking")
    if model is None:
        return False
    return bool(model.objects.filter(report=report).exists())


def candidate_view(candidate: Any) -> dict[str, Any]:
    """The fields a page shows for a candidate (adapter over the identification model)."""
    return {"obj": candidate, "pk": candidate.pk, "case": candidate.case, "report": candidate.report,
            "reasons": list(getattr(candidate, "reasons", None) or []),
            "likely": bool(getattr(candidate, "likely_match", False))}


def claim_of(candidate: Any, user: Any) -> Any:
    """The family's existing claim on this candidate, if any."""
    model = _model("Claim")
    if model is None:
        return None
    return model.objects.filter(candidate=candidate).order_by("-pk").first()


def make_claim(candidate: Any, user: Any, verdict: str, note: str) -> Any:
    """Record "this is him/her" (yes), "not him/her" (no) or "not sure" (unsure)."""
    raise NotImplementedError("claims need the identification app")


def notices_for(user: Any) -> list[dict[str, Any]]:
    """In-app notices for a caseworker: new candidates and decisions on their families' reports."""
    model = _model("Notice")
    if model is None:
        return []
    return list(model.objects.filter(user=user).order_by("-pk")[:50].values())


def claim_model() -> Any:
    return _model("Claim")


def open_claims(user: Any) -> list[Any]:
    """Claims waiting for a review (not yet reviewed by this user, the two-reviewer rule)."""
    model = claim_model()
    if model is None:
        return []
    return list(model.objects.all().order_by("pk")[:200])


def open_conflicts() -> list[Any]:
    model = _model("Conflict")
    if model is None:
        return []
    return list(model.objects.all().order_by("pk")[:200])


def claim_view(claim_id: int) -> dict[str, Any] | None:
    model = claim_model()
    if model is None:
        return None
    claim = model.objects.filter(pk=claim_id).first()
    if claim is None:
        return None
    cand = candidate_view(claim.candidate)
    return {"obj": claim, "case": cand["case"], "report": cand["report"], "candidate": cand, "reviews": []}


def decide(claim: Any, user: Any, decision: str, reason: str) -> None:
    raise ValueError("reviews need the identification app")
