"""Typed settings read from the environment, failing closed.

Kept apart from ``settings.py`` so the rules (what is required in production, what is refused)
are small functions that tests can call directly.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

ENVIRONMENTS = ("development", "production", "test")
INSECURE_KEY_MARKERS = ("django-insecure", "changeme", "change-me", "secret", "default")
MIN_SECRET_KEY_LENGTH = 50


def env_str(name: str, default: str = "") -> str:
    """A string from the environment, stripped; the default when unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool = False) -> bool:
    """A boolean that accepts only clear spellings; anything else is an error, not a guess."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int) -> int:
    """An integer from the environment; a malformed value is an error."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list from the environment."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_json_dict(name: str, default: dict[str, object]) -> dict[str, object]:
    """A JSON object from the environment, merged over the default (keys it names win)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return dict(default)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{name} must be a JSON object: {exc}") from exc
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"{name} must be a JSON object, not {type(value).__name__}")
    return {**default, **value}


def env_exit_url(name: str, default: str) -> str:
    """An absolute https address (the quick exit's neutral site); anything else is refused at
    start-up, so a typo never turns the quick exit into an error page."""
    value = env_str(name, default)
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.netloc:
        raise ImproperlyConfigured(f"{name} must be an absolute https:// address, not {value!r}")
    return value


def origin_of(url: str) -> str:
    """``https://host[:port]`` of an absolute address (for a CSP source list)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def athar_environment() -> str:
    """``development`` (default), ``production`` or ``test``; anything else is refused."""
    value = env_str("ATHAR_ENV", "development").lower()
    if value not in ENVIRONMENTS:
        raise ImproperlyConfigured(f"ATHAR_ENV must be one of {', '.join(ENVIRONMENTS)}, not {value!r}")
    return value


def athar_home() -> Path:
    """The data directory (database, media store, indexes); created on demand."""
    return Path(env_str("ATHAR_HOME", "athar-data")).expanduser().resolve()


def secret_from_file_or_env(name: str) -> str:
    """``NAME`` or the contents of the file named by ``NAME_FILE`` (for container secrets)."""
    path = env_str(f"{name}_FILE")
    if path:
        return Path(path).read_text(encoding="utf-8").strip()
    return env_str(name)


def is_weak_secret(key: str) -> bool:
    """True for keys that look like defaults or are too short to be secret."""
    lowered = key.lower()
    return len(key) < MIN_SECRET_KEY_LENGTH or any(m in lowered for m in INSECURE_KEY_MARKERS)


def secret_key(environment: str, home: Path) -> str:
    """The secret key: required and strong in production; generated per data directory otherwise."""
    key = secret_from_file_or_env("ATHAR_SECRET_KEY")
    if environment == "production":
        if not key:
            raise ImproperlyConfigured(
                "ATHAR_SECRET_KEY is not set: athar refuses to start in production without it. "
                "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(64))'"
            )
        if is_weak_secret(key):
            raise ImproperlyConfigured(
                f"ATHAR_SECRET_KEY is too weak or a default (need {MIN_SECRET_KEY_LENGTH}+ random "
                "characters): athar refuses to start in production with it."
            )
        return key
    return key or _development_key(home)


def _development_key(home: Path) -> str:
    """A random key kept in the data directory, so development sessions survive restarts."""
    path = home / "development-secret-key"
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    home.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(64)
    path.write_text(key, encoding="utf-8")
    path.chmod(0o600)
    return key

