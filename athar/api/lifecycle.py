"""API endpoints of the identification lifecycle: a caseworker's tasks (inform a family; tell a family
of a change) and reviewers' challenges of decided identifications.

Each calls the domain function the web pages and the command line call (``claims tasks|told``,
``conflicts challenges|decide-challenge``), so the three cannot differ. A caller whose role has no
such list answers 403; another caseworker's task, or an unknown one, 404.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Path, Schema, Status

from athar.api.api import api
from athar.api.endpoints import REFUSALS, ErrorOut
from athar.core.signed_ids import sign_id
from athar.identification import notices, policy
from athar.identification import services as ident
from athar.identification.records import task_dict

REFUSED = {**REFUSALS, 403: ErrorOut}
# Ids in paths: positive and within the database's integer (a larger number answers 422, never 500).
Id = Annotated[int, Path(ge=1, le=2**31 - 1)]


class TaskOut(Schema):
    """A task in words (``text``, in the requested language); ``kind`` is ``inform`` (tell a family
    of a verified identification, then record it) or ``tell`` (tell a family of a change: its claim
    set aside, or an identification it was told of changed); ``reason`` is the reviewer's reason
    behind the change, for the caseworker to explain in careful words (never shown to the family as is)."""

    id: int
    kind: str
    report: str | None
    case: str | None
    status: str
    text: str
    reason: str
    created_at: datetime
    done_at: datetime | None


def _task_out(row: Any) -> dict[str, Any]:
    data = task_dict(row)
    return {**data, "report": sign_id("report", row.report_id) if row.report_id else None,
            "case": str(row.case.public_id) if row.case_id else None}


def _caseworker(request: HttpRequest) -> None:
    if not policy.may_keep_tasks(request.user):
        raise _Refused(_("Only caseworkers have tasks."))


class _Refused(Exception):
    """403 in the API's own form."""


@api.exception_handler(_Refused)
def _refused(request: HttpRequest, exc: _Refused) -> Any:
    return api.create_response(request, {"detail": str(exc)}, status=403)


@api.get("/tasks", response={200: list[TaskOut], **REFUSED}, url_name="tasks")
def list_tasks(request: HttpRequest) -> list[dict[str, Any]]:
    """The caller's open tasks (a caseworker's: families to inform, families to tell of a change)."""
    _caseworker(request)
    return [_task_out(t) for t in notices.open_tasks(request.user)]


@api.post("/tasks/{task_id}/told", response={200: TaskOut, **REFUSED}, url_name="task_told")
def post_told(request: HttpRequest, task_id: Id) -> dict[str, Any]:
    """The caseworker told the family: closes one of its own 'tell the family' tasks (audited). Done
    twice, it stays done as first recorded."""
    _caseworker(request)
    try:
        row = ident.mark_told(request.user, task_id)
    except LookupError:
        raise Http404 from None
    return _task_out(row)


# ---- challenges: reviewers ----------------------------------------------------------------------

class ChallengeRowOut(Schema):
    id: int
    identification: int
    grounds: str
    grounds_label: str
    status: str
    reason: str
    opened_at: datetime
    decided_at: datetime | None
    decision_reason: str


class FactOut(Schema):
    """One fact: the case's recorded value, then each side's (``columns``, in order)."""

    feature: str
    label: str
    case: str
    sides: list[str]


class ColumnOut(Schema):
    side: str  # standing (the decided identification's families) or challenging
    report: str


class ForensicOut(Schema):
    """A result recorded from outside athar on this case or this person; ``same_pair``: on the
    identification's own pair (else: its case with another person, or its person with another case)."""

    kind: str
    result: str
    same_pair: bool


class ChallengeOut(ChallengeRowOut):
    """A challenge as a reviewer reads it before deciding: the identification (status, case), the
    challenger's reason, both sides' evidence beside the case's facts (never a contact detail)."""

    identification_status: str
    case: str
    columns: list[ColumnOut]
    facts: list[FactOut]
    claims: list[int]
    forensic: list[ForensicOut]


def _row_out(c: Any) -> dict[str, Any]:
    return {"id": c.pk, "identification": c.identification_id, "grounds": c.grounds,
            "grounds_label": str(c.get_grounds_display()), "status": c.status, "reason": c.reason,
            "opened_at": c.opened_at, "decided_at": c.decided_at, "decision_reason": c.decision_reason}


def _reviewer(request: HttpRequest) -> None:
    if not policy.may_decide_conflicts(request.user):
        raise _Refused(_("Only reviewers decide challenges."))


@api.get("/challenges", response={200: list[ChallengeRowOut], **REFUSED}, url_name="challenges")
def list_challenges(request: HttpRequest) -> list[dict[str, Any]]:
    """Open challenges of decided identifications (reviewers)."""
    _reviewer(request)
    return [_row_out(c) for c in ident.open_challenges()]


@api.get("/challenges/{challenge_id}", response={200: ChallengeOut, **REFUSED}, url_name="challenge")
def get_challenge(request: HttpRequest, challenge_id: Id) -> dict[str, Any]:
    _reviewer(request)
    view = ident.challenge_view(challenge_id, request.user)
    if view is None:
        raise Http404
    return {**_row_out(view["challenge"]), "identification_status": view["identification"].status,
            "case": str(view["case"].public_id),
            "columns": [{"side": c["side"], "report": sign_id("report", c["report"])} for c in view["columns"]],
            "facts": [{"feature": r["feature"], "label": str(r["label"]), "case": r["case"] or "",
                       "sides": [v or "" for v in r["sides"]]} for r in view["rows"]],
            "claims": [c.pk for c in view["claims"]],
            "forensic": [{"kind": f.kind, "result": f.result, "same_pair": (f.person_id, f.case_id) == (
                view["identification"].person_id, view["identification"].case_id)} for f in view["forensic"]]}


class Decision(StrEnum):
    UPHOLD = "uphold"  # a reversal: the identification goes back to review (two new approvals)
    DISMISS = "dismiss"  # the decision stands; the challenging claims are set aside


class DecisionIn(Schema):
    decision: Decision
    reason: str = Field(..., max_length=4000)


@api.post("/challenges/{challenge_id}/decision", response={200: ChallengeRowOut, 400: ErrorOut, **REFUSED},
          url_name="challenge_decision")
def post_challenge_decision(request: HttpRequest, challenge_id: Id, body: DecisionIn) -> Any:
    """Uphold or dismiss, with a required reason: the decision the web page and ``athar conflicts
    decide-challenge`` take. The families' caseworkers are asked to tell them."""
    _reviewer(request)
    try:
        row = ident.decide_challenge(challenge_id, request.user, body.decision == Decision.UPHOLD, body.reason)
    except LookupError:
        raise Http404 from None
    except ValueError as exc:
        return Status(400, {"detail": str(exc)})
    return _row_out(row)
