"""A committed decision is never reported as failed because a listener (caseworkers' notices) met a
busy database after the commit — the cause of the flaky concurrent-publication test."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError, transaction

from athar.identification.signals import announce_after_commit

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_locked_database_after_the_commit_is_waited_for_not_raised_to_the_caller() -> None:
    calls: list[int] = []

    def send() -> None:
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("database table is locked")

    with transaction.atomic():
        announce_after_commit(send)
    assert len(calls) == 3  # tried again until the listeners ran


def test_a_listener_that_fails_otherwise_is_logged_and_the_decision_stands(caplog: Any) -> None:
    def send() -> None:
        raise RuntimeError("listener bug")

    with transaction.atomic():
        announce_after_commit(send)
    assert "a listener failed after a committed decision" in caplog.text
