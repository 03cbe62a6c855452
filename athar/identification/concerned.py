"""Which families an identification concerns: only evidence a family gave decides.

A report is *concerned* by "case C is person P" when its OWN evidence led there: its family (or its
caseworker for it) claimed C for P, or its own ranking listed C as a likely match. A report that
linkage tied to P by name alone is not: it neither blocks publication (consent, informing), nor is
told the outcome, nor reads "verified"/"published", and its caseworker sees nothing of the
identification, until a caseworker or reviewer confirms the link (a reviewed link decision
"same", ``registry.decisions``) with a concerned report. Then it is concerned like the others and
is told through its own caseworker.

Used by the rules (``claims``), by who-may-act (``policy``) and by the notices: one answer.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from athar.identification.models import Candidate, Claim, FamilyInformed, Verdict
from athar.registry.consent import publication_consent
from athar.registry.lookup import caseworker_ids, reports_of
from athar.registry.models import LinkDecision, Report
from athar.registry.models import Verdict as LinkVerdict


def _own_claim_lineages(ident: Any, linked: list[Report]) -> set[str]:
    """Lineages whose family (or caseworker for it) said "this is him/her" for this pair, in any
    state (a family that claimed and was set aside is still concerned by what became of it)."""
    rows = Claim.objects.filter(person_id=ident.person_id, case_id=ident.case_id, verdict=Verdict.IS_THEM)
    out = set(rows.filter(report__isnull=False).values_list("report__lineage", flat=True))
    for claim in rows.filter(report__isnull=True).select_related("by"):  # an old claim without its report
        out |= {r.lineage for r in linked if r.reporter_user_id == claim.by_id or claim.by_id in caseworker_ids(r)}
    return out


def _own_ranking_lineages(ident: Any, linked: list[Report]) -> set[str]:
    """Linked reports whose own current ranking listed this case as a likely match."""
    rows = Candidate.objects.filter(case_id=ident.case_id, likely_match=True, ranking__is_current=True,
                                    ranking__person__isnull=True, ranking__report__in=linked)
    return set(rows.values_list("ranking__report__lineage", flat=True))


def confirmed_with(lineages: set[str], candidates: set[str]) -> set[str]:
    """Of ``candidates``, those tied to ``lineages`` (transitively) by a reviewed "same" decision
    in force."""
    rows = list(LinkDecision.objects.filter(verdict=LinkVerdict.SAME, reversed_by__isnull=True)
                .filter(Q(left_lineage__in=candidates) | Q(right_lineage__in=candidates))
                .values_list("left_lineage", "right_lineage"))
    known, grew = set(lineages), True
    while grew:
        grew = False
        for left, right in rows:
            for a, b in ((left, right), (right, left)):
                if a in known and b in candidates and b not in known:
                    known.add(b)
                    grew = True
    return known & candidates


def concerned_lineages(ident: Any) -> set[str]:
    """Lineages of the reports this identification concerns (see the module docstring)."""
    linked = [r for r in reports_of(ident.person)]
    own = _own_claim_lineages(ident, linked) | _own_ranking_lineages(ident, linked)
    return own | confirmed_with(own, {r.lineage for r in linked})


def family_reports(ident: Any) -> list[Report]:
    """The concerned reports, one per family, each as its family last wrote it (its current,
    not erased version: a consent withdrawn in a new version is never outvoted by the old one)."""
    return list(Report.objects.current().filter(lineage__in=concerned_lineages(ident),
                                      erased_at__isnull=True).order_by("id"))


def name_only_reports(ident: Any) -> list[Report]:
    """Reports linked to the person by name alone: for reviewers to see, never to block or be told."""
    concerned = concerned_lineages(ident)
    return [r for r in reports_of(ident.person) if r.lineage not in concerned and not r.erased_at]


def informed_lineages(ident: Any) -> set[str]:
    """The reports (by lineage: every version of one report) whose family was told of this
    identification. Changing a report after being told does not undo having been told; the
    records are never deleted."""
    return set(FamilyInformed.objects.filter(identification=ident).values_list("report__lineage", flat=True))


def report_consents_to_publication(report: Report) -> bool:
    """The one place the lifecycle reads publication consent: the family's latest word, however it
    was given (the web, or recorded by staff on paper, by phone, in person, or by an import)."""
    return publication_consent(report).given
