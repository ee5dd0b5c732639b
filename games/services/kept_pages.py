"""The one way to forget kept game pages.

A game page is kept whole, per game version, in each process's memory
(games/views/responses.py), and watch pages and polls compare the version too. So
every change that a game page shows (its deals, its players' names, its
note, its club night, its table's name, its rules' notes) goes through
:func:`pages_changed`, which moves the version on: the next page is made anew.
"""

from __future__ import annotations

from django.db.models import F, QuerySet

from games.models import Game


def pages_changed(games: Game | QuerySet[Game], **fields) -> None:
    """Forget the kept pages of ``games``; ``fields`` are written in the same statement.

    A single game is one whose row the caller has locked, in a transaction:
    its ``version`` (and ``fields``) are moved on in hand as well.
    """
    if isinstance(games, Game):
        Game.objects.filter(pk=games.pk).update(version=F("version") + 1, **fields)
        games.version += 1
        for name, value in fields.items():
            setattr(games, name, value)
    else:
        games.update(version=F("version") + 1, **fields)
