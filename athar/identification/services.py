"""The identification services the web and the API share: candidates, claims, reviews, conflicts,
publication.

Interfaces never query the identification models directly; they ask here (and ``policy`` for who may
see what), so a change of those models touches one file. Decisions go through ``athar.identification.claims`` (rules, audit, two reviewers).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext_lazy

from athar.audit.chain import actor_for_user
from athar.core.labels import facility_label, partial_date, place_name
from athar.identification import claims, comparison, conflict_sides, conflicts, explanations, notices, policy
from athar.identification.comparison import reason_parts
from athar.identification.concerned import concerned_lineages
from athar.identification.models import (
    Candidate,
    Claim,
    Conflict,
    FamilyInformed,
    Identification,
    Review,
)
from athar.identification.policy import candidates_for_reports, current_rankings
from athar.identification.ranking import adopt_report_ranking
from athar.registry import lookup
from athar.registry.consent import publication_consent
from athar.registry.lookup import current_run, ensure_person, person_of
from athar.registry.models import Report, ReportDraft, ReportLink

VERDICTS = {"yes": "is_them", "no": "not_them", "unsure": "not_sure"}


def public_identifications() -> list[dict[str, Any]]:
    """Published identifications whose family consented to publication: facts only, never a photo."""
    rows = []
    for ident in Identification.objects.filter(status="published").select_related("case__facility").order_by("published_at"):
        row = public_row(ident)
        if row is not None:
            rows.append(row)
    return rows


def public_row(ident: Identification) -> dict[str, Any] | None:
    """The one row the public list shows of an identification (facts only, never a photo), or None
    when no family that was told has agreed. The publication's confirmation step shows this very
    row, so what the caseworker confirms is what becomes public."""
    informed = claims.informed_lineages(ident)
    consenting = [r for r in claims.family_reports(ident)
                  if r.lineage in informed and claims.report_consents_to_publication(r)]
    if not consenting:
        return None  # only what a family that was told, and agreed, gave is ever shown
    report = consenting[0]
    return {"name": report.full_name_ar or report.full_name_latin,
            "hometown": report.city or place_name(report.governorate_ref),
            "birth_year": report.birth_year, "facility": facility_label(ident.case.facility),
            "arrested": partial_date(report.arrest_date, report.arrest_date_precision),
            "photographed": partial_date(ident.case.photographed, ident.case.photographed_precision)}


SEARCH_STATUS_TEXT = {
    # Caseworkers see only a phone number's last digits: the family takes the first step.
    "awaiting_caseworker": gettext_lazy("Your report is filed. No caseworker looks after it yet: contact the "
                                        "organisation (how, on your page) and read them the code from \"Code for "
                                        "a caseworker\". Results are shown only after a caseworker has taken on "
                                        "your report with your agreement."),
    "not_compared": gettext_lazy("Filed. The comparison with the archives has not been done yet."),
    "no_likely_match": gettext_lazy("Compared with the archives: no case is a likely match. This is not proof of "
                                    "anything; the report stays open and is compared again when new archives arrive."),
    "to_look_at": gettext_lazy("Compared with the archives. There is something to look at, when you are ready."),
    "under_review": gettext_lazy("A possible match is under review by two reviewers. Nothing is certain until "
                                 "they have finished; your caseworker will be in touch."),
    "set_aside": gettext_lazy("After review, the case you recognised was identified as someone else. It is no "
                              "longer shown to you as a possible match. Your caseworker will explain, and can ask "
                              "the reviewers to look again if you wish."),
    "verified": gettext_lazy("An identification has been verified. Your caseworker will contact you."),
    "published": gettext_lazy("An identification was verified and, with your consent, published."),
}


# The same steps as staff read them in a list (short, no words meant for a grieving family).
STAFF_STATUS_TEXT = {
    "awaiting_caseworker": gettext_lazy("Waiting for a caseworker to take the family on"),
    "not_compared": gettext_lazy("Not compared with the archives yet"),
    "no_likely_match": gettext_lazy("Compared: no likely match"),
    "to_look_at": gettext_lazy("Compared: likely matches to look at"),
    "under_review": gettext_lazy("The family named a case: under review"),
    "set_aside": gettext_lazy("The case the family named was identified as someone else: tell the family"),
    "verified": gettext_lazy("Verified; the family was informed"),
    "published": gettext_lazy("Published"),
}


def search_status(report: Any, viewer: Any = None) -> str:
    """Where this report's search stands, from its own evidence and its own family's steps only."""
    if viewer is not None and getattr(viewer, "role", "") == "family" and not viewer.caseworker_id:
        return "awaiting_caseworker"
    informed = FamilyInformed.objects.filter(report__lineage=report.lineage).values("identification_id")
    told = next((i for i in Identification.objects.active().filter(pk__in=informed)
                 if report.lineage in concerned_lineages(i)), None)  # never through a name-only link
    if told is not None:
        publishes = told.status == "published" and claims.report_consents_to_publication(report)
        return "published" if publishes else "verified"
    own_claims = Claim.objects.live().positive().filter(report__lineage=report.lineage)
    if own_claims.exists():
        return "under_review"
    if Claim.objects.set_aside().positive().filter(report__lineage=report.lineage).exists():
        return "set_aside"
    one = type(report).objects.filter(pk=report.pk)
    if not current_rankings(one).exists():
        return "not_compared"
    return "to_look_at" if candidates_for_reports(one, for_family=True).exists() else "no_likely_match"


def report_summary(report: Any, viewer: Any = None) -> dict[str, Any]:
    """What a family sees about one report: its status in plain words, never a score."""
    return report_summaries([report], viewer)[0]


def report_summaries(reports: list[Any], viewer: Any = None) -> list[dict[str, Any]]:
    """``report_summary`` for a whole list in a fixed number of queries (the caseworker home lists
    up to 200 reports): the same steps as ``search_status``, each asked once for every report.
    Only a report whose family was already told of an identification costs more (its concerned
    families are worked out per identification, as ``search_status`` does)."""
    reports = list(reports)
    if not reports:
        return []
    model = type(reports[0])
    ids = [r.pk for r in reports]
    lineages = {r.lineage for r in reports}
    one_set = model.objects.filter(pk__in=ids)
    informed: dict[str, set[int]] = {}
    for lineage, ident_id in FamilyInformed.objects.filter(report__lineage__in=lineages).values_list(
            "report__lineage", "identification_id"):
        informed.setdefault(lineage, set()).add(ident_id)
    told_idents = list(Identification.objects.active().filter(
        pk__in={i for v in informed.values() for i in v}).order_by("pk")) if informed else []
    concerned: dict[int, set[str]] = {}
    claimed = set(Claim.objects.live().positive().filter(report__lineage__in=lineages)
                  .values_list("report__lineage", flat=True))
    set_aside = set(Claim.objects.set_aside().positive().filter(report__lineage__in=lineages)
                    .values_list("report__lineage", flat=True))
    ranked = set(current_rankings(one_set).values_list("report_id", flat=True))
    counts = dict(candidates_for_reports(one_set, for_family=True).order_by().values("ranking__report_id")
                  .annotate(n=Count("pk")).values_list("ranking__report_id", "n"))
    photos = dict(model.objects.filter(pk__in=ids).annotate(n=Count("photos")).values_list("pk", "n"))
    out = []
    for report in reports:
        code = _status_code(report, viewer, told_idents, informed, concerned, claimed, set_aside, ranked, counts)
        consent = report.consent or {}
        out.append({"report": report, "status": SEARCH_STATUS_TEXT[code], "staff_status": STAFF_STATUS_TEXT[code],
                    "status_code": code, "candidates": 0 if code == "awaiting_caseworker" else counts.get(report.pk, 0),
                    "face_consent": bool(consent.get("face_processing")), "photos": photos.get(report.pk, 0)})
    return out


DECIDED_STATUSES = ("verified", "published")


def group_by_person(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``report_summaries`` gathered by the missing person the current linkage run gives each
    report, in the list's order (a person where its first report is): three reports of one man
    read as one person, each with its source and its own status, not as three unrelated rows.

    Only regrouping: the reports are those the list already holds (what the viewer may see), and
    each keeps its own status, since a link is the registry's guess and never moves another
    family's outcome. A person with a decided report (verified or published) and another still
    open says so (``decided_elsewhere``): the caseworker checks that it is the same person before
    telling that family anything. One query."""
    run = current_run()
    ids = [s["report"].pk for s in summaries]
    person_of_report = dict(ReportLink.objects.filter(run=run, report_id__in=ids).values_list(
        "report_id", "person_id")) if run is not None and ids else {}
    groups: dict[Any, dict[str, Any]] = {}
    for summary in summaries:
        report_id = summary["report"].pk
        person_id = person_of_report.get(report_id)
        key = person_id if person_id is not None else ("report", report_id)
        groups.setdefault(key, {"person_id": person_id, "items": []})["items"].append(summary)
    for group in groups.values():
        codes = [s["status_code"] for s in group["items"]]
        group["decided_elsewhere"] = (len(codes) > 1 and any(c in DECIDED_STATUSES for c in codes)
                                      and any(c not in DECIDED_STATUSES for c in codes))
    return list(groups.values())


