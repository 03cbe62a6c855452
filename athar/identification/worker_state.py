"""The worker's heartbeat: a row per ``athar worker`` process (``WorkerBeat``), beaten every few
seconds by a small thread, which also beats the job in hand (``Job.heartbeat_at``).

Why a thread: a ranking can run for minutes; the beat must go on while it runs, so that only a
worker that is really gone (killed, machine down) stops beating — and its job is taken back within
a minute (``jobs.JOB_STALE``) by any other worker. ``worker_status()`` is what ``athar status`` and
the administrators' worker page show. Never personal data: ids, counts and error class names.
"""

from __future__ import annotations

import datetime as dt
import os
import socket
import threading
from typing import Any

from django.db import close_old_connections, connection
from django.db.models import F, Max
from django.utils import timezone

from athar.identification.models import Job, WorkerBeat

BEAT_SECONDS = 5.0
ALIVE_WITHIN = dt.timedelta(seconds=20)  # a worker whose last beat is older is not running


class Heartbeat:
    """Context manager: a WorkerBeat row for this process, beaten (with its running jobs) in a thread."""

    def __init__(self, name: str, interval: float = BEAT_SECONDS) -> None:
        self.name, self.interval = name, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat {name}", daemon=True)

    def __enter__(self) -> Heartbeat:
        now = timezone.now()
        WorkerBeat.objects.update_or_create(name=self.name, defaults={
            "host": socket.gethostname()[:100], "pid": os.getpid(), "started_at": now, "beat_at": now,
            "stopped_at": None, "current_job": None, "done": 0, "failed": 0, "last_error": ""})
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 5)
        WorkerBeat.objects.filter(name=self.name).update(stopped_at=timezone.now(), current_job=None)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                self.beat()
        finally:
            connection.close()  # this thread's own connection

    def beat(self) -> None:
        """One beat; a database hiccup is retried at the next beat, never the worker's death."""
        try:
            close_old_connections()
            now = timezone.now()
            WorkerBeat.objects.filter(name=self.name).update(beat_at=now)
            Job.objects.filter(status=Job.Status.RUNNING, locked_by=self.name).update(heartbeat_at=now)
        except Exception:  # noqa: BLE001 - missed beats show as "not alive"; the next one may work
            connection.close()

    def job_started(self, job: Job) -> None:
        WorkerBeat.objects.filter(name=self.name).update(current_job=job.pk, beat_at=timezone.now())

    def job_finished(self, job: Job, ok: bool) -> None:
        """Count the job; a failure's error (its first line: class and message, no traceback) is kept."""
        fields: dict[str, Any] = {"current_job": None, "beat_at": timezone.now()}
        beat = WorkerBeat.objects.filter(name=self.name)
        if ok:
            beat.update(**fields, done=F("done") + 1)
            return
        error = Job.objects.filter(pk=job.pk).values_list("last_error", flat=True).first() or ""
        beat.update(**fields, failed=F("failed") + 1,
                    last_error=f"job {job.pk}: {error.splitlines()[0] if error else 'failed'}"[:500])


def worker_status(now: dt.datetime | None = None) -> dict[str, Any]:
    """``{"alive", "pid", "last_heartbeat", "queue", "failed", "last_error", "workers"}``: the newest
    worker that beats (or the last one that did), the queue and the jobs that gave up."""
    now = now or timezone.now()
    beats = list(WorkerBeat.objects.order_by("-beat_at")[:20])
    running = [b for b in beats if b.stopped_at is None and now - b.beat_at <= ALIVE_WITHIN]
    newest = running[0] if running else (beats[0] if beats else None)
    last_failed = Job.objects.filter(status=Job.Status.FAILED).order_by("-finished_at").first()
    last_error = (newest.last_error if newest and newest.last_error else "") or (
        f"job {last_failed.pk}: {last_failed.last_error.splitlines()[0]}" if last_failed and last_failed.last_error
        else "")
    return {
        "alive": bool(running),
        "pid": newest.pid if newest else None,
        "host": newest.host if newest else None,
        "last_heartbeat": newest.beat_at.isoformat() if newest else None,
        "queue": Job.objects.filter(status=Job.Status.QUEUED).count(),
        "running": Job.objects.filter(status=Job.Status.RUNNING).count(),
        "failed": Job.objects.filter(status=Job.Status.FAILED).count(),
        "last_error": last_error or None,
        "last_job_done": _iso(Job.objects.filter(status=Job.Status.DONE).aggregate(m=Max("finished_at"))["m"]),
        "workers": [{"name": b.name, "pid": b.pid, "host": b.host, "alive": b in running,
                     "started_at": b.started_at.isoformat(), "last_heartbeat": b.beat_at.isoformat(),
                     "stopped_at": _iso(b.stopped_at), "current_job": b.current_job, "done": b.done,
                     "failed": b.failed, "last_error": b.last_error or None} for b in beats],
    }


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None
