"""Ratings: openskill's Plackett–Luce model on finished games, kept equal to a fresh rating."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games import engine
from games.engine import ratings
from games.models import Game, PlayerRating, Standing
from games.pages.ladder import ladder
from games.services import ladder as kept
from games.services.deals import deal_delete, deal_edit, deal_record
from games.services.games import game_delete, game_start
from tests.factories import builtin


def test_places_go_by_final_total_lowest_first_and_ties_share():
    assert ratings.places([30, 10, 10, 55]) == [3, 1, 1, 4]
    assert ratings.places([7, 7, 7]) == [1, 1, 1]


def test_a_game_is_rated_as_the_library_rates_it_ties_included():
    """The library's own documented use: teams of one, ranks lower-is-better, equal ranks tie."""
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 1, 3])
    rated = ratings.rate([("g", [("a", 10), ("b", 10), ("c", 43)])])
    assert [(x.after.mu, x.after.sigma) for x in rated] == [
        (team[0].mu, team[0].sigma) for team in expected
    ]
    # A shared win is a tie for first: both winners move the same.
    assert rated[0].after == rated[1].after and rated[0].after.mu > rated[2].after.mu


def test_each_game_starts_from_the_ratings_its_players_had_then():
    model = PlackettLuce()
    a1, _, c1 = (t[0] for t in model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 3]))
    second = model.rate([[a1], [c1], [model.rating()]], ranks=[2, 1, 3])
    rated = ratings.rate(
        [("g1", [("a", 1), ("b", 2), ("c", 3)]), ("g2", [("a", 9), ("c", 4), ("d", 20)])]
    )
    assert (rated[3].before.mu, rated[3].after.mu) == (a1.mu, second[0][0].mu)
    assert rated[5].before == ratings.Rating()  # d's first game


def test_the_shown_rating_starts_everyone_at_1000_and_says_how_sure():
    new = ratings.Rating()
    assert new.shown == 1000 and ratings.certainty(0, new.sigma) == "unranked"
    assert ratings.Rating(mu=30, sigma=2).shown == 1050
    assert ratings.certainty(ratings.RANKED_AFTER - 1, 2) == "unranked"
    assert ratings.certainty(ratings.RANKED_AFTER, 7.5) == "settling"
    assert ratings.certainty(25, 6.3) == "fair" and ratings.certainty(60, 2) == "sure"


@pytest.mark.parametrize("players", [3, 7])
def test_a_club_that_plays_for_years_reads_no_number_below_zero(players):
    """300 games: one player last in every one, one first in every one, the rest between."""

    def seats(game):
        return [
            (n, 0 if n == 0 else 90 if n == 1 else 30 + (game * 7 + n * 13) % 40)
            for n in range(players)
        ]

    shown = [x.after.shown for x in ratings.rate((g, seats(g)) for g in range(300))]
    assert 0 < min(shown) < 1000 < max(shown) < 2000


@pytest.mark.parametrize("players", [3, 5, 7])
def test_twenty_five_games_are_not_still_settling_at_any_table_size(players):
    import random

    chance = random.Random(players)
    games = [(g, [(n, chance.randint(0, 60)) for n in range(players)]) for g in range(25)]
    last = [x for x in ratings.rate(games) if x.player == 0][-1]
    assert ratings.certainty(25, last.after.sigma) in {"fair", "sure"}


# --- Stored, and always what a fresh rating says -----------------------------------------


def play_to_the_end(table, players, winner: int) -> None:
    """A game of Hearts only (to 50): ``winner`` takes nothing, the others 13 a deal."""
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    scores = [13, 13, 13]
    scores[winner] = 0
    while not Game.objects.get(pk=game.pk).is_finished:
        deal_record(game=game, entry=engine.PointsEntry(tuple(scores)), by=None)


def stored(table):
    return sorted(
        PlayerRating.objects.filter(player__table=table).values_list(
            "game_id", "player_id", "place", "mu_before", "sigma_before", "mu", "sigma"
        )
    )


def fresh(table):
    return sorted(
        (x.game, x.player, x.place, x.before.mu, x.before.sigma, x.after.mu, x.after.sigma)
        for x in ratings.rate(kept.finished_results(table))
    )


