"""What a person keeps with their account, on every device they sign in on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Preference(models.Model):
    """The language a person chose, brought back at sign-in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference"
    )
    language = models.CharField(max_length=10, blank=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class Guest(models.Model):
    """An account made by "Start a game": no password until the person keeps the scores.

    A guest who never does is removed, with their tables, 30 days after their
    last visit (``manage.py clear_guests``); their session lasts as long.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="guest"
    )
    started_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # Moved on at most once a day, as the guest plays (accounts.guests.seen).
    last_seen = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.user} (guest since {self.started_at:%Y-%m-%d})"


class AddressSlot(models.Model):
    """One of a network's new accounts, guests or password resets in a window.

    A network has ``LIMITS[kind].count`` slots of each kind; taking one is a
    single row written (a new slot, or one whose hour is over), so requests
    sent at the same moment from several servers can never take more
    (accounts/throttle.py).
    """

    kind = models.CharField(max_length=10)
    address = models.CharField(max_length=64)
    slot = models.PositiveSmallIntegerField()
    taken_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "address", "slot"], name="one_slot_each")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.address} #{self.slot}"
