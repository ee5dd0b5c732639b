"""Chances from here: each player's chance of winning during a game, from the table's deals."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.engine import chances as maths
from games.engine.entries import CardsEntry
from games.engine.game import game_over
from games.engine.rules import Rules, pack, resolve, valued_cards
from games.engine.scoring import check_deal

PLAYERS = ("ann", "ben", "cara")


def model(rules: Rules, shapes: list[tuple[int, ...]], copies: int = 1) -> maths.DealModel:
    """A table whose past deals are ``shapes`` (each ``copies`` times), everyone alike."""
    n = len(shapes[0])
    seated = tuple(f"p{seat}" for seat in range(n))
    deals = [maths.PastDeal(seated, shape) for shape in shapes for _ in range(copies)]
    built = maths.DealModel.from_deals(rules, n, deals)
    return maths.DealModel(rules, n, built.shapes, {})  # equal strengths


# --- Exact answers ---------------------------------------------------------------


def test_a_leader_who_can_no_longer_be_caught_wins_for_certain():
    """Three of five deals left would need more than a deal's 43 each: 130 ahead is sure."""
    rules = resolve(Rules(target=None, deals=5), 3)
    flat = model(rules, [(0, 13, 30)])
    assert maths.chances_from_here(flat, PLAYERS, [0, 130, 140], 2) == [1.0, 0.0, 0.0]


def test_a_lead_of_exactly_what_is_left_is_sure_because_a_tie_shares_the_win():
    """129 ahead with three deals left: Ben can at best draw level, and a tie is a win
    for each, so Ann is sure; Ben keeps the chance of that tie; Cara, 140 behind, is out."""
    rules = resolve(Rules(target=None, deals=5), 3)
    flat = model(rules, [(0, 13, 30)])
    ann, ben, cara = maths.chances_from_here(flat, PLAYERS, [0, 129, 140], 2)
    assert ann == 1.0 and 0 < ben < 0.01 and cara == 0.0


def test_four_players_one_deal_left_a_lead_of_one_deal_s_total_is_certain():
    """Black Maria over eight deals, after the seventh: 10 against 53, 100 and 138."""
    rules = resolve(Rules(target=None, deals=8), 4)
    flat = model(rules, [(0, 5, 13, 25)])
    said = maths.chances_from_here(flat, ("a", "b", "c", "d"), [10, 53, 100, 138], 7)
    assert said[0] == 1.0
    assert 0 < said[1] < 0.01  # only by taking none while Ann takes all 43: a shared win
    assert said[2:] == [0.0, 0.0]


def test_seven_players_who_can_no_longer_reach_the_lowest_total_have_no_chance():
    """Seven at the table, two deals left of Omnibus (the jack: a deal moves a gap by 53)."""
    rules = resolve(Rules(target=None, deals=10, jack_of_diamonds=-10), 7)
    flat = model(rules, [(-10, 0, 0, 5, 8, 13, 27)])
    seated = tuple(f"p{seat}" for seat in range(7))
    totals = [40, 60, 147, 150, 160, 200, 300]
    said = maths.chances_from_here(flat, seated, totals, 8)
    assert said[2:] == [0.0] * 5  # 107 and more behind: two deals move a gap by at most 106
    assert 0 < said[1] < 1 and 0 < said[0] < 1
    # 106 behind can still tie the leader: not out.
    said = maths.chances_from_here(flat, seated, [40, 60, 146, 150, 160, 200, 300], 8)
    assert said[2] > 0 and said[3:] == [0.0] * 4


def test_a_fixed_deals_game_at_its_last_deal_is_decided_and_a_tie_is_shared():
    rules = resolve(Rules(target=None, deals=6), 3)
    flat = model(rules, [(0, 13, 30)])
    assert maths.chances_from_here(flat, PLAYERS, [40, 41, 80], 6) == [1.0, 0.0, 0.0]
    assert maths.chances_from_here(flat, PLAYERS, [40, 40, 80], 6) == [1.0, 1.0, 0.0]
    target = resolve(Rules(), 3)
    assert maths.chances_from_here(model(target, [(0, 13, 30)]), PLAYERS, [60, 99, 100], 4) == [
        1.0,
        0.0,
        0.0,
    ]


def test_a_likely_tie_counts_as_a_win_for_each_so_the_chances_add_to_more_than_one():
    """One deal left and every deal the table has seen is 0, 0, 43: whoever is not given
    the 43 ties on 0 with the other, so Ann and Ben each win two times in three."""
    rules = resolve(Rules(target=None, deals=4), 3)
    table = model(rules, [(0, 0, 43)], copies=400)
    ann, ben, cara = maths.chances_from_here(table, PLAYERS, [10, 10, 60], 3)
    assert ann == pytest.approx(2 / 3, abs=0.04) and ben == pytest.approx(2 / 3, abs=0.04)
    assert cara < 0.01 and ann + ben > 1.2