@pytest.mark.django_db
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["play", "edit", "delete", "drop"]), st.integers(0, 2)),
        min_size=1,
        max_size=6,
    )
)
def test_stored_ratings_always_equal_a_rating_from_scratch(table, players, steps):
    """Finishing games, editing and deleting deals of finished ones (which re-opens them),
    deleting whole games."""
    for action, who in steps:
        games = list(Game.objects.filter(table=table).order_by("pk"))
        if action == "play" or not games:
            play_to_the_end(table, players, who)
        else:
            game = games[who % len(games)]
            if action == "drop":
                game_delete(game=game)
                assert stored(table) == fresh(table)
                continue
            deal = game.deals.order_by("-number").first()
            if deal is None:
                continue
            if action == "edit":
                deal_edit(deal=deal, entry=engine.PointsEntry((0, 13, 13)), by=None)
            else:
                deal_delete(deal=deal, by=None)
        assert stored(table) == fresh(table)
    standing = {s.player_id: s for s in Standing.objects.filter(player__table=table)}
    for player in players:
        mine = [x for x in ratings.rate(kept.finished_results(table)) if x.player == player.pk]
        if mine:
            assert (standing[player.pk].mu, standing[player.pk].games) == (
                mine[-1].after.mu,
                len(mine),
            )


def test_the_ladder_on_the_table_page_ranks_by_rating_with_games_and_wins(
    client, owner, table, players
):
    for _ in range(ratings.RANKED_AFTER):
        play_to_the_end(table, players, 0)  # Alice wins
    client.force_login(owner)
    page = client.get(table.get_absolute_url()).content.decode()
    ladder_part = page.split('id="ladder-h"')[1].split("</section>")[0]
    assert re.search(r"1\.</strong> <a [^>]+>Alice</a>", ladder_part)
    assert ladder_part.index("Alice") < ladder_part.index("Ben") < ladder_part.index("Cara")
    assert "5 games · 5 wins" in page and "Everyone starts at 1000" in page
    rung = ladder(table)[0]
    assert rung.name == "Alice" and rung.wins == 5 and rung.change > 0


def test_a_newcomer_is_listed_apart_until_ranked_never_above_the_regulars(
    client, owner, table, players
):
    from games.services.players import players_join

    for winner in [1, 2, 1, 1, 2, 1]:
        play_to_the_end(table, players, winner)  # Ben and Cara share the wins; Alice none
    dan = players_join(table=table, names=["Dan"])[0]
    play_to_the_end(table, [dan, players[1], players[2]], 0)  # Dan wins his first game
    rungs = ladder(table)
    assert [(r.name, r.place) for r in rungs] == [
        ("Ben", 1), ("Cara", 2), ("Alice", 3), ("Dan", None)
    ]  # fmt: skip
    assert rungs.unranked[0].rating > rungs.ranked[-1].rating  # above Alice by one lucky win
    client.force_login(owner)
    page = client.get(table.get_absolute_url()).content.decode()
    apart = page.split("Not yet ranked")[1].split("</section>")[0]
    assert "Dan" in apart and "1 of 5 games · 1 win" in apart and "Alice" not in apart
    page = client.get(reverse("player_detail", args=[dan.pk])).content.decode()
    assert "not yet ranked: 1 of 5 games" in page


def test_the_ladder_reads_in_one_query_and_quickly_with_1000_games(table, players):
    hearts = builtin("Hearts only")
    game = game_start(table=table, players=players, ruleset=hearts, first_dealer=0)
    created = Game.objects.bulk_create(
        Game(table=table, ruleset=hearts, rules=game.rules, first_dealer=0, status="finished")
        for _ in range(1000)
    )
    from games.models import Seat

    Seat.objects.bulk_create(
        Seat(game=g, player=p, number=n, total=(n * 7 + i) % 30)
        for i, g in enumerate(created)
        for n, p in enumerate(players)
    )
    # Counted in queries, not seconds: a thousand games rated in a few bulk writes,
    # and the ladder read in one query however many games it stands on.
    with CaptureQueriesContext(connection) as rerating:
        kept.rerate(table)
    with CaptureQueriesContext(connection) as queries:
        rungs = ladder(table)
    assert len(rerating) <= 20, len(rerating)
    assert len(queries) == 1 and len(rungs) == 3
    assert Standing.objects.get(player=players[0]).games == 1000


