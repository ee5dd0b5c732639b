"""The result as a picture: read back by OCR in both languages, its size, and
kept so that a second request draws nothing."""

from __future__ import annotations

import io
import re
import subprocess
from html.parser import HTMLParser

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from PIL import Image

from games import engine
from games.drawing import pictures
from games.models import Game
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.factories import builtin

NB = {"HTTP_ACCEPT_LANGUAGE": "nb"}


def read(png: bytes, languages: str = "eng+nor") -> str:
    """What Debian's tesseract reads in the picture (installed by `make ocr`)."""
    done = subprocess.run(
        ["tesseract", "-", "-", "-l", languages, "--psm", "4"],
        input=png,
        capture_output=True,
        check=True,
    )
    return done.stdout.decode()


@pytest.fixture
def finished(table, players, owner):
    """Hearts only to 50: Cara takes nothing; Alice and Ben 13 each, four times."""
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"), first_dealer=0)
    for _ in range(4):
        deal_record(game=game, entry=engine.PointsEntry((13, 13, 0)), by=owner)
    game.refresh_from_db()
    assert game.is_finished
    return game


@pytest.fixture(autouse=True)
def _nothing_kept(db):
    caches["default"].clear()


@pytest.mark.tools  # tesseract reads the picture back
@pytest.mark.parametrize(
    ("headers", "words"), [({}, "lowest total wins"), (NB, "lavest sum vinner")]
)
def test_a_finished_game_s_picture_reads_back_its_names_totals_and_winner(
    client_owner, finished, headers, words
):
    response = client_owner.get(reverse("game_picture", args=[finished.pk]), **headers)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    png = response.content
    assert len(png) < 150_000
    assert Image.open(io.BytesIO(png)).size == (1200, 630)
    said = read(png)
    assert "Friday club" in said
    for name, total in [("Cara", "0"), ("Alice", "52"), ("Ben", "52")]:
        assert re.search(rf"{name}\s+{total}\b", said), said
    assert words in said.lower(), said
    assert re.search(r"1\.\s+(\S{1,2}\s+)?Cara", said), said  # first, the star before her


@pytest.mark.tools  # tesseract reads the picture back
@pytest.mark.parametrize(
    ("headers", "words"),
    [
        ({}, r"Cara won from (under )?(\d+) ?% after deal 1"),
        (NB, r"Cara vant fra (under )?(\d+) ?% etter giv 1"),
    ],
)
def test_the_picture_of_a_comeback_names_it(client_owner, table, players, owner, headers, words):
    """Three games of the table before; then Cara trails by 25 after deal 1 and wins."""
    from games.pages import chances

    for _ in range(3):
        start = game_start(table=table, players=players, ruleset=builtin("Hearts only"))
        for scores in [(0, 13, 13), (13, 0, 13), (2, 11, 13), (1, 12, 13)]:
            deal_record(game=start, entry=engine.PointsEntry(scores), by=owner)
    game = game_start(table=table, players=players, ruleset=builtin("Hearts only"))
    for scores in [(0, 1, 25), (13, 13, 0), (13, 13, 0), (13, 13, 0), (13, 13, 0)]:
        deal_record(game=game, entry=engine.PointsEntry(scores), by=owner)
    game = Game.objects.select_related("table").get(pk=game.pk)
    expected = chances.comeback(["Alice", "Ben", "Cara"], [2], chances.game_said(game))
    said = read(client_owner.get(reverse("game_picture", args=[game.pk]), **headers).content)
    found = re.search(words, said)
    assert found, said
    if expected.said.startswith("under"):  # a chance under 1% is said so, in both languages
        assert found.group(1) and found.group(2) == "1", said
    else:
        assert int(found.group(2)) == expected.percent, said


def test_a_second_request_draws_nothing_until_the_game_changes(client_owner, finished, monkeypatch):
    drawn = []
    real = pictures.draw
    monkeypatch.setattr(pictures, "draw", lambda picture: drawn.append(picture) or real(picture))
    url = reverse("game_picture", args=[finished.pk])
    first = client_owner.get(url).content
    assert client_owner.get(url).content == first and len(drawn) == 1
    client_owner.get(url, **NB)  # another language is another picture
    assert len(drawn) == 2
    client_owner.post(reverse("game_note", args=[finished.pk]), {"note": "A good one"})
    client_owner.get(url)  # the game moved on: drawn again
    assert len(drawn) == 3


