"""The plays logged in BG Stats brought in from a 360 px phone, in Norwegian and dark."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from games.models import Table
from tests.e2e.conftest import check_page, sign_in
from tests.e2e.helpers import phone
from tests.formats.test_logged import FILES


def test_a_bg_stats_export_is_ticked_shown_chosen_and_imported(browser: Browser, live_server):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    page = phone(browser, locale="nb-NO", color_scheme="dark")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/tables/{table.pk}/import/")
    page.set_input_files('input[type="file"]', str(FILES / "bgstats.json"))
    page.locator("main button[type=submit]").tap()
    hearts = page.get_by_label("Hearts · BoardGameGeek 6887 · 4 partier med poeng")
    svarte_maria = page.get_by_label("Svarte Maria · 1 parti med poeng")
    expect(hearts).to_be_checked()
    expect(svarte_maria).to_be_checked()
    expect(
        page.get_by_label("Ticket to Ride · BoardGameGeek 9209 · 1 parti med poeng")
    ).not_to_be_checked()
    expect(page.locator("#preview-h")).to_have_text("Spillene som er krysset av, har 4 partier")
    check_page(page, "46-logged-preview-nb-dark")
    # Svarte Maria is another table's: untick it and see the plays left.
    page.locator("label.option", has_text="Svarte Maria").tap()
    page.get_by_role("button", name="Vis partiene i spillene som er krysset av").tap()
    expect(page.locator("#preview-h")).to_have_text("Spillene som er krysset av, har 3 partier")
    expect(page.get_by_text("BG Stats: Kåre vant. Etter summene: Bjørn.")).to_be_visible()
    check_page(page, "46-logged-choose-nb-dark")
    page.get_by_role("button", name="Utelat 1 parti, importer resten").tap()
    expect(page.get_by_text("Importerte 2 spill til Fredagsklubben.")).to_be_visible()
    assert table.games.filter(result_only=True).count() == 2
    page.context.close()


SEVEN = [
    ("Marie-Louise Kristiansen", "-10"),
    ("Bartholomew Fitzgerald", "26"),
    ("Åsmund Bjørnstad-Kvåle", "31"),
    ("Cecilie Østergaard", "0"),
    ("Henrietta Wolstenholme", "14"),
    ("Jean-Baptiste Lefèvre", "22"),
    ("Siri Tveitereid", "3"),
]


def test_a_play_of_seven_with_long_names_and_negative_totals_fits_a_phone(
    browser: Browser, live_server, tmp_path
):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="The Thursday Omnibus Hearts Society", owner=user)
    players = "".join(
        f'<player name="{name}" score="{score}" win="0" startposition="{seat}"/>'
        for seat, (name, score) in enumerate(SEVEN, start=1)
    )
    log = tmp_path / "plays.xml"
    log.write_text(
        '<plays username="ann" total="1"><play id="9001" date="2025-11-20">'
        '<item name="Omnibus Hearts" objectid="0"/>'
        f"<players>{players}</players></play></plays>",
        encoding="utf-8",
    )
    page = phone(browser)
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/tables/{table.pk}/import/")
    page.set_input_files('input[type="file"]', str(log))
    page.locator("main button[type=submit]").tap()
    expect(page.get_by_label("Omnibus Hearts · 1 play with scores")).to_be_checked()
    expect(page.locator(".preview li").first).to_contain_text("Marie-Louise Kristiansen -10")
    check_page(page, "46-logged-seven-long-names")
    page.get_by_role("button", name="Import 1 play").tap()
    expect(page.get_by_text("Imported 1 game into")).to_be_visible()
    page.context.close()
