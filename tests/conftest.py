"""Test set-up: a scratch data directory, a private media root per test, users per role."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

os.environ.setdefault("ATHAR_HOME", tempfile.mkdtemp(prefix="athar-test-home-"))
os.environ.setdefault("ATHAR_ENV", "test")


@pytest.fixture(autouse=True)
def private_media(settings: Any, tmp_path: Path) -> Path:
    """Each test gets its own media store and index folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.INDEX_ROOT = tmp_path / "indexes"
    settings.MEDIA_ROOT.mkdir()
    return settings.MEDIA_ROOT


@pytest.fixture
def make_user(db: None) -> Callable[..., Any]:
    """``make_user("reviewer")`` creates an account of that role (password 'a long test password')."""
    from athar.accounts.models import User

    counter = {"n": 0}

    def make(role: str = "family", **extra: Any) -> Any:
        counter["n"] += 1
        login = extra.pop("login", f"{role}{counter['n']}@example.org")
        return User.objects.create_user(login, "a long test password", role=role, email=login, **extra)

    return make
