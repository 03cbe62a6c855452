"""When a family erases its report, what athar derived from it goes in the same transaction.

Rankings quote a report's words in their reasons (its marks, its detainee number, its dates): the
report's own rankings and those of the persons it was linked to are deleted, claims made from it
lose the relation they carried, and the persons are queued to be ranked again without it. Claims,
reviews and identifications themselves stay (decisions are never deleted), holding identifiers only.
"""

from __future__ import annotations

from typing import Any

from athar.identification.jobs import enqueue_for_person
from athar.identification.models import Claim, Ranking


def on_report_erased(sender: Any, reports: list[Any], persons: list[int], **_: Any) -> None:
    Ranking.objects.filter(report__in=reports).delete()
    Ranking.objects.filter(person_id__in=persons).delete()
    Claim.objects.filter(report__in=reports).update(relation="", on_behalf_of="")
    for person_id in persons:
        enqueue_for_person(person_id)
