"""The rules engine on its own: every variant of SPEC sections 1-6."""

from __future__ import annotations

import doctest
import importlib

import pytest

from games import engine
from games.engine import CardsEntry, CountsEntry, PointsEntry, Rules

NAMES3 = ["Alice", "Ben", "Cara"]
NAMES4 = ["Alice", "Ben", "Cara", "Dan"]
HEARTS = [rank + "H" for rank in engine.RANKS]  # 2H .. AH
BLACK_MARIA = Rules()
MOON_OTHERS = Rules(moon="others")
MOON_SELF = Rules(moon="self")
HEARTS_ONLY = Rules(name="Hearts only", king_of_spades=0, ace_of_spades=0, moon="others", target=50)
SPOT = Rules(name="Spot hearts", hearts="spot", queen_of_spades=25, target=500)
OMNIBUS = Rules(name="Omnibus", jack_of_diamonds=-10)


@pytest.mark.parametrize(
    "module",
    ["__init__", "words", "cards", "rules", "entries", "scoring", "turns", "game", "names"],
)
def test_the_module_examples_hold(module):
    name = "games.engine" if module == "__init__" else f"games.engine.{module}"
    assert doctest.testmod(importlib.import_module(name)).failed == 0


# --- The pack and the deal total ---------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed", "each"),
    [
        (3, ("2C",), 17),
        (4, (), 13),
        (5, ("2C", "2D"), 10),
        (6, ("2C", "2D", "2S", "2H"), 8),
        (7, ("2C", "2D", "2S"), 7),
    ],
)
def test_the_pack_deals_out_equally_for_every_player_count(players, removed, each):
    assert set(engine.removed_cards(BLACK_MARIA, players)) == set(removed)
    assert engine.cards_each(BLACK_MARIA, players) == each
    assert len(engine.pack(BLACK_MARIA, players)) == each * players


@pytest.mark.parametrize(
    ("rules", "players", "total", "moon"),
    [
        (BLACK_MARIA, 3, 43, 43),
        (BLACK_MARIA, 4, 43, 43),
        (BLACK_MARIA, 5, 43, 43),
        (BLACK_MARIA, 6, 42, 42),  # 2♥ is out
        (BLACK_MARIA, 7, 43, 43),
        (HEARTS_ONLY, 3, 26, 26),
        (HEARTS_ONLY, 6, 25, 25),
        (SPOT, 3, 146, 146),  # 104 + 25 + 10 + 7
        (SPOT, 6, 144, 144),  # the 2♥ is out: 102 + 42
        (OMNIBUS, 3, 33, 43),
        (Rules(hearts="spot", queen_of_spades=25, jack_of_diamonds=-10), 3, 136, 146),
    ],
)
def test_deal_total_and_moon_value(rules, players, total, moon):
    assert engine.deal_total(rules, players) == total
    assert engine.moon_value(rules, players) == moon


def test_spot_hearts_count_face_value():
    assert [engine.card_value(SPOT, c) for c in ("2H", "10H", "JH", "QH", "KH", "AH")] == [
        2,
        10,
        11,
        12,
        13,
        14,
    ]


def test_hearts_only_spades_are_ordinary_cards():
    assert engine.special_cards(HEARTS_ONLY, 3) == ("QS",)


