"""What a person keeps with their account, on every device they sign in on."""

from __future__ import annotations

from django.conf import settings
from django.db import models


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

    A guest who never does is removed, with their tables, 30 days on
    (``manage.py clear_guests``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="guest"
    )
    started_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.user} (guest since {self.started_at:%Y-%m-%d})"
