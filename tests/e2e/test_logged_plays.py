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
