"""Typed settings read from the environment, failing closed — the one place athar reads them.

Every environment variable athar reads is a ``Setting`` in ``SETTINGS`` below: its name, its
default and what it means, as data. The readers (``env_str``, ``env_int``, …) refuse a name that
is not registered, take the default from the registry, and docs/configuration.md's tables are
generated from it (``scripts/configuration-doc``; a test fails when they disagree).

Kept apart from ``settings.py`` so the rules (what is required in production, what is refused)
are small functions that tests can call directly.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

ENVIRONMENTS = ("development", "production", "test")
INSECURE_KEY_MARKERS = ("django-insecure", "changeme", "change-me", "secret", "default")
MIN_SECRET_KEY_LENGTH = 50

Default = str | int | bool | tuple[str, ...] | None


@dataclass(frozen=True)
class Setting:
    """One environment variable: ``default`` is the value used when it is unset or empty (None:
    the caller computes it, described by ``shown``); ``shown`` is the default as the documentation
    words it (derived from ``default`` when empty). ``from_file``: ``NAME_FILE`` may name a file
    holding the value instead (container secrets). ``group``: ``run`` (deployments) or ``develop``."""

    name: str
    default: Default
    meaning: str
    shown: str = ""
    from_file: bool = False
    group: str = "run"

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, f"{self.name}_FILE") if self.from_file else (self.name,)


SETTINGS: tuple[Setting, ...] = (
    Setting("ATHAR_ENV", "development", "`development`, `production` or `test`. Production enables HSTS, secure "
            "cookies, SSL redirect and refuses weak secrets."),
    Setting("ATHAR_HOME", "athar-data", "data directory: SQLite database, evidence store (`media/`: the archive's "
            "originals and derivatives), family uploads store (`uploads/`: photos of the person alive, per report, "
            "sealed), indexes. Created and migrated by any `athar` command.", shown="`./athar-data`"),
    Setting("ATHAR_SECRET_KEY", None, "required in production (50+ random characters; refused if it looks like a "
            "default).", shown="generated per data directory in development", from_file=True),
    Setting("ATHAR_DATA_KEY", None, "32 random bytes (base64 or hex): the master key wrapping the keys of "
            "reporters' contact details; required in production (system check `athar.E001`).",
            shown="generated per data directory in development", from_file=True),
    Setting("ATHAR_ALLOWED_HOSTS", None, "comma-separated host names.",
            shown="localhost names in development, none in production"),
    Setting("ATHAR_CSRF_TRUSTED_ORIGINS", (), "comma-separated origins (behind a proxy)."),
    Setting("ATHAR_DEBUG", False, "never in production."),
    Setting("DATABASE_URL", "", "e.g. `postgres://athar@127.0.0.1:5432/athar`.", shown="SQLite in `ATHAR_HOME`"),
    Setting("ATHAR_DB_CONN_MAX_AGE", 60, "seconds a database connection (PostgreSQL or SQLite) is kept open "
            "for reuse between requests."),
    Setting("ATHAR_DB_PREPARE_THRESHOLD", 2, "PostgreSQL: a query is prepared on the server (planned once per "
            "connection) after this many uses; 0 sends every query with its values written in (no prepared "
            "statements: for a pooler such as PgBouncer in transaction mode)."),
    Setting("ATHAR_SQLITE_TIMEOUT", 60, "seconds a writer waits for SQLite's lock (WAL mode, IMMEDIATE "
            "transactions)."),
    Setting("ATHAR_SESSION_SECONDS", 60 * 60 * 8, "session lifetime."),
    Setting("ATHAR_SESSION_IDLE_SECONDS", 60 * 60, "a session ends after this many seconds without a request."),
    Setting("ATHAR_SSL_REDIRECT", True, "production only: redirect http to https (off only when the proxy does "
            "it)."),
    Setting("ATHAR_HSTS_SECONDS", 60 * 60 * 24 * 365, "production only: how long browsers keep to https "
            "(HSTS, with subdomains and preload)."),
    Setting("ATHAR_ORGANISATION_CONTACT", "", "how families reach the organisation that runs athar, shown on "
            "their page and the support page (a phone number, an address, opening hours: plain text, one line "
            "per item). Unset: the file `organisation-contact.txt` in the data directory, if any (`athar demo` "
            "writes one). Required in production (`athar check --deploy`, athar.E140): a family that "
            "registers itself has no caseworker yet."),
    Setting("ATHAR_QUICK_EXIT_URL", "https://www.google.com/", "the neutral site the quick exit sends the browser "
            "to, after signing out (an absolute `https://` address; anything else is refused at start-up). Choose "
            "a site that is ordinary where the families live."),
    Setting("ATHAR_REQUIRE_TWO_FACTOR", None, "two-factor step (django-otp) for reviewers, archivists and "
            "administrators (web sessions, API tokens, commands acting as a person).", shown="on in production"),
    Setting("ATHAR_TWO_FACTOR_THROTTLE_FACTOR", 1, "django-otp throttling: after n wrong codes in a row the next "
            "try waits factor × 2^(n-1) seconds; 0 turns throttling off (not advised)."),
    Setting("ATHAR_PHONE_REGION", "SY", "region (ISO 3166 code) a phone number typed without its country code is "
            "read in. Every phone login is kept in E.164 (`+963944321765`): `0944 321 765`, `00963944321765` and "
            "the same in Arabic-Indic digits are one login."),
    Setting("ATHAR_OPEN_REGISTRATION", True, "families may open an account with their phone number, without an "
            "invitation (`/accounts/register/`); such accounts wait in the caseworkers' queue until one takes them "
            "on. `false`: invitation only."),
    Setting("ATHAR_LOGIN_FAILURE_LIMIT", 5, "failed sign-ins in a row that lock an account (per account, from any "
            "address; addresses are throttled by the `login` rate limit instead)."),
    Setting("ATHAR_LOGIN_LOCKOUT_MINUTES", 30, "how long a locked account stays locked."),
    Setting("ATHAR_PROXY_COUNT", 0, "reverse proxies in front of athar (each adds one `X-Forwarded-For` entry); "
            "0: none."),
    Setting("ATHAR_RATE_LIMITS", None, "a JSON object overriding single rate-limit buckets, e.g. "
            "`{\"search\": \"10/m\"}` or `{\"search\": {\"rate\": \"10/m\", \"address_rate\": \"40/m\"}}`; "
            "`{\"bucket\": null}` removes one.", shown="`login`, `search`, `candidates`, `photo`, `api` buckets "
            "(`athar/settings.py`)"),
    Setting("ATHAR_REDIS_URL", "", "Redis for rate-limit counters and one-time markers (e.g. "
            "`redis://127.0.0.1:6379/0`); unset: the database table `core_counter`. Never Django's cache."),
    Setting("ATHAR_CACHE_DIR", None, "folder of Django's file cache (never used for counters).",
            shown="`ATHAR_HOME/cache`"),
    Setting("ATHAR_CACHE_MAX_ENTRIES", 20_000, "entries the file cache keeps before evicting."),
    Setting("ATHAR_PUBLIC_PATHS", (), "comma-separated folders a web server publishes on this machine; `athar "
            "check --deploy` refuses a media store inside one."),
    Setting("ATHAR_MEDIA_LINK_SECONDS", 60 * 60, "how long a signed photo link (blurred copies, originals for "
            "archivists) stays valid."),
    Setting("ATHAR_REVEAL_LINK_SECONDS", 5 * 60, "how long the link to an unblurred copy lives: pages make one only "
            "after an explicit choice to see more, for that page."),
    Setting("ATHAR_API_TOKEN_DAYS", 90, "days an API token stays valid unless issued with fewer (`athar api token "
            "--days`)."),
    Setting("ATHAR_API_TOKEN_MAX_DAYS", 365, "the most `--days` may ask for."),
    Setting("ATHAR_MAX_IMAGE_PIXELS", 120_000_000, "larger images are refused as possible decompression bombs "
            "(kept as evidence, not decoded)."),
    Setting("ATHAR_UPLOAD_DAILY_FILES", 60, "photos a family account may upload per day (refused ones count too)."),
    Setting("ATHAR_UPLOAD_DAILY_MB", 300, "megabytes a family account may upload per day."),
    Setting("ATHAR_INGEST_WORKERS", 0, "processes that hash and decode during ingest; 0: one per core.",
            shown="one per core"),
    Setting("ATHAR_INGEST_ROOT", "", "the folder on the server below which archivists may start an ingest from "
            "their page (run by the worker): copy an archive there, then give its path. Unset: ingest only from "
            "the command line (`athar ingest`). Any other path, `..` or a symbolic link out of it is refused.",
            shown="unset (no ingest from the web)"),
    Setting("ATHAR_BACKUP_KEY", "", "32 random bytes (base64 or hex) encrypting every backup; `athar backup` "
            "refuses to run without it. Keep it apart from the backups (docs/deployment.md).", from_file=True),
    Setting("ATHAR_LOG_KEY", "", "the Ed25519 key that signs the audit log's checkpoints, best given as a file "
            "(`ATHAR_LOG_KEY_FILE`, made by `athar log keygen --name ORIGIN --out FILE`); required in production "
            "(system check `athar.E116`). Keep it off the database and out of backups: a checkpoint proves nothing "
            "if whoever holds the database can sign one (docs/evidence.md).",
            shown="`ATHAR_HOME/log-signing-key`, created in development and tests", from_file=True),
    Setting("ATHAR_LOG_WITNESSES", (), "comma-separated verifier keys (`name+id+key`) of the witnesses whose "
            "cosignatures `athar verify --checkpoint` reports (`athar log witness-key` prints one)."),
    Setting("ATHAR_CHECKPOINT_MINUTES", 60, "the worker writes a signed checkpoint of the audit log into "
            "`ATHAR_HOME/checkpoints/` this often when the log grew; 0: never (exports still write one)."),
    Setting("ATHAR_LOG_LEVEL", "WARNING", "logs go to standard error and never contain personal data."),
    Setting("ATHAR_DUCKDB_MEMORY_LIMIT", "3GB", "memory DuckDB may use when linking reports (`athar registry "
            "link`); it spills to a temporary folder beyond it."),
    Setting("ATHAR_LINK_AFTER_SECONDS", 5, "the worker links new or changed reports by itself this many seconds "
            "after they arrive (reports arriving meanwhile join the same job), incrementally: each joins or opens a "
            "person without a full run (a full run when none is in force or many reports wait); 0: only `athar "
            "registry link` links."),
    Setting("ATHAR_SPARK_MEMORY", "2g", "driver memory of the local Spark session (`athar registry link --engine "
            "spark`)."),
    Setting("ATHAR_TEST_DATABASE_NAME", "", "name of the PostgreSQL test database.", group="develop",
            shown="`test_<name>_<process id>`, so several test runs can share one server"),
    Setting("ATHAR_SHARED_DATA", None, "development data that is never committed (name lists for dev sets and "
            "benchmarks).", shown="`../shared/data` beside the checkout", group="develop"),
    Setting("ATHAR_SCRATCH_STORE", "", "set to `1` by athar itself for a command it runs in a throw-away data "
            "directory (`athar eval …`); not to be set by hand.", group="develop"),
)
REGISTRY: dict[str, Setting] = {s.name: s for s in SETTINGS}
READ_NAMES = frozenset(name for s in SETTINGS for name in s.names)
_FROM_REGISTRY: object = object()


def _raw(name: str) -> str:
    """The stripped value of a registered variable ("" when unset); an unregistered name is a bug."""
    if name not in READ_NAMES:
        raise KeyError(f"{name} is not in athar.config.SETTINGS: register it (default and meaning) so "
                       "docs/configuration.md lists it")
    return os.environ.get(name, "").strip()


def registered_default(name: str) -> Default:
    """The registry's default for a name ("" for the ``NAME_FILE`` of a setting read from a file)."""
    setting = REGISTRY.get(name)
    return setting.default if setting is not None else ""


