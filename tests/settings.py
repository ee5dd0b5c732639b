"""Settings for the test run: the real settings, with a throw-away key."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-key-for-tests-only")

from scorekeeper.settings import *  # noqa: F403

# Fast hashing for tests; the production hasher stays known, for tests that
# sign in to a real app process.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Tests serve static files from the app's folders, not from collectstatic.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
# A poll and a kept deal's retry in a fraction of a second: a browser test waits
# for what it expects to see, and that comes soon.
POLL_INTERVAL_MS = 400
KEPT_RETRY_MS = 1000

# The test client speaks plain HTTP; production redirects to HTTPS.
SECURE_SSL_REDIRECT = False

# A file, not memory, for SQLite: the browser tests' live server answers
# several phones at once, each request thread with its own connection.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    (BASE_DIR / "test-output").mkdir(exist_ok=True)  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-output" / "test.sqlite3")}  # noqa: F405
