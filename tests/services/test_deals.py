"""Recording, editing and deleting deals: one path, always consistent."""

from __future__ import annotations

import pytest

from games import engine
from games.models import Deal, Game, Player, Ruleset, Table
from games.services.deals import GAME_FINISHED, deal_delete, deal_edit, deal_record
from games.services.errors import DealConflict, Refused
from games.services.games import game_start
from tests.factories import DEAL_1, DEAL_2, DEAL_3, builtin, game_snapshot


def totals(game: Game) -> list[int]:
    return list(game.seats.order_by("number").values_list("total", flat=True))


def test_the_worked_example_is_stored_deal_by_deal(moon_game, owner):
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=moon_game, entry=entry, by=owner)
    deals = list(moon_game.deals.order_by("number"))
    assert [d.totals for d in deals] == [[17, 20, 6], [60, 63, 6], [88, 65, 19]]
    assert [d.moon_seat for d in deals] == [None, 2, None]
    assert deals[1].scores == [43, 43, 0]
    assert deals[0].entered_by == owner
    assert deals[0].mode == "counts"
    assert deals[0].entry == {"hearts": [4, 3, 6], "cards": [["QS"], ["KS", "AS"], []]}
    assert totals(moon_game) == [88, 65, 19]
    moon_game.refresh_from_db()
    assert moon_game.status == Game.Status.IN_PROGRESS
    assert moon_game.version == 3


def test_a_game_freezes_its_rules_at_the_start(moon_game):
    ruleset = moon_game.ruleset
    ruleset.queen_of_spades = 26
    ruleset.save()
    moon_game.refresh_from_db()
    assert moon_game.get_rules().queen_of_spades == 13
    assert moon_game.rules["removed"] == ["2C"]
    assert moon_game.rules["pass_cards"] == 3


def test_an_invalid_deal_is_refused_and_nothing_changes(moon_game, owner):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    before = game_snapshot(moon_game)
    with pytest.raises(Refused) as error:
        deal_record(game=moon_game, entry=engine.PointsEntry((11, 11, 11)), by=owner)
    assert error.value.problems == ["deal 2: points add up to 33, the deal total is 43"]
    assert game_snapshot(moon_game) == before


def test_a_fixed_deal_count_ends_the_game_and_a_tie_shares_the_win(table, players, owner):
    ruleset = Ruleset.objects.create(
        table=table, name="Three deals", king_of_spades=0, ace_of_spades=0, target=None, deals=3
    )
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((13, 13, 0)), by=owner)
    deal_record(game=game, entry=engine.PointsEntry((13, 0, 13)), by=owner)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=owner)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    assert totals(game) == [26, 26, 26]
    assert list(game.seats.filter(is_winner=True).values_list("number", flat=True)) == [0, 1, 2]


def test_no_deal_after_the_end(table, players, owner):
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)  # moon: 26 to the others
    deal_record(game=game, entry=engine.PointsEntry((0, 26, 0)), by=owner)
    game.refresh_from_db()
    assert game.is_finished
    before = game_snapshot(game)
    with pytest.raises(Refused) as error:
        deal_record(game=game, entry=engine.PointsEntry((13, 13, 0)), by=owner)
    assert error.value.problems == [GAME_FINISHED]
    assert game_snapshot(game) == before


def test_editing_a_deal_rescores_everything_after_it(moon_game, owner):
    first = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_record(game=moon_game, entry=DEAL_2, by=owner)
    deal_record(game=moon_game, entry=DEAL_3, by=owner)
    deal_edit(deal=first, entry=engine.PointsEntry((13, 17, 13)), by=owner)
    deals = list(moon_game.deals.order_by("number"))
    assert deals[0].mode == "points"
    assert deals[0].version == 2
    assert [d.totals for d in deals] == [[13, 17, 13], [56, 60, 13], [84, 62, 26]]
    assert totals(moon_game) == [84, 62, 26]


@pytest.fixture
def target_70_game(table, players, owner):
    """The worked example to a target of 70: it ends after deal 3 (88 / 65 / 19)."""
    ruleset = Ruleset.objects.create(table=table, name="To 70", moon="others", target=70)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=game, entry=entry, by=owner)
    game.refresh_from_db()
    return game


def test_the_worked_example_to_70_finishes_with_cara_winning(target_70_game):
    assert target_70_game.is_finished
    assert list(
        target_70_game.seats.filter(is_winner=True).values_list("player__name", flat=True)
    ) == ["Cara"]


def test_an_edit_that_would_end_the_game_early_is_refused_with_the_reason(target_70_game, owner):
    first = target_70_game.deals.get(number=1)
    before = game_snapshot(target_70_game)
    with pytest.raises(Refused) as error:
        # Alice shoots the moon in deal 1: Ben reaches 86 after deal 2.
        deal_edit(deal=first, entry=engine.PointsEntry((43, 0, 0)), by=owner)
    assert error.value.problems == [
        "the game would end after deal 2 (Ben has 86, reaching the target of 70), "
        "but 3 deals are recorded"
    ]
    assert game_snapshot(target_70_game) == before


def test_an_edit_below_the_target_reopens_the_game(target_70_game, owner):
    third = target_70_game.deals.get(number=3)
    deal_edit(deal=third, entry=engine.PointsEntry((0, 2, 41)), by=owner)
    target_70_game.refresh_from_db()
    assert target_70_game.status == Game.Status.IN_PROGRESS
    assert target_70_game.finished_at is None
    assert not target_70_game.seats.filter(is_winner=True).exists()
    assert totals(target_70_game) == [60, 65, 47]


