"""Playing without an account: a guest made behind the scenes, kept or cleared.

A guest's username starts with ``guest-`` (no one else's may), so a page can
tell a guest without a query; the :class:`~accounts.models.Guest` row is what
the clearing goes by.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model, login
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import Guest, Preference

PREFIX = "guest-"
KEPT_DAYS = 30


def is_guest(user) -> bool:
    return bool(user.is_authenticated and user.get_username().startswith(PREFIX))


@transaction.atomic
def start_guest(request: HttpRequest):
    """A new guest account, signed in on this phone."""
    user = get_user_model()(username=PREFIX + secrets.token_hex(6))
    user.set_unusable_password()
    user.save()
    Guest.objects.create(user=user)
    Preference.objects.create(user=user, language=get_language())
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def clear_guests(now=None) -> int:
    """Remove guests who never kept their scores, with their tables; how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=KEPT_DAYS)
    stale = get_user_model().objects.filter(guest__started_at__lt=cutoff)
    count = 0
    for user in stale:
        with transaction.atomic():
            user.delete()  # their tables, players and games go with them
        count += 1
    return count
