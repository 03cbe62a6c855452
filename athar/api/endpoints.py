"""API endpoints. Objects a caller may not see answer 404, exactly like the web pages.

Identifiers of reports, candidates and claims are signed (``athar.core.signed_ids``), as in the web's
family URLs, each kind with its own salt: they cannot be guessed or counted, and a report's id never
opens a candidate or a claim. A forged or altered id, or an id of another kind, answers 404.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime
from enum import StrEnum
from typing import Annotated, Any

from django.db.models import Count
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, File, Query, Schema, Status
from ninja.files import UploadedFile
from ninja.pagination import LimitOffsetPagination, paginate

from athar.api.api import api
from athar.archive import number_review
from athar.archive.models import Case, Facility, NumberReading
from athar.core.errors import UserError
from athar.core.signed_ids import sign_id, unsign_id
from athar.identification import policy
from athar.identification import services as ident
from athar.identification.comparison import reason_parts
from athar.identification.family_faces import rank_report_again
from athar.identification.models import Claim, Verdict
from athar.identification.number_search import search_by_number
from athar.registry.consent import publication_consent, record_consent
from athar.registry.filing import add_photo
from athar.registry.policy import NotAllowed


class ErrorOut(Schema):
    """Every refusal: ``detail`` is a message (a list of field errors for 422)."""

    detail: Any


class SlowDownOut(Schema):
    """429: over the rate; ``retry_after`` (also the ``Retry-After`` header) is the wait in seconds."""

    detail: str
    retry_after: int


# What every endpoint behind a token can answer besides its success (documented in the schema).
REFUSALS: dict[int, type[Schema]] = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: SlowDownOut}

# A page of a list: at most MAX_LIMIT rows; an offset past the end is an empty page. Both bounded,
# so no number a client sends reaches the database as an integer it cannot hold (a 500 before).
MAX_LIMIT = 500
MAX_OFFSET = 1_000_000_000


class Page(LimitOffsetPagination):
    """``?limit=N&offset=M`` (limit 1 to 500, default 100); ``count`` is the total. Out of range: 422."""

    class Input(Schema):
        limit: int = Field(100, ge=1, le=MAX_LIMIT)
        offset: int = Field(0, ge=0, le=MAX_OFFSET)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_limit=MAX_LIMIT, **kwargs)


class SearchStatus(StrEnum):
    """Where a report's search stands (``status_label`` says it in the requested language)."""

    AWAITING_CASEWORKER = "awaiting_caseworker"
    NOT_COMPARED = "not_compared"
    NO_LIKELY_MATCH = "no_likely_match"
    TO_LOOK_AT = "to_look_at"
    UNDER_REVIEW = "under_review"
    SET_ASIDE = "set_aside"  # the case the family recognised was identified as someone else
    VERIFIED = "verified"
    PUBLISHED = "published"


class VerdictIn(StrEnum):
    """A family's answer on a candidate: this is him/her (yes), not him/her (no), not sure (unsure)."""

    YES = "yes"
    NO = "no"
    UNSURE = "unsure"


class LinkedReportOut(Schema):
    """Another report the registry links to the same missing person (one the caller may already
    see): its id, source, who reported, and the facts it states differently."""

    id: str
    source: str
    full_name_ar: str
    full_name_latin: str
    reporter_relation: str
    differs: list[str]


class ReportOut(Schema):
    id: str
    source: str
    report_id: str
    full_name_ar: str
    full_name_latin: str
    birth_year: int | None
    arrest_date: date | None
    arrest_date_precision: str
    status: SearchStatus
    status_label: str
    candidates: int
    face_consent: bool
    photos: int
    same_person: list[LinkedReportOut] | None = None  # one report read alone (GET /reports/{id}), staff only


class ReasonOut(Schema):
    """One reason of a ranking: the feature compared, its level, its weight (log-odds: + for, − against)
    and a label in the requested language; ``detail`` is the technical sentence (English)."""

    feature: str
    level: str
    weight: float
    label: str
    detail: str


class CandidateOut(Schema):
    id: str
    report: str
    case: str
    facility: str
    likely_match: bool
    reasons: list[ReasonOut]


class FacilityCount(Schema):
    facility: str
    cases: int


class StatsOut(Schema):
    cases: int
    facilities: list[FacilityCount]