def _status_code(report: Any, viewer: Any, told_idents: list[Any], informed: dict[str, set[int]],
                 concerned: dict[int, set[str]], claimed: set[str], set_aside: set[str], ranked: set[int],
                 counts: dict[int, int]) -> str:
    """``search_status`` from answers fetched for the whole list (see ``report_summaries``)."""
    if viewer is not None and getattr(viewer, "role", "") == "family" and not viewer.caseworker_id:
        return "awaiting_caseworker"
    for ident in told_idents:
        if ident.pk not in informed.get(report.lineage, ()):
            continue
        if ident.pk not in concerned:
            concerned[ident.pk] = concerned_lineages(ident)
        if report.lineage in concerned[ident.pk]:  # never through a name-only link
            publishes = ident.status == "published" and claims.report_consents_to_publication(report)
            return "published" if publishes else "verified"
    if report.lineage in claimed:
        return "under_review"
    if report.lineage in set_aside:
        return "set_aside"
    if report.pk not in ranked:
        return "not_compared"
    return "to_look_at" if counts.get(report.pk, 0) else "no_likely_match"


def candidate_view(candidate: Any, reports: QuerySet[Any] | None = None) -> dict[str, Any]:
    """A candidate for a page: its case, the report it belongs to (among ``reports``), the reasons."""
    return {"obj": candidate, "pk": candidate.pk, "case": candidate.case, "report": candidate_report(candidate, reports),
            "person": candidate.ranking.person, "reasons": [reason_text(r) for r in candidate.reasons or []],
            "likely": candidate.likely_match}


