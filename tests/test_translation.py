"""English and Norwegian Bokmål: complete, chosen and remembered, in the card words."""

from __future__ import annotations

import gettext
import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.models import Preference
from games import engine
from games.services.deals import deal_record
from tests.factories import DEAL_1

ROOT = Path(__file__).resolve().parent.parent
# Every language but the one the code is written in has a catalogue: a language
# more is a line in settings.LANGUAGES and its catalogue.
LOCALES = [
    translation.to_locale(code)
    for code, _name in settings.LANGUAGES
    if code != settings.LANGUAGE_CODE
]
CATALOGUES = {locale: ROOT / "locale" / locale / "LC_MESSAGES" for locale in LOCALES}
CATALOGUE = CATALOGUES["nb"]  # Bokmål's words, which the tests below read
NB = {"HTTP_ACCEPT_LANGUAGE": "nb-NO,nb;q=0.9,en;q=0.5"}


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: msgid, msgstr(s), flags, obsolete."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": "", "obsolete": False, "msgstr": []}
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] = line
            elif line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#"):
                continue
            elif m := re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line):
                key = m.group(1)
                if key.startswith("msgstr"):
                    entry["msgstr"].append(m.group(2))
                else:
                    entry[key] = m.group(2)
            elif line.startswith('"') and key:
                if key.startswith("msgstr"):
                    entry["msgstr"][-1] += line[1:-1]
                else:
                    entry[key] += line[1:-1]
        if "msgid" in entry or entry["obsolete"]:
            entries.append(entry)
    return entries


@pytest.fixture
def fresh_catalogues(tmp_path, monkeypatch) -> dict[str, Path]:
    """The strings in the code now, merged into a copy of each committed catalogue.

    makemessages writes the catalogue of the folder the code is in, whatever
    LOCALE_PATHS says: the merge is taken as the copy and the committed file put
    back, so a test run leaves the working tree as it found it."""
    committed = {locale: folder / "django.po" for locale, folder in CATALOGUES.items()}
    kept = {locale: path.read_bytes() for locale, path in committed.items()}
    monkeypatch.chdir(ROOT)
    ignore = ["node_modules/*", "test-output/*", "staticfiles/*", "tests/*", "bench/*", "scripts/*"]
    fresh = {locale: tmp_path / f"{locale}.po" for locale in LOCALES}
    try:
        call_command(
            "makemessages", locale=LOCALES, ignore_patterns=ignore, add_location="file", verbosity=0
        )
        for locale, path in committed.items():
            shutil.copyfile(path, fresh[locale])
    finally:
        for locale, path in committed.items():
            path.write_bytes(kept[locale])
    return fresh


@pytest.mark.tools  # GNU gettext
def test_every_string_in_the_code_has_a_translation_in_every_language(fresh_catalogues):
    for locale, catalogue in fresh_catalogues.items():
        entries = [e for e in po_entries(catalogue) if e.get("msgid")]
        assert len(entries) > 400
        untranslated = [e["msgid"] for e in entries if not all(e["msgstr"])]
        fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
        assert untranslated == [], f"missing in {locale}: " + "; ".join(untranslated[:10])
        assert fuzzy == [], f"unchecked (fuzzy) in {locale}: " + "; ".join(fuzzy[:10])


@pytest.mark.tools  # GNU gettext
def test_each_committed_catalogue_holds_exactly_the_strings_in_the_code(fresh_catalogues):
    def ids(path: Path) -> set[tuple]:
        entries = po_entries(path)
        assert not any(e["obsolete"] for e in entries), "strings no longer used: remove them"
        return {(e.get("msgctxt"), e["msgid"]) for e in entries if e.get("msgid")}

    for locale, catalogue in fresh_catalogues.items():
        assert ids(catalogue) == ids(CATALOGUES[locale] / "django.po"), locale


@pytest.mark.tools  # GNU gettext
@pytest.mark.parametrize("locale", LOCALES)
def test_the_compiled_catalogue_is_in_step_with_the_source(tmp_path, locale):
    compiled, folder = tmp_path / "django.mo", CATALOGUES[locale]
    subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(folder / "django.po")], check=True
    )
    with open(compiled, "rb") as fresh, open(folder / "django.mo", "rb") as committed:
        assert gettext.GNUTranslations(committed)._catalog == (
            gettext.GNUTranslations(fresh)._catalog
        ), "run: make messages"