class LazyRows(Sequence[dict[str, Any]]):
    """A query the paginator slices in the database, each row turned into its output on the way out
    (so a page costs one query of its size, never the whole list)."""

    def __init__(self, rows: Any, out: Callable[[Any], dict[str, Any]],
                 many: Callable[[list[Any]], list[dict[str, Any]]] | None = None) -> None:
        self.rows, self.out = rows, out
        # ``many`` turns a whole page at once (a fixed number of queries, whatever its size).
        self.many = many or (lambda page: [out(row) for row in page])

    def __len__(self) -> int:
        return int(self.rows.count())

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.many(list(self.rows[index]))
        return self.out(self.rows[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self.out(row) for row in self.rows.iterator())


def _links(pointer: str, parameter: str, *operations: str, status: int = 200) -> dict[str, Any]:
    """OpenAPI links: where the id in this answer (``pointer`` into its body) opens ``operations``.
    A report's own ``report_id`` (its number in its source) is not the path's ``report_id``."""
    links = {name: {"operationId": f"athar_api_endpoints_{name}",
                    "parameters": {parameter: f"$response.body#{pointer}"}} for name in operations}
    return {"responses": {status: {"links": links}}}


def _report_out(report: Any, user: Any, summary: dict[str, Any] | None = None) -> dict[str, Any]:
    summary = summary or ident.report_summary(report, user)
    return {"id": sign_id("report", report.pk), "source": report.source, "report_id": report.report_id,
            "full_name_ar": report.full_name_ar, "full_name_latin": report.full_name_latin,
            "birth_year": report.birth_year, "arrest_date": report.arrest_date,
            "arrest_date_precision": report.arrest_date_precision, "status": summary["status_code"],
            "status_label": str(summary["status"]),
            "candidates": summary["candidates"], "face_consent": summary["face_consent"],
            "photos": summary["photos"]}


@api.get("/reports", response={200: list[ReportOut], **REFUSALS}, url_name="reports",
         openapi_extra=_links("/items/0/id", "report_id", "get_report", "list_candidates", "add_photos"))
@paginate(Page)
def list_reports(request: HttpRequest) -> Sequence[dict[str, Any]]:
    """The reports the caller may see (a family: its own; a caseworker: its families'), a page at a
    time (``limit``, ``offset``; ``count`` is the total)."""
    user = request.user
    return LazyRows(policy.reports_visible_to(user).order_by("pk"), lambda r: _report_out(r, user),
                    lambda page: [_report_out(r, user, s) for r, s in zip(page, ident.report_summaries(page, user),
                                                                          strict=True)])


def _visible(rows: Any, kind: str, signed_id: str) -> Any:
    """The row behind a signed id of this kind among those the caller may see; 404 for anything else."""
    pk = unsign_id(kind, signed_id)
    found = rows.filter(pk=pk).first() if pk is not None else None
    if found is None:
        raise Http404
    return found


def _visible_report(request: HttpRequest, report_id: str) -> Any:
    return _visible(policy.reports_visible_to(request.user), "report", report_id)


def _visible_candidate(request: HttpRequest, candidate_id: str) -> Any:
    return _visible(policy.candidates_visible_to(request.user), "candidate", candidate_id)


@api.get("/reports/{report_id}", response={200: ReportOut, **REFUSALS}, url_name="report",
         openapi_extra=_links("/id", "report_id", "list_candidates", "add_photos"))
def get_report(request: HttpRequest, report_id: str) -> dict[str, Any]:
    """One report; for staff, with the other reports of its missing person they may already see."""
    report = _visible_report(request, report_id)
    return {**_report_out(report, request.user), "same_person": [
        {"id": sign_id("report", other.report.pk), "source": other.report.source,
         "full_name_ar": other.report.full_name_ar, "full_name_latin": other.report.full_name_latin,
         "reporter_relation": other.report.reporter_relation, "differs": list(other.differs)}
        for other in ident.reports_of_same_person(report, request.user)]}


class PhotosOut(Schema):
    report: str
    added: int
    photos: int
    refused: list[dict[str, str]]


@api.post("/reports/{report_id}/photos", response={201: PhotosOut, 400: PhotosOut | ErrorOut, 403: ErrorOut, **REFUSALS},
          url_name="report_photos")
def add_photos(request: HttpRequest, report_id: str,
               photos: Annotated[list[UploadedFile], File(min_length=1)]) -> Any:
    """Add photos of the person alive (multipart, field ``photos``, one or several files), as the
    web's photo page does: the family who filed the report or its caseworker. Every photo is used:
    the report is ranked again with all of them (the face query is their mean). A file that is not
    a readable photo is refused with its reason and the others are kept."""
    report = _visible_report(request, report_id)
    if not policy.can_edit_report(request.user, report):
        return Status(403, {"detail": _("Only the family who filed the report or its caseworker adds photos.")})
    added, refused = 0, []
    for upload in photos:
        try:
            add_photo(report, upload, request.user, via="api")
        except ValueError as exc:
            refused.append({"name": upload.name or "", "reason": str(exc)})
            continue
        added += 1
    if added:
        rank_report_again(report)
    out = {"report": sign_id("report", report.pk), "added": added, "photos": report.photos.count(), "refused": refused}
    return Status(201 if added else 400, out)


def _candidate_out(candidate: Any, user: Any, visible: Any = None) -> dict[str, Any]:
    """The same as the web's candidate page gives this caller: families get no reasons there, so
    none here either. ``visible``: the reports the caller may see, built once for a whole page."""
    report = ident.candidate_report(candidate, policy.reports_visible_to(user) if visible is None else visible)
    return {"id": sign_id("candidate", candidate.pk), "report": sign_id("report", report.pk) if report is not None else "",
            "case": str(candidate.case.public_id), "facility": candidate.case.facility.code,
            "likely_match": candidate.likely_match,
            "reasons": [] if policy.is_family(user) else [reason_parts(r) for r in candidate.reasons or []]}


@api.get("/reports/{report_id}/candidates", response={200: list[CandidateOut], **REFUSALS}, url_name="candidates",
         openapi_extra=_links("/items/0/id", "candidate_id", "get_candidate", "post_claim"))
@paginate(Page)
def list_candidates(request: HttpRequest, report_id: str) -> Sequence[dict[str, Any]]:
    """Likely matches of one report, ranked from its own evidence (never photos; those stay behind
    the web's reveal steps). A family no caseworker has taken on yet gets none."""
    report = _visible_report(request, report_id)
    rows = (policy.candidates_visible_to(request.user).filter(ranking__report=report)
            .select_related("case__facility", "ranking__report", "ranking__person").order_by("rank", "pk"))
    visible = policy.reports_visible_to(request.user)
    return LazyRows(rows, lambda c: _candidate_out(c, request.user, visible))


@api.get("/candidates/{candidate_id}", response={200: CandidateOut, **REFUSALS}, url_name="candidate",
         openapi_extra=_links("/id", "candidate_id", "post_claim"))
def get_candidate(request: HttpRequest, candidate_id: str) -> dict[str, Any]:
    return _candidate_out(_visible_candidate(request, candidate_id), request.user)


@api.get("/stats", response={200: StatsOut, 429: SlowDownOut}, auth=None, url_name="stats")
def stats(request: HttpRequest) -> dict[str, Any]:
    """Public counts per facility (the same figures as the public statistics page)."""
    rows = Facility.objects.annotate(n=Count("cases")).filter(n__gt=0).order_by("-n")
    return {"cases": Case.objects.count(), "facilities": [{"facility": f.code, "cases": f.n} for f in rows]}


class ClaimIn(Schema):
    verdict: VerdictIn


class ClaimOut(Schema):
    id: str
    case: str
    verdict: Verdict
    verdict_label: str
    certainty: Claim.Certainty
    certainty_label: str
    created_at: datetime
    withdrawn: bool
    set_aside: bool


def _claim_out(claim: Claim) -> dict[str, Any]:
    return {"id": sign_id("claim", claim.pk), "case": str(claim.case.public_id), "verdict": claim.verdict,
            "verdict_label": str(claim.get_verdict_display()), "certainty": claim.certainty,
            "certainty_label": str(claim.get_certainty_display()), "created_at": claim.created_at,
            "withdrawn": claim.withdrawn_at is not None, "set_aside": claim.set_aside_at is not None}


class ChallengeIn(Schema):
    reason: str = Field(..., min_length=1, max_length=2000)


class ChallengeOut(Schema):
    id: int
    grounds: str
    status: str


@api.post("/claims/{claim_id}/challenge", response={201: ChallengeOut, 400: ErrorOut, **REFUSALS},
          url_name="claim_challenge")
def post_challenge(request: HttpRequest, claim_id: str, body: ChallengeIn) -> Any:
    """A caseworker asks reviewers to look again at the decided identification of a family's claim
    (set aside, or on the identification), with a reason; the decision stands until they decide."""
    claim = _visible(policy.claims_visible_to(request.user), "claim", claim_id)
    try:
        row = ident.request_challenge_for_claim(claim.pk, request.user, body.reason)
    except LookupError:
        raise Http404 from None
    except ValueError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, {"id": row.pk, "grounds": row.grounds, "status": row.status})