def candidate_report(candidate: Any, reports: QuerySet[Any] | None = None) -> Any:
    """The report a candidate was ranked for: its ranking's own, or for a person's ranking the first
    report of that person among ``reports`` (the ones the reader may see)."""
    ranking = candidate.ranking
    if ranking.report is not None:
        return ranking.report
    linked = Report.objects.filter(links__run__is_current=True, links__person_id=ranking.person_id)
    if reports is not None:
        linked = linked.filter(pk__in=reports.values("pk"))
    return linked.order_by("pk").first()


def candidate_scale(candidate: Any) -> dict[str, Any]:
    """For staff: the candidate's probability as a per cent and what it means."""
    return comparison.score_scale(candidate)


def candidate_reasons(candidate: Any, report: Any = None) -> list[dict[str, Any]]:
    """For staff: the candidate's reasons in the page's language, with the values each compared
    (``report``: the report the page shows; else the ranking's own report)."""
    return comparison.reason_rows(candidate.reasons, report or candidate.ranking.report, candidate.case)


def family_explanation(candidate: Any, report: Any) -> dict[str, Any]:
    """For the family: why this case was suggested (which of their facts agree, which differ, in
    careful words), what they reported beside what the archive records, and whether faces were
    compared at all (only then is "similar faces are many" said)."""
    facts = comparison.facts_side_by_side(report, candidate.case) if report is not None else []
    return {**explanations.family_reasons(candidate.reasons), "facts": [f for f in facts if f["report"] or f["case"]],
            "face_compared": faces_compared(candidate), "case_has_face": candidate.case.faces.exists()}


