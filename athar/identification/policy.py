"""Who may see and do what: every page, API endpoint and command asks here, one rule in one place.

Rules (tested as a matrix in tests/identification/test_policy.py):

- a family sees only the reports it filed (``Report.reporter_user``), their photos and their
  candidates; it never sees an archive case except as a candidate of its own report;
- a caseworker sees the reports it handles (``Report.caseworker``) and those of the families it
  invited (``User.caseworker``), and their candidates;
- a reviewer sees every report, candidate, claim and case (blurred by default);
- an archivist sees archives, facilities and cases (blurred by default), not the registry;
- an administrator sees everything;
- nobody signed out sees anything but the public pages.

Photos of bodies are shown blurred by default. The unblurred face crop needs an explicit choice on
the page (a POST, ``FACE``); the body photos a further one from the page that showed the face
(``BODY``). Nothing is remembered in the session; every unblurred copy is served through the
audited media link (one ``photo.viewed`` event per view).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from athar.accounts.models import (
    ADMIN_ROLES,
    ARCHIVE_ROLES,
    CASEWORK_ROLES,
    CLAIM_ROLES,
    FILE_ROLES,
    REVIEW_ROLES,
    STAFF_ROLES,
    Role,
    User,
)
from athar.archive.models import Case, Derivative
from athar.identification.models import Candidate, Claim, Ranking
from athar.registry import policy as registry_policy
from athar.registry.models import Report

# Reveal levels for a case in one session.
HIDDEN, FACE, BODY = 0, 1, 2
BLURRED_KINDS = {Derivative.Kind.BLUR, Derivative.Kind.BLUR_THUMB, Derivative.Kind.FACE_BLUR}
FACE_KINDS = {Derivative.Kind.FACE}
BODY_KINDS = {Derivative.Kind.VIEW, Derivative.Kind.THUMB}



def role_of(user: Any) -> str:
    """The user's role, or '' when signed out or inactive."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return ""
    return str(user.role)


def has_role(user: Any, *roles: str) -> bool:
    return role_of(user) in roles


def is_family(user: Any) -> bool:
    return has_role(user, Role.FAMILY)


def is_caseworker(user: Any) -> bool:
    return has_role(user, Role.CASEWORKER)


def can_review(user: Any) -> bool:
    return has_role(user, *REVIEW_ROLES)


def can_archive(user: Any) -> bool:
    return has_role(user, *ARCHIVE_ROLES)


def can_administer(user: Any) -> bool:
    """Manage accounts and read the audit log."""
    return has_role(user, *ADMIN_ROLES)


def can_casework(user: Any) -> bool:
    return has_role(user, *CASEWORK_ROLES)


def can_file_reports(user: Any) -> bool:
    return has_role(user, *FILE_ROLES)


# ---- reports ---------------------------------------------------------------------------------

def reports_visible_to(user: Any) -> QuerySet[Any]:
    """Current, not erased reports this user may see."""
    reports = Report.objects.current_kept()
    role = role_of(user)
    if role == Role.FAMILY:
        return reports.filter(reporter_user=user)
    if role == Role.CASEWORKER:
        return reports.filter(registry_policy.handled_by(user))
    if role in REVIEW_ROLES:
        return reports
    return reports.none()


def can_view_report(user: Any, report: Any) -> bool:
    return reports_visible_to(user).filter(pk=report.pk).exists()


def can_edit_report(user: Any, report: Any) -> bool:
    """Consent, photos and faces: the family who filed it or its caseworker."""
    return has_role(user, *FILE_ROLES) and can_view_report(user, report)


def families_of(user: Any) -> QuerySet[Any]:
    """The family accounts a caseworker looks after."""
    if role_of(user) == Role.CASEWORKER:
        return User.objects.filter(caseworker=user, role=Role.FAMILY, is_active=True)
    if role_of(user) == Role.ADMIN:
        return User.objects.filter(role=Role.FAMILY, is_active=True)
    return User.objects.none()


# ---- cases -----------------------------------------------------------------------------------

