"""Deals kept on a phone without network and sent later: once each, conflicts shown."""

from __future__ import annotations

import http.client
import threading
import urllib.parse

import pytest
from django.conf import settings
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from django.urls import reverse

from games import engine
from games.services.deals import deal_record

COUNTS_1 = {  # Alice 4 hearts and Q♠ (17), Ben 3 hearts, K♠ and A♠ (20), Cara 6 hearts.
    "mode": "counts",
    "hearts-0": "4",
    "hearts-1": "3",
    "hearts-2": "6",
    "taker-QS": "0",
    "taker-KS": "1",
    "taker-AS": "1",
}


@pytest.fixture
def phone(client, owner):
    client.force_login(owner)
    return client


def send(client, game, key, number=1, **fields):
    data = {**COUNTS_1, "key": key, "number": str(number), **fields}
    return client.post(reverse("deal_queued", args=[game.pk]), data)


def test_a_queued_deal_sent_twice_is_recorded_once(phone, moon_game):
    first = send(phone, moon_game, "k-1")
    assert first.status_code == 200 and first.json() == {"status": "recorded", "number": 1}
    again = send(phone, moon_game, "k-1")
    assert again.status_code == 200 and again.json() == {"status": "recorded", "number": 1}
    deal = moon_game.deals.get()
    assert (deal.number, deal.scores, deal.client_key) == (1, [17, 20, 6], "k-1")


