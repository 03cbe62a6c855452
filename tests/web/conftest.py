"""Actors for web tests: two families, their caseworker, a reviewer, an archivist, and their data."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from tests.web.factories import add_report_photo, make_case, make_report


@pytest.fixture
def world(make_user: Callable[..., Any]) -> SimpleNamespace:
    caseworker = make_user("caseworker")
    other_caseworker = make_user("caseworker")
    family = make_user("family", caseworker=caseworker)
    other_family = make_user("family", caseworker=other_caseworker)
    report = make_report(family, caseworker)
    photo = add_report_photo(report)
    other_report = make_report(other_family, other_caseworker, name="خالد")
    return SimpleNamespace(
        family=family, other_family=other_family, caseworker=caseworker, other_caseworker=other_caseworker,
        reviewer=make_user("reviewer"), archivist=make_user("archivist"), admin=make_user("admin"),
        report=report, photo=photo, other_report=other_report, case=make_case(),
    )


def sign_in(client: Client, user: Any) -> None:
    """A signed-in session without the login signal: ``force_login`` sends it with a request that
    has no address, which django-axes then stores as "unknown" — refused by PostgreSQL's inet type
    (reported to the security work; sign-in itself is tested through the real form)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key


@pytest.fixture
def client_for() -> Callable[[Any], Client]:
    """A test client signed in as the user (None: signed out)."""

    def make(user: Any) -> Client:
        client = Client()
        if user is not None:
            sign_in(client, user)
        return client

    return make


@pytest.fixture(autouse=True)
def arabic_by_default() -> Any:
    """Each test starts in the default language, so ``reverse`` gives unprefixed Arabic URLs."""
    from django.utils import translation

    with translation.override("ar"):
        yield