@pytest.mark.parametrize(
    ("rules", "players", "problem"),
    [
        (Rules(removed=("2C", "2D")), 3, "50 cards don't deal out equally to 3 players"),
        (Rules(removed=("ZZ",)), 3, "are not cards"),
        (Rules(target=None, deals=None), 3, "the game needs an end"),
        (Rules(jack_of_diamonds=5), 3, "J♦ is a bonus card"),
        (Rules(queen_of_spades=-1), 3, "Q♠ can't be worth less than 0"),
        (Rules(pass_cards=18), 3, "can't pass 18"),
        (Rules(), 8, "3 to 7 players, not 8"),
        (Rules(deals=0), 3, "from 1 to 500 (it is 0)"),
        # Bounds no table reaches, so every total fits its column.
        (Rules(queen_of_spades=10**15), 3, "Q♠ can be worth at most 1000"),
        (Rules(ace_of_spades=1001), 3, "A♠ can be worth at most 1000"),
        (Rules(jack_of_diamonds=-1001), 3, "J♦ can take off at most 1000"),
        (Rules(target=10_001), 3, "the target must be from 1 to 10000"),
        (Rules(deals=501), 3, "from 1 to 500 (it is 501)"),
        # A pack that can't be dealt, or has nothing worth points.
        (Rules(removed=tuple(engine.FULL_PACK)), 4, "too few are left to deal"),
        (
            Rules(
                queen_of_spades=0,
                king_of_spades=0,
                ace_of_spades=0,
                removed=tuple(c for c in engine.FULL_PACK if c.endswith("H")),
            ),
            3,
            "no card left in the pack is worth points",
        ),
    ],
)
def test_impossible_settings_are_refused(rules, players, problem):
    with pytest.raises(engine.RulesError) as error:
        engine.resolve(rules, players)
    assert any(problem in p for p in error.value.problems), error.value.problems


def test_resolving_fixes_removed_cards_and_the_pass_for_the_player_count():
    resolved = engine.resolve(BLACK_MARIA, 5)
    assert resolved.removed == ("2C", "2D")
    assert resolved.pass_cards == 2
    assert engine.resolve(BLACK_MARIA, 4).pass_cards == 3


def test_a_ruleset_may_remove_other_cards():
    rules = engine.resolve(Rules(removed=("2D",)), 3)
    assert "2C" in engine.pack(rules, 3)
    assert "2D" not in engine.pack(rules, 3)


def test_rules_round_trip_through_their_dict():
    rules = engine.resolve(SPOT, 6)
    assert Rules.from_dict(rules.to_dict()) == rules


def test_missing_rule_keys_take_the_black_maria_defaults():
    assert Rules.from_dict({}) == BLACK_MARIA
    assert Rules.from_dict({"moon": "others"}) == MOON_OTHERS


def test_bad_rule_values_are_all_named():
    with pytest.raises(engine.RulesError) as error:
        Rules.from_dict({"moon": "sometimes", "target": "lots", "queen_of_spades": True})
    text = str(error.value)
    assert "moon must be one of none, others, self" in text
    assert "target must be a whole number or null" in text
    assert "queen of spades must be a whole number" in text


# --- SPEC section 6 ------------------------------------------------------------


def test_worked_example_one_black_maria_no_moon():
    entry = CardsEntry(
        (
            ("QS", *HEARTS[0:4]),
            ("KS", *HEARTS[4:7]),
            ("AS", *HEARTS[7:13]),
        )
    )
    result = engine.score_deal(BLACK_MARIA, NAMES3, entry)
    assert result.raw == (17, 13, 13)
    assert result.scores == (17, 13, 13)
    assert sum(result.raw) == 43
    assert result.moon is None


def worked_example_two():
    return [
        CountsEntry((4, 3, 6), (("QS",), ("KS", "AS"), ())),
        CardsEntry(((), (), ("QS", "KS", "AS", *HEARTS))),
        CardsEntry((("QS", "KS", *HEARTS[0:5]), tuple(HEARTS[5:7]), ("AS", *HEARTS[7:13]))),
    ]


def test_worked_example_two_moon_to_the_others():
    state = engine.score_game(MOON_OTHERS, NAMES3, 0, worked_example_two())
    assert [d.totals for d in state.deals] == [(17, 20, 6), (60, 63, 6), (88, 65, 19)]
    assert state.deals[1].result.moon == 2
    assert state.deals[1].result.scores == (43, 43, 0)
    assert not state.finished
    assert state.next_number == 4