def test_the_save_form_key_makes_a_resent_save_harmless(phone, moon_game, member):
    fields = {**COUNTS_1, "number": "1", "key": "form-1"}
    url = reverse("deal_new", args=[moon_game.pk])
    assert phone.post(url, fields).status_code == 302
    # The answer was lost; the same form goes again (even with a tap changed
    # meanwhile): it is the deal already recorded, not a conflict.
    again = phone.post(url, {**fields, "hearts-0": "3", "hearts-2": "7"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and b"Enter deal 2" in again.content
    deal = moon_game.deals.get()
    assert (deal.client_key, deal.scores) == ("form-1", [17, 20, 6])


def test_a_queued_deal_the_server_refuses_comes_back_with_the_reason(phone, moon_game):
    response = send(phone, moon_game, "k-2", **{"hearts-2": "5"})
    assert response.status_code == 422
    assert response.json() == {
        "status": "refused",
        "problems": ["Hearts add up to 12, the pack has 13"],
    }
    assert not moon_game.deals.exists()


def test_a_deal_number_taken_meanwhile_shows_both_and_lets_the_person_choose(
    phone, moon_game, member
):
    deal_record(game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=member)
    response = send(phone, moon_game, "k-3")
    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "conflict"
    assert answer["message"] == "Deal 1 was just entered by mo — here it is."
    assert answer["theirs"] == "Alice 13, Ben 17, Cara 13"
    assert answer["yours"] == "Alice 17, Ben 20, Cara 6"
    assert (answer["number"], answer["version"], answer["by"]) == (1, 1, "mo")
    assert moon_game.deals.count() == 1

    # Enter it as the next deal.
    response = send(phone, moon_game, "k-3", resolve="next")
    # The number it took, so the phone renumbers what it keeps after it.
    assert response.json() == {"status": "recorded", "number": 2}
    assert list(moon_game.deals.values_list("number", "scores")) == [
        (1, [13, 17, 13]),
        (2, [17, 20, 6]),
    ]


def test_replacing_their_deal_with_yours(phone, moon_game, member):
    deal_record(game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=member)
    response = send(phone, moon_game, "k-4", resolve="replace", version="1")
    assert response.json() == {"status": "recorded", "number": 1}
    deal = moon_game.deals.get()
    assert (deal.scores, deal.client_key, deal.version) == ([17, 20, 6], "k-4", 2)
    # Sent again (the answer was lost): nothing changes.
    assert send(phone, moon_game, "k-4", resolve="replace", version="1").json() == {
        "status": "recorded",
        "number": 1,
    }
    deal.refresh_from_db()
    assert deal.version == 2
    # A replace that comes after someone else changed the deal again is a conflict.
    deal_record(game=moon_game, entry=engine.PointsEntry((13, 13, 17)), by=member)
    response = send(phone, moon_game, "k-5", number=2, resolve="replace", version="0")
    assert response.status_code == 409


def test_a_queued_deal_for_a_game_of_someone_else_is_hidden(client, outsider, moon_game):
    client.force_login(outsider)
    assert send(client, moon_game, "k-6").status_code == 404
    assert not moon_game.deals.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_queued_deal_posted_twice_at_once_over_http_is_recorded_once(
    live_server, moon_game, owner
):
    """Two connections, the same key, released together: one deal."""
    client = Client()
    client.force_login(owner)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = _get_new_csrf_string()
    host, port = live_server.url.removeprefix("http://").split(":")
    path = reverse("deal_queued", args=[moon_game.pk])
    for round_ in range(4):
        body = urllib.parse.urlencode(
            {**COUNTS_1, "key": f"race-{round_}", "number": str(round_ + 1)}
        )
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
        }
        start = threading.Barrier(2)
        answers: list[object] = []

        def post(body=body, headers=headers, start=start, answers=answers):
            conn = http.client.HTTPConnection(host, int(port), timeout=20)
            start.wait()
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            answers.append((response.status, response.read()))
            conn.close()

        threads = [threading.Thread(target=post) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert [status for status, _ in answers] == [200, 200], answers
        assert moon_game.deals.count() == round_ + 1
    assert list(moon_game.deals.values_list("client_key", flat=True)) == [
        f"race-{i}" for i in range(4)
    ]


def test_a_deal_refused_as_the_next_deal_reads_without_its_new_number(phone, moon_game, member):
    deal_record(game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=member)
    response = send(phone, moon_game, "k-7", resolve="next", **{"hearts-2": "5"})
    assert response.status_code == 422
    assert response.json()["problems"] == ["Hearts add up to 12, the pack has 13"]


def test_a_kept_deal_is_remembered_as_the_way_the_table_enters_deals(phone, moon_game, table):
    """Online and kept, a save is decided in one place (deal_save): both remember the mode."""
    table.last_entry_mode = "points"
    table.save(update_fields=["last_entry_mode"])
    assert send(phone, moon_game, "kept-1").json()["status"] == "recorded"
    table.refresh_from_db()
    assert table.last_entry_mode == "counts"


def test_replacing_their_deal_without_the_version_seen_replaces_it_as_it_is(
    phone, moon_game, member
):
    deal_record(game=moon_game, entry=engine.PointsEntry((13, 17, 13)), by=member)
    response = send(phone, moon_game, "k-6", resolve="replace")
    assert response.json() == {"status": "recorded", "number": 1}
    assert moon_game.deals.get().scores == [17, 20, 6]


def test_a_deal_kept_by_one_person_is_never_recorded_under_another(
    client, owner, member, moon_game
):
    """Ann kept deal 2 with no signal and signed out; Ben signed in on the same phone
    and opened the game: Ann's deal was recorded as Ben's."""
    client.force_login(member)
    refused = send(client, moon_game, "ann-s-key", kept_by=str(owner.pk))
    assert refused.status_code == 409 and refused.json()["status"] == "not_yours"
    assert not moon_game.deals.exists()
    client.force_login(owner)  # Ann again: it is hers to send
    assert send(client, moon_game, "ann-s-key", kept_by=str(owner.pk)).json() == {
        "status": "recorded",
        "number": 1,
    }
    assert moon_game.deals.get().client_key == "ann-s-key"


def test_the_game_page_tells_the_phone_who_keeps_its_deals(client, owner, moon_game):
    import json
    import re

    client.force_login(owner)
    page = client.get(moon_game.get_absolute_url()).content.decode()
    config = json.loads(re.search(r"data-phone=\"([^\"]+)\"", page).group(1).replace("&quot;", '"'))
    assert config["me"] == {"id": owner.pk, "name": "ann"}
