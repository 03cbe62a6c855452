"""Production settings: fail closed, and `athar check --deploy` passes with no warnings (SQLite, PostgreSQL)."""

from __future__ import annotations

import base64
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.conf import settings

from tests.security.pg import pg_available, pg_url

ATHAR = [sys.executable, "-m", "athar.cli"]


def production_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ATHAR_", "DATABASE_URL", "DJANGO_SETTINGS_MODULE"))}
    env.update({
        "ATHAR_ENV": "production", "ATHAR_HOME": str(home), "ATHAR_ALLOWED_HOSTS": "athar.example.org",
        "ATHAR_SECRET_KEY": secrets.token_urlsafe(64),
        "ATHAR_DATA_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        "ATHAR_BACKUP_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        "ATHAR_ORGANISATION_CONTACT": "Syrian families' association\\n+963 11 000 0000",
    })
    env["ATHAR_LOG_KEY_FILE"] = str(_log_key(home))
    env.update(extra)
    return env


def _log_key(home: Path) -> Path:
    """The checkpoint key, beside (not in) the data directory, as an operator keeps it."""
    from athar.core.signed_note import Signer
    path = home.parent / "log-signing.key"
    if not path.exists():
        path.write_text(Signer.generate("athar.example.org/log").encode() + "\n", encoding="utf-8")
        path.chmod(0o600)
    return path


def athar(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ATHAR, *args], env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    (home / "media").mkdir()
    return home


def _deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return athar(env, "check", "--deploy", "--fail-level", "WARNING")


def test_check_deploy_passes_with_no_warnings_on_sqlite(home):
    proc = _deploy_check(production_env(home))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "System check identified no issues" in proc.stdout


@pytest.mark.skipif(not pg_available(), reason="PostgreSQL not reachable on 127.0.0.1:5432")
def test_check_deploy_passes_with_no_warnings_on_postgresql(home):
    proc = _deploy_check(production_env(home, DATABASE_URL=pg_url("test")))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "System check identified no issues" in proc.stdout


@pytest.mark.parametrize("key", ["", "django-insecure-abc", "short", "changeme" * 10])
def test_production_refuses_to_start_with_a_missing_or_default_secret_key(home, key):
    proc = athar(production_env(home, ATHAR_SECRET_KEY=key), "check")
    assert proc.returncode != 0
    assert "ATHAR_SECRET_KEY" in proc.stderr


def test_production_refuses_to_start_without_the_log_key(home):
    env = production_env(home)
    env.pop("ATHAR_LOG_KEY_FILE")
    proc = athar(env, "check", "--deploy")
    assert proc.returncode != 0 and "athar.E116" in proc.stdout + proc.stderr
    (home.parent / "bad.key").write_text("not a key\n")
    proc = athar(production_env(home, ATHAR_LOG_KEY_FILE=str(home.parent / "bad.key")), "check", "--deploy")
    assert proc.returncode != 0 and "athar.E116" in proc.stdout + proc.stderr


def test_production_refuses_to_start_without_the_data_key(home):
    env = production_env(home)
    env.pop("ATHAR_DATA_KEY")
    proc = athar(env, "check", "--deploy")
    assert proc.returncode != 0
    assert "ATHAR_DATA_KEY" in proc.stdout + proc.stderr


@pytest.mark.parametrize("extra,check_id", [
    ({"ATHAR_DEBUG": "true"}, "athar.E105"),
    ({"ATHAR_ALLOWED_HOSTS": "*"}, "athar.E106"),
    ({"ATHAR_REQUIRE_TWO_FACTOR": "false"}, "athar.E107"),
    ({"ATHAR_SESSION_SECONDS": str(3 * 24 * 3600)}, "athar.W112"),
    ({"ATHAR_RATE_LIMITS": '{"login": "ten per minute"}'}, "athar.E111"),
])
def test_check_deploy_names_each_unsafe_setting(home, extra, check_id):
    proc = _deploy_check(production_env(home, **extra))
    assert proc.returncode != 0
    assert check_id in proc.stdout + proc.stderr