def faces_compared(candidate: Any) -> bool:
    """Whether the ranking compared a face of the case with the family's photos (the case has a
    usable face and the family gave a photo): only then may a page speak of similar faces."""
    return any(isinstance(r, dict) and r.get("feature") == "face" and r.get("level") == "similarity"
               for r in candidate.reasons or [])


def reason_text(reason: Any) -> str:
    """One reason in the reader's language ('Sex: the same'), never the matching core's English."""
    return reason_parts(reason)["label"]


def claim_of(candidate: Any, user: Any) -> Any:
    """This user's live claim on the candidate's case, made from the same report (or person), if any."""
    ranking = candidate.ranking
    rows = Claim.objects.not_withdrawn().filter(case=candidate.case, by=user)
    if ranking.report is not None:  # any version of the report: an answer outlives an edit
        return rows.filter(report__lineage=ranking.report.lineage).first()
    return rows.filter(person_id=ranking.person_id).first()


def make_claim(candidate: Any, user: Any, verdict: str, relation: str = "") -> Any:
    """Record "this is him/her" (yes), "not him/her" (no) or "not sure" (unsure), replacing this
    user's earlier answer on the same case. ValueError when it cannot be recorded yet."""
    certainty = "unsure" if verdict == "unsure" else "probable"
    report = candidate.ranking.report
    with transaction.atomic():
        person = candidate.ranking.person or (report and person_of(report)) or _provisional_person(candidate, user)
        earlier = claim_of(candidate, user)
        if earlier is not None:
            claims.withdraw_claim(earlier, user, "answer changed by the claimant")
        on_behalf = "family" if getattr(user, "role", "") == "caseworker" else ""
        return claims.make_claim(person, candidate.case, VERDICTS[verdict], user, certainty=certainty,
                                 relation=relation, on_behalf_of=on_behalf, report=report)


def _provisional_person(candidate: Any, user: Any) -> Any:
    """A report filed since the last linkage run: give it its own person (its ranking is copied
    as the person's, for reviewers; the family keeps seeing its report's own ranking)."""
    report = candidate.ranking.report
    person = ensure_person(report, actor=actor_for_user(user))
    adopt_report_ranking(report, person)
    return person


# ---- reviewers -------------------------------------------------------------------------------

def open_identifications(user: Any = None) -> list[Any]:
    """Identifications waiting for review, with their approvals so far (the two-reviewer rule).
    ``mine`` says why ``user`` may not review one now: "reviewed" (their live review is in: another
    reviewer must decide) or "claimed" (not independent); "" when it waits for them."""
    rows: list[Any] = list(Identification.objects.filter(status="under_review").select_related("case__facility")
                           .order_by("created_at")[:200])
    ids = [r.pk for r in rows]
    live_reviews = Review.objects.filter(identification_id__in=ids, reversed_at__isnull=True)
    reviewed = set(live_reviews.filter(reviewer=user).values_list("identification_id", flat=True)) \
        if user is not None else set()
    approvals = Counter(live_reviews.filter(decision="approve").values_list("identification_id", flat=True))
    # The claims on each (person, case) pair, in one query whatever the number of rows: the count
    # is of live claims (a withdrawn or set-aside claim no longer counts); independence looks at
    # every claim the user ever made on the pair.
    keys = {(r.person_id, r.case_id) for r in rows}
    on_pairs = Claim.objects.filter(person_id__in={k[0] for k in keys}, case_id__in={k[1] for k in keys})
    live = Counter(k for k in on_pairs.live().values_list("person_id", "case_id") if k in keys)
    mine = {k for k in on_pairs.filter(by=user).values_list("person_id", "case_id") if k in keys} \
        if user is not None else set()
    for row in rows:
        key = (row.person_id, row.case_id)
        row.approvals, row.claim_count = approvals[row.pk], live[key]
        row.mine = "reviewed" if row.pk in reviewed else "claimed" if key in mine else ""
    return rows


