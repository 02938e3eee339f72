"""Settings for Beano occasions, all read from the environment (see beano/env.py).

With no environment at all this is the embedded default a new user gets from ``make run``:
DEBUG on, SQLite and a Celery worker on kombu's file-system transport, both under ``var/``.
Production sets DEBUG=off, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF

from beano import broker
from beano.env import (
    BROKER_SCHEMES,
    CACHE_SCHEMES,
    DATABASE_SCHEMES,
    audit_keys,
    cache_settings,
    email_settings,
    env_bool,
    env_int,
    env_list,
    env_money,
    env_secret,
    env_str,
    env_timezone,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("BEANO_DATA_DIR", str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_secret(
    "SECRET_KEY", debug=DEBUG, dev_default="dev-only-insecure-key-for-the-embedded-default"
)
# The audit trail's events are hashed with HMAC-SHA256 under a key kept out of the database
# (organizations/audit.py, SECURITY.md): AUDIT_KEY, and the keys of earlier rotations in
# AUDIT_KEY_FALLBACKS. Required in production; the embedded default keeps one in var/audit.key.
_audit_keys = audit_keys(debug=DEBUG, key_file=DATA_DIR / "audit.key", secret_key=SECRET_KEY)
AUDIT_KEY_ID = _audit_keys.current
AUDIT_KEYS = _audit_keys.keys
# Checkpoints of every audit chain (its length and head), appended nightly to a file outside the
# database and e-mailed to the Commission, so that a chain cut short is noticed.
AUDIT_CHECKPOINT_FILE = Path(
    env_str("AUDIT_CHECKPOINT_FILE", str(DATA_DIR / "audit-checkpoints.jsonl"))
)
AUDIT_CHECKPOINT_EMAIL = env_list("AUDIT_CHECKPOINT_EMAIL", [])
AUDIT_CHECKPOINT_HOUR = env_int("AUDIT_CHECKPOINT_HOUR", 3, maximum=23)
# Each hour at this minute every chain is checked whole and its checkpoint recorded in the
# database; the audit trail page then checks only the events after it.
AUDIT_VERIFY_MINUTE = env_int("AUDIT_VERIFY_MINUTE", 45, maximum=59)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

#: The project's own apps, bottom layer first (as the import-linter layers in pyproject.toml put
#: them); the tests that walk the code read this list.
PROJECT_APPS = (
    "organizations",
    "occasions",
    "equipment",
    "games",
    "offline",
    "reports",
    "banking",
    "nightfile",
    "inspections",
    "api",
)

INSTALLED_APPS = [
    "beano.accounts.admin_config.BeanoAdminConfig",  # django.contrib.admin, verified staff only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "crispy_forms",
    "crispy_bootstrap5",
    "django_htmx",
    "django_celery_results",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",  # the printed recovery codes of the second factor
    "axes",
    "csp",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the API's documentation page, its assets served from static
    "beano",
    "beano.accounts",
    "beano.rules",
    *PROJECT_APPS,
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "nightfile.upload_limits.NightFileCeilingMiddleware",  # before the CSRF check reads it
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "beano.accounts.middleware.OTPMiddleware",  # django-otp's, reading the device with the user
    "organizations.middleware.AuditActorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "beano.accounts.middleware.SessionLifetimeMiddleware",
    "beano.accounts.middleware.IdleTimeoutMiddleware",
    "beano.accounts.middleware.SecondFactorMiddleware",
    "beano.accounts.middleware.NoStoreMiddleware",  # signed-in pages are never cached
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "organizations.middleware.RecordViewMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes requires
]

ROOT_URLCONF = "beano.urls"
WSGI_APPLICATION = "beano.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # A refusal's plain words first and its citation after them, on every page; the
            # links and parts the apps above put at a lower app's places (beano.links); an amount
            # written the one way, $1,234.56 or ($12.00) (beano.templatetags.amounts).
            "builtins": [
                "beano.templatetags.refusals",
                "beano.templatetags.links",
                "beano.templatetags.amounts",
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "organizations.context_processors.navigation",
            ],
        },
    },
]

DATABASE_URL = env_url("DATABASE_URL", f"sqlite:///{DATA_DIR / 'db.sqlite3'}", DATABASE_SCHEMES)
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0))
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory, for the test database too: the Celery worker process started by the
    # worker tests must see the rows the test wrote.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}
    # Take the write lock when a transaction begins, so two writers (two sellers, the web and
    # the Celery worker) wait their turn instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # No JIT compilation: the pages' queries run in milliseconds, and a plan estimated costly
    # (a count over a statewide year's obligations) spent 20 ms compiling itself to save less.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    given = options.get("options", "")
    given = " ".join(given) if isinstance(given, list | tuple) else given
    options["options"] = " ".join(filter(None, [given, "-c jit=off"]))
    # The reads every request of the night runs (beano.prepared) are prepared by the server
    # once they have run five times on a connection, through a cursor of their own; Django's
    # other statements are not (its cursors bind in the client, which psycopg never prepares).
    # Off for a connection pooler that cannot keep prepared statements (PgBouncer before 1.21).
    if env_bool("DB_PREPARED_STATEMENTS", True):
        options.setdefault("prepare_threshold", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache: Redis in production, shared by every web process and server, so that what one
# process changes (the version of an occasion's live pages after a ball is called, the count of
# a person's wrong PINs) every other one sees. The embedded default keeps it in files under the
# data folder, shared by every process on the machine (the web server, the worker, beat);
# `check --deploy` warns when a production setting would keep it inside each process.
CACHE_URL = env_url("CACHE_URL", f"file://{DATA_DIR / 'cache'}", CACHE_SCHEMES)
CACHES = {"default": cache_settings(CACHE_URL)}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Similarity above misses a long password that merely contains the username or a name.
    {"NAME": "beano.accounts.validators.NoPersonalNamesValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# Logins (SECURITY.md). django-axes checks every password login, the admin's included, and
# locks out a username *from one client address* after LOGIN_FAILURE_LIMIT failures in a row,
# for LOGIN_COOLOFF_MINUTES: a player's typos never lock a whole hall behind one NAT address,
# and an attacker elsewhere cannot lock a user out of their own hall.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "beano.accounts.backends.CeilingModelBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # no banner on every manage.py command
AXES_LOCKOUT_CALLABLE = "beano.accounts.lockout.locked_out"  # the page in the site's style
# The client address: REMOTE_ADDR, unless TRUSTED_PROXY_COUNT reverse proxies in front of the
# application append to X-Forwarded-For (then the address the outermost one saw). Defaults to
# one proxy when BEHIND_TLS_PROXY is on, none otherwise; never trust a header nobody strips.
TRUSTED_PROXY_COUNT = env_int(
    "TRUSTED_PROXY_COUNT", 1 if env_bool("BEHIND_TLS_PROXY", False) else 0
)
AXES_CLIENT_IP_CALLABLE = "beano.accounts.client_ip.client_ip"
# Across addresses (beano/accounts/ceiling.py): after a few free tries each wrong password makes
# the account wait twice as long before the next is checked, and ACCOUNT_FAILURE_LIMIT in a row
# lock it for ACCOUNT_LOCK_MINUTES (or until a Commission admin lifts the lock), wherever the
# guesses come from. Every password proved (the login, the password change) counts.
ACCOUNT_FAILURE_LIMIT = env_int("ACCOUNT_FAILURE_LIMIT", 10, minimum=3)
ACCOUNT_LOCK_MINUTES = env_int("ACCOUNT_LOCK_MINUTES", 60, minimum=1)

# Two-factor authentication (django-otp, TOTP): required of the Commission's staff and of anyone
# who can reach the Django admin, offered to everyone else (beano/accounts/policy.py).
OTP_TOTP_ISSUER = "Beano occasions"
OTP_ADMIN_HIDE_SENSITIVE_DATA = True  # the admin never shows a device's key or QR code
# Shared hall laptops: a session ends after this many minutes without a real request (polls do
# not count; beano/accounts/middleware.py).
IDLE_TIMEOUT_MINUTES = env_int("IDLE_TIMEOUT_MINUTES", 30, minimum=1)
# However busy, a session ends this many hours after its login (a session cookie kept warm
# cannot live for ever).
SESSION_ABSOLUTE_HOURS = env_int("SESSION_ABSOLUTE_HOURS", 12, minimum=1)
# Logins given by invitation (organizations/people.py): the link to choose a password is good
# this many days, once. A password reset link is good PASSWORD_RESET_TIMEOUT seconds (one day),
# and no more than PASSWORD_RESET_PER_HOUR requests an hour are answered for one address or
# from one client (beano/accounts/reset.py; counted in the database, for every process).
# The address the application is reached at, for the links in mail sent outside a request (a
# command, a task); mail sent while answering a page uses that page's host.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
INVITATION_VALID_DAYS = env_int("INVITATION_VALID_DAYS", 3, minimum=1)
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 24 * 60 * 60, minimum=600)
PASSWORD_RESET_PER_HOUR = env_int("PASSWORD_RESET_PER_HOUR", 5, minimum=1)

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_timezone("TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(DATA_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Files a browser asks for at the site's root (/favicon.ico, /apple-touch-icon.png).
WHITENOISE_ROOT = BASE_DIR / "static" / "root"
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise looks there even in development
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(DATA_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Celery: Redis in production, kombu's file-system transport for the embedded default.
BROKER_DIR = DATA_DIR / "broker"
CELERY_BROKER_URL = broker.named_host(
    env_url("CELERY_BROKER_URL", env_str("REDIS_URL", "filesystem://"), BROKER_SCHEMES)
)
if CELERY_BROKER_URL.startswith("filesystem://"):
    for folder in ("queue", "processed", "control"):
        (BROKER_DIR / folder).mkdir(parents=True, exist_ok=True)
# Seconds: to connect to the broker, to wait for its answer, and (Redis) before a message whose
# worker died unacknowledged is handed to another worker. See beano/broker.py.
CELERY_BROKER_CONNECTION_TIMEOUT = env_int(
    "CELERY_BROKER_CONNECTION_TIMEOUT", broker.CONNECT_TIMEOUT, minimum=1
)
CELERY_BROKER_TRANSPORT_OPTIONS = broker.transport_options(
    CELERY_BROKER_URL,
    broker_dir=BROKER_DIR,
    connect_timeout=CELERY_BROKER_CONNECTION_TIMEOUT,
    socket_timeout=env_int("CELERY_BROKER_SOCKET_TIMEOUT", broker.SOCKET_TIMEOUT, minimum=2),
    visibility_timeout=env_int(
        "CELERY_BROKER_VISIBILITY_TIMEOUT", broker.VISIBILITY_TIMEOUT, minimum=1
    ),
)
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", "django-db")
CELERY_RESULT_EXTENDED = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TRACK_STARTED = True
CELERY_TIMEZONE = TIME_ZONE
# Periodic work, sent by one `celery beat` process (make run starts it beside the worker).
CELERY_BEAT_SCHEDULE = {
    "audit-checkpoint": {
        "task": "organizations.write_audit_checkpoint",
        "schedule": crontab(hour=AUDIT_CHECKPOINT_HOUR, minute=15),
    },
    # Every chain checked whole and its checkpoint recorded: the audit trail page checks only
    # the events after it (organizations.verification).
    "audit-chains-verified": {
        "task": "organizations.verify_audit_chains",
        "schedule": crontab(minute=AUDIT_VERIFY_MINUTE),
    },
    # The reports owed (961 CMR 3.05(1)(a)), recorded once a day (and when a license changes,
    # reports/license_hooks.py): no page writes them.
    "report-obligations": {
        "task": "reports.record_obligations",
        "schedule": crontab(hour=0, minute=30),
    },
    # Report versions filed while the broker was down, sent again from here (not by the pages
    # that poll their progress, whichever web process answers them).
    "report-resend-unsent": {
        "task": "reports.resend_unsent",
        "schedule": env_int("REPORT_RESEND_SECONDS", 60, minimum=5),
    },
}
# The reminders to heads and bookkeepers (reports/reminders.py), each morning.
CELERY_BEAT_SCHEDULE["reminders"] = {
    "task": "reports.send_reminders",
    "schedule": crontab(hour=env_int("REMINDER_HOUR", 7, maximum=23), minute=0),
}
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")

# The close-out asks for an explanation when the counts or the cash differ from the records by
# more than this many dollars: a house policy of the deployment, not a legal figure.
CLOSEOUT_VARIANCE_THRESHOLD = env_money("CLOSEOUT_VARIANCE_THRESHOLD", "5.00")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# E-mail (invitations, reminders, the audit checkpoints to the Commission): EMAIL_URL, e.g.
# smtp+tls://user:password@smtp.example.org:587 in production (beano/env.py `email_settings`).
# The embedded default prints each message and writes it to a file under var/mail/, so a new
# user sees an invitation link or a reminder without a mail server.
# The address of the site, for the links in e-mails sent outside a request (the reminders).
SITE_URL = env_url("SITE_URL", "http://localhost:8000", frozenset({"http", "https"}))
EMAIL_URL = env_str("EMAIL_URL", "console+file://" if DEBUG else "smtp://localhost:25")
_email = email_settings(
    EMAIL_URL, mail_dir=DATA_DIR / "mail", ca_file=env_str("EMAIL_SSL_CAFILE", "")
)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
# The CA certificates a TLS mail server's certificate is verified against (beano.mail), when
# not the system's: a relay whose certificate a private CA signed.
EMAIL_SSL_CAFILE = _email["EMAIL_SSL_CAFILE"]
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "beano-occasions@localhost")

# Security: production values pass `check --deploy --fail-level WARNING`.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = env_int("SESSION_COOKIE_AGE", 8 * 60 * 60, minimum=60)
# Sessions are rows in the database, read through the cache (the one every web process shares,
# above): a request of the floor reads its session without a query, and a session ended (a
# logout, the idle timeout, the lifetime) leaves the cache and the table together.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Content Security Policy (django-csp 4): everything from this site, nothing inline. Scripts and
# styles live in static/ (no <script> blocks, no on* handlers, no style attributes: see
# tests/test_csp.py); data: images only for what Bootstrap draws (its icons are data: SVGs).
# No page may be framed, the flashboard included. The hall laptop's service worker (/sw.js, issue
# 42) is this site's own script.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The API (/api/v1/, docs/API.md): a token in the Authorization header and nothing else (no
# session, so no CSRF), JSON in and out, each token its own rate, every failure a problem
# (RFC 9457). Its schema is made from the code (OpenAPI 3.1) and served with its documentation
# page, whose scripts come from drf-spectacular-sidecar through static files (no CDN).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["api.access.ScopePermission"],
    "DEFAULT_THROTTLE_CLASSES": ["api.access.TokenRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_VERSIONING_CLASS": None,
    "EXCEPTION_HANDLER": "api.problems.handler",
    "UNAUTHENTICATED_USER": None,
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Beano occasions API",
    "DESCRIPTION": (
        "Hall equipment (flashboards, ball readers, the door's point of sale) and the "
        "Commission's systems. Every write is judged by the same rules as the pages; a refusal "
        "is application/problem+json with the rule's code and citation."
    ),
    "VERSION": "1",
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_AUTHENTICATION": [],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # The bearer token's scheme is named by ``api.schema.BearerTokenScheme``.
    "AUTHENTICATION_WHITELIST": ["api.authentication.TokenAuthentication"],
    "ENUM_NAME_OVERRIDES": {
        "OccasionStatusEnum": "occasions.models.Occasion.Status",
        "LicenseStatusEnum": "organizations.models.License.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "GameKindEnum": "games.models.Game.Kind",
        "PrizeKindEnum": "games.models.PrizePart.Kind",
        "PriceCategoryEnum": "occasions.models.PriceListItem.Category",
    },
}

DEFAULT_EXCEPTION_REPORTER_FILTER = "beano.error_reports.BeanoExceptionReporterFilter"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
