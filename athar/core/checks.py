"""athar's own system checks, run by ``athar check`` (and with ``--deploy``, the production ones).

IDs: ``athar.E1xx`` errors, ``athar.W1xx`` warnings (``athar.E001``, the data key, lives in
``athar.core.crypto``). ``athar check --deploy`` must pass with no warnings in production.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from athar.config import is_weak_secret
from athar.core import log_key  # noqa: F401 - registers athar.E116 (the checkpoint key)
from athar.core.backup_crypto import backup_key
from athar.core.counters import RedisStore
from athar.core.ratelimit import buckets

# Folders web servers commonly publish; the media store must never sit under one of them.
COMMON_PUBLIC_ROOTS = ("/var/www", "/usr/share/nginx/html", "/srv/www", "/srv/http", "/usr/share/caddy")
UNSAFE_CSP = ("'unsafe-inline'", "'unsafe-eval'", "*")
MAX_SESSION_SECONDS = 12 * 60 * 60


@register(Tags.security)
def check_rate_limits(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Every rate-limit bucket parses, and every limited view names a bucket that exists."""
    try:
        known = buckets()
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="athar.E111")]
    if "login" not in known or settings.ATHAR_RATE_LIMITED_VIEWS.get("accounts:login") != "login":
        return [Error("Sign-in is not rate-limited per address: ATHAR_RATE_LIMITS needs the 'login' bucket "
                      "for accounts:login.", hint="django-axes locks per account only; the address is "
                      "throttled by this bucket (docs/security.md).", id="athar.E114")]
    missing = sorted({b for b in settings.ATHAR_RATE_LIMITED_VIEWS.values() if b and b not in known})
    return [Warning(f"rate-limited views name buckets missing from ATHAR_RATE_LIMITS: {', '.join(missing)}",
                    hint="Those views are not limited. Add the buckets or remove the views.", id="athar.W111")
            ] if missing else []