def recent_decisions(user: Any = None, limit: int = 50) -> list[Any]:
    """The reviewers' decisions (reviews), newest first, each with its identification and whether
    ``user`` made it (``by_me``); reversed ones stay listed, marked, because they were decisions."""
    rows: list[Any] = list(Review.objects.select_related("identification__case__facility")
                           .order_by("-created_at", "-pk")[:limit])
    for row in rows:
        row.by_me = user is not None and row.reviewer_id == user.pk
    return rows


def recently_resolved_conflicts() -> list[Any]:
    """Resolved conflicts, newest first, each with who resolved it, when and why, and its claims
    side by side with what became of each."""
    rows: list[Any] = list(Conflict.objects.filter(resolved_at__isnull=False)
                           .select_related("case__facility", "resolved_by").order_by("-resolved_at")[:50])
    for row in rows:
        row.resolved = conflict_sides.resolution_of(row)
        row.sides = conflict_sides.conflict_sides(row, live_only=False)
    return rows


def reverse_review(review_id: int, identification_id: int, user: Any, reason: str) -> Any:
    """Reverse one review of this identification (LookupError when there is none)."""
    row = Review.objects.filter(pk=review_id, identification_id=identification_id).first()
    if row is None:
        raise LookupError(review_id)
    return claims.reverse_review(row, user, reason)


def reopen_conflict(conflict_id: int, user: Any, reason: str) -> Any:
    """Reverse a conflict's resolution (LookupError when there is no such conflict)."""
    conflict = Conflict.objects.filter(pk=conflict_id).first()
    if conflict is None:
        raise LookupError(conflict_id)
    return conflicts.reopen(conflict, user, reason)


def open_conflicts() -> list[Any]:
    """Open conflicts, each with its open claims and the identification each claim carries (the
    reviewer chooses which claim stands)."""
    rows: list[Any] = list(Conflict.objects.filter(resolved_at__isnull=True).select_related("case__facility").order_by("opened_at")[:200])
    idents = Identification.objects
    for row in rows:
        row.open_claims = list(row.claims.live()
                               .select_related("case__facility", "by").order_by("created_at"))
        for claim in row.open_claims:
            claim.identification = idents.filter(person_id=claim.person_id, case_id=claim.case_id).first()
        row.sides = conflict_sides.conflict_sides(row, live_only=True)
        for side in row.sides:
            side["identification"] = next((c.identification for c in row.open_claims if c.pk == side["pk"]), None)
    return rows


def identification_view(identification_id: int, user: Any = None) -> dict[str, Any] | None:
    """Everything the comparison page needs for one identification; ``my_review`` is ``user``'s live
    review and ``claimed_by_me`` whether ``user`` claimed it (then they may not decide)."""
    ident = Identification.objects.filter(pk=identification_id).select_related("case__facility", "person").first()
    if ident is None:
        return None
    reports = claims.family_reports(ident)  # as each family last wrote it
    candidate = (Candidate.objects.filter(ranking__person=ident.person, ranking__is_current=True,
                                                  case=ident.case).first())
    claim_rows = list(Claim.objects.filter(person=ident.person, case=ident.case).order_by("created_at"))
    reviews = list(ident.reviews.filter(reversed_at__isnull=True).order_by("created_at"))
    conflicts = list(Conflict.objects.filter(Q(person=ident.person) | Q(case=ident.case),
                                                       resolved_at__isnull=True))
    report = reports[0] if reports else None
    mine = next((r for r in reviews if user is not None and r.reviewer_id == user.pk), None)
    return {"obj": ident, "case": ident.case, "reports": reports, "report": report,
            "reasons": [reason_text(r) for r in (candidate.reasons if candidate else [])],
            "reason_rows": comparison.reason_rows(candidate.reasons if candidate else [], report, ident.case),
            "scale": comparison.score_scale(candidate) if candidate else None,
            "facts": [comparison.facts_side_by_side(r, ident.case) for r in reports],
            "score": candidate.score if candidate else None, "claims": claim_rows, "reviews": reviews,
            "approvals": sum(1 for r in reviews if r.decision == "approve"), "conflicts": conflicts,
            "my_review": mine, "claimed_by_me": user is not None and any(c.by_id == user.pk for c in claim_rows)}