def _default(name: str, given: object) -> object:
    if given is not _FROM_REGISTRY:
        return given
    default = registered_default(name)
    if default is None:
        raise KeyError(f"{name} has no fixed default in athar.config.SETTINGS: the caller must give it")
    return default


def env_str(name: str, default: object = _FROM_REGISTRY) -> str:
    """A string from the environment, stripped; the default when unset or empty ("" when the
    registry leaves the default to the caller and the caller gives none)."""
    value = _raw(name)
    if default is _FROM_REGISTRY and registered_default(name) is None:
        default = ""
    return value or str(_default(name, default))


def env_bool(name: str, default: object = _FROM_REGISTRY) -> bool:
    """A boolean that accepts only clear spellings; anything else is an error, not a guess."""
    raw = _raw(name).lower()
    if not raw:
        return bool(_default(name, default))
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: object = _FROM_REGISTRY) -> int:
    """An integer from the environment; a malformed value is an error."""
    raw = _raw(name)
    if not raw:
        value = _default(name, default)
        assert isinstance(value, int), f"{name}: the default is not a whole number"
        return value
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from exc


def env_list(name: str, default: object = _FROM_REGISTRY) -> list[str]:
    """A comma-separated list from the environment."""
    raw = _raw(name)
    if not raw:
        value = _default(name, default)
        assert isinstance(value, (list, tuple)), f"{name}: the default is not a list"
        return list(value)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_json_dict(name: str, default: dict[str, object]) -> dict[str, object]:
    """A JSON object from the environment, merged over the default (keys it names win)."""
    raw = _raw(name)
    if not raw:
        return dict(default)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{name} must be a JSON object: {exc}") from exc
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"{name} must be a JSON object, not {type(value).__name__}")
    return {**default, **value}