def test_a_moon_still_possible_keeps_a_chance_that_no_other_deal_gives():
    """Ben is 42 behind with one deal left; only shooting the moon (−43 to the shooter)
    beats Ann. One deal in ten at this table is a moon, and Ben shoots a third of them."""
    shapes = [(10, 13, 20)] * 9 + [(-43, 0, 0)]
    moon = resolve(Rules(moon="self", target=None, deals=4), 3)
    ben = maths.chances_from_here(model(moon, shapes, copies=60), PLAYERS, [0, 42, 90], 3)[1]
    assert ben == pytest.approx(0.1 / 3, abs=0.012)
    # With no moon in the rules a 42 lead with one deal left is as good as won here.
    none = resolve(Rules(target=None, deals=4), 3)
    assert maths.chances_from_here(model(none, [(10, 13, 20)], 600), PLAYERS, [0, 42, 90], 3)[
        1
    ] == pytest.approx(0, abs=0.01)


def test_omnibus_s_negative_jack_widens_what_one_deal_can_change():
    """A deal gives a player between −10 (the jack alone) and 43: 54 ahead is sure, and so
    is 53, where Ben's best is a shared win; 52 is not."""
    rules = resolve(Rules(name="Omnibus", jack_of_diamonds=-10, target=None, deals=3), 4)
    flat = model(rules, [(-10, 5, 13, 25)])
    assert maths.chances_from_here(flat, (*PLAYERS, "dag"), [0, 54, 60, 70], 2) == [1, 0, 0, 0]
    level = maths.chances_from_here(flat, (*PLAYERS, "dag"), [0, 53, 60, 70], 2)
    assert level[0] == 1 and 0 < level[1] < 0.01 and level[2:] == [0, 0]
    assert maths.chances_from_here(flat, (*PLAYERS, "dag"), [0, 52, 60, 70], 2)[0] < 1


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_before_the_first_deal_alike_players_have_alike_chances(players):
    rules = resolve(Rules(), players)
    fresh = maths.DealModel.from_deals(rules, players, [])
    seated = [f"p{n}" for n in range(players)]
    said = maths.chances_from_here(fresh, seated, [0] * players, 0)
    assert said == pytest.approx([1 / players] * players, abs=0.035)
    assert 1 <= sum(said) < 1.05  # a shared win now and then
    assert maths.chances_from_here(fresh, seated, [0] * players, 0) == said  # the same again


def test_random_deals_of_no_table_follow_the_rules_moons_included():
    rules = resolve(Rules(moon="others"), 3)
    deals = maths.fresh_deals(rules, 3)
    assert (deals.sum(axis=1) % 43 == 0).all()  # 43, or a moon's 86
    assert (np.diff(deals, axis=1) >= 0).all()  # fewest points first


def test_a_player_who_takes_fewer_points_than_the_others_rates_higher_in_a_deal():
    deals = [maths.PastDeal(("ann", "ben", "cara"), (3, 15, 25))] * 20
    deals += [maths.PastDeal(("ann", "ben", "dag"), (10, 10, 23))]
    strength = maths.deal_ratings(deals)
    assert strength["ann"] > strength["ben"] > strength["cara"]
    assert strength["dag"] < 1  # one deal, last: a little below average, no further


# --- The truth known -------------------------------------------------------------

SKILL = (0.24, 0.33, 0.43)  # each trick's chance to fall to Ann, Ben and Cara


def _true_deals(rules: Rules, rng: random.Random, count: int) -> np.ndarray:
    cards, valued = list(pack(rules, 3)), valued_cards(rules, 3)
    rows = []
    for _ in range(count):
        rng.shuffle(cards)
        taken: list[list[str]] = [[], [], []]
        for start in range(0, len(cards), 3):
            seat = rng.choices(range(3), SKILL)[0]
            taken[seat].extend(c for c in cards[start : start + 3] if c in valued)
        entry = CardsEntry(tuple(tuple(t) for t in taken))
        rows.append(check_deal(rules, PLAYERS, entry).result.scores)
    return np.array(rows)


def _play(rules: Rules, rng: random.Random, truth: np.ndarray) -> list[tuple[int, ...]]:
    totals, deals = [0, 0, 0], []
    while not deals or not game_over(rules, totals, len(deals)):
        deal = tuple(int(x) for x in truth[rng.randrange(len(truth))])
        totals = [t + s for t, s in zip(totals, deal, strict=True)]
        deals.append(deal)
    return deals


