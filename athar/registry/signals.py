"""What the registry tells the rest of athar, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the erasing transaction, so listeners remove what they derived from the report in the
# same transaction (a rollback keeps both). sender=Report class; kwargs: reports (every version),
# persons (ids of the missing persons they were linked to).
report_erased = Signal()