@register(Tags.security, deploy=True)
def check_production(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The settings a production deployment must have."""
    out: list[CheckMessage] = []
    if settings.ATHAR_ENV != "production":
        out.append(Warning("ATHAR_ENV is not 'production': secure cookies, HSTS and two-factor are off.",
                           hint="Set ATHAR_ENV=production on the server.", id="athar.W101"))
    if is_weak_secret(str(settings.SECRET_KEY)):
        out.append(Error("ATHAR_SECRET_KEY is missing, short or a default.",
                         hint="Set ATHAR_SECRET_KEY (or ATHAR_SECRET_KEY_FILE) to 50+ random characters.",
                         id="athar.E102"))
    if settings.DEBUG:
        out.append(Error("ATHAR_DEBUG is on: error pages would show personal data.", id="athar.E105"))
    if not settings.ALLOWED_HOSTS or "*" in settings.ALLOWED_HOSTS:
        out.append(Error("ATHAR_ALLOWED_HOSTS must list the site's host names (not '*').", id="athar.E106"))
    if not getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False):
        out.append(Error("Two-factor sign-in is not required for reviewers, archivists and administrators.",
                         hint="Leave ATHAR_REQUIRE_TWO_FACTOR unset (on in production) or set it to true.",
                         id="athar.E107"))
    if not settings.PASSWORD_HASHERS or "Argon2" not in settings.PASSWORD_HASHERS[0]:
        out.append(Error("Passwords must be hashed with Argon2 first.", id="athar.E108"))
    if settings.SESSION_COOKIE_AGE > MAX_SESSION_SECONDS:
        out.append(Warning(f"Sessions last longer than {MAX_SESSION_SECONDS // 3600} hours.",
                           hint="Lower ATHAR_SESSION_SECONDS.", id="athar.W112"))
    if not settings.ATHAR_ORGANISATION_CONTACT:
        out.append(Error("No organisation contact: a family that registers itself, or forgets its password, "
                         "would be told to ask a caseworker it does not have.",
                         hint="Set ATHAR_ORGANISATION_CONTACT (a phone number, an address, opening hours).",
                         id="athar.E140"))
    out += check_counter_store() + check_csp() + check_media_root() + check_private_files() + check_backup_key()
    return out


def check_backup_key() -> list[CheckMessage]:
    """Backups are always encrypted: production needs the key (kept apart from the backups)."""
    try:
        key = backup_key()
    except ImproperlyConfigured as exc:
        return [Error(str(exc), id="athar.E115")]
    if key is None:
        return [Warning("No backup key: `athar backup` refuses to run (backups are always encrypted).",
                        hint="Set ATHAR_BACKUP_KEY_FILE (or ATHAR_BACKUP_KEY) to 32 random bytes in base64, "
                             "stored apart from the backups (docs/deployment.md).", id="athar.W115")]
    return []


def private_paths() -> list[Path]:
    """The data directory, the media store and (SQLite) the database with its WAL files."""
    paths = [Path(settings.ATHAR_HOME), Path(settings.MEDIA_ROOT), Path(settings.UPLOADS_ROOT)]
    database = settings.DATABASES["default"]
    if str(database.get("ENGINE", "")).endswith("sqlite3"):
        name = Path(str(database["NAME"]))
        paths += [name, Path(f"{name}-wal"), Path(f"{name}-shm")]
    return paths


MAX_NAMED = 20  # readable paths named one by one; the rest are counted


def readable_by_others(root: Path) -> Iterator[Path]:
    """Every folder and file under ``root`` (itself included) whose mode lets another account read,
    write or enter it; symbolic links are not followed."""
    if not root.exists():
        return
    if root.lstat().st_mode & 0o077:
        yield root
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            try:
                mode = path.lstat().st_mode
            except OSError:  # removed while we walked
                continue
            if not stat.S_ISLNK(mode) and mode & 0o077:
                yield path


def check_private_files() -> list[CheckMessage]:
    """Folders 0700 and files 0600 at most, everywhere under ATHAR_HOME (and the SQLite database
    wherever it lives): names, phones and photos are no one else's business."""
    out: list[CheckMessage] = []
    seen: set[Path] = set()
    found = 0
    for root in [Path(settings.ATHAR_HOME), *private_paths()[2:]]:
        for path in readable_by_others(root):
            if path in seen:
                continue
            seen.add(path)
            found += 1
            if found <= MAX_NAMED:
                mode = path.lstat().st_mode
                wanted = "700" if stat.S_ISDIR(mode) else "600"
                out.append(Warning(f"{path} is readable or writable by other accounts (mode {oct(mode & 0o777)}).",
                                   hint=f"chmod {wanted} {path}", id="athar.W116"))
    if found > MAX_NAMED:
        out.append(Warning(f"{found - MAX_NAMED} more folders or files under {settings.ATHAR_HOME} are readable "
                           "or writable by other accounts.",
                           hint=f"chmod -R go-rwx {settings.ATHAR_HOME}", id="athar.W116"))
    return out


def check_counter_store() -> list[CheckMessage]:
    """Rate-limit counters and used-code markers live in the database table, or in Redis when
    ``ATHAR_REDIS_URL`` is set: then Redis must answer (never Django's cache, athar.core.counters)."""
    url = str(getattr(settings, "ATHAR_REDIS_URL", "") or "")
    if not url:
        return []
    try:
        RedisStore(url).client.ping()
    except Exception as exc:  # noqa: BLE001 - any failure: rate limits would fail
        return [Error(f"ATHAR_REDIS_URL is set but Redis does not answer ({type(exc).__name__}).",
                      hint="Start Redis, correct the URL, or unset ATHAR_REDIS_URL to keep the counters "
                           "in the database.", id="athar.E113")]
    return []


def check_csp() -> list[CheckMessage]:
    policy = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
    directives = policy.get("DIRECTIVES", {})
    if not directives.get("default-src") or not directives.get("frame-ancestors"):
        return [Error("CONTENT_SECURITY_POLICY needs default-src and frame-ancestors.", id="athar.E110")]
    unsafe = sorted({f"{name} {value}" for name, values in directives.items() if isinstance(values, (list, tuple))
                     for value in values if value in UNSAFE_CSP})
    if unsafe:
        return [Error(f"The Content-Security-Policy allows {', '.join(unsafe)}.",
                      hint="No inline scripts or styles: move them to static files.", id="athar.E110")]
    return []


@register(Tags.security)
def check_stores_apart(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The evidence store (MEDIA_ROOT) and the family uploads store (UPLOADS_ROOT) never overlap:
    removing a family's photo must never be able to reach an archive file (docs/archive.md)."""
    evidence, uploads = Path(settings.MEDIA_ROOT).resolve(), Path(settings.UPLOADS_ROOT).resolve()
    if _inside(evidence, uploads) or _inside(uploads, evidence):
        return [Error(f"The evidence store ({evidence}) and the family uploads store ({uploads}) overlap.",
                      hint="Keep MEDIA_ROOT and UPLOADS_ROOT apart (the defaults: ATHAR_HOME/media and "
                           "ATHAR_HOME/uploads).", id="athar.E130")]
    return []


def check_media_root() -> list[CheckMessage]:
    """Photos of bodies live outside anything a web server publishes, readable by athar only."""
    media = Path(settings.MEDIA_ROOT).resolve()
    out: list[CheckMessage] = []
    if getattr(settings, "MEDIA_URL", "") not in ("", "/"):  # Django shows an unset MEDIA_URL as "/"
        out.append(Error("MEDIA_URL is set: media must only be served by athar's permission-checked views.",
                         id="athar.E103"))
    for public in public_roots():
        if _inside(media, public) or _inside(public, media):
            out.append(Error(f"The media store ({media}) overlaps a public folder ({public}).",
                             hint="Keep ATHAR_HOME on a private volume, outside static and web roots.",
                             id="athar.E103"))
    if media.exists() and world_reachable(media):
        out.append(Warning(f"The media store ({media}) is readable or writable by every user of the machine.",
                           hint=f"chmod o-rwx {media.parent} {media}", id="athar.W104"))
    return out


def world_reachable(path: Path) -> bool:
    """True when any account on the machine can list or open the folder (every parent traversable)."""
    if not path.stat().st_mode & (stat.S_IROTH | stat.S_IXOTH):
        return False
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


def public_roots() -> list[Path]:
    """STATIC_ROOT, STATICFILES_DIRS, apps' static folders, ATHAR_PUBLIC_PATHS and the usual web roots."""
    from django.apps import apps

    app_static = [Path(app.path) / "static" for app in apps.get_app_configs()]
    roots = [settings.STATIC_ROOT, *getattr(settings, "STATICFILES_DIRS", []), *app_static,
             *getattr(settings, "ATHAR_PUBLIC_PATHS", []), *COMMON_PUBLIC_ROOTS]
    return [Path(r if isinstance(r, (str, Path)) else r[1]).resolve() for r in roots if r]


def _inside(path: Path, parent: Path) -> bool:
    return path == parent or parent in path.parents