def _ideal(truth: np.ndarray, rules: Rules, totals, played, runs=2000) -> list[float]:
    """The predictor that knows each player's true deals: the same play-out, from them."""
    rng = np.random.default_rng(played)
    sums = np.tile(np.array(totals), (runs, 1))
    going = np.ones(runs, dtype=bool)
    while going.any():
        rows = np.flatnonzero(going)
        sums[rows] += truth[rng.integers(len(truth), size=len(rows))]
        going[rows[(sums[rows] >= rules.target).any(axis=1)]] = False
    return list((sums == sums.min(axis=1, keepdims=True)).mean(axis=0))


def _scored(games, predict) -> maths.Brier:
    said = []
    for deals in games:
        totals = [(0, 0, 0)]
        for deal in deals:
            totals.append(tuple(t + s for t, s in zip(totals[-1], deal, strict=True)))
        said.append(([predict(t, n) for n, t in enumerate(totals)], totals))
    return maths.brier(said)


def test_with_known_players_the_chances_come_within_10_percent_of_the_ideal_and_beat_guessing():
    """Ann, Ben and Cara take each trick with known chances. From 40 games of them the
    app's chances, over 60 more, score a Brier within 10% of the predictor that knows
    the true deals, and better than everyone equal or the leader winning. Without the
    deal ratings (everyone alike) they are about 20% worse than the ideal, so a change
    that loses who is good fails here."""
    rules = resolve(Rules(), 3)
    rng = random.Random(7)
    truth = _true_deals(rules, rng, 8000)
    history = [_play(rules, rng, truth) for _ in range(40)]
    later = [_play(rules, rng, truth) for _ in range(60)]
    past = [maths.PastDeal(PLAYERS, deal) for game in history for deal in game]
    table = maths.DealModel.from_deals(rules, 3, past)

    app = _scored(later, lambda t, n: maths.chances_from_here(table, PLAYERS, t, n))
    ideal = _scored(later, lambda t, n: _ideal(truth, rules, t, n))
    alike = maths.DealModel(rules, 3, table.shapes, {})
    unrated = _scored(later, lambda t, n: maths.chances_from_here(alike, PLAYERS, t, n))

    assert app.deals > 200
    assert app.chances <= 1.10 * ideal.chances, (app, ideal)
    assert app.chances < app.leader and app.chances < app.equal
    assert unrated.chances > 1.10 * ideal.chances  # the test can tell a worse method


def test_the_brier_score_and_its_baselines_worked_by_hand():
    """One game of two players' worth of seats: after deal 1 Ann leads 0 to 10 with
    chances 0.8 and 0.2, and Ann wins. Chances: ((0.8−1)² + 0.2²) / 2 = 0.04;
    everyone equal: 0.25; the leader wins: 0."""
    said = [[0.5, 0.5], [0.8, 0.2], [1.0, 0.0]]
    totals = [(0, 0), (0, 10), (5, 20)]
    brier = maths.brier([(said, totals)])
    assert (brier.deals, brier.states) == (1, 2)
    assert brier.chances == pytest.approx(0.04)
    assert brier.equal == pytest.approx(0.25) and brier.leader == 0


def test_the_chances_said_in_bands_against_how_often_those_players_won():
    """Two games, two states each: 0.8 said twice (won both), 0.2 three times (none
    won), 0.05 and 0.95 once each (the 0.95 won); a certain 1.0 is in the top band."""
    first = ([[0.5, 0.5], [0.8, 0.2], [0.8, 0.2], [1.0, 0.0]], [(0, 0), (0, 10), (5, 20), (9, 30)])
    second = ([[0.5, 0.5], [0.05, 0.95], [0.2, 1.0], [0, 1]], [(0, 0), (9, 0), (20, 3), (30, 5)])
    bands = {band.low: band for band in maths.brier([first, second]).bands}
    assert [band.low for band in bands.values()] == list(range(0, 100, 10))
    assert (bands[80].cases, bands[80].won, bands[80].happened) == (2, 2, 1.0)
    assert (bands[20].cases, bands[20].won, bands[20].said_mean) == (3, 0, pytest.approx(0.2))
    assert (bands[0].cases, bands[0].won) == (1, 0)
    assert (bands[90].cases, bands[90].won, bands[90].said_mean) == (2, 2, pytest.approx(0.975))
    assert sum(band.cases for band in bands.values()) == 8
