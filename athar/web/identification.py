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
