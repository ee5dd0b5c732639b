"""A form sent twice makes one thing: the second sending opens what the first made.

New game, Club night, Play again and an import's confirmation each carry a
key made with the blank form (or, for Play again, named after the game it
follows). What a key made is found by it; two sendings at the same moment
both try, the database's unique key lets one through, and the other opens
what that one made.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, models, transaction


def sent_before[Made: models.Model](made: models.QuerySet[Made], key: str) -> Made | None:
    """What this form made already (``made`` holds the kind of thing, at its table)."""
    return made.filter(start_key=key).first() if key else None


def make_once[Made: models.Model](
    made: models.QuerySet[Made], key: str, make: Callable[[], Made], *, clash: Exception
) -> Made:
    """``make()`` in a transaction, unless ``key`` made something already: then that.

    ``make`` must store ``key`` as the new thing's ``start_key``. A unique clash
    that is not this key's (a player's name taken meanwhile, say) raises ``clash``.
    """
    before = sent_before(made, key)
    if before is not None:
        return before
    try:
        with transaction.atomic():
            return make()
    except IntegrityError:
        # The same form, sent twice at once: the other sending made it.
        before = sent_before(made, key)
        if before is None:
            raise clash from None
        return before
