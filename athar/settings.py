"""Django settings, all from environment variables (see ``athar.config`` and docs/configuration.md).

Fails closed: DEBUG is off unless asked for, production refuses to start without a strong
``ATHAR_SECRET_KEY``, and secure cookies/HSTS are on in production.
"""

from __future__ import annotations

import os
from datetime import timedelta
from importlib.util import find_spec
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from athar.config import (
    athar_environment,
    athar_home,
    env_bool,
    env_exit_url,
    env_int,
    env_json_dict,
    env_list,
    env_str,
    organisation_contact,
    origin_of,
    private_umask,
    secret_key,
)

private_umask()  # first: the development keys below are the first files athar may write

BASE_DIR = Path(__file__).resolve().parent
ATHAR_ENV = athar_environment()
PRODUCTION = ATHAR_ENV == "production"
ATHAR_HOME = athar_home()
MEDIA_ROOT = ATHAR_HOME / "media"  # the evidence store (archive): private, served only through permission-checked views
UPLOADS_ROOT = ATHAR_HOME / "uploads"  # the family uploads store (per report, encrypted): apart from the evidence
INDEX_ROOT = ATHAR_HOME / "indexes"
# The audit log's checkpoint key lives outside the database (docs/evidence.md); "" outside production:
# ATHAR_HOME/log-signing-key, created on first use. Production without it fails check athar.E116.
ATHAR_LOG_KEY_FILE = env_str("ATHAR_LOG_KEY_FILE")
ATHAR_LOG_KEY = env_str("ATHAR_LOG_KEY")  # the key line itself (containers); the file is preferred
ATHAR_LOG_WITNESSES = env_list("ATHAR_LOG_WITNESSES")
ATHAR_CHECKPOINT_MINUTES = env_int("ATHAR_CHECKPOINT_MINUTES")