def test_imported_games_are_rated_from_their_results_never_from_the_file(owner):
    from games.services.imports import import_history

    won_by = {"A": {"A": 0, "B": 30, "C": 13}, "B": {"A": 30, "B": 0, "C": 13}}
    data = {
        "format": "blackmaria-scores/1",
        "games": [
            {
                "table": "Imported",
                "players": ["A", "B", "C"],
                "first_dealer": "A",
                "rules": {"name": "Short", "target": 26, "moon": "none"},
                "deals": [{"points": won_by[winner]}],  # 30 passes the target: over
                "rating": 9999,  # not a key of the format: nothing of it is kept
            }
            for winner in ("A", "A", "B")
        ],
    }
    games = import_history(data, owner=owner)
    table = games[0].table
    assert all(game.is_finished for game in games)
    assert stored(table) == fresh(table) != []
    standings = {s.player.name: s for s in Standing.objects.filter(player__table=table)}
    assert (standings["A"].games, standings["A"].wins, standings["B"].wins) == (3, 2, 1)


def test_a_players_page_has_the_rating_over_time_and_head_to_head(client, owner, table, players):
    alice = players[0]
    for winner in (0, 0, 1):
        play_to_the_end(table, players, winner)
    client.force_login(owner)
    url = reverse("player_detail", args=[alice.pk])
    assert f'href="{url}"' in client.get(table.get_absolute_url()).content.decode()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    assert "Rating over time" in page and '<svg viewBox="0 0' in page
    assert "The rating after each of 3 games; now" in page
    assert "Finished ahead of Ben in 2 of 3 games together" in page
    assert "Finished ahead of Cara in 2 of 3 games together" in page  # level in the third
    few = len(queries)
    for winner in (2, 2):
        play_to_the_end(table, players, winner)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    assert len(queries) == few  # however many games


def test_a_season_has_its_own_ladder_from_its_games_alone(client, owner, member, table, players):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    with time_machine.travel(timezone.now() - timedelta(days=60), tick=False):
        for _ in range(ratings.RANKED_AFTER * 2):
            play_to_the_end(table, players, 0)  # Alice, all summer
    for _ in range(ratings.RANKED_AFTER):
        play_to_the_end(table, players, 2)  # Cara, this autumn
    client.force_login(owner)
    today = timezone.localdate()
    season = {
        "name": "Autumn",
        "starts": (today - timedelta(days=10)).isoformat(),
        "ends": (today + timedelta(days=30)).isoformat(),
    }
    assert client.post(reverse("season_new", args=[table.pk]), season).status_code == 302
    page = client.get(table.get_absolute_url()).content.decode()
    this_season = page.split('id="season-h"')[1].split("</section>")[0]
    assert "Autumn" in this_season and "5 games · 5 wins" in this_season
    assert re.search(r"1\.</strong> <a [^>]+>Cara</a>", this_season)
    all_time = page.split('id="ladder-h"')[1].split("</section>")[0]
    assert "Ladder: all time" in page and "15 games · 10 wins" in all_time
    assert "10 wins" not in this_season
    # Dates the wrong way round are refused in words; only the owner names seasons.
    wrong = {**season, "ends": (today - timedelta(days=20)).isoformat()}
    response = client.post(reverse("season_new", args=[table.pk]), wrong)
    assert response.status_code == 422
    assert "ends on or after the day it starts" in response.content.decode()
    client.force_login(member)
    assert client.post(reverse("season_new", args=[table.pk]), season).status_code == 403


def test_the_owner_deletes_a_finished_game_and_the_ladder_is_worked_out_again(
    client, owner, member, table, players
):
    play_to_the_end(table, players, 0)
    play_to_the_end(table, players, 1)
    first = Game.objects.order_by("pk").first()
    url = reverse("game_delete", args=[first.pk])
    client.force_login(member)
    assert client.post(url).status_code == 403
    assert "Delete the game" not in client.get(first.get_absolute_url()).content.decode()
    client.force_login(owner)
    page = client.get(url).content.decode()
    assert "The ladder is worked out again without it." in page
    assert "Delete the game" in client.get(first.get_absolute_url()).content.decode()
    response = client.post(url)
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert not Game.objects.filter(pk=first.pk).exists()
    assert stored(table) == fresh(table)
    assert Standing.objects.get(player=players[1]).wins == 1
    assert Standing.objects.get(player=players[0]).wins == 0


