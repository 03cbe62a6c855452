"""Reading the audit log: the filters of the administrator's page (actor, action, object, dates)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from athar.audit.models import AuditEvent


@dataclass(frozen=True)
class EventFilter:
    """What to look for; empty fields match everything. ``until`` includes its whole day."""

    actor: str = ""
    action: str = ""
    object_type: str = ""
    object_id: str = ""
    since: date | None = None
    until: date | None = None

    def as_data(self) -> dict[str, Any]:
        """The filter as audit data (identifiers and days only; empty fields left out)."""
        values = {"actor": self.actor, "action": self.action, "object_type": self.object_type,
                  "object_id": self.object_id, "since": self.since.isoformat() if self.since else "",
                  "until": self.until.isoformat() if self.until else ""}
        return {key: value for key, value in values.items() if value}


def _day_start(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def events(where: EventFilter) -> QuerySet[AuditEvent]:
    """Events matching the filter, newest first. An action ending in ``.`` or ``*`` matches the
    actions it starts (``user.`` → every ``user.…`` event)."""
    rows = AuditEvent.objects.order_by("-seq")
    if where.actor:
        rows = rows.filter(actor=where.actor)
    if where.action:
        prefix = where.action.rstrip("*")
        rows = rows.filter(action__startswith=prefix) if where.action.endswith(("*", ".")) \
            else rows.filter(action=where.action)
    if where.object_type:
        rows = rows.filter(object_type=where.object_type)
    if where.object_id:
        rows = rows.filter(object_id=where.object_id)
    if where.since:
        rows = rows.filter(at__gte=_day_start(where.since))
    if where.until:
        rows = rows.filter(at__lt=_day_start(where.until + timedelta(days=1)))
    return rows


def known_actions() -> list[str]:
    """Every action name in the log, for the filter's list."""
    return sorted(set(AuditEvent.objects.values_list("action", flat=True).distinct()))