def test_deleting_the_last_deal_reopens_the_game(target_70_game, owner):
    deal_delete(deal=target_70_game.deals.get(number=3), by=owner)
    target_70_game.refresh_from_db()
    assert target_70_game.status == Game.Status.IN_PROGRESS
    assert totals(target_70_game) == [60, 63, 6]
    assert target_70_game.deals.count() == 2


def test_deleting_a_deal_moves_the_later_ones_up_and_rescores_them(moon_game, owner):
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=moon_game, entry=entry, by=owner)
    deal_delete(deal=moon_game.deals.get(number=2), by=owner)
    deals = list(moon_game.deals.order_by("number"))
    assert [d.number for d in deals] == [1, 2]
    assert [d.totals for d in deals] == [[17, 20, 6], [45, 22, 19]]
    assert totals(moon_game) == [45, 22, 19]


def test_a_deletion_that_would_end_the_game_early_is_refused(table, players, owner):
    ruleset = Ruleset.objects.create(table=table, name="Self moon to 50", moon="self", target=50)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    for points in ((40, 3, 0), (43, 0, 0), (20, 10, 13), (20, 10, 13)):
        deal_record(game=game, entry=engine.PointsEntry(points), by=owner)
    assert totals(game) == [37, 23, 26]  # Alice's moon in deal 2 took 43 off
    before = game_snapshot(game)
    with pytest.raises(Refused) as error:
        deal_delete(deal=game.deals.get(number=2), by=owner)
    assert error.value.problems == [
        "the game would end after deal 2 (Alice has 60, reaching the target of 50), "
        "but 3 deals are recorded"
    ]
    assert game_snapshot(game) == before


def test_a_second_save_of_the_same_deal_is_not_recorded_twice(moon_game, owner, outsider):
    deal_record(game=moon_game, entry=DEAL_1, by=owner, number=1)
    before = game_snapshot(moon_game)
    with pytest.raises(DealConflict) as conflict:
        deal_record(game=moon_game, entry=DEAL_1, by=outsider, number=1)
    assert conflict.value.message == "Deal 1 was just entered by ann — here it is."
    assert conflict.value.deal.number == 1
    assert game_snapshot(moon_game) == before


def test_editing_a_deal_someone_changed_meanwhile_is_refused(moon_game, owner):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_edit(deal=deal, entry=engine.PointsEntry((13, 17, 13)), by=owner, version=1)
    before = game_snapshot(moon_game)
    with pytest.raises(DealConflict):
        deal_edit(deal=deal, entry=engine.PointsEntry((17, 13, 13)), by=owner, version=1)
    assert game_snapshot(moon_game) == before


def test_a_game_needs_players_of_its_own_table(table, players, owner):
    other = Table.objects.create(name="Other", owner=owner)
    stranger = Player.objects.create(table=other, name="Zed")
    with pytest.raises(Refused):
        game_start(table=table, players=[*players[:2], stranger], ruleset=builtin("Black Maria"))
    with pytest.raises(Refused):
        game_start(
            table=table,
            players=[players[0], players[0], players[1]],
            ruleset=builtin("Black Maria"),
        )
    with pytest.raises(Refused) as error:
        game_start(table=table, players=players[:2], ruleset=builtin("Black Maria"))
    assert "3 to 7 players, not 2" in error.value.problems[0]
    assert not Game.objects.exists()


def test_the_first_dealer_is_drawn_when_not_chosen(table, players):
    dealers = {
        game_start(table=table, players=players, ruleset=builtin("Black Maria")).first_dealer
        for _ in range(30)
    }
    assert dealers <= {0, 1, 2}
    assert len(dealers) > 1


def test_a_save_given_a_game_read_before_another_phone_saved_scores_on_from_the_new_deal(
    moon_game, owner
):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    game = Game.objects.get(pk=moon_game.pk)
    deal_record(game=moon_game, entry=DEAL_2, by=owner)  # another phone, meanwhile
    third = deal_record(game=game, entry=DEAL_3, by=owner)
    assert third.number == 3
    # The worked example's totals after three deals, as if nobody had raced.
    assert totals(moon_game) == [88, 65, 19] == Deal.objects.get(pk=third.pk).totals
    assert game.version == 3 == Game.objects.get(pk=moon_game.pk).version


def test_a_save_reads_under_the_lock_only_what_it_needs(moon_game, owner):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    game = Game.objects.get(pk=moon_game.pk)
    with CaptureQueriesContext(connection) as captured:
        deal_record(game=game, entry=DEAL_2, by=owner)
    # The locking read of the version and the deals played, the seats; then the deal,
    # the seats (one batch), the game and the audit row.
    writes = [q["sql"].split()[0] for q in captured.captured_queries]
    assert [w for w in writes if w not in ("SAVEPOINT", "RELEASE")] == [
        "SELECT",
        "SELECT",
        "INSERT",
        "UPDATE",
        "UPDATE",
        "INSERT",
    ]
    assert "version" in captured.captured_queries[1]["sql"]
    assert totals(moon_game) == [60, 63, 6]
    assert game_snapshot(moon_game)[1] == 2


def test_a_deal_sent_again_with_its_key_changes_nothing(moon_game, owner):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner, number=1, key="phone-1")
    before = game_snapshot(moon_game)
    game = Game.objects.get(pk=moon_game.pk)
    again = deal_record(game=game, entry=DEAL_1, by=owner, number=1, key="phone-1")
    assert again.pk == deal.pk and again.game.version == before[1]
    assert game_snapshot(moon_game) == before  # not even the version moved on