@api.get("/claims", response={200: list[ClaimOut], **REFUSALS}, url_name="claims")
@paginate(Page)
def list_claims(request: HttpRequest) -> Sequence[dict[str, Any]]:
    """The caller's own claims and those made from the reports it may see (reviewers: all). A
    family never receives another family's claims on the same person."""
    rows = policy.claims_visible_to(request.user).select_related("case").order_by("pk")
    return LazyRows(rows, _claim_out)


@api.post("/candidates/{candidate_id}/claim", response={201: ClaimOut, 400: ErrorOut, **REFUSALS}, url_name="claim")
def post_claim(request: HttpRequest, candidate_id: str, body: ClaimIn) -> Any:
    """Say "this is him/her" (yes), "not him/her" (no) or "not sure" (unsure), as on the web."""
    candidate = _visible_candidate(request, candidate_id)
    if not policy.can_claim(request.user, candidate):
        raise Http404
    try:
        claim = ident.make_claim(candidate, request.user, body.verdict.value)
    except ValueError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _claim_out(claim))


class ConsentMethodIn(StrEnum):
    """How the family gave its answer to a caseworker."""

    PAPER = "paper"
    PHONE = "phone"
    IN_PERSON = "in_person"


class ConsentIn(Schema):
    """A family's consent to publication (``publication: true``) or its withdrawal (``false``), as the
    family gave it to its caseworker; ``words`` are the family's own (kept encrypted)."""

    publication: bool
    method: ConsentMethodIn
    given_on: date | None = None
    words: str = Field("", max_length=4000)