def env_exit_url(name: str, default: object = _FROM_REGISTRY) -> str:
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
    value = env_str("ATHAR_ENV").lower()
    if value not in ENVIRONMENTS:
        raise ImproperlyConfigured(f"ATHAR_ENV must be one of {', '.join(ENVIRONMENTS)}, not {value!r}")
    return value


def athar_home() -> Path:
    """The data directory (database, media store, indexes); created on demand."""
    return Path(env_str("ATHAR_HOME")).expanduser().resolve()


PRIVATE_UMASK = 0o077


def private_umask() -> None:
    """Every file and folder athar creates (data folder, database, media, keys, exports, backups) is
    its own account's only — 0700 folders, 0600 files — whatever the umask of the shell or service
    manager. Set when the settings load, before anything (the development keys) is written."""
    os.umask(PRIVATE_UMASK)


def private_folder(path: Path) -> Path:
    """Create a folder (and missing parents) readable by athar's account only."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def shared_data_dir() -> Path:
    """Development data that is never committed: ATHAR_SHARED_DATA, or ../shared/data beside the checkout."""
    return Path(env_str("ATHAR_SHARED_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data")


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


def use_ephemeral_secret_key() -> None:
    """A help page needs no secret key: an ephemeral one keeps the settings from writing the data
    directory's development key (``athar COMMAND --help`` must write nothing)."""
    if not _raw("ATHAR_SECRET_KEY") and not _raw("ATHAR_SECRET_KEY_FILE"):
        os.environ["ATHAR_SECRET_KEY"] = secrets.token_urlsafe(64)