def test_placeholders_survive_translation():
    names = re.compile(r"\{\w+\}|%\(\w+\)s")
    for entry in po_entries(CATALOGUE / "django.po"):
        if not entry.get("msgid"):
            continue
        wanted = sorted(set(names.findall(entry["msgid"] + entry.get("msgid_plural", ""))))
        for text in entry["msgstr"]:
            assert sorted(set(names.findall(text))) == wanted, entry["msgid"]


def test_every_count_is_said_through_plural_forms():
    """A number of things in a sentence ("1 are here", "after each of 1 games") needs
    the singular too: the count's placeholder only ever stands in a plural entry."""
    counts = re.compile(r"\{(count|deals|games|people|present)\}|%\((count|deals|games)\)s")
    never_one = {  # more than a limit of at least one, or "deal 1 of 1", which reads right
        "The file holds {count} games; at most {most} can be imported at once here. "
        "Import it on the command line, or export fewer games.",
        "the game has {count} deals; a game holds at most {most}",
        "The file holds {count} results; at most {most} can be imported at once here.",
        "Deal {number} of {deals} — {dealer} deals, {leader} leads",
    }
    said_once = [
        entry["msgid"]
        for entry in po_entries(CATALOGUE / "django.po")
        if entry.get("msgid") and counts.search(entry["msgid"]) and "msgid_plural" not in entry
    ]
    assert [said for said in said_once if said not in never_one] == []


def test_a_norwegian_phone_gets_norwegian_and_an_english_one_english(client, db):
    page = client.get(reverse("login"), **NB).content.decode()
    assert '<html lang="nb">' in page
    assert "Logg inn" in page and "Sign in" not in page
    page = Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en-US").content.decode()
    assert '<html lang="en-gb">' in page and "Sign in" in page


