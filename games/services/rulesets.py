"""A table's own rulesets: made from another one, or changed."""

from __future__ import annotations

from django.db import transaction

from games.models import Ruleset, Table
from games.services.tables import table_default_ruleset


def ruleset_save(*, ruleset: Ruleset, table: Table) -> Ruleset:
    """A new ruleset becomes the table's default (adapted to be played); a changed
    one shows its house rules on the pages of the games that play it.

    Games already started keep the rules they started with (a copy in the game).
    """
    with transaction.atomic():
        new = ruleset.pk is None
        ruleset.table = table
        ruleset.save()
        if new:
            table_default_ruleset(table=table, ruleset=ruleset)
    return ruleset
