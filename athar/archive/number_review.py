"""Archivists decide on the numbers the reader suggested (issue 29): confirm, correct or reject.

A wrong number attaches a body to the wrong family, so the reader only *suggests*; a person
decides. The rules, in one place for the web, the API and the command line:

- only an active archivist (or administrator) may see suggestions or decide; anyone else is
  refused with ``NotAllowed`` (the API answers 404, as for everything a caller may not see);
- a correction carries the new number (any digit script, stored in Western digits) and a reason;
- a number that would change the case's detainee number (kind ``detainee``) or branch (kind
  ``branch``) counts only when a second, *different* archivist agrees (``agree``). The first
  decision records ``needs_second``; the second is a conditional update (only while no one else
  has agreed, only by someone other than the first) and a database constraint forbids the same
  person twice, so two archivists agreeing at once store one agreement;
- a suggestion is decided once: the decision is a conditional update on ``status='suggested'``;
- every decision and refusal-free outcome is audited with identifiers only (the number's text is
  not written to the audit log: the reason and the text stay in the database row).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from athar.accounts.models import ARCHIVE_ROLES
from athar.archive.models import Case, NumberReading
from athar.audit.chain import record
from athar.core.errors import UserError
from athar.matching.digits import ascii_digits

MAX_DIGITS = 16


class NotAllowed(UserError):
    """The account may not see or decide number suggestions (a reason people can read)."""


def can_review_numbers(user: Any) -> bool:
    """An active archivist or administrator (an inactive account can do nothing)."""
    return bool(user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)
                and getattr(user, "role", "") in ARCHIVE_ROLES)


def require_reviewer(user: Any) -> None:
    """Refuse (``NotAllowed``) anyone but an active archivist or administrator."""
    if not can_review_numbers(user):
        raise NotAllowed("only an active archivist may review the numbers read in photos")


_require = require_reviewer


def suggestions_for(user: Any, status: str = "suggested", archive: str | None = None) -> QuerySet[NumberReading]:
    """What the archivist has to look at: ``suggested`` (undecided) or ``second`` (decided by
    another archivist, awaiting a second one), most confident first."""
    _require(user)
    query = NumberReading.objects.select_related("photo", "photo__case", "photo__case__facility")
    if status == "second":
        query = query.filter(needs_second=True, second_by__isnull=True).exclude(decided_by=user)
    elif status in NumberReading.Status.values:
        query = query.filter(status=status)
    else:
        raise UserError(f"unknown status {status!r}: give suggested, second, confirmed, corrected or rejected")
    if archive:
        query = query.filter(photo__archive__name=archive)
    return query.order_by("-confidence", "pk")


def western_number(text: str) -> str:
    """A number typed in either digit script, in Western digits; a clear error if it is not one."""
    value = ascii_digits(str(text or "").strip())
    if not value.isdigit() or not value.isascii() or len(value) > MAX_DIGITS:
        raise UserError(f"not a number: {text!r} (digits only, Western or Arabic-Indic, at most {MAX_DIGITS})")
    return value


def would_change_case(reading: NumberReading, number: str, kind: str) -> bool:
    """Whether counting this number would change who the case is: a detainee number other than the
    case's, or a branch number other than its facility's. A photo without a case changes no case
    today, but the number will be used to group it, so it is treated as a change too."""
    case = reading.photo.case
    if kind == NumberReading.Kind.DETAINEE:
        return case is None or case.detainee_number != number
    if kind == NumberReading.Kind.BRANCH:
        return case is None or case.facility.number is None or str(case.facility.number) != number
    return False


def _get(reading_id: int) -> NumberReading:
    reading = NumberReading.objects.select_related("photo", "photo__case", "photo__case__facility") \
        .filter(pk=reading_id).first()
    if reading is None:
        raise UserError(f"no number suggestion {reading_id}")
    return reading


def _kind(kind: str | None, reading: NumberReading) -> str:
    if kind is None or kind == "":
        return reading.kind
    if kind not in NumberReading.Kind.values:
        raise UserError(f"unknown kind {kind!r}: give detainee, branch or other")
    return kind


def decide(user: Any, reading_id: int, action: str, *, number: str = "", reason: str = "",
           kind: str | None = None) -> NumberReading:
    """``confirm``, ``correct`` (with ``number`` and ``reason``) or ``reject`` one suggestion.

    Decided once: a suggestion someone else decided meanwhile is refused with a clear message."""
    _require(user)
    reading = _get(reading_id)
    kind = _kind(kind, reading)
    reason = str(reason or "").strip()
    fields: dict[str, Any] = {"kind": kind, "decided_by": user, "decided_at": timezone.now(), "reason": reason[:500]}
    if action == "confirm":
        fields.update(status=NumberReading.Status.CONFIRMED,
                      needs_second=would_change_case(reading, reading.text, kind))
    elif action == "correct":
        if not reason:
            raise UserError("a correction needs a reason (what the photo shows that the reader missed)")
        corrected = western_number(number)
        if corrected == reading.text:
            raise UserError("the corrected number is the one read: confirm it instead")
        fields.update(status=NumberReading.Status.CORRECTED, corrected_text=corrected,
                      needs_second=would_change_case(reading, corrected, kind))
    elif action == "reject":
        fields.update(status=NumberReading.Status.REJECTED, needs_second=False)
    else:
        raise UserError(f"unknown decision {action!r}: confirm, correct or reject")
    with transaction.atomic():  # the decision and its audit event, or neither
        changed = NumberReading.objects.filter(pk=reading.pk, status=NumberReading.Status.SUGGESTED).update(**fields)
        if not changed:
            raise UserError(f"number suggestion {reading.pk} was already decided")
        record(f"numbers.{action}ed" if action != "reject" else "numbers.rejected", object_type="number_reading",
               object_id=reading.pk, actor=f"user:{user.pk}",
               data={"photo": reading.photo_id, "case": reading.photo.case_id, "kind": kind,
                     "needs_second": fields["needs_second"], "with_reason": bool(reason)})
        if action != "reject" and not fields["needs_second"]:
            _touch_case(reading)  # settled now: the case's facts changed (the worker ranks again)
    return _get(reading.pk)


def agree(user: Any, reading_id: int) -> NumberReading:
    """The second archivist agrees with a confirmation or correction that changes a case.

    One conditional update: only while it awaits a second archivist and only by someone other
    than the first (the database's constraint says the same, whatever path writes)."""
    _require(user)
    reading = _get(reading_id)
    if not reading.needs_second:
        raise UserError(f"number suggestion {reading.pk} does not await a second archivist")
    if reading.decided_by_id == user.pk:
        raise NotAllowed("a second archivist must be someone other than the one who decided")
    with transaction.atomic():
        changed = (NumberReading.objects
                   .filter(pk=reading.pk, needs_second=True, second_by__isnull=True,
                           status__in=[NumberReading.Status.CONFIRMED, NumberReading.Status.CORRECTED])
                   .filter(~Q(decided_by=user))
                   .update(second_by=user, second_at=timezone.now()))
        if not changed:
            raise UserError(f"number suggestion {reading.pk} was already agreed by a second archivist")
        record("numbers.agreed", object_type="number_reading", object_id=reading.pk, actor=f"user:{user.pk}",
               data={"photo": reading.photo_id, "case": reading.photo.case_id, "first": reading.decided_by_id})
        _touch_case(reading)
        _apply_to_case(_get(reading.pk), user)
    return _get(reading.pk)


def _touch_case(reading: NumberReading) -> None:
    """A number that counts is a new fact of its case: its ``updated_at`` moves, so rankings are
    computed again (the worker's sweep and the ranking's case index both watch it)."""
    if reading.photo.case_id is not None:
        Case.objects.filter(pk=reading.photo.case_id).update(updated_at=timezone.now())


def _apply_to_case(reading: NumberReading, user: Any) -> None:
    """A settled detainee number becomes the case's detainee number (two archivists agreed: that is
    what ``needs_second`` asked). The previous number is not lost: it is in the readings and the
    audit event names both readings' ids. A branch number does not move a case to another facility
    yet (that is a merge of cases, for a later session)."""
    case = reading.photo.case
    if case is None or not reading.settled or reading.kind != NumberReading.Kind.DETAINEE:
        return
    if case.detainee_number == reading.number:
        return
    had_number = bool(case.detainee_number)
    Case.objects.filter(pk=case.pk).update(detainee_number=reading.number, updated_at=timezone.now())
    record("case.detainee_number_set", object_type="case", object_id=case.pk, actor=f"user:{user.pk}",
           data={"number_reading": reading.pk, "first": reading.decided_by_id, "second": reading.second_by_id,
                 "replaced": had_number})


def reading_dict(reading: NumberReading) -> dict[str, Any]:
    """A suggestion as the CLI and the API show it (ids, the number, its box; never the photo)."""
    case = reading.photo.case
    return {"id": reading.pk, "photo": reading.photo_id, "case": case.pk if case else None,
            "case_detainee_number": case.detainee_number if case else None,
            "facility": case.facility.code if case else None,
            "text": reading.text, "number": reading.number, "confidence": round(reading.confidence, 3),
            "box": reading.box, "kind": reading.kind or None, "reader_version": reading.reader_version,
            "status": reading.status, "needs_second": reading.needs_second, "settled": reading.settled,
            "decided_by": reading.decided_by_id, "decided_at": reading.decided_at,
            "second_by": reading.second_by_id, "second_at": reading.second_at, "reason": reading.reason}


def confirm(user: Any, reading_id: int, kind: str | None = None) -> NumberReading:
    """``confirm`` as an archivist means it: on an undecided suggestion, the first decision; on one
    another archivist confirmed or corrected that awaits a second, the agreement."""
    _require(user)
    reading = _get(reading_id)
    if reading.status != NumberReading.Status.SUGGESTED and reading.needs_second and reading.second_by_id is None:
        if kind and kind != reading.kind:
            raise UserError("the second archivist agrees with the first decision as it is (kind included); "
                            "to disagree, leave it and tell the first archivist")
        return agree(user, reading_id)
    return decide(user, reading_id, "confirm", kind=kind)
