"""The supervised worker: a child killed with SIGKILL is started again, with back-off when it keeps
dying, and stopped with its supervisor (no orphan). Quick: a sleeping child, no database."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from athar.ops.supervisor import Supervisor, worker_command

pytestmark = pytest.mark.nodb


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_child_killed_with_sigkill_is_started_again_and_stopped_with_its_supervisor() -> None:
    said: list[str] = []
    supervisor = Supervisor([sys.executable, "-c", "import time; time.sleep(60)"], say=said.append,
                            first_backoff=0.1).start()
    try:
        first = supervisor.child
        assert first is not None
        os.kill(first.pid, signal.SIGKILL)
        assert wait_for(lambda: supervisor.child is not first and supervisor.child.poll() is None, 10), said
        assert any("signal SIGKILL" in line for line in said), said
        second = supervisor.child
    finally:
        supervisor.stop(timeout=5)
    assert second.poll() is not None and not alive(second.pid)
    assert supervisor.starts == 2


def test_a_child_that_keeps_dying_is_restarted_with_growing_back_off() -> None:
    said: list[str] = []
    supervisor = Supervisor([sys.executable, "-c", "raise SystemExit(1)"], say=said.append,
                            first_backoff=0.05, max_backoff=0.4).start()
    try:
        assert wait_for(lambda: supervisor.starts >= 4, 10)
    finally:
        supervisor.stop(timeout=5)
    waits = [float(line.rsplit("restarting in ", 1)[1].split()[0]) for line in said if "restarting in" in line]
    assert len(waits) >= 3 and "exit 1" in said[1]
    assert waits[:3] == [0.1, 0.1, 0.2] or waits[1] > waits[0], waits  # doubles, up to max_backoff
    assert max(waits) <= 0.4
    starts = supervisor.starts
    time.sleep(0.6)
    assert supervisor.starts == starts  # stopped: no restart after stop()


def test_the_worker_runs_without_the_current_folder_on_its_path() -> None:
    """A folder named athar/ where the server was started must not shadow the installed package."""
    command = worker_command(2.0)
    assert command[:4] == [sys.executable, "-P", "-m", "athar.cli"]
