"""The append-only audit log: every event carries the hash of the one before (a hash chain).

Events hold identifiers and hashes only, never personal data, so erasing a family's data never
breaks the chain (see docs/security.md).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

GENESIS_HASH = "0" * 64


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or delete an audit event."""


class AuditEvent(models.Model):
    """One attested event. ``hash`` = sha256(prev_hash + canonical JSON of the fields)."""

    seq = models.BigIntegerField(unique=True, verbose_name=_("sequence"))
    at = models.DateTimeField(verbose_name=_("time"))
    actor = models.CharField(max_length=64, verbose_name=_("actor"))
    action = models.CharField(max_length=64, db_index=True, verbose_name=_("action"))
    object_type = models.CharField(max_length=64, blank=True, verbose_name=_("object type"))
    object_id = models.CharField(max_length=128, blank=True, db_index=True, verbose_name=_("object id"))
    data = models.JSONField(default=dict, blank=True, verbose_name=_("data"))
    prev_hash = models.CharField(max_length=64, verbose_name=_("previous hash"))
    hash = models.CharField(max_length=64, unique=True, verbose_name=_("hash"))

    class Meta:
        ordering = ["seq"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AppendOnlyError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("audit events are append-only")

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class AuditHead(models.Model):
    """A single row locked while appending, so concurrent writers extend the chain in turn."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    seq = models.BigIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS_HASH)

    class Meta:
        verbose_name = _("audit chain head")
