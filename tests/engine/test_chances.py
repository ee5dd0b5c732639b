"""Chances before a game: openskill's own prediction for the ladder's model."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from games.engine import ratings


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_the_chances_are_openskill_s_prediction_for_3_to_7_players(players):
    model = PlackettLuce()
    mine = [ratings.Rating(25 + 3 * n - players, 8.3 - n * 0.7) for n in range(players)]
    theirs = model.predict_win([[model.rating(mu=r.mu, sigma=r.sigma)] for r in mine])
    said = ratings.chances(mine)
    assert said == pytest.approx(theirs, abs=1e-12)
    assert sum(said) == pytest.approx(1)
    assert said.index(max(said)) == players - 1  # the best rated is the favourite


def test_equal_ratings_give_equal_chances_and_ties_stay_ties():
    assert ratings.chances([ratings.Rating()] * 3) == pytest.approx([1 / 3] * 3)
    twins = ratings.chances([ratings.Rating(30, 3), ratings.Rating(30, 3), ratings.Rating(20, 3)])
    assert twins[0] == pytest.approx(twins[1]) and twins[0] > twins[2]


def test_how_good_the_chances_were_over_a_worked_history():
    """Four games of Ann, Ben and Cara; each game's chances from the ratings before it."""
    history = [
        ("g1", [("ann", 10), ("ben", 30), ("cara", 50)]),  # all new: no favourite, left out
        ("g2", [("ann", 12), ("ben", 40), ("cara", 44)]),  # Ann the favourite, and wins
        ("g3", [("ann", 60), ("ben", 5), ("cara", 30)]),  # Ann the favourite, Ben wins
        ("g4", [("ann", 20), ("ben", 20), ("cara", 70)]),  # Ben the favourite shares the win
    ]
    rated = ratings.rate(history)
    model = PlackettLuce()
    won, expected, games = 0, 0.0, 0
    for game, seats in history[1:]:
        before = [r.before for r in rated if r.game == game]
        said = model.predict_win([[model.rating(mu=b.mu, sigma=b.sigma)] for b in before])
        favourite = said.index(max(said))
        totals = [total for _, total in seats]
        won += totals[favourite] == min(totals)
        expected += max(said)
        games += 1
    assert (won, games) == (2, 3)  # Ann won g2 and lost g3; Ben's shared win in g4 counts
    calibration = ratings.calibration(rated)
    assert (calibration.games, calibration.won) == (3, 2)
    assert calibration.expected == pytest.approx(expected)