def cases_visible_to(user: Any) -> QuerySet[Case]:
    """Archive cases this user may open: staff all; families and caseworkers only candidates."""
    role = role_of(user)
    if role in STAFF_ROLES:
        return Case.objects.all()
    if role in (Role.FAMILY, Role.CASEWORKER):
        case_ids = candidates_visible_to(user).values("case_id")
        return Case.objects.filter(pk__in=case_ids)
    return Case.objects.none()


def can_search_numbers(user: Any) -> bool:
    """Search the archive by a number a family quotes (issue 29): an active caseworker or staff."""
    return role_of(user) in STAFF_ROLES or can_casework(user)


def may_review_numbers(user: Any) -> bool:
    """See and decide the numbers read in photos, see what they are used for (body groups, facility
    suggestions, joins across archives) and be served the number's crop: an active archivist or
    administrator (the archive's own rule, ``archive.number_review``)."""
    from athar.archive.number_review import can_review_numbers

    return can_review_numbers(user)


def can_view_case(user: Any, case: Case) -> bool:
    return cases_visible_to(user).filter(pk=case.pk).exists()


def can_edit_case(user: Any) -> bool:
    return can_archive(user)


# ---- candidates ------------------------------------------------------------------------------

def taken_on(user: Any) -> bool:
    """A family account a caseworker has taken on (with the family's agreement): until then it
    sees no candidate and no photo of a body, whatever its report matches."""
    return role_of(user) == Role.FAMILY and user.caseworker_id is not None


def current_rankings(reports: QuerySet[Report]) -> QuerySet[Ranking]:
    """Current rankings of these reports, each from its own evidence only (never from another
    family's report linked to the same person: that ranking is for reviewers)."""
    return Ranking.objects.current().filter(report__in=reports, person__isnull=True)


def candidates_for_reports(reports: QuerySet[Report], for_family: bool = False) -> QuerySet[Candidate]:
    """Candidates ranked from these reports' own evidence. Families (and caseworkers for them) see
    likely matches only: when no case is a likely match, they see no list of bodies at all."""
    rows = Candidate.objects.filter(ranking__in=current_rankings(reports)).select_related(
        "case__facility", "case__archive", "ranking")
    if for_family:
        # A case a reviewer identified as someone else, setting this family's claim aside, is no
        # longer offered to the family as a match (its caseworker may ask for a challenge).
        set_aside = Claim.objects.set_aside().positive().filter(
            report__lineage=OuterRef("ranking__report__lineage"), case=OuterRef("case"))
        rows = rows.filter(likely_match=True).exclude(Exists(set_aside))
    return rows.order_by("ranking_id", "rank")


def candidates_visible_to(user: Any) -> QuerySet[Candidate]:
    """Candidates ranked from the reports this user may see, each from that report's own evidence
    (never from another family's report linked to the same person); families only likely matches,
    and only once a caseworker has taken them on. Caseworkers see every ranked case of their
    reports (the staff candidate list: they judge the ranking with the family; the family's own
    pages still list likely matches only). Reviewers and administrators see every ranking."""
    role = role_of(user)
    if role in REVIEW_ROLES:
        return Candidate.objects.all()
    if role == Role.CASEWORKER:
        return candidates_for_reports(reports_visible_to(user))
    if role == Role.FAMILY and taken_on(user):
        return candidates_for_reports(reports_visible_to(user), for_family=True)
    return Candidate.objects.none()


def staff_candidates(user: Any, report: Any) -> QuerySet[Candidate]:
    """Every ranked case of the report's own current ranking, best first, for its caseworker or an
    administrator (none for anyone else)."""
    if not has_role(user, *CASEWORK_ROLES) or not can_view_report(user, report):
        return Candidate.objects.none()
    return candidates_for_reports(Report.objects.filter(pk=report.pk))


