"""The matching worker as a supervised child of ``athar serve`` / ``athar demo``.

A thread starts ``athar worker`` and watches it: when it dies — a crash, an out-of-memory kill, a
``kill -9`` — it is started again after a back-off (1 s, doubling to at most ``MAX_BACKOFF``; back
to 1 s once a run lasted ``STEADY_AFTER``), so a worker that cannot start is not restarted in a
tight loop, and one killed once is back within seconds. Each start and death goes to standard error.

Details that matter:
- the child is ``python -P -m athar.cli worker``: ``-P`` keeps the current folder off ``sys.path``,
  so a folder named ``athar/`` where the server was started cannot shadow the installed package;
- it is stopped with the server however the server dies (``PR_SET_PDEATHSIG`` on Linux);
- gunicorn's arbiter, in the same process, reaps every child on SIGCHLD, ours included: the thread
  therefore polls (``Popen.poll`` treats a child reaped by someone else as gone) instead of waiting.
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PR_SET_PDEATHSIG = 1  # prctl(2)
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
STEADY_AFTER = 60.0  # a run this long was healthy: the next restart is quick again
POLL_SECONDS = 0.5


def die_with_parent() -> None:
    """In the worker child (Linux): be stopped when the server process dies, however it dies."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:  # not Linux: stop() still stops the worker on a normal exit
        return


def worker_command(poll: float) -> list[str]:
    return [sys.executable, "-P", "-m", "athar.cli", "worker", "--poll", str(poll)]


class Supervisor:
    """Keep one child process running until ``stop()``; restart it with back-off when it dies."""

    def __init__(self, command: list[str], say: Callable[[str], None] | None = None,
                 first_backoff: float = FIRST_BACKOFF, max_backoff: float = MAX_BACKOFF) -> None:
        self.command = command
        self.say = say or (lambda text: sys.stderr.write(f"athar: {text}\n"))
        self.first_backoff, self.max_backoff = first_backoff, max_backoff
        self.child: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="worker supervisor", daemon=True)

    def start(self) -> Supervisor:
        self._spawn()
        self._thread.start()
        return self

    def _spawn(self) -> None:
        with self._lock:
            if self._stopping.is_set():
                return
            self.child = subprocess.Popen(self.command, stdout=subprocess.DEVNULL,  # the server's environment
                                          preexec_fn=die_with_parent)
            self.starts += 1
            self.say(f"matching worker running (pid {self.child.pid})")

    def _watch(self) -> None:
        backoff, started = self.first_backoff, time.monotonic()
        while not self._stopping.is_set():
            child = self.child
            if child is None or child.poll() is None:
                self._stopping.wait(POLL_SECONDS)
                continue
            ran = time.monotonic() - started
            if ran >= STEADY_AFTER:
                backoff = self.first_backoff
            self.say(f"matching worker (pid {child.pid}) stopped ({_how(child.returncode)}) after {ran:.0f} s; "
                     f"restarting in {backoff:.1f} s")
            if self._stopping.wait(backoff):
                return
            backoff = min(backoff * 2, self.max_backoff)
            started = time.monotonic()
            self._spawn()

    def stop(self, timeout: float = 10) -> None:
        """Stop watching, then stop the child (SIGTERM: it finishes the job in hand; SIGKILL after ``timeout``)."""
        with self._lock:
            self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=POLL_SECONDS * 4)
        child = self.child
        if child is None or child.poll() is not None:
            return
        child.terminate()
        try:
            child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)
        except ChildProcessError:  # reaped by gunicorn's arbiter meanwhile
            return


def _how(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit {code}"


@contextmanager
def supervised_worker(enabled: bool = True, poll: float = 2.0) -> Iterator[Supervisor | None]:
    """The matching worker, supervised, for as long as the web server runs."""
    if not enabled:
        yield None
        return
    supervisor = Supervisor(worker_command(poll)).start()
    try:
        yield supervisor
    finally:
        supervisor.stop()