def test_a_phone_that_has_the_picture_is_answered_304_without_reading_it(
    client_owner, finished, monkeypatch
):
    """Every preview and every Share downloaded the whole picture again (42 KB)."""
    url = reverse("game_picture", args=[finished.pk])
    first = client_owner.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and "no-cache" in first["Cache-Control"]
    read_back = []
    monkeypatch.setattr(pictures.KeptPicture, "png", lambda kept: read_back.append(kept))
    again = client_owner.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and read_back == []
    assert again["ETag"] == etag
    # Another language, or the game moved on: another picture, another ETag.
    assert client_owner.get(url, headers={"If-None-Match": etag}, **NB).status_code == 200
    monkeypatch.undo()
    client_owner.post(reverse("game_note", args=[finished.pk]), {"note": "A good one"})
    changed = client_owner.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.content[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.tools  # tesseract reads the picture back
@pytest.mark.parametrize(
    ("headers", "night", "ladder"),
    [
        ({}, "Standings of the club night.", "Ladder"),
        (NB, "klubbkvelden", "Rangering"),
    ],
)
def test_a_club_night_and_the_ladder_as_pictures(
    client_owner, table, players, owner, headers, night, ladder
):
    from django.utils import timezone

    from games.engine import ratings
    from games.services.clubnights import evening_start, round_start

    evening = evening_start(
        table=table, name="Friday night", day=timezone.localdate(), scoring="places",
        ruleset=builtin("Hearts only"), players=players,
    )  # fmt: skip
    round_start(evening=evening, number=1, by=owner)
    game = evening.games.get()
    while not game.is_finished:
        deal_record(game=game, entry=engine.PointsEntry((0, 13, 13)), by=owner)
        game.refresh_from_db()
    said = read(client_owner.get(reverse("evening_picture", args=[evening.pk]), **headers).content)
    assert night in said, said
    # The first seat (drawn) took nothing: a point for each player finished ahead of.
    first = game.seats.get(number=0).player.name
    assert "Friday night" in said and re.search(rf"1\.\s+(\S{{1,2}}\s+)?{first}\s+2\b", said)
    assert all(p.name in said for p in players)
    for _ in range(ratings.RANKED_AFTER - 1):
        again = game_start(table=table, players=players, ruleset=builtin("Hearts only"))
        while not again.is_finished:
            deal_record(game=again, entry=engine.PointsEntry((0, 13, 13)), by=owner)
            again.refresh_from_db()
    said = read(client_owner.get(reverse("ladder_picture", args=[table.pk]), **headers).content)
    assert ladder in said, said
    assert re.search(r"1\.\s+(\S{1,2}\s+)?Alice\s+1\d\d\d", said), said


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and (key := attrs.get("property") or attrs.get("name")):
            self.meta[key] = attrs.get("content", "")


def tags_of(html: str) -> dict[str, str]:
    parser = Tags()
    parser.feed(html)
    return parser.meta


def test_a_watch_link_says_live_scores_only_while_the_game_is_played(moon_game):
    token = watch_link_replace(moon_game)
    page = Client().get(reverse("watch_game", args=[token])).content.decode()
    assert tags_of(page)["og:title"] == "Friday club — live scores"
    assert "<title>Friday club — live scores ·" in page
    assert "new deals appear within seconds" in page


@pytest.mark.tools  # tesseract reads the picture back
def test_a_watch_link_pasted_in_a_chat_shows_the_score_and_the_picture(finished, owner):
    """As a chat app's preview fetches it: no cookies, the page, then its picture."""
    token = watch_link_replace(finished)
    chat = Client()
    page = chat.get(reverse("watch_game", args=[token]))
    meta = tags_of(page.content.decode())
    assert meta["og:title"] == "Friday club — final scores"  # over: no longer live
    assert "<title>Friday club — final scores ·" in page.content.decode()
    assert "new deals appear" not in page.content.decode()
    assert meta["og:description"] == "Cara won: Alice 52 · Ben 52 · Cara 0"
    assert meta["twitter:card"] == "summary_large_image"
    assert (meta["og:image:width"], meta["og:image:height"]) == ("1200", "630")
    image = chat.get(meta["og:image"].removeprefix("http://testserver"))
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert "Cara" in read(image.content)
    # In Norwegian the words are, the numbers are not.
    meta = tags_of(chat.get(reverse("watch_game", args=[token]), **NB).content.decode())
    assert meta["og:description"] == "Cara vant: Alice 52 · Ben 52 · Cara 0"


def test_pages_that_need_an_account_give_no_preview(client, client_owner, finished):
    assert "og:title" not in client_owner.get(finished.get_absolute_url()).content.decode()
    page = client.get(finished.get_absolute_url(), follow=True).content.decode()
    assert "og:" not in page  # the sign-in page it leads to


def test_a_table_s_and_a_club_night_s_watch_links_carry_previews(table, players, owner):
    from django.utils import timezone

    from games.services.clubnights import evening_start

    watch_link_replace(table)
    chat = Client()
    # No ladder yet: nothing to show, so no preview.
    assert (
        "og:image"
        not in chat.get(reverse("watch_table", args=[table.watch_token])).content.decode()
    )
    evening = evening_start(
        table=table, name="Friday night", day=timezone.localdate(), scoring="places",
        ruleset=builtin("Hearts only"), players=players,
    )  # fmt: skip
    token = watch_link_replace(evening)
    meta = tags_of(chat.get(reverse("watch_evening", args=[token])).content.decode())
    assert meta["og:title"] == "Friday night · Friday club"
    assert meta["og:description"].startswith("Standings: Alice –")
    assert chat.get(meta["og:image"].removeprefix("http://testserver")).status_code == 200


def test_a_table_s_watch_page_shows_the_ladder_its_preview_names(table, players, owner):
    """A preview says nothing the page doesn't: the watch link's ladder is on its page."""
    import html
    import re

    from games.services import ladder
    from tests.factories import make_games

    make_games(table, players, 6, 2)
    ladder.rerate(table)
    token = watch_link_replace(table)
    page = Client().get(reverse("watch_table", args=[token])).content.decode()
    said = tags_of(page)["og:description"]
    shown = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    for place, name, rating in re.findall(r"(\d+)\. (\w+) (\d+)", said):
        assert f"{place}. {name} {rating}" in shown
    assert re.findall(r"(\d+)\. (\w+) (\d+)", said)
    assert "/players/" not in page  # a player's own page is for the table's members


@pytest.mark.tools  # tesseract reads the picture back
@pytest.mark.parametrize(
    ("headers", "note"),
    [({}, "ranked after 5 finished games"), (NB, "rangert etter 5 ferdige spill")],
)
def test_before_anyone_is_ranked_the_ladder_picture_shows_who_is_on_the_way(
    finished, players, headers, note
):
    """A new table's watch link previews its ladder: an empty board said nothing."""
    token = watch_link_replace(finished.table)
    url = reverse("watch_ladder_picture", args=[token])
    said = read(Client().get(url, **headers).content)
    assert note in " ".join(said.split()), said
    for player in players:
        assert re.search(rf"{player.name}\s+1/5\b", said), said