def report_of_stale_candidate(user: Any, candidate_id: int) -> Report | None:
    """A candidate this user no longer sees because its report was compared again (or filed in a
    new version): the current version of that report when the user may see it, else None.

    Says nothing about reports the user may not see, so a stale link never reveals another family's
    report; a candidate whose ranking was already removed cannot be traced (None)."""
    row = Candidate.objects.filter(pk=candidate_id).select_related("ranking__report").first()
    if row is None or row.ranking.report is None:
        return None
    if row.ranking.is_current and row.ranking.report.is_current:
        return None  # not stale: hidden from this user (not a likely match, not taken on yet)
    if not (role_of(user) == Role.CASEWORKER or taken_on(user)):
        return None  # sees no candidates at all
    return reports_visible_to(user).filter(lineage=row.ranking.report.lineage).first()


def can_view_candidate(user: Any, candidate: Any) -> bool:
    return candidates_visible_to(user).filter(pk=candidate.pk).exists()


def claims_visible_to(user: Any) -> QuerySet[Claim]:
    """Reviewers and administrators: every claim; others their own claims and those made from the
    reports they may see, any version of them (a family never another family's claims on the same
    person)."""
    if role_of(user) in REVIEW_ROLES:
        return Claim.objects.all()
    if not role_of(user):
        return Claim.objects.none()
    return Claim.objects.filter(Q(by=user) | Q(report__lineage__in=reports_visible_to(user).values("lineage")))


def can_claim(user: Any, candidate: Any) -> bool:
    """Only the family (or its caseworker on its behalf) says 'this is him / her'."""
    return has_role(user, *CLAIM_ROLES) and can_view_candidate(user, candidate)


# ---- photos ----------------------------------------------------------------------------------

def level_needed(kind: str) -> int:
    """The reveal level a derivative kind needs."""
    if kind in BLURRED_KINDS:
        return HIDDEN
    if kind in FACE_KINDS:
        return FACE
    return BODY


def may_view_derivative(user: Any, derivative: Derivative) -> bool:
    """Whoever may see the case may be served its copies; which copies a page links to (blurred,
    or unblurred through a short-lived audited media link after an explicit choice on that page)
    is decided by the page, never remembered in the session."""
    case = derivative.photo.case
    if case is None:
        return can_archive(user) and level_needed(derivative.kind) == HIDDEN
    return can_view_case(user, case)


def may_view_report_photo(user: Any, report_photo: Any) -> bool:
    """A photo of the person alive: whoever may see its report."""
    return can_view_report(user, report_photo.report)


def may_view_import(user: Any, batch: Any) -> bool:
    """An import's progress and result (counts, refused rows, warnings: no names) are for the
    caseworker who uploaded it and for administrators."""
    if not has_role(user, Role.CASEWORKER, Role.ADMIN):
        return False
    return bool(has_role(user, Role.ADMIN) or (batch.uploaded_by_id is not None and batch.uploaded_by_id == user.pk))


def may_start_ingest(user: Any) -> bool:
    """Start an ingest of a folder on the server from the archivists' page (and follow it):
    archivists and administrators."""
    return has_role(user, *ARCHIVE_ROLES)


# ---- Who may act on the identification lifecycle ---------------------------------------------
# Used by the domain functions themselves (claims.py, conflicts.py, challenges), so the web, the
# API and the command line cannot differ. An inactive or signed-out account may do nothing
# (``role_of`` is '' for it). The transitions they guard are in ``identification/lifecycle.py``.

def _is_caseworker_of(user: Any, report: Any) -> bool:
    from athar.registry.lookup import caseworker_ids

    return role_of(user) == Role.ADMIN or (role_of(user) == Role.CASEWORKER and user.pk in caseworker_ids(report))


def may_claim(user: Any, person: Any, report: Any) -> bool:
    """A family for its own report of this person; a caseworker for a family it looks after (or any
    report of the person when filing on paper); never staff."""
    from athar.registry.lookup import reports_of

    role = role_of(user)
    if role not in CLAIM_ROLES:
        return False
    if role == Role.FAMILY:
        mine = report is not None and report.reporter_user_id == user.pk
        return mine or any(r.reporter_user_id == user.pk for r in reports_of(person))
    return True


def may_withdraw_claim(user: Any, claim: Any) -> bool:
    """The claimant; a caseworker of the claim's report; a reviewer or administrator."""
    role = role_of(user)
    if not role:
        return False
    if role in REVIEW_ROLES or claim.by_id == user.pk:
        return True
    if role == Role.CASEWORKER:
        return claim.report is None or _is_caseworker_of(user, claim.report)
    return False


