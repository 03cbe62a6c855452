"""The ``athar worker`` loop: claim a job, run it, repeat; sweep for new work when idle; stop
cleanly on SIGTERM or SIGINT (the job in hand is finished first). A heartbeat (``worker_state``)
says it runs, and which job it holds, every few seconds."""

from __future__ import annotations

import signal
import sys
import time
from typing import Any

from athar.audit.tlog import scheduled_checkpoint
from athar.identification.jobs import claim_next, drain, run_job, sweep, worker_name
from athar.identification.worker_state import Heartbeat


class _Stop:
    requested = False


def run_worker(once: bool = False, poll: float = 5.0, name: str | None = None) -> dict[str, Any]:
    """Run until stopped (or, with ``once``, until the queue is empty)."""
    name = name or worker_name()
    if once:
        with Heartbeat(name) as beat:
            return {"worker": name, **drain(name, beat=beat)}
    stop = _Stop()

    def on_signal(signum: int, frame: Any) -> None:
        stop.requested = True
        sys.stderr.write(f"athar worker: signal {signum}, stopping after the current job\n")

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    counts = {"done": 0, "failed": 0}
    try:
        with Heartbeat(name) as beat:
            while not stop.requested:
                job = claim_next(name)
                if job is None:
                    sweep()
                    scheduled_checkpoint()  # signed checkpoints of the audit log (docs/evidence.md)
                    _sleep(poll, stop)
                    continue
                counts["done" if run_job(job, beat) else "failed"] += 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return {"worker": name, **counts, "stopped": "signal"}


def _sleep(seconds: float, stop: _Stop) -> None:
    end = time.monotonic() + seconds
    while not stop.requested and time.monotonic() < end:
        time.sleep(min(0.2, end - time.monotonic()))