class ConsentOut(Schema):
    """Whether the report's family consents to publication now, and how it said so last (``web``,
    ``paper``, ``phone``, ``in_person``, ``import``; '' when it never said)."""

    report: str
    given: bool
    how: str
    given_on: date | None
    recorded_at: datetime | None


def _consent_out(report: Any) -> dict[str, Any]:
    now = publication_consent(report)
    return {"report": sign_id("report", report.pk), "given": now.given, "how": now.how, "given_on": now.given_on,
            "recorded_at": now.recorded_at}


@api.get("/reports/{report_id}/consent", response={200: ConsentOut, **REFUSALS}, url_name="report_consent")
def get_consent(request: HttpRequest, report_id: str) -> dict[str, Any]:
    """Whether the report's family consents to publication (the family's own word on the web, to its
    caseworker, or in an imported list: the latest counts)."""
    return _consent_out(_visible_report(request, report_id))


@api.post("/reports/{report_id}/consent", response={201: ConsentOut, 400: ErrorOut, 403: ErrorOut, **REFUSALS},
          url_name="record_consent")
def post_consent(request: HttpRequest, report_id: str, body: ConsentIn) -> Any:
    """A caseworker records the family's consent given on paper, by phone or in person (or its
    withdrawal), as on the caseworker's report page. Audited without the family's words."""
    report = _visible_report(request, report_id)
    try:
        record_consent(report, request.user, publication=body.publication, method=body.method.value,
                       given_on=body.given_on, words=body.words)
    except NotAllowed as exc:
        return Status(403, {"detail": str(exc)})
    except ValueError as exc:
        return Status(400, {"detail": str(exc)})
    report.refresh_from_db()
    return Status(201, _consent_out(report))


# --- numbers read in archive photos (issue 29): archivists decide the reader's suggestions ---------
class NumberStatusIn(StrEnum):
    """Which suggestions: undecided (``suggested``), awaiting the caller as second archivist
    (``second``), or those decided one way."""

    SUGGESTED = "suggested"
    SECOND = "second"
    CONFIRMED = "confirmed"
    CORRECTED = "corrected"
    REJECTED = "rejected"


class NumberFilterIn(Schema):
    """``status`` (default ``suggested``) and, optionally, one archive by name."""

    status: NumberStatusIn = NumberStatusIn.SUGGESTED
    archive: str | None = Field(None, max_length=200)


class NumberDecisionIn(StrEnum):
    CONFIRM = "confirm"
    CORRECT = "correct"
    REJECT = "reject"


class NumberKindIn(StrEnum):
    DETAINEE = "detainee"
    BRANCH = "branch"
    OTHER = "other"