def test_worked_example_two_scores_the_same_in_every_entry_mode():
    by_points = [PointsEntry((17, 20, 6)), PointsEntry((0, 0, 43)), PointsEntry((28, 2, 13))]
    state = engine.score_game(MOON_OTHERS, NAMES3, 0, by_points)
    assert state.totals == (88, 65, 19)


# --- Entry validation --------------------------------------------------------


def problems(rules, names, entry):
    return engine.check_deal(rules, names, entry).problems


def test_a_card_given_to_two_players_is_named_with_both_players():
    entry = CardsEntry((("QS", *HEARTS), ("QS", "KS"), ("AS",)))
    assert "Q♠ is given to both Alice and Ben" in problems(BLACK_MARIA, NAMES3, entry)


def test_a_card_nobody_took_is_named():
    entry = CardsEntry((("QS", *HEARTS), ("KS",), ()))
    assert problems(BLACK_MARIA, NAMES3, entry) == ("nobody has taken A♠ yet",)


def test_a_removed_card_is_refused():
    entry = CardsEntry((("QS", *HEARTS), ("KS",), ("AS",)))
    got = problems(BLACK_MARIA, ["A", "B", "C", "D", "E", "F"], (entry_for_six := entry))
    assert got  # wrong seat count is refused first
    six = CardsEntry((("QS", *HEARTS), ("KS",), ("AS",), (), (), ()))
    assert any("2♥ is not in the pack" in p for p in problems(BLACK_MARIA, list("ABCDEF"), six))
    assert entry_for_six is entry


def test_a_card_code_that_is_no_card_is_refused():
    entry = CardsEntry((("QS", "XX", *HEARTS), ("KS",), ("AS",)))
    assert "'XX' given to Alice is not a card" in problems(BLACK_MARIA, NAMES3, entry)


def test_the_live_check_counts_what_is_entered_so_far():
    check = engine.check_deal(BLACK_MARIA, NAMES3, CardsEntry((("QS", *HEARTS[:4]), ("KS",), ())))
    assert (check.counted, check.total) == (27, 43)
    assert not check.valid


def test_counts_must_add_up_to_the_hearts_in_the_pack():
    entry = CountsEntry((4, 3, 5), (("QS",), ("KS",), ("AS",)))
    assert problems(BLACK_MARIA, NAMES3, entry) == ("hearts add up to 12, the pack has 13",)


def test_counts_with_six_players_have_twelve_hearts():
    entry = CountsEntry((2, 2, 2, 2, 2, 2), (("QS",), ("KS",), ("AS",), (), (), ()))
    result = engine.score_deal(BLACK_MARIA, list("ABCDEF"), entry)
    assert sum(result.raw) == 42


def test_counts_refuse_negative_and_fractional_hearts():
    entry = CountsEntry((-1, 14, 0), (("QS",), ("KS",), ("AS",)))
    assert "Alice's hearts must be a whole number, 0 or more" in problems(
        BLACK_MARIA, NAMES3, entry
    )
    entry = CountsEntry((1.5, 11.5, 0), (("QS",), ("KS",), ("AS",)))
    assert "Ben's hearts must be a whole number, 0 or more" in problems(BLACK_MARIA, NAMES3, entry)


def test_counts_need_every_valued_spade_taken_once():
    entry = CountsEntry((4, 3, 6), (("QS",), ("QS", "KS"), ()))
    assert problems(BLACK_MARIA, NAMES3, entry) == (
        "Q♠ is given to both Alice and Ben",
        "nobody has taken A♠ yet",
    )


def test_counts_refuse_a_heart_among_the_cards():
    entry = CountsEntry((4, 3, 6), (("QS", "2H"), ("KS",), ("AS",)))
    assert "2♥ is a heart: count it in Alice's hearts" in problems(BLACK_MARIA, NAMES3, entry)


def test_counts_are_refused_for_spot_hearts():
    entry = CountsEntry((4, 3, 6), (("QS",), ("KS",), ("AS",)))
    assert "enter the cards or the points instead" in problems(SPOT, NAMES3, entry)[0]


