"""Who may act on the registry: link decisions, a reporter's contact details, consent recorded by
staff. The registry's own domain functions ask here (``registry.decisions``, ``registry.privacy``,
``registry.consent``), so the web, the API and the command line cannot differ.

Who may *see* reports and cases is decided in ``identification.policy`` (the registry never imports
identification); the caseworker's own reports are defined once, here (``reports_handled_by``), and
used there too.

- An inactive or signed-out account can do nothing (``active_role`` is '').
- Reviewers and administrators decide whether two reports are one person, and withdraw decisions.
- Only a report's own caseworker sees the reporter's contact details (audited).
- A family's consent to publication given on paper, by phone or in person is recorded by a
  caseworker who looks after that family's report, or by an administrator.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from athar.accounts.models import REVIEW_ROLES, Role
from athar.core.errors import UserError
from athar.registry.models import LinkDecision, Report


class NotAllowed(UserError):
    """The account may not take this registry action (a reason people can read)."""


def active_role(user: Any) -> str:
    """The account's role, or '' when signed out or inactive (an inactive account can do nothing)."""
    if user is None or not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
        return ""
    return str(user.role)


# ---- the caseworker's reports ----------------------------------------------------------------

def handled_by(user: Any) -> Q:
    """The filter of the reports a caseworker looks after: those it handles (``Report.caseworker``)
    and those of the families it took on (``User.caseworker``). Callers check the role."""
    return Q(caseworker=user) | Q(reporter_user__caseworker=user)


def reports_handled_by(user: Any) -> QuerySet[Report]:
    """Every version of every report an active caseworker looks after; none for anyone else."""
    if active_role(user) != Role.CASEWORKER:
        return Report.objects.none()
    return Report.objects.filter(handled_by(user))


def handles_report(user: Any, report: Report) -> bool:
    """This active caseworker looks after this report (or its family)."""
    if active_role(user) != Role.CASEWORKER:
        return False
    if report.caseworker_id == user.pk:
        return True
    family = report.reporter_user
    return family is not None and family.caseworker_id == user.pk


# ---- link decisions --------------------------------------------------------------------------

def may_review_links(user: Any) -> bool:
    """See the queue of pairs the linkage was unsure of, and the decisions in force."""
    return active_role(user) in REVIEW_ROLES


def may_decide_link(user: Any, a: Report | None = None, b: Report | None = None) -> bool:
    """Say that two reports are (or are not) one person: reviewers and administrators."""
    return active_role(user) in REVIEW_ROLES


def may_reverse_link_decision(user: Any, decision: LinkDecision | None = None) -> bool:
    """Withdraw a decision (any reviewer's: the reversal records who and why)."""
    return active_role(user) in REVIEW_ROLES


# ---- a family's data -------------------------------------------------------------------------

def may_see_contact(user: Any, report: Report) -> bool:
    """The reporter's contact details: only the report's own caseworker."""
    return active_role(user) == Role.CASEWORKER and report.caseworker_id == user.pk


def export_includes_contact(user: Any, report: Report) -> bool:
    """An export of the report carries the contact details for the family who filed it and the
    report's own caseworker, nobody else."""
    role = active_role(user)
    return bool(role) and (report.reporter_user_id == user.pk or report.caseworker_id == user.pk)


def may_record_consent(user: Any, report: Report) -> bool:
    """Record a family's consent to publication (or its withdrawal) given on paper, by phone or in
    person: a caseworker who looks after the report, or an administrator; never for an erased one."""
    if report.erased_at is not None:
        return False
    role = active_role(user)
    return role == Role.ADMIN or (role == Role.CASEWORKER and handles_report(user, report))