def decide(identification: Any, user: Any, decision: str, reason: str) -> Any:
    """A reviewer's approval or rejection, through the two-reviewer rules of the identification app."""
    return claims.review(identification, user, decision, reason)


def resolve_conflict(conflict_id: int, user: Any, reason: str, keep: str) -> Any:
    """Resolve one open conflict by choosing the claim that stands (``keep``: a claim id, or
    "none"). LookupError when there is no such conflict or claim."""
    conflict = Conflict.objects.filter(pk=conflict_id).first()
    if conflict is None:
        raise LookupError(conflict_id)
    kept = None
    if keep != "none":
        kept = Claim.objects.filter(pk=int(keep)).first() if keep.isdigit() else None
        if kept is None:
            raise LookupError(keep)
    return conflicts.resolve(conflict, user, reason, keep=kept)


# ---- the family first: a caseworker's publication step ------------------------------------------

def publication_view(identification_id: int, user: Any) -> dict[str, Any] | None:
    """What a caseworker (or administrator) sees of a verified identification touching its
    families: its own families' reports, informed or not, consenting or not; other families only
    as a count (never their names). None when it touches none of the user's reports."""
    ident = Identification.objects.filter(pk=identification_id).select_related("case__facility").first()
    if ident is None:
        return None
    if not policy.may_see_identification(user, ident):
        return None  # never to a name-only link's caseworker
    mine_ids = set(policy.reports_visible_to(user).values_list("pk", flat=True))
    reports = claims.family_reports(ident)
    mine = [r for r in reports if r.pk in mine_ids]
    if not mine:
        return None
    informed = claims.informed_lineages(ident)
    blockers = claims.publication_blockers(ident)
    others = [b for b in blockers if b.get("report") and b["report"] not in mine_ids]
    return {"obj": ident, "case": ident.case,
            "mine": [{"report": r, "informed": r.lineage in informed,
                      "consents": claims.report_consents_to_publication(r),
                      "consent_how": publication_consent(r).how} for r in mine],
            "challenges": list(ident.challenges.order_by("-opened_at")),
            "other_families_waiting": len({b["report"] for b in others}),
            "all_informed": all(r.lineage in informed for r in reports),
            "can_publish": not blockers, "blockers": sorted({b["rule"] for b in blockers})}


def record_informed(identification_id: int, report_id: int, user: Any, informed_on: Any, method: str) -> Any:
    ident = Identification.objects.filter(pk=identification_id).first()
    report = policy.reports_visible_to(user).filter(pk=report_id).first()
    if ident is None or report is None:
        raise LookupError(identification_id)
    return claims.record_family_informed(ident, report, user, informed_on=informed_on, method=method)


def publish(identification_id: int, user: Any) -> Any:

    ident = Identification.objects.filter(pk=identification_id).first()
    if ident is None:
        raise LookupError(identification_id)
    return claims.publish(ident, user)


def open_inform_tasks(user: Any) -> list[Any]:
    """Open 'inform' and 'tell the family' tasks; a set-aside task carries the reviewer's reason."""
    return list(notices.open_tasks(user)[:50])


def mark_told(user: Any, notice_id: int) -> Any:
    """Close one of this caseworker's 'tell the family' tasks (LookupError for anyone else's)."""
    return notices.mark_told(user, notice_id)


