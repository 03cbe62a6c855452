"""What the archive tells the rest of athar, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after an ingest added photos or cases, outside its transaction. sender=Archive class;
# kwargs: archive_id. The identification app queues a re-ranking (the worker does it, never ingest).
archive_ingested = Signal()

# Sent after faces were found and embedded (``athar faces index``, or the face step of an ingest —
# including a re-run that only finished the faces of an ingest killed during indexing, which adds
# no photo). sender=Photo class; kwargs: faces (how many were added). Face matching ranks again.
faces_indexed = Signal()