# --- Chances before a game ---------------------------------------------------------------


def test_members_see_each_player_s_chance_before_the_first_deal_unless_turned_off(
    client, owner, member, table, players
):
    for _ in range(ratings.RANKED_AFTER):
        play_to_the_end(table, players, 0)  # Alice wins them all
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    expected = ratings.chances(
        [ratings.Rating(s.mu, s.sigma) for s in (p.standing for p in players)]
    )
    shown = " · ".join(
        f"{p.name} {round(c * 100)}%" for p, c in zip(players, expected, strict=True)
    )
    client.force_login(member)
    page = re.sub(r"<[^>]+>", "", client.get(game.get_absolute_url()).content.decode())
    assert f"Chances to win, from the ladder: {shown}" in page
    assert expected.index(max(expected)) == 0  # Alice the favourite
    # Not on the watch link's page; gone once the game is under way.
    from games.services.sharing import watch_link_replace

    watched = client.get(reverse("watch_game", args=[watch_link_replace(game)]))
    assert "Chances to win" not in watched.content.decode()
    # Once the game is under way the ladder's line gives way to the chances from here.
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=None)
    under_way = client.get(game.get_absolute_url()).content.decode()
    assert "from the ladder" not in under_way and "Chance of winning from here" in under_way
    # The owner turns them off: a new game shows none; a member may not.
    other = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=1)
    assert "Chances to win" in client.get(other.get_absolute_url()).content.decode()
    url = reverse("table_chances", args=[table.pk])
    assert client.post(url, {"show": "0"}).status_code == 403
    client.force_login(owner)
    assert client.post(url, {"show": "0"}).status_code == 302
    assert "Chances to win" not in client.get(other.get_absolute_url()).content.decode()
    assert "Chance of winning" not in client.get(game.get_absolute_url()).content.decode()
    stats = reverse("table_stats", args=[table.pk])
    assert "favourite won" not in client.get(stats).content.decode()
    assert "during games" not in client.get(stats).content.decode()
    client.post(url, {"show": "1"})
    assert "Chances to win" in client.get(other.get_absolute_url()).content.decode()


def test_the_statistics_say_how_good_the_chances_have_been(client, owner, table, players):
    for winner in (0, 0, 1, 0):
        play_to_the_end(table, players, winner)
    said = ratings.calibration(ratings.rate(kept.finished_results(table)))
    assert said.games == 3  # the first game, everyone new, had no favourite
    client.force_login(owner)
    page = client.get(reverse("table_stats", args=[table.pk])).content.decode()
    assert f"the favourite won {said.won} of 3 games; the chances said {said.expected:.1f}." in page


def test_a_first_game_with_nobody_rated_yet_shows_no_chances(client_owner, table, players):
    """Everyone's 33% told nothing and pushed the first heart chips off the screen."""
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    page = client_owner.get(game.get_absolute_url()).content.decode()
    assert "Chances to win" not in page
    assert "Alice 33%" not in page


def test_equal_ratings_as_shown_share_a_place():
    """Two players shown at 920 are not 4th and 5th by the order of their names."""
    from games.pages.ladder import Rung, _ordered

    def rung(name, rating, games=ratings.RANKED_AFTER):
        return Rung(None, hash(name), name, rating, "", games, 0, 0, 0)

    rows = [rung("Cy", 920), rung("Ann", 1100), rung("Bo", 920), rung("Dag", 990), rung("Eli", 800)]
    rows.append(rung("Ola", 920, games=ratings.RANKED_AFTER - 1))  # not ranked yet: no place
    placed = [(r.place, r.name) for r in _ordered(rows)]
    assert placed == [(1, "Ann"), (2, "Dag"), (3, "Bo"), (3, "Cy"), (5, "Eli"), (None, "Ola")]
