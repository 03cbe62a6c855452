"""Django settings, all from environment variables (see ``athar.config`` and docs/configuration.md).

Fails closed: DEBUG is off unless asked for, production refuses to start without a strong
``ATHAR_SECRET_KEY``, and secure cookies/HSTS are on in production.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url

from athar.config import (
    athar_environment,
    athar_home,
    env_bool,
    env_int,
    env_list,
    env_str,
    secret_key,
)

BASE_DIR = Path(__file__).resolve().parent
ATHAR_ENV = athar_environment()
PRODUCTION = ATHAR_ENV == "production"
ATHAR_HOME = athar_home()
MEDIA_ROOT = ATHAR_HOME / "media"  # private: served only through permission-checked views
INDEX_ROOT = ATHAR_HOME / "indexes"

SECRET_KEY = secret_key(ATHAR_ENV, ATHAR_HOME)
DEBUG = env_bool("ATHAR_DEBUG", False)
ALLOWED_HOSTS = env_list(
    "ATHAR_ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env_list("ATHAR_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "athar.core",
    "athar.accounts",
    "athar.audit",
    "athar.archive",
    "athar.registry",
    "athar.identification",
    "athar.api",
    "athar.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "athar.urls"
WSGI_APPLICATION = "athar.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
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
        config = dj_database_url.parse(url, conn_max_age=env_int("ATHAR_DB_CONN_MAX_AGE", 60))
        return dict(config)
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": ATHAR_HOME / "athar.sqlite3",
        "OPTIONS": {
            # WAL lets readers work during an ingest; IMMEDIATE takes the write lock up front so
            # two writers queue (busy timeout) instead of failing mid-transaction.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("ATHAR_SQLITE_TIMEOUT", 60),
        },
    }


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

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
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

SESSION_COOKIE_AGE = env_int("ATHAR_SESSION_SECONDS", 60 * 60 * 8)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("ATHAR_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("ATHAR_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Images: refuse decompression bombs deliberately (pixels per image).
ATHAR_MAX_IMAGE_PIXELS = env_int("ATHAR_MAX_IMAGE_PIXELS", 120_000_000)
ATHAR_INGEST_WORKERS = env_int("ATHAR_INGEST_WORKERS", 0)  # 0: one per core

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": env_str("ATHAR_LOG_LEVEL", "WARNING")},
}
