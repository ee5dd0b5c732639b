"""What a table's page and its settings page show (their forms are the views')."""

from __future__ import annotations

from django.utils import timezone

from games.access import rulesets_for_table
from games.engine.chart import reliability_chart
from games.models import Table
from games.pages.chances import table_said
from games.pages.ladder import chances_said, ladder, season_ladder
from games.pages.rules import describe_rules
from games.selectors import tables as tables_read


def seasons_shown(table: Table) -> dict:
    """The season running today (with its own ladder), and the table's seasons."""
    today = timezone.localdate()
    seasons = list(tables_read.seasons(table))
    current = next((s for s in seasons if s.starts <= today <= s.ends), None)
    return {
        "season": current,
        "season_ladder": season_ladder(table, current) if current else [],
        "seasons": seasons,
    }


def table_shown(table: Table) -> dict:
    """The table's page: its players, recent games and club nights, the ladder and its
    chances, the seasons, and its rulesets, each described from its settings."""
    during = table_said(table).brier if table.show_chances else None
    return {
        "table": table,
        "players": tables_read.players_by_name(table),
        "games": tables_read.recent_games(table),
        "ladder": ladder(table),
        "chances_said": chances_said(table) if table.show_chances else None,
        "during_said": during,
        "reliability": reliability_chart(during.bands) if during and during.deals else None,
        "evenings": tables_read.recent_evenings(table),
        **seasons_shown(table),
        # A table's own may add house rules.
        "rulesets": [
            (ruleset, describe_rules(ruleset.to_rules())) for ruleset in rulesets_for_table(table)
        ],
    }


def settings_shown(table: Table, *, link) -> dict:
    """The table's settings page: its members, players, invites and watch link
    (``link(name, token)``: the whole address a person copies)."""
    members = tables_read.members(table)
    return {
        "table": table,
        "members": members,
        "players": tables_read.players_by_name(table),
        "accounts": [table.owner] + [m.user for m in members],
        "invites": [(i, link("invite_accept", i.token)) for i in tables_read.invites(table)],
        "watch_url": link("watch_table", table.watch_token),
    }
