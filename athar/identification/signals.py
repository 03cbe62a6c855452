"""What the identification app tells the rest of athar, without knowing who listens.

Sent after the database transaction commits, so a listener never sees a rolled-back ranking or
decision. The identification app turns them into caseworkers' notices (``athar.identification.notices``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.db import OperationalError, transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# sender=Ranking class; kwargs: ranking (the stored current Ranking)
ranking_stored = Signal()
# sender=Identification class; kwargs: identification, previous (status before), status (after)
identification_status_changed = Signal()
# sender=Identification class; kwargs: identification, report (the family that was told)
family_informed = Signal()


def announce_after_commit(send: Callable[[], Any], patience: float = 30.0) -> None:
    """Run ``send`` (a signal's listeners: they write notices) once the decision is committed.

    Why not plain ``transaction.on_commit``: its callback runs *after* the commit, inside the
    caller's call, and an error there propagates to the caller. With several decisions at once on
    SQLite, the notice write met a locked database, so a publication that had been committed was
    reported to its author as failed — and a client that tried again was refused ("not verified"):
    the flaky ``test_concurrent_publications_leave_one``. A busy database is waited for (as SQLite's
    own busy timeout would, for ``patience`` seconds); any other failure of a listener is logged and
    never turns a committed decision into an error."""

    def run() -> None:
        deadline = time.monotonic() + patience
        attempt = 0
        while True:
            try:
                send()
                return
            except OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    logger.exception("a listener failed after a committed decision (notices may be missing)")
                    return
                attempt += 1
                time.sleep(0.02 * (1 + attempt % 5))
            except Exception:  # noqa: BLE001 - the decision is committed; the failure is logged, not raised
                logger.exception("a listener failed after a committed decision (notices may be missing)")
                return

    transaction.on_commit(run)
