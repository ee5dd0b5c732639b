"""The years kept on paper brought in from a 360 px phone, in Norwegian and dark."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from games.models import Table
from tests.e2e.conftest import check_page, sign_in
from tests.e2e.helpers import phone
from tests.factories import PAPER_NOTEBOOK as NOTEBOOK


def test_a_notebook_s_results_are_previewed_imported_and_shown_result_only(
    browser: Browser, live_server, tmp_path
):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    page = phone(browser, locale="nb-NO", color_scheme="dark")
    sign_in(page, live_server)
    page.goto(f"{live_server.url}/tables/{table.pk}/import/")
    notebook = tmp_path / "notatbok.csv"
    notebook.write_text(NOTEBOOK, encoding="utf-8")
    page.set_input_files('input[type="file"]', str(notebook))
    page.locator("main button[type=submit]").tap()
    expect(page.locator("#preview-h")).to_have_text("Filen har 2 spill")
    expect(page.locator(".preview li").first).to_contain_text(
        "4. desember 2025 · Black Maria · bare resultat"
    )
    check_page(page, "45-paper-preview-nb-dark")
    page.get_by_role("button", name="Importer alt").tap()
    expect(page.get_by_text("Importerte 2 spill")).to_be_visible()
    page.locator(".history-list a").first.tap()
    expect(
        page.get_by_text("Bare resultat: sluttsummene, ført på papir, uten giv.")
    ).to_be_visible()
    check_page(page, "45-paper-game-nb-dark")
    page.context.close()