ORGANISATION_CONTACT_FILE = "organisation-contact.txt"


def organisation_contact(home: Path) -> str:
    """How families reach the organisation: the environment first, else the data directory's file
    (so a demo or a small deployment keeps it beside its data, across restarts)."""
    value = env_str("ATHAR_ORGANISATION_CONTACT")
    if value:
        return value.replace("\\n", "\n")
    path = home / ORGANISATION_CONTACT_FILE
    return path.read_text(encoding="utf-8").strip() if path.is_file() else ""


def _development_key(home: Path) -> str:
    """A random key kept in the data directory, so development sessions survive restarts."""
    path = home / "development-secret-key"
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    private_folder(home)
    key = secrets.token_urlsafe(64)
    path.write_text(key, encoding="utf-8")
    path.chmod(0o600)
    return key



# ---- docs/configuration.md: its tables are generated from SETTINGS (scripts/configuration-doc) ----

GROUPS = ("run", "develop")
_TABLE_HEAD = "| variable | default | meaning |\n|---|---|---|\n"


def shown_default(setting: Setting) -> str:
    """The default as the documentation shows it."""
    value = setting.default
    if setting.shown:
        return setting.shown
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, tuple):
        return ", ".join(f"`{v}`" for v in value) or "none"
    return f"`{value}`" if value else "none"


def settings_table(group: str) -> str:
    """The markdown table of one group of settings, in registry order."""
    rows = [f"| {' / '.join(f'`{n}`' for n in s.names)} | {shown_default(s)} | {s.meaning} |"
            for s in SETTINGS if s.group == group]
    return _TABLE_HEAD + "\n".join(rows) + "\n"


def _markers(group: str) -> tuple[str, str]:
    return (f"<!-- settings:{group}: generated from athar/config.py by scripts/configuration-doc; edit it there -->\n",
            f"<!-- /settings:{group} -->")


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for ``re.sub`` that inserts ``text`` as it is (no backslash or group escapes)."""
    return lambda _match: text


def with_settings_tables(document: str) -> str:
    """``document`` (docs/configuration.md) with each group's table regenerated between its markers."""
    for group in GROUPS:
        begin, end = _markers(group)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.DOTALL)
        if not pattern.search(document):
            raise ValueError(f"the document has no {begin.strip()} … {end} block")
        block = begin + settings_table(group) + end
        document = pattern.sub(_literally(block), document)  # a function: the table is not a pattern
    return document
