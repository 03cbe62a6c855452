"""Counters and one-time markers for rate limits and used codes (athar.core.counters)."""

from __future__ import annotations

from django.db import models


class Counter(models.Model):
    """One rate-limit window or one-time marker; written only by one atomic upsert statement."""

    key = models.CharField(max_length=200, primary_key=True)
    count = models.BigIntegerField(default=0)
    expires_at = models.FloatField(db_index=True)  # Unix seconds: compared in SQL on both databases

    class Meta:
        verbose_name = "counter"
