"""A conflict for reviewers, side by side: for each claim, the person as the family reported them
(names as written), which family and how its report came in, the relation, the facts the family
reported beside the case's, and the ranking's evidence for that case; a resolved conflict says who
resolved it, when, and why.

Never a contact detail: families are named by their account number and the way their report came
in (a family's login may be its phone number); staff by their display name. Not how sure a family
felt either: reviewers judge the evidence, not the conviction.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from athar.identification import comparison
from athar.identification.models import Candidate, Claim, Conflict
from athar.registry.models import Report


def staff_name(user: Any) -> str:
    """A staff member as colleagues know them: the display name, else the role and account number."""
    if user is None:
        return ""
    return user.display_name or _("%(role)s no. %(number)s") % {"role": user.get_role_display(), "number": user.pk}


def _current(report: Report | None) -> Report | None:
    """The family's report as it last wrote it (claims may name an older version)."""
    if report is None:
        return None
    return Report.objects.current().filter(lineage=report.lineage).first() or report


def family_of(report: Report | None, claim: Claim) -> dict[str, str]:
    """Which family, and how its report came in: filed by the family, by a caseworker for it, or imported."""
    if report is None:
        return {"family": _("no report named"), "how": ""}
    owner = report.reporter_user
    family = _("family account no. %(number)s") % {"number": owner.pk} if owner else _("no family account")
    if report.batch_id:
        how = _("from an imported list (%(source)s)") % {"source": report.source}
    elif owner is not None and claim.by_id == owner.pk:
        how = _("filed and claimed by the family itself")
    else:
        how = _("claimed by caseworker %(name)s for the family") % {"name": staff_name(claim.by)}
    return {"family": family, "how": how}


def _evidence(claim: Claim) -> dict[str, Any]:
    candidate = (Candidate.objects.filter(ranking__person_id=claim.person_id, ranking__is_current=True,
                                          case_id=claim.case_id).select_related("ranking").first())
    if candidate is None:
        return {"scale": None, "reasons": []}
    return {"scale": comparison.score_scale(candidate), "reasons": comparison.reason_rows(candidate.reasons)}


def _state(claim: Claim, conflict: Conflict) -> str:
    if claim.withdrawn_at:
        return "withdrawn"
    if claim.set_aside_at:
        return "set_aside"
    return "kept" if conflict.kept_claim_id == claim.pk else "open"


def claim_side(claim: Claim, conflict: Conflict) -> dict[str, Any]:
    """One claim of a conflict, as reviewers compare it."""
    report = _current(claim.report)
    erased = report is not None and report.erased_at is not None
    side: dict[str, Any] = {
        "claim": claim, "pk": claim.pk, "case": claim.case, "person": claim.person_id, "state": _state(claim, conflict),
        "name_ar": "" if erased or report is None else report.full_name_ar,
        "name_latin": "" if erased or report is None else report.full_name_latin,
        "erased": erased, "relation": claim.relation or (report.reporter_relation if report and not erased else ""),
        **family_of(report, claim),
        "facts": comparison.facts_side_by_side(report, claim.case) if report is not None and not erased else [],
        **_evidence(claim),
    }
    return side


def conflict_sides(conflict: Conflict, *, live_only: bool) -> list[dict[str, Any]]:
    """The claims of a conflict side by side (open: the live claims a reviewer chooses between;
    resolved: every claim it held, with what became of each)."""
    claims = conflict.claims.live() if live_only else conflict.claims.all()
    rows = claims.select_related("case__facility", "by", "report__reporter_user").order_by("created_at")
    return [claim_side(c, conflict) for c in rows]


def resolution_of(conflict: Conflict) -> dict[str, Any] | None:
    """Who resolved it, when, why, and which claim was let stand (None: not resolved)."""
    if conflict.resolved_at is None:
        return None
    return {"by": staff_name(conflict.resolved_by), "at": conflict.resolved_at, "reason": conflict.resolution,
            "kept": conflict.kept_claim_id}