@pytest.mark.parametrize("accept", ["no", "nn-NO,en;q=0.5", "no-NO;q=0.9, en;q=0.8", "nn"])
def test_norwegian_and_nynorsk_browsers_get_bokmal(db, accept):
    page = Client().get(reverse("login"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert '<html lang="nb">' in page


def test_the_language_chosen_is_kept_with_the_account(client, owner):
    client.force_login(owner)
    response = client.post(reverse("language"), {"language": "nb", "next": "/tables/new/"})
    assert response.status_code == 302 and response.url == "/tables/new/"
    assert response.cookies["django_language"].value == "nb"
    assert Preference.objects.get(user=owner).language == "nb"
    assert "Nytt bord" in client.get("/tables/new/").content.decode()

    # Another phone, an English browser: signing in brings Norwegian back.
    other = Client(HTTP_ACCEPT_LANGUAGE="en-GB")
    response = other.post(reverse("login"), {"username": "ann", "password": "a-long-pass-phrase"})
    assert response.cookies["django_language"].value == "nb"
    assert "Bordene dine" in other.get(reverse("home")).content.decode()


def test_the_language_switch_refuses_other_sites_and_unknown_languages(client, db):
    response = client.post(reverse("language"), {"language": "xx", "next": "https://evil.example/"})
    assert response.url == reverse("home")
    assert "django_language" not in response.cookies


def test_the_game_speaks_norwegian_card_words(client, owner, moon_game):
    client.force_login(owner)
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    page = re.sub(r"\s+", " ", client.get(moon_game.get_absolute_url(), **NB).content.decode())
    assert "Giv 2 — Ben gir, Cara spiller ut</h2>" in page
    assert "<summary>Send 3 kort til høyre</summary>" in page
    assert "Før inn giv 2" in page
    assert "D♠" in page and "Q♠" not in page  # spar dame
    assert "spar dame" in page  # the card's name for screen readers
    refused = client.post(
        reverse("deal_new", args=[moon_game.pk]),
        {"mode": "counts", "number": "2", "hearts-0": "4", "hearts-1": "3", "hearts-2": "5"},
        HTTP_HX_REQUEST="true",
        **NB,
    ).content.decode()
    assert "Hjerterkortene blir 12, kortstokken har 13" in refused
    # The phone's own check is handed the same words.
    phone = json.loads(html.unescape(re.search(r'data-phone="([^"]*)"', page).group(1)))
    assert phone["text"]["whoTook"] == "hvem som tok {cards}"
    assert phone["cards"]["QS"] == {"label": "D♠", "name": "spar dame", "suit": "spades"}


def test_numbers_dates_and_export_headings_follow_the_language(client, owner, moon_game):
    client.force_login(owner)
    for _ in range(3):
        deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=owner)
    deal_record(game=moon_game, entry=engine.PointsEntry((18, 12, 13)), by=owner)
    stats = client.get(reverse("table_stats", args=[moon_game.table_id]), **NB).content.decode()
    assert ">12,8</td>" in stats  # Ben: 51 in 4 deals, with a decimal comma
    csv = b"".join(
        client.get(reverse("game_export", args=[moon_game.pk, "csv"]), **NB).streaming_content
    ).decode()
    assert csv.splitlines()[0].startswith("spill,bord,kveld,runde,giv,giver,Alice poeng")
    table = client.get(reverse("table_detail", args=[moon_game.table_id]), **NB).content.decode()
    with translation.override("nb"):
        started = date_format(timezone.localtime(moon_game.started_at), "DATE_FORMAT")
    assert re.fullmatch(r"\d+\. [a-zæøå]+ \d{4}", started)  # "30. november 2026"
    assert started in table


@override_settings(LANGUAGE_CODE="en-gb")
def test_the_engine_speaks_english_outside_the_web_app():
    with pytest.raises(engine.InvalidDeal) as refused:
        engine.score_deal(
            engine.Rules(), ["Alice", "Ben", "Cara"], engine.PointsEntry((10, 10, 10))
        )
    assert list(refused.value.problems) == ["points add up to 30, the deal total is 43"]


def test_the_score_sheet_is_in_the_language_and_has_the_switch(client, owner, moon_game):
    client.force_login(owner)
    sheet = client.get(reverse("game_print", args=[moon_game.pk]), **NB).content.decode()
    assert '<html lang="nb">' in sheet
    assert "Poengark" in sheet and "Hjerter 1 hver" in sheet
    assert 'action="/language/"' in sheet.split('<footer class="screen-only">')[1]


def test_a_poll_answered_in_one_language_is_not_kept_for_the_other(client, owner, moon_game):
    client.force_login(owner)
    live = reverse("game_live", args=[moon_game.pk])
    english = client.get(live, HTTP_ACCEPT_LANGUAGE="en-GB")
    assert client.get(live, HTTP_IF_NONE_MATCH=english["ETag"]).status_code == 204
    norwegian = client.get(live, HTTP_IF_NONE_MATCH=english["ETag"], **NB)
    assert norwegian.status_code == 200 and "Giv 1" in norwegian.content.decode()


def test_times_read_as_written_in_both_languages(client, owner, moon_game):
    """ "1 Dec 2026, 20:13." — never "8:13 p.m.." with a doubled full stop."""
    import datetime as dt

    from django.utils import formats, translation

    when = dt.datetime(2026, 12, 1, 20, 13, tzinfo=dt.UTC)
    with translation.override("en-gb"):
        assert formats.date_format(when, "DATETIME_FORMAT") == "1 Dec 2026, 20:13"
    with translation.override("nb"):
        assert formats.date_format(when, "DATETIME_FORMAT") == "1. desember 2026 20:13"
    from games.services.deals import deal_record
    from tests.factories import DEAL_1

    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    client.force_login(owner)
    page = client.get(f"/deals/{deal.pk}/edit/").content.decode()
    assert "m.." not in page and "Entered by ann" in page


def test_the_score_sheet_says_final_only_for_a_finished_game(client, owner, moon_game):
    client.force_login(owner)
    sheet = client.get(f"/games/{moon_game.pk}/print/").content.decode()
    assert "So far" in sheet and "Final" not in sheet