# ---- challenges: a decided identification questioned while the decision stands ----------------

def request_challenge_for_claim(claim_id: int, user: Any, reason: str) -> Any:
    """A caseworker asks reviewers to look again, for the family of a set-aside claim (or one the
    identification concerns): the decided identification of the claim's case. LookupError when the
    caseworker may not see the claim or nothing decided holds the case."""
    from athar.identification import challenges

    claim = policy.claims_visible_to(user).filter(pk=claim_id).select_related("report").first()
    if claim is None or claim.report is None:
        raise LookupError(claim_id)
    ident = Identification.objects.active().filter(case_id=claim.case_id).first()
    if ident is None:
        raise ValueError(gettext_lazy("nothing decided holds this case: there is nothing to challenge"))
    report = Report.objects.current().filter(lineage=claim.report.lineage).first() or claim.report
    return challenges.request_challenge(ident, report, user, reason)


def open_challenges() -> list[Any]:
    from athar.identification import challenges

    return challenges.open_challenges()


def challenge_view(challenge_id: int, user: Any) -> dict[str, Any] | None:
    """A challenge as a reviewer reads it (``challenges.view``); None when there is no such
    challenge or ``user`` may not decide challenges."""
    from athar.identification import challenges
    from athar.identification.models import Challenge

    row = Challenge.objects.filter(pk=challenge_id).first()
    if row is None or not policy.may_decide_conflicts(user):
        return None
    return challenges.view(row)


def decide_challenge(challenge_id: int, user: Any, uphold: bool, reason: str) -> Any:
    """Uphold or dismiss: the one decision the web, the API and ``athar conflicts decide-challenge``
    take (``challenges.decide``). LookupError when there is no such challenge."""
    from athar.identification import challenges
    from athar.identification.models import Challenge

    row = Challenge.objects.filter(pk=challenge_id).first()
    if row is None:
        raise LookupError(challenge_id)
    return challenges.decide(row, user, uphold, reason)


# ---- caseworkers: the staff candidate list of one report ----------------------------------------

def staff_candidate_list(user: Any, report: Any, facility: Any = None, since: Any = None, until: Any = None,
                         sex: str = "") -> dict[str, Any]:
    """Every ranked case of the report's own current ranking (best first) with its probability on
    a stated scale, its reasons and the facts side by side; filtered by the case's facility, the
    day it was photographed and its sex. Empty for anyone but the report's caseworker or an admin."""
    rows = policy.staff_candidates(user, report).select_related("case__facility__agency", "ranking")
    ranked = rows.count()
    if facility is not None:
        rows = rows.filter(case__facility=facility)
    if since:
        rows = rows.filter(case__photographed__gte=since)
    if until:
        rows = rows.filter(case__photographed__lte=until)
    if sex:
        rows = rows.filter(case__sex=sex)
    ranking = current_rankings(Report.objects.filter(pk=report.pk)).first()
    return {"report": report, "ranking": ranking, "ranked": ranked, "items": StaffCandidates(report, rows),
            "threshold": comparison.percent(comparison.likely_threshold(ranking.algorithm)) if ranking else ""}