def may_review(user: Any, ident: Any) -> bool:
    """A reviewer who made no claim on this pair (independence)."""
    return (role_of(user) in REVIEW_ROLES
            and not Claim.objects.filter(person_id=ident.person_id, case_id=ident.case_id, by=user).exists())


def may_reverse_review(user: Any, review: Any) -> bool:
    """The review's author (still a reviewer) or an administrator."""
    role = role_of(user)
    return role == Role.ADMIN or (role in REVIEW_ROLES and review.reviewer_id == user.pk)


def may_decide_conflicts(user: Any) -> bool:
    """Resolve or reopen a conflict; uphold or dismiss a challenge: reviewers, with a reason."""
    return role_of(user) in REVIEW_ROLES


def may_record_forensic(user: Any) -> bool:
    from athar.accounts.models import FORENSIC_ROLES

    return role_of(user) in FORENSIC_ROLES


def may_record_informed(user: Any, ident: Any, report: Any) -> bool:
    """The caseworker of a family this identification concerns (its own evidence led to it)."""
    from athar.identification.concerned import concerned_lineages

    return _is_caseworker_of(user, report) and report.lineage in concerned_lineages(ident)


def may_publish(user: Any, ident: Any) -> bool:
    """A reviewer or administrator; a caseworker of one of the concerned families."""
    from athar.identification.concerned import family_reports

    role = role_of(user)
    if role in REVIEW_ROLES:
        return True
    return role == Role.CASEWORKER and any(_is_caseworker_of(user, r) for r in family_reports(ident))


def may_take_back(user: Any, ident: Any) -> bool:
    """Unpublish or withdraw a decided identification: a reviewer's explicit decision."""
    return role_of(user) in REVIEW_ROLES


def may_request_challenge(user: Any, ident: Any, report: Any) -> bool:
    """A caseworker (or administrator) for a family this identification concerns, or a family whose
    claim on the same case was set aside in favour of it: asks reviewers to look again."""
    from athar.identification.concerned import concerned_lineages

    if not _is_caseworker_of(user, report):
        return False
    set_aside_here = Claim.objects.set_aside().filter(report__lineage=report.lineage, case_id=ident.case_id).exists()
    return set_aside_here or report.lineage in concerned_lineages(ident)


def may_keep_tasks(user: Any) -> bool:
    """Caseworkers (and administrators) have tasks: families to inform, families to tell."""
    return role_of(user) in CASEWORK_ROLES


def may_close_task(user: Any, notice: Any) -> bool:
    """A caseworker closes its own 'tell the family' task."""
    return may_keep_tasks(user) and notice.user_id == user.pk


def may_see_identification(user: Any, ident: Any) -> bool:
    """Reviewers and administrators; a caseworker of a concerned family. Never a name-only link's
    caseworker, never a family (families read their report's status)."""
    from athar.identification.concerned import family_reports

    role = role_of(user)
    if role in REVIEW_ROLES:
        return True
    return role == Role.CASEWORKER and any(_is_caseworker_of(user, r) for r in family_reports(ident))


# ---- Who may see and handle a family's data and the archive's evidence -------------------------
# (the one-off rules of the media links and a family's data pages, named here once)

def may_exercise_data_rights(user: Any, report: Any) -> bool:
    """Export or erase a report on the family's request: the family who filed it, its caseworker
    or an administrator (among those who may see it) — not a reviewer, who sees reports only to
    judge claims."""
    if not can_view_report(user, report):
        return False
    return report.reporter_user_id == user.pk or has_role(user, Role.CASEWORKER, Role.ADMIN)


def export_includes_contact(user: Any, report: Any) -> bool:
    """An export carries the reporter's contact details only for the family who filed the report
    and the report's own caseworker (``registry.policy``)."""
    return registry_policy.export_includes_contact(user, report)


def may_download_original(user: Any) -> bool:
    """The original bytes of an archive photo (the evidence itself): active archivists only."""
    return role_of(user) == Role.ARCHIVIST
