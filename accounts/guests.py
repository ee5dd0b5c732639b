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
# The day of the guest's last visit, in their session: the visit is noted (the
# session's expiry and Guest.last_seen moved on) once a day, not on every request.
SEEN_KEY = "guest_seen"


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
    seen(request)
    return user


def seen(request: HttpRequest) -> None:
    """A guest was here: their session lasts KEPT_DAYS from today, and so do
    their scores. A guest has no password, so the session is their only way back:
    it once ended at Django's 14 days while the scores were kept 30."""
    today = timezone.localdate().isoformat()
    if request.session.get(SEEN_KEY) == today:
        return
    request.session[SEEN_KEY] = today
    request.session.set_expiry(KEPT_DAYS * 24 * 60 * 60)
    Guest.objects.filter(user_id=request.user.pk).update(last_seen=timezone.now())


def guests_kept_while_they_play(get_response):
    """Notes a guest's visit (:func:`seen`) on any request that read the session."""

    def middleware(request: HttpRequest):
        response = get_response(request)
        session = getattr(request, "session", None)
        if session is not None and session.accessed and is_guest(request.user):
            seen(request)
        return response

    return middleware


def clear_guests(now=None) -> int:
    """Remove guests who never kept their scores and have not been back for
    KEPT_DAYS, with their tables; how many went."""
    cutoff = (now or timezone.now()) - timedelta(days=KEPT_DAYS)
    stale = get_user_model().objects.filter(guest__last_seen__lt=cutoff)
    count = 0
    for user in stale:
        with transaction.atomic():
            user.delete()  # their tables, players and games go with them
        count += 1
    return count