def test_points_must_add_up_to_the_deal_total():
    assert problems(BLACK_MARIA, NAMES3, PointsEntry((17, 13, 12))) == (
        "points add up to 42, the deal total is 43",
    )


@pytest.mark.parametrize(
    ("rules", "points", "ok"),
    [
        (BLACK_MARIA, (12, 12, 19), True),
        (BLACK_MARIA, (11, 11, 11, 10), False),
        (HEARTS_ONLY, (10, 10, 6), False),
        (HEARTS_ONLY, (13, 7, 6), True),
        (BLACK_MARIA, (43, 0, 0), True),
        (BLACK_MARIA, (0, 20, 23), True),
        (BLACK_MARIA, (44, -1, 0), False),  # nothing is worth less than 0 here
        (OMNIBUS, (-10, 0, 43), True),
        (OMNIBUS, (33, 0, 0), True),
        (OMNIBUS, (-9, 0, 42), True),
        (OMNIBUS, (-11, 1, 43), False),
        (SPOT, (0, 1, 145), False),  # nobody can make 1 with spot hearts
        (SPOT, (2, 0, 144), True),
        (SPOT, (25, 10, 111), True),
        (SPOT, (3, 1, 142), False),
    ],
)
def test_points_are_accepted_only_when_some_deal_gives_them(rules, points, ok):
    names = [f"P{i}" for i in range(len(points))]
    assert engine.points_feasible(rules, len(points), points) is ok
    check = engine.check_deal(rules, names, PointsEntry(points))
    assert check.valid is ok


def test_infeasible_points_are_explained():
    got = problems(BLACK_MARIA, NAMES4, PointsEntry((11, 11, 11, 10)))
    assert got == (
        "no way of taking the cards gives Alice 11 / Ben 11 / Cara 11 / Dan 10: "
        "check who took Q♠, K♠ and A♠",
    )


def test_points_must_be_whole_numbers():
    assert problems(BLACK_MARIA, NAMES3, PointsEntry((17, "x", 13))) == (
        "Ben: points must be whole numbers",
    )


def test_an_entry_for_the_wrong_number_of_players_is_refused():
    assert problems(BLACK_MARIA, NAMES4, PointsEntry((17, 13, 13))) == (
        "points are given for 3 players, but 4 are playing",
    )


def test_an_ordinary_card_in_the_pack_scores_nothing():
    entry = CardsEntry((("QS", "5C", *HEARTS[:4]), ("KS", *HEARTS[4:7]), ("AS", *HEARTS[7:])))
    assert engine.score_deal(BLACK_MARIA, NAMES3, entry).raw == (17, 13, 13)


# --- The moon ----------------------------------------------------------------

ALL_POSITIVE = ("QS", "KS", "AS", *HEARTS)


@pytest.mark.parametrize(
    ("rules", "scores"),
    [
        (BLACK_MARIA, (0, 43, 0)),
        (MOON_OTHERS, (43, 0, 43)),
        (MOON_SELF, (0, -43, 0)),
    ],
)
def test_each_moon_option(rules, scores):
    result = engine.score_deal(rules, NAMES3, CardsEntry(((), ALL_POSITIVE, ())))
    assert result.raw == (0, 43, 0)
    assert result.scores == scores
    assert result.moon == (None if rules.moon == "none" else 1)


def test_hearts_only_moon_is_26_to_each_other_player():
    result = engine.score_deal(HEARTS_ONLY, NAMES3, CountsEntry((13, 0, 0), (("QS",), (), ())))
    assert result.scores == (0, 26, 26)