SECRET_KEY = secret_key(ATHAR_ENV, ATHAR_HOME)
DEBUG = env_bool("ATHAR_DEBUG")
ALLOWED_HOSTS = env_list(
    "ATHAR_ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env_list("ATHAR_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "athar.core",
    "athar.accounts",
    "athar.audit",
    "athar.archive",
    "athar.registry",
    "athar.identification",
    "athar.api",
    "athar.web",
    "athar.ops",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "athar.core.security.SecurityHeadersMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "athar.api.middleware.ApiLanguageMiddleware",  # /api/ follows ?lang= or Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified(): the two-factor step passed
    "athar.accounts.middleware.SessionPolicyMiddleware",
    "athar.accounts.middleware.TwoFactorMiddleware",
    "athar.core.ratelimit.RateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "athar.urls"
WSGI_APPLICATION = "athar.wsgi.application"

# /api/docs: Swagger UI from django-ninja's own templates and static files, not a CDN (strict CSP).
# Found where django-ninja is installed, not by listing it in INSTALLED_APPS: Django would import
# it (and pydantic) at every start-up, a fifth of a CPU-second for every athar command that never
# serves the API (docs/archive.md, "Start-up").
NINJA_FILES = Path(find_spec("ninja").origin).parent  # type: ignore[union-attr,arg-type]  # installed
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [NINJA_FILES / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database() -> dict[str, object]:
    """PostgreSQL (or any dj-database-url URL) from DATABASE_URL; SQLite in WAL mode otherwise."""
    url = env_str("DATABASE_URL")
    if url:
        config = dict(dj_database_url.parse(url, conn_max_age=env_int("ATHAR_DB_CONN_MAX_AGE")))
        prepare_after = env_int("ATHAR_DB_PREPARE_THRESHOLD")
        if prepare_after > 0 and config.get("ENGINE") == "django.db.backends.postgresql":
            # Server-side binding lets psycopg prepare the queries a page repeats: PostgreSQL plans
            # each once per connection. Measured on the load test's pages: half the database's CPU
            # per request (docs/security.md, "Load").
            options: dict[str, object] = dict(config.get("OPTIONS") or {})  # type: ignore[call-overload]
            config["OPTIONS"] = {**options, "server_side_binding": True, "prepare_threshold": prepare_after}
        # Test databases are named per process, so several test runs can share one server.
        config["TEST"] = {"NAME": env_str("ATHAR_TEST_DATABASE_NAME") or f"test_{config['NAME']}_{os.getpid()}"}
        return config
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": ATHAR_HOME / "athar.sqlite3",
        # Kept open between requests as on PostgreSQL: a new SQLite connection reads the schema again
        # and starts with an empty page cache, 3–6 ms of CPU a request (docs/security.md, "Load").
        "CONN_MAX_AGE": env_int("ATHAR_DB_CONN_MAX_AGE"),
        "OPTIONS": {
            # WAL lets readers work during an ingest; IMMEDIATE takes the write lock up front so
            # two writers queue (busy timeout) instead of failing mid-transaction.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("ATHAR_SQLITE_TIMEOUT"),
        },
    }


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

LOGIN_URL = "accounts:login"  # the web work: one sign-in view (athar/accounts/views.py)
LOGIN_REDIRECT_URL = "web:dashboard"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out logins before checking passwords
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ar"
LANGUAGES = [("ar", "العربية"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = ATHAR_HOME / "static"
STATICFILES_DIRS = [("ninja", NINJA_FILES / "static" / "ninja")]
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Sessions end after ATHAR_SESSION_SECONDS in all, or ATHAR_SESSION_IDLE_SECONDS without a request
# (athar.accounts.middleware.SessionPolicyMiddleware), and when the browser closes.
SESSION_COOKIE_AGE = env_int("ATHAR_SESSION_SECONDS")
ATHAR_SESSION_IDLE_SECONDS = env_int("ATHAR_SESSION_IDLE_SECONDS")
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "athar.web.views.errors.csrf_failure"  # the page in the visitor's language
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("ATHAR_SSL_REDIRECT")
    SECURE_HSTS_SECONDS = env_int("ATHAR_HSTS_SECONDS")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Quick exit (athar.accounts.views.quick_exit) signs out and sends the browser to this neutral site.
ATHAR_QUICK_EXIT_URL = env_exit_url("ATHAR_QUICK_EXIT_URL")
ATHAR_ORGANISATION_CONTACT = organisation_contact(ATHAR_HOME)

# Content-Security-Policy (django-csp 4): no inline scripts or styles, nothing from elsewhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "media-src": [NONE],
        "object-src": [NONE],
        "frame-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF, origin_of(ATHAR_QUICK_EXIT_URL)],  # the quick exit's POST redirects there
        "frame-ancestors": [NONE],
        **({"upgrade-insecure-requests": True} if PRODUCTION else {}),
    },
}

# Two-factor sign-in (django-otp: TOTP devices and recovery codes; athar.accounts.second_factor) for
# reviewers, archivists and administrators: required in production.
ATHAR_REQUIRE_TWO_FACTOR = env_bool("ATHAR_REQUIRE_TWO_FACTOR", PRODUCTION)
# django-otp's throttling: after n failures in a row, the next try waits FACTOR * 2^(n-1) seconds.
OTP_TOTP_THROTTLE_FACTOR = env_int("ATHAR_TWO_FACTOR_THROTTLE_FACTOR")
OTP_STATIC_THROTTLE_FACTOR = OTP_TOTP_THROTTLE_FACTOR
OTP_TOTP_ISSUER = "athar"
# Phone numbers written without a country code are read in this region (ISO 3166 code); every
# phone login is kept in E.164 (athar.accounts.phones).
ATHAR_PHONE_REGION = env_str("ATHAR_PHONE_REGION").upper()
# Families may open an account with their phone number, without a caseworker's invitation.
# Organisations that work by invitation only turn it off.
ATHAR_OPEN_REGISTRATION = env_bool("ATHAR_OPEN_REGISTRATION")

# Lockout after repeated sign-in failures (django-axes): per ACCOUNT only, from any address.
# Not per address, nor per address and browser: families often share one address (an NGO office,
# a phone operator's NAT) and the same phone browser, and the client chooses its User-Agent anyway,
# so such a lockout lets anyone lock them all out. Per address, sign-in is throttled instead
# (ATHAR_RATE_LIMITS["login"]["address_rate"]). Policy: docs/security.md, "Accounts".
AXES_FAILURE_LIMIT = env_int("ATHAR_LOGIN_FAILURE_LIMIT")
AXES_COOLOFF_TIME = timedelta(minutes=env_int("ATHAR_LOGIN_LOCKOUT_MINUTES"))
AXES_LOCKOUT_PARAMETERS = ["username"]
# axes.W006 asks for 'ip_address' in the lockout parameters: deliberately not (above). The address
# is throttled by the "login" rate-limit bucket instead; `athar check` fails without it (athar.E114).
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_USERNAME_FORM_FIELD = "username"  # Django's AuthenticationForm field, whatever USERNAME_FIELD is
AXES_USERNAME_CALLABLE = "athar.core.security.axes_username"
AXES_CLIENT_IP_CALLABLE = "athar.core.security.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # sign-ins go to the audit chain, by identifier only
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "athar.core.security.lockout_response"
# How many reverse proxies sit in front of athar (each adds one X-Forwarded-For entry); 0: none.
ATHAR_PROXY_COUNT = env_int("ATHAR_PROXY_COUNT")

# Rate limits (anti-scraping), per account and per address, fixed windows: "N/s", "N/m", "N/5m", "N/h".
# A bucket is a rate ("60/m") or {"rate": ..., "address_rate": ..., "methods": [...]}.
# ATHAR_RATE_LIMITS (JSON) in the environment overrides single buckets; {"bucket": null} removes one.
ATHAR_RATE_LIMITS = {k: v for k, v in env_json_dict("ATHAR_RATE_LIMITS", {
    "login": {"rate": "10/5m", "address_rate": "30/5m", "methods": ["POST"]},
    "search": {"rate": "30/m", "address_rate": "120/m"},
    "candidates": {"rate": "60/m", "address_rate": "240/m"},
    "photo": {"rate": "120/m", "address_rate": "480/m"},
    "api": {"rate": "120/m", "address_rate": "480/m"},
}).items() if v}
# Which views count against which bucket: URL names ("namespace:name") or whole namespaces ("api:*");
# an empty bucket name exempts a view from its namespace's bucket.
ATHAR_RATE_LIMITED_VIEWS = {
    "accounts:login": "login",
    "accounts:redeem": "login",
    "accounts:register": "login",
    "accounts:reset_password": "login",
    "accounts:recover": "login",
    "accounts:recovery_codes": "login",
    "two_factor:verify": "login",
    "two_factor:enrol": "login",
    "admin:login": "login",
    "web:search": "search",
    "web:candidates": "candidates",
    "web:candidate": "candidates",
    "web:photo_reveal": "photo",
    "web:case_reveal": "photo",
    "web:derivative": "photo",
    "web:report_photo": "photo",
    "media_derivative": "photo",
    "media_original": "photo",
    "api:*": "api",
    # the schema and its viewer are public, static and cheap: not counted ("" = no bucket)
    "api:openapi-json": "",
    "api:openapi-view": "",
}
# Rate-limit counters and one-time markers live in an atomic store (athar.core.counters): the
# core_counter table by default, Redis when ATHAR_REDIS_URL is set (e.g. redis://127.0.0.1:6379/0).
# Never in this cache: Django's file cache has no atomic increment and evicts entries at random.
ATHAR_REDIS_URL = env_str("ATHAR_REDIS_URL")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": env_str("ATHAR_CACHE_DIR", str(ATHAR_HOME / "cache")),
        "OPTIONS": {"MAX_ENTRIES": env_int("ATHAR_CACHE_MAX_ENTRIES")},
    },
}

