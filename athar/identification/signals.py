"""What the identification app tells the rest of athar, without knowing who listens.

Sent after the database transaction commits, so a listener never sees a rolled-back ranking or
decision. The identification app turns them into caseworkers' notices (``athar.identification.notices``).
"""

from __future__ import annotations

from django.dispatch import Signal

# sender=Ranking class; kwargs: ranking (the stored current Ranking)
ranking_stored = Signal()
# sender=Identification class; kwargs: identification, previous (status before), status (after)
identification_status_changed = Signal()
# sender=Identification class; kwargs: identification, report (the family that was told)
family_informed = Signal()