class StaffCandidates(Sequence[dict[str, Any]]):
    """The ranked cases of a staff list, each with its scale, reasons and facts, worked out only for
    the rows asked for: a page shows 25 of up to 100 ranked cases, and the reasons and facts side by
    side are most of a page's cost (docs/security.md, "where a page's time goes")."""

    def __init__(self, report: Any, rows: QuerySet[Any]) -> None:
        self.report, self.rows = report, rows.order_by("rank", "pk")
        self._count: int | None = None

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.rows.count()
        return self._count

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self._item(c) for c in self.rows[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._item(self.rows[index])

    def _item(self, c: Any) -> dict[str, Any]:
        return {"obj": c, "case": c.case, "scale": comparison.score_scale(c),
                "reasons": comparison.reason_rows(c.reasons, self.report, c.case),
                "facts": comparison.facts_side_by_side(self.report, c.case)}


# ---- unfinished drafts, as their owner's home page lists them -----------------------------------

@dataclass
class Unfinished:
    """One of a filer's drafts as their home page lists it. ``report`` is the filed report a change
    is for (None: a new report); ``family`` the family account it is for, when known; ``stale``: a
    change that can no longer be saved (the report was changed, erased or handed to someone else)."""

    draft: ReportDraft
    name: str
    family: Any = None
    report: Report | None = None
    stale: bool = False


def unfinished_drafts(user: Any) -> list[Unfinished]:
    """This account's drafts, newest first: a new report once a step was saved, and changes to
    filed reports. A caseworker's draft is theirs (``owner``), whichever family it is for; the
    family it names is shown only while the caseworker still looks after that family."""
    drafts = list(ReportDraft.objects.filter(owner=user).select_related("amends__reporter_user").order_by("-updated_at"))
    if not drafts:  # most homes: no query for families and reports nobody will look up
        return []
    families = {f.pk: f for f in policy.families_of(user)}
    visible = set(policy.reports_visible_to(user).filter(drafts__owner=user).values_list("pk", flat=True))
    out: list[Unfinished] = []
    for draft in drafts:
        if draft.amends is None:
            if draft.data:
                out.append(Unfinished(draft, _written_name(draft.data), families.get(draft.data.get("family"))))
            continue
        report = draft.amends
        stale = report.pk not in visible
        name = "" if stale else _written_name(draft.data) or report.full_name_ar or report.full_name_latin
        out.append(Unfinished(draft, name, None if stale else report.reporter_user, None if stale else report, stale))
    return out


def _written_name(values: dict[str, Any]) -> str:
    return str(values.get("full_name_ar") or values.get("full_name_latin") or "").strip()


# ---- one person, several reports ---------------------------------------------------------------

_FACT_LABELS = {"full_name_ar": gettext_lazy("Name in Arabic"), "full_name_latin": gettext_lazy("Name in Latin letters"),
                "father_name": gettext_lazy("Father's name"), "mother_name": gettext_lazy("Mother's name"),
                "sex": gettext_lazy("Sex"), "birth_year": gettext_lazy("Year of birth"),
                "governorate": gettext_lazy("Governorate"), "city": gettext_lazy("City"),
                "arrest_date": gettext_lazy("Arrested"), "arresting_agency": gettext_lazy("Arresting agency")}
PERSON_FACTS = {name: _FACT_LABELS[name] for name in lookup.PERSON_FACTS}  # the registry's facts, labelled


@dataclass(frozen=True)
class LinkedReport:
    """Another report the registry's current linkage run assigns to the same missing person, and the
    facts on which it says something different from the report being read."""

    report: Report
    differs: tuple[str, ...]  # field names

    @property
    def differs_labels(self) -> list[str]:
        return [str(PERSON_FACTS[f]) for f in self.differs]


def reports_of_same_person(report: Report, user: Any) -> list[LinkedReport]:
    """The other current reports of this report's missing person that ``user`` may already see.

    The linkage is a guess: it never widens what anyone sees (a caseworker sees its own families'
    reports, a reviewer all), it only groups them, so three reports of one man read as one person,
    each saying which source said what. A family gets none: the grouping is a staff judgement (a
    family that filed two reports of one man sees each as it filed it)."""
    if policy.is_family(user):
        return []
    run = current_run()  # three queries, whatever the number of reports (the page is read often)
    person_id = None if run is None else (
        ReportLink.objects.filter(run=run, report=report).values_list("person_id", flat=True).first())
    if person_id is None:
        return []
    others = (policy.reports_visible_to(user).filter(links__run=run, links__person_id=person_id)
              .exclude(pk=report.pk).order_by("filed_at", "pk"))
    return [LinkedReport(other, tuple(f for f in PERSON_FACTS if lookup.says(other, f) and lookup.says(report, f)
                                      and getattr(other, f) != getattr(report, f)))
            for other in others]