class NumberReadingOut(Schema):
    """A number the reader found in a photo. ``text`` as read, ``number`` as decided (the correction
    if any), both in Western digits; ``box`` is ``[x0, y0, x1, y1]`` in the photo's stored pixels;
    ``settled`` when it counts (one archivist, or two where it changes the case)."""

    id: str
    photo: int
    case: str | None
    case_detainee_number: str | None
    facility: str | None
    text: str
    number: str
    confidence: float
    box: list[int]
    kind: str | None
    reader_version: str
    status: str
    needs_second: bool
    settled: bool
    decided_at: datetime | None
    second_at: datetime | None


class NumberDecisionBody(Schema):
    """``confirm`` (as the second archivist too), ``correct`` (``number`` in either digit script and
    a ``reason``) or ``reject``; ``kind`` says what the number is, if the reader did not."""

    decision: NumberDecisionIn
    number: str = Field("", max_length=32)
    reason: str = Field("", max_length=500)
    kind: NumberKindIn | None = None


def _number_out(reading: Any) -> dict[str, Any]:
    row = number_review.reading_dict(reading)
    case = reading.photo.case
    return {**{k: row[k] for k in ("photo", "case_detainee_number", "facility", "text", "number", "confidence",
                                   "box", "kind", "reader_version", "status", "needs_second", "settled",
                                   "decided_at", "second_at")},
            "id": sign_id("number_reading", reading.pk), "case": str(case.public_id) if case else None}


def _archivist(request: HttpRequest) -> Any:
    """The caller, if it may review numbers; anyone else learns nothing (404, as for what it may not see)."""
    if not number_review.can_review_numbers(request.user):
        raise Http404
    return request.user


def list_number_suggestions(request: HttpRequest, filters: Query[NumberFilterIn]) -> Sequence[dict[str, Any]]:
    """For archivists: the numbers read in photos awaiting a decision (or awaiting the caller as
    second archivist, ``status=second``), most confident first."""
    rows = number_review.suggestions_for(_archivist(request), filters.status.value, filters.archive)
    return LazyRows(rows, _number_out)


# The paginator rebuilds the signature in its own module, where this module's postponed (string)
# annotations cannot be resolved: give it the objects before it wraps the function.
list_number_suggestions.__annotations__["filters"] = Query[NumberFilterIn]
api.get("/numbers/suggestions", response={200: list[NumberReadingOut], **REFUSALS}, url_name="number_suggestions")(
    paginate(Page)(list_number_suggestions))


@api.post("/numbers/suggestions/{reading_id}/decision",
          response={201: NumberReadingOut, 400: ErrorOut, 403: ErrorOut, **REFUSALS}, url_name="number_decision")
def post_number_decision(request: HttpRequest, reading_id: str, body: NumberDecisionBody) -> Any:
    """An archivist confirms, corrects (with a reason) or rejects a suggestion. A number that would
    change the case's detainee number or branch counts only once a second, different archivist
    confirms it too (the first archivist's second ``confirm`` answers 403)."""
    user = _archivist(request)
    pk = unsign_id("number_reading", reading_id)
    if pk is None or not NumberReading.objects.filter(pk=pk).exists():
        raise Http404
    kind = body.kind.value if body.kind else None
    try:
        if body.decision == NumberDecisionIn.CONFIRM:
            reading = number_review.confirm(user, pk, kind)
        else:
            reading = number_review.decide(user, pk, body.decision.value, number=body.number, reason=body.reason,
                                           kind=kind)
    except number_review.NotAllowed as exc:
        return Status(403, {"detail": str(exc)})
    except UserError as exc:
        return Status(400, {"detail": str(exc)})
    return Status(201, _number_out(reading))


class NumberCaseOut(Schema):
    """A case carrying the number: ``evidence`` is ``confirmed`` (archivists confirmed it in a
    photo), ``recorded`` (the archive's own record) or ``suggested`` (read, not yet decided)."""

    case: str
    archive: str
    facility: str
    label: str
    detainee_number: str
    evidence: str


class NumberSearchOut(Schema):
    number: str
    count: int
    cases: list[NumberCaseOut]


@api.get("/numbers/search", response={200: NumberSearchOut, 400: ErrorOut, **REFUSALS}, url_name="number_search")
def get_number_search(request: HttpRequest, number: str) -> Any:
    """A caseworker (or staff) searches the cases carrying a number a family quotes, in either digit
    script; confirmed first. Anyone else: 404."""
    if not policy.can_search_numbers(request.user):
        raise Http404
    try:
        found = search_by_number(request.user, number[:64])
    except UserError as exc:
        return Status(400, {"detail": str(exc)})
    return {**found, "cases": [{k: c[k] for k in ("case", "archive", "facility", "label", "detainee_number",
                                                  "evidence")} for c in found["cases"]]}