def test_check_deploy_refuses_media_inside_a_public_folder(tmp_path):
    public = tmp_path / "www"
    home = public / "athar"
    home.mkdir(parents=True)
    (home / "media").mkdir()
    proc = _deploy_check(production_env(home, ATHAR_PUBLIC_PATHS=str(public)))
    assert proc.returncode != 0 and "athar.E103" in proc.stdout + proc.stderr


def test_check_deploy_warns_about_a_world_readable_media_store():
    home = Path(tempfile.mkdtemp(prefix="athar-open-home-", dir="/tmp"))  # /tmp: every parent traversable
    try:
        (home / "media").mkdir()
        home.chmod(0o755)
        (home / "media").chmod(0o755)
        proc = _deploy_check(production_env(home))
        assert proc.returncode != 0 and "athar.W104" in proc.stdout + proc.stderr
    finally:
        shutil.rmtree(home)


def test_check_deploy_requires_the_organisations_contact(home):
    """A family that registers itself has no caseworker: the support page must name someone."""
    env = production_env(home)
    env.pop("ATHAR_ORGANISATION_CONTACT")
    proc = _deploy_check(env)
    assert proc.returncode != 0 and "athar.E140" in proc.stdout + proc.stderr


def test_check_deploy_warns_without_a_backup_key(home):
    env = production_env(home)
    env.pop("ATHAR_BACKUP_KEY")
    proc = _deploy_check(env)
    assert proc.returncode != 0 and "athar.W115" in proc.stdout + proc.stderr


def test_check_deploy_warns_when_the_data_or_database_is_open_to_others(home):
    env = production_env(home)
    assert athar(env, "migrate").returncode == 0  # creates the SQLite database
    (home / "athar.sqlite3").chmod(0o644)
    home.chmod(0o755)
    proc = _deploy_check(env)
    text = proc.stdout + proc.stderr
    assert proc.returncode != 0 and text.count("athar.W116") >= 2, text


def test_a_new_data_directory_and_database_are_private_whatever_the_umask(tmp_path):
    home = tmp_path / "fresh"
    env = production_env(home)
    proc = subprocess.run(["bash", "-c", "umask 022; exec \"$@\"", "athar", *ATHAR, "migrate"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    modes = {p.name: oct(p.stat().st_mode & 0o777) for p in (home, home / "media", home / "athar.sqlite3")}
    assert modes == {"fresh": "0o700", "media": "0o700", "athar.sqlite3": "0o600"}
    assert _deploy_check(env).returncode == 0


@pytest.mark.real_password_hashing
def test_passwords_are_hashed_with_argon2(make_user):
    user = make_user("family")
    assert user.password.startswith("argon2")
    assert settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"  # not tests/hashers.py


def test_production_settings_turn_on_hsts_and_secure_cookies(home):
    code = ("from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.SECURE_HSTS_SECONDS > 0, s.SECURE_SSL_REDIRECT, s.ATHAR_REQUIRE_TWO_FACTOR, s.DEBUG)")
    env = production_env(home, DJANGO_SETTINGS_MODULE="athar.settings")
    proc = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["True", "True", "True", "True", "True", "False"], proc.stderr


@pytest.mark.slow
def test_a_fresh_demo_is_private_to_its_owner_whatever_the_umask(tmp_path):
    """Development mode writes its keys while the settings load: the data folder was 0755 then."""
    home = tmp_path / "demo-home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ATHAR_", "DATABASE_URL"))}
    env.update({"ATHAR_HOME": str(home), "ATHAR_ENV": "development"})
    proc = subprocess.run(["bash", "-c", "umask 022; exec \"$@\"", "athar", *ATHAR, "demo", "--no-serve", "--json"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for path in [home, home / "athar.sqlite3", home / "media", *(home / "media").rglob("*")]:
        if not path.is_symlink():
            assert path.stat().st_mode & 0o077 == 0, f"{path} {oct(path.stat().st_mode)}"


def test_check_deploy_names_a_file_deep_under_the_data_folder(home):
    env = production_env(home)
    assert athar(env, "migrate").returncode == 0
    deep = home / "media" / "originals" / "ab" / "leaked.jpg"
    deep.parent.mkdir(parents=True)
    deep.write_bytes(b"x")
    deep.chmod(0o644)
    proc = _deploy_check(env)
    assert proc.returncode != 0 and str(deep) in proc.stdout + proc.stderr
