"""Club nights, Django-free: the split, the draw among new neighbours, the standings."""

from __future__ import annotations

import doctest
import itertools
import random
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from games.engine import clubnight as c

EVERY_SIZE = range(3, 8)


def test_the_doc_examples_hold():
    assert doctest.testmod(c).failed == 0


def test_seven_people_of_a_black_maria_table_play_four_and_three():
    assert c.splits(7, 3, EVERY_SIZE)[0] == (4, 3)


def test_the_split_follows_the_tables_usual_game_size():
    assert c.splits(12, 3, EVERY_SIZE)[0] == (3, 3, 3, 3)
    assert c.splits(12, 4, EVERY_SIZE)[0] == (4, 4, 4)
    assert c.splits(9, 4, EVERY_SIZE)[0] == (5, 4)
    assert c.splits(5, 3, EVERY_SIZE) == [(5,)]


def test_only_sizes_the_rules_can_deal_are_offered():
    # Rules that deal only for 3 and 4 (a pack cut down for them, say).
    assert c.splits(7, 3, {3, 4}) == [(4, 3)]
    assert c.splits(10, 5, {3, 4}) == [(4, 3, 3)]
    assert c.splits(5, 3, {3, 4}) == []


@given(st.integers(3, 42), st.integers(3, 7))
def test_every_split_is_even_and_seats_everyone(present, usual):
    for sizes in c.splits(present, usual, EVERY_SIZE):
        assert sum(sizes) == present
        assert max(sizes) - min(sizes) <= 1
        assert all(3 <= s <= 7 for s in sizes)


def test_the_first_round_seats_everyone_once_at_random():
    people = list(range(9))
    games = c.draw(people, (3, 3, 3), rng=random.Random(1))
    assert sorted(p for g in games for p in g) == people
    assert [len(g) for g in games] == [3, 3, 3]
    assert c.draw(people, (3, 3, 3), rng=random.Random(2)) != games


def fewest_repeats(people, sizes, earlier) -> int:
    """By brute force: the fewest repeated neighbours any seating can have."""
    return min(
        c.repeated_neighbours(c._cut(order, sizes), earlier)
        for order in itertools.permutations(people)
    )


def test_the_next_round_sits_people_by_new_neighbours_as_far_as_possible():
    people = list("ABCDEFG")
    first = [["A", "B", "C", "D"], ["E", "F", "G"]]
    for seed in range(5):
        second = c.draw(people, (4, 3), [first], rng=random.Random(seed))
        assert c.repeated_neighbours(second, [first]) == fewest_repeats(people, (4, 3), [first])
        third = c.draw(people, (4, 3), [first, second], rng=random.Random(seed))
        assert c.repeated_neighbours(third, [first, second]) == fewest_repeats(
            people, (4, 3), [first, second]
        )


def test_twelve_people_in_a_second_round_of_threes_meet_new_neighbours_only():
    people = list(range(12))
    first = c.draw(people, (3, 3, 3, 3), rng=random.Random(3))
    second = c.draw(people, (3, 3, 3, 3), [first], rng=random.Random(3))
    assert c.repeated_neighbours(second, [first]) == 0


def test_place_points_give_one_for_each_player_beaten_and_half_a_tie():
    assert c.place_points([10, 20, 30]) == [2, 1, 0]
    assert c.place_points([10, 10, 30, 5]) == [Fraction(3, 2), Fraction(3, 2), 0, 3]


def test_standings_by_places_add_the_games_of_the_evening():
    results = [
        c.Result([("ann", 20), ("ben", 43), ("cara", 10), ("dan", 60)], 3, 43, True),
        c.Result([("eva", 30), ("finn", 30), ("gro", 12)], 2, 43, False),
        c.Result([("ann", 5), ("eva", 50), ("cara", 5)], 1, 43, False),
    ]
    lines = {line.person: line for line in c.standings(results, c.PLACES)}
    assert lines["ann"].score == 2 + Fraction(3, 2)
    assert lines["cara"].score == 3 + Fraction(3, 2)
    assert lines["cara"].place == 1 and lines["ann"].place == 2
    assert lines["eva"].score == Fraction(1, 2) and lines["finn"].score == Fraction(1, 2)
    assert lines["eva"].place == lines["finn"].place  # tied, the same place
    assert lines["cara"].wins == 1 and lines["gro"].wins == 0  # gro's game goes on
    assert lines["ann"].games == 2 and lines["ann"].points == 25


def test_standings_by_share_compare_games_of_three_and_of_four():
    # An even share is 43/4 a deal at four and 43/3 at three.
    results = [
        c.Result([("ann", 43), ("ben", 43), ("cara", 43), ("dan", 43)], 4, 43, True),
        c.Result([("eva", 43), ("finn", 43), ("gro", 43)], 3, 43, True),
    ]
    lines = c.standings(results, c.SHARE)
    assert {line.score for line in lines} == {100}  # everyone took exactly an even share
    assert {line.place for line in lines} == {1}
    results.append(c.Result([("ann", 0), ("eva", 43), ("gro", 0)], 1, 43, True))
    lines = {line.person: line for line in c.standings(results, c.SHARE)}
    # ann: 43 over an even share of 43 + 43/3; lowest leads.
    assert lines["ann"].score == Fraction(43 * 100) / (43 + Fraction(43, 3))
    assert lines["ann"].place == 1 and lines["eva"].place == 7


def test_someone_yet_to_play_stands_last_with_no_figure():
    results = [
        c.Result([("ann", 20), ("ben", 10), ("cara", 13)], 1, 43, False),
        c.Result([("dan", 0), ("eva", 0), ("finn", 0)], 0, 43, False),
    ]
    lines = c.standings(results, c.PLACES)
    assert [line.person for line in lines][:3] == ["ben", "cara", "ann"]
    assert all(line.score is None and line.place == 4 for line in lines[3:])
