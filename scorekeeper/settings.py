"""Settings for the scorekeeper, every option read from the environment.

Each helper fails loudly on a value it cannot read, so a typo in a deployment
stops the app at start-up instead of running with a silent default.
"""

from __future__ import annotations

import os
import secrets
import tomllib
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

# The release a club names when it upgrades (CHANGELOG.md): shown in the admin and
# by /healthz, kept in one place, pyproject.toml.
with (BASE_DIR / "pyproject.toml").open("rb") as _project:
    VERSION = tomllib.load(_project)["project"]["version"]

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=False)

# The one folder a server keeps (the container's volume, /data): the SQLite
# database, the secret key made on the first start, and the backups, unless
# DATABASE_URL, SECRET_KEY or BACKUP_DIR say otherwise.
DATA_DIR = Path(os.environ["DATA_DIR"]) if os.environ.get("DATA_DIR") else None


def _kept_key(key_file: Path) -> str:
    """A random key made once and kept in a file only this user reads, so
    sessions survive a restart and no key is ever committed or typed."""
    if not key_file.exists():
        try:
            made = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(made, "w") as f:
                f.write(secrets.token_urlsafe(50))
        except FileExistsError:
            pass  # another process made it first: theirs is read below
        except OSError as error:
            raise ImproperlyConfigured(
                f"The secret key can't be kept in {key_file} ({error.strerror}): "
                "make the folder writable by the app's user, or set SECRET_KEY."
            ) from None
    return key_file.read_text().strip()


def _secret_key() -> str:
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if DATA_DIR is not None:
        return _kept_key(DATA_DIR / "secret_key")
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off, or DATA_DIR for a key kept there "
            "(set DEBUG=1 for local development)."
        )
    return _kept_key(BASE_DIR / ".secret_key")  # git-ignored


SECRET_KEY = _secret_key()

# This machine's own names are always allowed: the container's health check and
# a command on the server itself ask for them, and no phone can be sent to them.
_LOOPBACK = ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = [
    *env_list("ALLOWED_HOSTS", []),
    *_LOOPBACK,
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "backups",
]

MIDDLEWARE = [
    # The phone's address and scheme as the front passed them on, from the front only.
    "scorekeeper.middleware.forwarded_by_the_front_only",
    "django.middleware.security.SecurityMiddleware",
    # Outside the session's and CSRF's: no cookie on a copy kept for offline use.
    "scorekeeper.middleware.no_cookies_for_kept_copies",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and htmx answers go out compressed: phones at card tables are often
    # on weak connections. (CSRF tokens are masked per response against BREACH.)
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the one chosen on the page (a cookie, also kept with the
    # account and set again at sign-in), else the browser's.
    "accounts.middleware.language_aliases",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A guest's session lasts as long as their scores are kept, from their last visit.
    "accounts.guests.guests_kept_while_they_play",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a paused sign-in into the page that says so.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "accounts.context_processors.guest",
            ],
        },
    },
]

WSGI_APPLICATION = "scorekeeper.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{(DATA_DIR or BASE_DIR) / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # Short write transactions queue behind each other instead of failing.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # Served by several workers: readers never wait for a writer (WAL), and
            # a commit waits for the disk only at checkpoints, which is still safe
            # against a crash of the app (only a power cut can lose the last deals).
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# In the database, so that sign-in throttling counts across every app process
# (their tables are made by migrate: games/migrations/0024_cache_tables.py).
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "scorekeeper_cache",
    },
    # Sessions read through it (SESSION_ENGINE below): kept apart, so the
    # other entries' culling never drops one, and big enough for every phone.
    "sessions": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "scorekeeper_session_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
    # In front of it, per process, for the chances' workings (games/pages/chances.py),
    # kept by versions read from the database on every request: never stale.
    "local": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "scorekeeper-local",
        "OPTIONS": {"MAX_ENTRIES": 500},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Django's database sessions, read through the cache shared by every process
