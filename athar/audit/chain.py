"""Appending to and verifying the audit hash chain."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from athar.audit.models import GENESIS_HASH, AuditEvent, AuditHead
from athar.core.findings import Finding

SYSTEM_ACTOR = "system"


@dataclass(frozen=True)
class EventSpec:
    """What an event says before it is chained."""

    action: str
    object_type: str = ""
    object_id: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    actor: str = SYSTEM_ACTOR


def actor_for_user(user: Any) -> str:
    """An actor identifier for a Django user (an id, never a name or contact detail)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return "anonymous"
    return f"user:{user.pk}"


def event_hash(prev_hash: str, seq: int, at: datetime, spec: EventSpec) -> str:
    """The chained hash of one event: canonical JSON, so any tool can recompute it."""
    body = {
        "seq": seq,
        "at": at.isoformat(),
        "actor": spec.actor,
        "action": spec.action,
        "object_type": spec.object_type,
        "object_id": str(spec.object_id),
        "data": spec.data,
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev_hash + canonical).encode("utf-8")).hexdigest()


def record(action: str, *, object_type: str = "", object_id: object = "", data: dict[str, Any] | None = None,
           actor: str = SYSTEM_ACTOR) -> AuditEvent:
    """Append one event to the chain."""
    spec = EventSpec(action, object_type, str(object_id), data or {}, actor)
    return record_many([spec])[0]


def record_many(specs: Iterable[EventSpec]) -> list[AuditEvent]:
    """Append events in order, under the head lock, in the caller's transaction if any."""
    specs = list(specs)
    if not specs:
        return []
    with transaction.atomic():
        AuditHead.objects.get_or_create(id=1)
        head = AuditHead.objects.select_for_update().get(id=1)
        now = timezone.now()
        events = []
        for spec in specs:
            seq = head.seq + 1
            digest = event_hash(head.hash, seq, now, spec)
            events.append(AuditEvent(
                seq=seq, at=now, actor=spec.actor, action=spec.action, object_type=spec.object_type,
                object_id=spec.object_id, data=spec.data, prev_hash=head.hash, hash=digest,
            ))
            head.seq, head.hash = seq, digest
        AuditEvent.objects.bulk_create(events)
        head.save(update_fields=["seq", "hash"])
    return events


@dataclass
class ChainReport:
    """The result of re-checking the chain."""

    events: int = 0
    head: str = GENESIS_HASH
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# What a re-check of the chain can find (English in logs and --json; the reader's language on pages).
EVENT_MISSING = gettext_lazy("audit event #%(seq)s is missing (next is #%(next)s)")
EVENT_UNLINKED = gettext_lazy("audit event #%(seq)s does not link to the event before it")
EVENT_ALTERED = gettext_lazy("audit event #%(seq)s (%(action)s) was altered")
HEAD_MISSING = gettext_lazy("the audit chain head row is missing")
HEAD_MISMATCH = gettext_lazy("the audit chain head (#%(head)s) does not match the last event (#%(last)s): "
                             "events were removed or added outside athar")


def verify_chain(batch_size: int = 5000) -> ChainReport:
    """Recompute every event's hash and link; report the first breaks found (and the head row)."""
    report = ChainReport()
    prev_hash, expected_seq = GENESIS_HASH, 1
    for event in AuditEvent.objects.order_by("seq").iterator(chunk_size=batch_size):
        spec = EventSpec(event.action, event.object_type, event.object_id, event.data, event.actor)
        if event.seq != expected_seq:
            report.problems.append(Finding(EVENT_MISSING, seq=expected_seq, next=event.seq))
        if event.prev_hash != prev_hash:
            report.problems.append(Finding(EVENT_UNLINKED, seq=event.seq))
        if event_hash(event.prev_hash, event.seq, event.at, spec) != event.hash:
            report.problems.append(Finding(EVENT_ALTERED, seq=event.seq, action=event.action))
        prev_hash, expected_seq = event.hash, event.seq + 1
        report.events += 1
        if len(report.problems) > 50:
            break
    report.head = prev_hash
    _check_head(report, prev_hash, expected_seq - 1)
    return report


def _check_head(report: ChainReport, last_hash: str, last_seq: int) -> None:
    head = AuditHead.objects.filter(id=1).first()
    if head is None:
        if last_seq:
            report.problems.append(Finding(HEAD_MISSING))
        return
    if head.seq != last_seq or head.hash != last_hash:
        report.problems.append(Finding(HEAD_MISMATCH, head=head.seq, last=last_seq))


def chain_head() -> dict[str, Any]:
    """The current head, for manifests and exports."""
    head = AuditHead.objects.filter(id=1).first()
    return {"seq": head.seq if head else 0, "hash": head.hash if head else GENESIS_HASH}