@pytest.mark.parametrize(
    ("moon", "entry", "scores"),
    [
        # The shooter also took J♦: the bonus still counts for them.
        ("others", CardsEntry(((*ALL_POSITIVE, "JD"), (), ())), (-10, 43, 43)),
        ("self", CardsEntry(((*ALL_POSITIVE, "JD"), (), ())), (-53, 0, 0)),
        # Someone else took J♦.
        ("others", CardsEntry((ALL_POSITIVE, ("JD",), ())), (0, 33, 43)),
        ("self", CardsEntry((ALL_POSITIVE, ("JD",), ())), (-43, -10, 0)),
        ("none", CardsEntry((ALL_POSITIVE, ("JD",), ())), (43, -10, 0)),
        # The same read from points.
        ("others", PointsEntry((33, 0, 0)), (-10, 43, 43)),
        ("others", PointsEntry((43, -10, 0)), (0, 33, 43)),
        ("self", PointsEntry((43, 0, -10)), (-43, 0, -10)),
    ],
)
def test_omnibus_bonus_is_scored_by_whoever_took_it_moon_or_not(moon, entry, scores):
    rules = Rules(jack_of_diamonds=-10, moon=moon)
    result = engine.score_deal(rules, NAMES3, entry)
    assert result.scores == scores


def test_omnibus_without_a_moon():
    entry = CardsEntry((("QS", "JD", *HEARTS[:4]), ("KS", *HEARTS[4:7]), ("AS", *HEARTS[7:])))
    assert engine.score_deal(OMNIBUS, NAMES3, entry).scores == (7, 13, 13)


def test_a_moon_from_counts_needs_every_heart_and_every_valued_spade():
    rules = MOON_OTHERS
    moon = engine.score_deal(rules, NAMES3, CountsEntry((13, 0, 0), (("QS", "KS", "AS"), (), ())))
    assert moon.moon == 0
    near = engine.score_deal(rules, NAMES3, CountsEntry((13, 0, 0), (("QS", "KS"), ("AS",), ())))
    assert near.moon is None
    assert near.scores == (36, 7, 0)


def test_spot_hearts_moon():
    result = engine.score_deal(
        Rules(hearts="spot", queen_of_spades=25, moon="others"), NAMES3, PointsEntry((0, 146, 0))
    )
    assert result.scores == (146, 0, 146)


def test_moon_summary_says_who_gets_what():
    result = engine.score_deal(MOON_OTHERS, NAMES3, PointsEntry((0, 0, 43)))
    assert engine.moon_summary(NAMES3, result, MOON_OTHERS) == (
        "Cara shoots the moon: Cara scores 0, Alice and Ben +43 each"
    )


# --- Turn order ----------------------------------------------------------------


def test_the_deal_moves_left_and_the_dealers_left_leads():
    assert [engine.dealer(1, 3, n) for n in (1, 2, 3, 4)] == [1, 2, 0, 1]
    assert [engine.leader(1, 3, n) for n in (1, 2, 3, 4)] == [2, 0, 1, 2]


def test_black_maria_always_passes_right():
    assert {engine.pass_direction(BLACK_MARIA, 3, n) for n in range(1, 10)} == {"right"}
    # Right is the previous seat clockwise.
    assert [engine.pass_receiver(BLACK_MARIA, 3, 1, s) for s in range(3)] == [2, 0, 1]
    assert engine.cards_passed(BLACK_MARIA, 3) == 3
    assert engine.cards_passed(BLACK_MARIA, 5) == 2


def test_the_hearts_cycle_with_an_even_count_goes_across():
    rules = Rules(pass_direction="cycle")
    assert [engine.pass_direction(rules, 4, n) for n in range(1, 6)] == [
        "left",
        "right",
        "across",
        "hold",
        "left",
    ]
    assert [engine.pass_receiver(rules, 4, 3, s) for s in range(4)] == [2, 3, 0, 1]
    assert engine.pass_receiver(rules, 4, 4, 0) is None


def test_the_hearts_cycle_with_an_odd_count_has_no_across():
    rules = Rules(pass_direction="cycle")
    assert [engine.pass_direction(rules, 5, n) for n in range(1, 5)] == [
        "left",
        "right",
        "hold",
        "left",
    ]
    assert [engine.pass_receiver(rules, 5, 1, s) for s in range(5)] == [1, 2, 3, 4, 0]


