"""Test set-up: a scratch data directory, a private media root per test, users per role."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ATHAR_HOME", tempfile.mkdtemp(prefix="athar-test-home-"))
os.environ.setdefault("ATHAR_ENV", "test")
# Rate-limit counters live in the cache: one cache per test process (xdist workers included) ...
os.environ["ATHAR_CACHE_DIR"] = tempfile.mkdtemp(prefix="athar-test-cache-")


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """... and a new, empty cache folder for every test (xdist workers may share the environment
    of the process that started them), so counts and used codes never leak between tests."""
    location = tmp_path_factory.mktemp("cache")
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": str(location)}}


@pytest.fixture(autouse=True)
def private_media(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each test gets its own evidence store, family uploads store and index folder (outside its
    tmp_path)."""
    store = tmp_path_factory.mktemp("store")
    settings.MEDIA_ROOT = store / "media"
    settings.UPLOADS_ROOT = store / "uploads"
    settings.INDEX_ROOT = store / "indexes"
    settings.MEDIA_ROOT.mkdir()
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def cheap_password_hashing(request: pytest.FixtureRequest, settings: Any) -> None:
    """Passwords hashed with Argon2 at its smallest cost (tests/hashers.py); hashes of the real
    cost still verify. A test marked ``real_password_hashing`` keeps the production setting."""
    if request.node.get_closest_marker("real_password_hashing") is None:
        settings.PASSWORD_HASHERS = ["tests.hashers.CheapArgon2PasswordHasher", *settings.PASSWORD_HASHERS]


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


DB_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server", "client", "admin_client",
               "django_user_model", "make_user"}


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Mark tests that never touch the database ``nodb``: the PostgreSQL run skips them."""
    for item in items:
        uses_db = item.get_closest_marker("django_db") or DB_FIXTURES & set(getattr(item, "fixturenames", ()))
        if not uses_db:
            item.add_marker(pytest.mark.nodb)
