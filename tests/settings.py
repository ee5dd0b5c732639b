"""Settings for the test run: the real settings, with a throw-away key."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-key-for-tests-only")

from scorekeeper.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Tests serve static files from the app's folders, not from collectstatic.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
# The test client speaks plain HTTP; production redirects to HTTPS.
SECURE_SSL_REDIRECT = False
