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
    """The table's page: the ladder, its recent games and club nights, the season's
    ladder (and, for a member, its players)."""
    return {
        "table": table,
        "players": tables_read.players_by_name(table),
        "games": tables_read.recent_games(table),
        "ladder": ladder(table),
        "evenings": tables_read.recent_evenings(table),
        **seasons_shown(table),
    }


def chances_shown(table: Table) -> dict:
    """How good the table's chances have been (on its Statistics): the favourite's
    wins, the Brier scores of the chances during games, and the drawing of said
    against happened."""
    if not table.show_chances:
        return {}
    during = table_said(table).brier
    return {
        "chances_said": chances_said(table),
        "during_said": during,
        "reliability": reliability_chart(during.bands) if during.deals else None,
    }


def settings_shown(table: Table, *, link) -> dict:
    """The table's settings page: its members, players, rules, seasons, invites and
    watch link (``link(name, token)``: the whole address a person copies); each
    ruleset described from its settings (a table's own may add house rules)."""
    members = tables_read.members(table)
    return {
        "table": table,
        "members": members,
        "players": tables_read.players_by_name(table),
        "accounts": [table.owner] + [m.user for m in members],
        "invites": [(i, link("invite_accept", i.token)) for i in tables_read.invites(table)],
        "watch_url": link("watch_table", table.watch_token),
        "rulesets": [
            (ruleset, describe_rules(ruleset.to_rules())) for ruleset in rulesets_for_table(table)
        ],
        "seasons": seasons_shown(table)["seasons"],
    }
