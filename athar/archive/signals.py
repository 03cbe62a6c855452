"""What the archive tells the rest of athar, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after an ingest added photos or cases, outside its transaction. sender=Archive class;
# kwargs: archive_id. The identification app queues a re-ranking (the worker does it, never ingest).
archive_ingested = Signal()
