"""A number a family quotes, searched among the archive's cases (issue 29): confirmed first.

A family often knows only "his number was 2065" (from a list, a released detainee, a post). The
caseworker types it in either digit script and sees the cases that carry it, in three tiers:

1. ``confirmed`` — archivists confirmed the number read in one of the case's photos (two of
   them where it changed the case's detainee number);
2. ``recorded`` — the case's detainee number as the archive arrived (folders, manifests);
3. ``suggested`` — the reader saw the number in a photo and no archivist has decided yet.

Rejected readings are never listed. The answer names cases (ids, facility, label), not photos:
opening a case stays under ``policy.cases_visible_to``. Who may search: an active caseworker or
staff member (``policy.can_search_numbers``); a family may not (it would list other people's dead).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from athar.archive.models import Case, NumberReading
from athar.archive.number_review import western_number
from athar.audit.chain import record
from athar.identification import policy
from athar.identification.claims import NotAllowed

TIERS = ("confirmed", "recorded", "suggested")
MAX_CASES = 200


def _carrying(number: str) -> Q:
    return Q(corrected_text=number) | Q(corrected_text="", text=number)


def _settled() -> Q:
    return Q(status__in=[NumberReading.Status.CONFIRMED, NumberReading.Status.CORRECTED]) & (
        Q(needs_second=False) | Q(second_by__isnull=False))


def search_by_number(user: Any, typed: str) -> dict[str, Any]:
    """The cases carrying the number, confirmed first; each case once, in its best tier."""
    if not policy.can_search_numbers(user):
        raise NotAllowed("only a caseworker or staff may search the archive by number")
    number = western_number(typed)
    readings = NumberReading.objects.filter(_carrying(number), photo__case__isnull=False)
    confirmed = set(readings.filter(_settled()).values_list("photo__case", flat=True))
    recorded = set(Case.objects.filter(detainee_number=number).values_list("pk", flat=True))
    suggested = set(readings.filter(status=NumberReading.Status.SUGGESTED).values_list("photo__case", flat=True))
    tier_of: dict[int, str] = {}
    for tier, ids in zip(TIERS, (confirmed, recorded, suggested)):
        for pk in ids:
            tier_of.setdefault(pk, tier)
    cases = Case.objects.filter(pk__in=list(tier_of)).select_related("archive", "facility")
    rows = sorted(({"case": str(c.public_id), "case_id": c.pk, "archive": c.archive.name,
                    "facility": c.facility.code, "label": c.label, "detainee_number": c.detainee_number,
                    "evidence": tier_of[c.pk]} for c in cases),
                  key=lambda r: (TIERS.index(r["evidence"]), r["archive"], r["facility"], r["label"]))
    record("numbers.searched", object_type="user", object_id=user.pk, actor=f"user:{user.pk}",
           data={"cases": len(rows)})  # never the number typed: it is what the family said
    return {"number": number, "count": len(rows), "cases": rows[:MAX_CASES]}