def test_no_pass_when_the_ruleset_passes_no_cards():
    assert engine.pass_receiver(Rules(pass_cards=0), 3, 1, 0) is None


# --- The end of the game -------------------------------------------------------


def test_reaching_the_target_exactly_ends_the_game():
    rules = Rules(target=43)
    state = engine.score_game(rules, NAMES3, 0, [PointsEntry((0, 43, 0))])
    assert state.finished
    assert state.winners == (0, 2)  # a tie shares the win
    assert state.next_number is None
    assert state.next_dealer(0, 3) is None


def test_one_short_of_the_target_plays_on():
    state = engine.score_game(Rules(target=44), NAMES3, 0, [PointsEntry((0, 43, 0))])
    assert not state.finished
    assert state.winners == ()
    assert state.next_dealer(0, 3) == 1


def test_a_fixed_number_of_deals_ends_the_game():
    rules = Rules(target=None, deals=2)
    entries = [PointsEntry((17, 13, 13)), PointsEntry((13, 17, 13))]
    state = engine.score_game(rules, NAMES3, 0, entries)
    assert state.finished
    assert state.totals == (30, 30, 26)
    assert state.winners == (2,)


def test_target_or_deals_whichever_comes_first():
    rules = Rules(target=40, deals=6)
    state = engine.score_game(
        rules, NAMES3, 0, [PointsEntry((17, 13, 13)), PointsEntry((30, 0, 13))]
    )
    assert state.finished


def test_totals_can_go_negative_and_lowest_wins():
    rules = Rules(moon="self", target=None, deals=3)
    entries = [PointsEntry((43, 0, 0)), PointsEntry((17, 13, 13)), PointsEntry((17, 13, 13))]
    state = engine.score_game(rules, NAMES3, 0, entries)
    assert state.totals == (-9, 26, 26)
    assert state.winners == (0,)


def test_a_deal_after_the_end_is_refused_with_the_reason():
    with pytest.raises(engine.GameError) as error:
        engine.score_game(Rules(target=43), NAMES3, 0, [PointsEntry((0, 43, 0))] * 2)
    assert str(error.value) == (
        "the game would end after deal 1 (Ben has 43, reaching the target of 43), "
        "but 2 deals are recorded"
    )


def test_an_invalid_deal_in_a_game_is_named_by_number():
    with pytest.raises(engine.GameError) as error:
        engine.score_game(
            BLACK_MARIA, NAMES3, 0, [PointsEntry((17, 13, 13)), PointsEntry((1, 1, 1))]
        )
    assert error.value.deal == 2
    assert "deal 2: points add up to 3, the deal total is 43" in error.value.problems


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_player_count_plays_a_game(players):
    names = [f"P{i}" for i in range(players)]
    hearts = engine.hearts_in_pack(BLACK_MARIA, players)
    cards = [[] for _ in range(players)]
    for i, card in enumerate((*hearts, "QS", "KS", "AS")):
        cards[i % players].append(card)
    entry = CardsEntry(tuple(tuple(c) for c in cards))
    state = engine.score_game(BLACK_MARIA, names, 0, [entry] * 2)
    assert sum(state.totals) == 2 * engine.deal_total(BLACK_MARIA, players)


def test_a_game_holds_at_most_500_deals():
    rules = Rules(target=None, deals=None, moon="self")
    entry = engine.PointsEntry((17, 13, 13))
    state = engine.score_game(
        engine.Rules(target=None, deals=500), ["A", "B", "C"], 0, [entry] * 500
    )
    assert state.finished
    with pytest.raises(engine.GameError) as error:
        engine.score_game(rules, ["A", "B", "C"], 0, [entry], played=500, totals_before=[0, 0, 0])
    assert "at most 500 deals" in error.value.problems[0]