# (one plain query instead of an ORM one and a decode: every signed-in request
# reads its session). A password change or a deleted account signs out every
# other phone at once, as Django checks the user against the session each time.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "sessions"
AUTHENTICATION_BACKENDS = [
    # First: no password is checked from an address guessing across accounts,
    # nor for an account paused (accounts/throttle.py).
    "accounts.throttle.AddressBackend",
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Failed sign-ins (ours and the admin's), counted in the database per
# normalised username and address: 5 pause that account from that address for
# 15 minutes after the last try (accounts/throttle.py).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.throttle.normalised_username"
AXES_CLIENT_IP_CALLABLE = "accounts.throttle.axes_client_address"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.locked_out"
AXES_VERBOSE = False
# Email, for resetting a forgotten password: printed to the console in
# development, sent by SMTP in production (a local relay unless EMAIL_HOST).
if DEBUG:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": env_int("EMAIL_PORT", 25),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", default=False),
                "timeout": 10,
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
PASSWORD_RESET_TIMEOUT = 60 * 60  # a reset link works for an hour, and once

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
# A language more is a line here and its catalogue (make messages; docs/translating.md).
LANGUAGES = [("en-gb", "English"), ("nb", "Norsk bokmål")]
# Tags a browser may ask by that one of LANGUAGES serves: readers of Norwegian
# ("no") and of Nynorsk read Bokmål.
LANGUAGE_ALIASES = {"no": "nb", "nn": "nb"}
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["scorekeeper.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
# The club's clock, for every time a page shows (Europe/Oslo in Norway).
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# The phone's caches of pages and static files are named with this (by the
# service worker and by the page's script alike): a new value empties them.
OFFLINE_CACHE_VERSION = "v1"
# How often a page that follows a game or a club night asks for news (htmx's
# poll), and how often a phone tries again to send the deals it keeps while the
# server can't be reached. The browser tests shorten both (tests/settings.py),
# so they wait for what they expect, not for the clock.
POLL_INTERVAL_MS = 3000
KEPT_RETRY_MS = 15000
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# No inline scripts or styles anywhere: everything is served by the app itself.
from django.utils.csp import CSP  # noqa: E402

SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
}

# Behind the front (Caddy, deploy/Caddyfile) in production: the addresses it
# connects from. Only from them are X-Forwarded-For (the phone's address, for
# every per-address limit) and X-Forwarded-Proto believed
# (scorekeeper/middleware.py drops them from anyone else).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _gone in ("TRUST_X_FORWARDED_FOR", "TRUST_X_FORWARDED_PROTO"):
    # Believed from anyone, they let a phone pass as another; left set and ignored,
    # every phone behind the front would share the front's address and its limits.
    if _gone in os.environ:
        raise ImproperlyConfigured(
            f"{_gone} is replaced by TRUSTED_PROXIES: the addresses the front connects "
            "from (127.0.0.1,::1 with Caddy on the same machine)."
        )
# HTTPS is the front's: the app knows a request came over it only from the front's
# X-Forwarded-Proto. So with a front trusted, the app sends plain HTTP to HTTPS
# and marks its cookies Secure; with none (the container on its own port, on a
# LAN), it serves plain HTTP as it is asked. It never redirects where it can't
# see HTTPS: that would send the phone round the same redirect for ever.
HTTPS = env_bool("HTTPS", default=bool(TRUSTED_PROXIES) and not DEBUG)
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=HTTPS)
if SECURE_SSL_REDIRECT and not TRUSTED_PROXIES:
    raise ImproperlyConfigured(
        "HTTPS is on but TRUSTED_PROXIES is empty: the app could never see that a request "
        "came over HTTPS, and would send every phone round the same redirect. Set "
        "TRUSTED_PROXIES to the addresses the front connects from (127.0.0.1,::1 with Caddy "
        "on the same machine), or unset HTTPS and SECURE_SSL_REDIRECT to serve plain HTTP "
        "with no front."
    )
# The container's health check asks the app itself, over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=HTTPS)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
# A year, not on the browsers' preload list unless the club asks (it is hard to
# undo). Only the app sends it: the front passes it on (deploy/Caddyfile).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
# Preloading is the club's own choice, and check --deploy's nudge towards it noise.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Where `manage.py backup` writes (daily, from deploy/scorekeeper-daily.timer or
# compose.yaml's daily job).
BACKUP_DIR = Path(
    os.environ.get("BACKUP_DIR")
    or (DATA_DIR / "backups" if DATA_DIR else BASE_DIR / "kept-backups")
)

# Whether a stranger may open an account or start as a guest. A private club
# closes the door: its owner makes accounts (the admin, or createsuperuser) and
# invites members from the table's page.
SIGNUPS_OPEN = env_bool("SIGNUPS_OPEN", default=True)

# A form refused by the CSRF check is the app's own page, in the person's language.
CSRF_FAILURE_VIEW = "accounts.views.csrf_refused"