# Folders a web server publishes on this machine; `athar check --deploy` refuses a media store inside one.
ATHAR_PUBLIC_PATHS = env_list("ATHAR_PUBLIC_PATHS")

# Signed media links (athar.web.media) stay valid this long.
ATHAR_MEDIA_LINK_SECONDS = env_int("ATHAR_MEDIA_LINK_SECONDS")
# An unblurred photo's link is made by the page that revealed it, and lives only a few minutes.
ATHAR_REVEAL_LINK_SECONDS = env_int("ATHAR_REVEAL_LINK_SECONDS")
# An API token is a standing credential: it expires after ATHAR_API_TOKEN_DAYS unless issued
# with a shorter --days; ATHAR_API_TOKEN_MAX_DAYS caps what --days may ask for.
ATHAR_API_TOKEN_DAYS = env_int("ATHAR_API_TOKEN_DAYS")
ATHAR_API_TOKEN_MAX_DAYS = env_int("ATHAR_API_TOKEN_MAX_DAYS")

# Images: refuse decompression bombs deliberately (pixels per image).
ATHAR_MAX_IMAGE_PIXELS = env_int("ATHAR_MAX_IMAGE_PIXELS")
# Each family account may upload this many photos / megabytes per day (refused ones count too).
ATHAR_UPLOAD_DAILY_FILES = env_int("ATHAR_UPLOAD_DAILY_FILES")
ATHAR_UPLOAD_DAILY_MB = env_int("ATHAR_UPLOAD_DAILY_MB")
ATHAR_INGEST_WORKERS = env_int("ATHAR_INGEST_WORKERS")  # 0: one per core
ATHAR_INGEST_ROOT = env_str("ATHAR_INGEST_ROOT")  # '': archivists cannot start an ingest from the web

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": env_str("ATHAR_LOG_LEVEL")},
    # django-axes logs logins and addresses at WARNING: personal data, kept out of the logs.
    "loggers": {"axes": {"handlers": ["stderr"], "level": "ERROR", "propagate": False}},
}
