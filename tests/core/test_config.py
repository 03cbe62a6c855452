import pytest
from django.core.exceptions import ImproperlyConfigured

from athar.config import athar_environment, env_bool, is_weak_secret, secret_key

STRONG = "k" * 10 + "Zx81-_q" * 10


def test_production_refuses_missing_secret_key_and_names_it(monkeypatch, tmp_path):
    monkeypatch.delenv("ATHAR_SECRET_KEY", raising=False)
    with pytest.raises(ImproperlyConfigured, match="ATHAR_SECRET_KEY"):
        secret_key("production", tmp_path)


@pytest.mark.parametrize("weak", ["django-insecure-abc", "short", "changeme" * 10])
def test_production_refuses_weak_or_default_secret_key(monkeypatch, tmp_path, weak):
    monkeypatch.setenv("ATHAR_SECRET_KEY", weak)
    with pytest.raises(ImproperlyConfigured, match="ATHAR_SECRET_KEY"):
        secret_key("production", tmp_path)


def test_production_accepts_strong_key(monkeypatch, tmp_path):
    monkeypatch.setenv("ATHAR_SECRET_KEY", STRONG)
    assert secret_key("production", tmp_path) == STRONG
    assert not is_weak_secret(STRONG)


def test_development_key_is_generated_once_per_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv("ATHAR_SECRET_KEY", raising=False)
    first = secret_key("development", tmp_path)
    assert first == secret_key("development", tmp_path)
    assert len(first) >= 50


def test_unknown_environment_is_refused(monkeypatch):
    monkeypatch.setenv("ATHAR_ENV", "staging")
    with pytest.raises(ImproperlyConfigured, match="ATHAR_ENV"):
        athar_environment()


def test_ambiguous_boolean_is_refused(monkeypatch):
    monkeypatch.setenv("ATHAR_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="ATHAR_DEBUG"):
        env_bool("ATHAR_DEBUG")


def test_debug_is_off_by_default(settings):
    assert settings.DEBUG is False


def test_postgresql_prepares_repeated_queries_unless_told_not_to(monkeypatch):
    """Server-side binding with a prepare threshold for PostgreSQL (half its CPU per page on the
    load test); 0 turns it off (a pooler in transaction mode); SQLite is left alone."""
    from athar import settings as athar_settings

    monkeypatch.setenv("DATABASE_URL", "postgres://athar@127.0.0.1:5432/athar")
    monkeypatch.delenv("ATHAR_DB_PREPARE_THRESHOLD", raising=False)
    options = athar_settings._database()["OPTIONS"]
    assert options == {"server_side_binding": True, "prepare_threshold": 2}
    monkeypatch.setenv("ATHAR_DB_PREPARE_THRESHOLD", "0")
    assert "server_side_binding" not in athar_settings._database().get("OPTIONS", {})
    monkeypatch.delenv("DATABASE_URL")
    assert "server_side_binding" not in athar_settings._database()["OPTIONS"]


def test_database_connections_are_kept_between_requests_on_sqlite_as_on_postgresql(monkeypatch):
    """A new SQLite connection per request read the schema again with an empty page cache: 3–6 ms of
    CPU on every page of the load test (docs/security.md, "Load")."""
    from athar import settings as athar_settings

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("ATHAR_DB_CONN_MAX_AGE", raising=False)
    assert athar_settings._database()["CONN_MAX_AGE"] == 60
    monkeypatch.setenv("ATHAR_DB_CONN_MAX_AGE", "0")
    assert athar_settings._database()["CONN_MAX_AGE"] == 0
    monkeypatch.setenv("DATABASE_URL", "postgres://athar@127.0.0.1:5432/athar")
    assert athar_settings._database()["CONN_MAX_AGE"] == 0
