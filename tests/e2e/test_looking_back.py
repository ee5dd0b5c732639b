"""After the game: the chart, the downloads, the statistics and the score sheet."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.conftest import check_page, follow, screenshot
from tests.e2e.helpers import choose_mode, sign_up_and_start, tap_counts, totals


def points_mode(page: Page) -> None:
    current = page.locator('.modes a[aria-current="true"]')
    if current.inner_text() != "Points":
        choose_mode(page, "Points")
        expect(current).to_have_text("Points")


def test_a_finished_game_draws_its_chart_and_downloads(page: Page, live_server, tmp_path):
    sign_up_and_start(page, live_server, "Black Maria, moon to the others", checks=False)
    tap_counts(page, (4, 3), {"QS": 0, "KS": 1, "AS": 1})
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    for _ in range(2):  # Cara shoots twice: Alice and Ben pass 100
        points_mode(page)
        page.locator("#points-input-0").fill("0")
        page.locator("#points-input-1").fill("0")
        page.locator("#points-input-1").press("Tab")
        expect(page.locator("#rest-2")).to_have_text("the rest: 43")
        rows = page.locator(".history tbody tr").count()
        page.get_by_role("button", name="Save deal").tap()
        expect(page.locator(".history tbody tr")).to_have_count(rows + 1)
    expect(page.locator("#winner-h")).to_have_text("★ Cara wins")
    # The final totals by place: Cara first, then Alice and Ben.
    assert totals(page) == ["6", "103", "106"]
    expect(page.locator(".totals .name")).to_have_text(["1. ★ Cara", "2. Alice", "3. Ben"])

    chart = page.locator("figure.chart").first.locator("svg[role=img]")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline.series")).to_have_count(3)
    expect(chart.locator("circle.moon-mark")).to_have_count(2)
    expect(page.locator(".legend li")).to_have_count(4)
    page.locator("figure.chart").first.screenshot(path=str(tmp_path / "chart.png"))
    # Under it, each player's chance of winning over the deals, in the same colours.
    chances = page.locator("figure.chart").nth(1)
    expect(chances).to_contain_text("Each player's chance of winning, deal by deal")
    expect(chances.locator("polyline.series")).to_have_count(3)
    screenshot(page, "40-finished-game-with-chart")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="JSON").tap()
    download = download_info.value
    assert download.suggested_filename.startswith("friday-club-")
    assert download.suggested_filename.endswith(".json")
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert data["games"][0]["winners"] == ["Cara"]
    with page.expect_download() as download_info:
        page.get_by_role("link", name="CSV").tap()
    saved = Path(download_info.value.path()).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(saved)))
    assert rows[0][6:9] == ["Alice points", "Ben points", "Cara points"]
    assert len(rows) == 4

    page.get_by_role("link", name="Score sheet").tap()
    expect(page.get_by_role("heading", name="Friday club")).to_be_visible()
    screenshot(page, "41-score-sheet")
    page.emulate_media(media="print")
    screenshot(page, "42-score-sheet-print")
    page.emulate_media(media="screen")
    page.go_back()

    follow(page.get_by_role("link", name="Friday club").last)
    follow(page.get_by_role("link", name="Statistics"))
    expect(page.locator("table.stats tbody tr")).to_have_count(3)
    check_page(page, "43-statistics")
    follow(page.get_by_role("link", name="Back to Friday club"))
    follow(page.get_by_role("link", name="All games"))
    check_page(page, "44-history")
    follow(page.get_by_role("link", name="Import games…"))
    check_page(page, "45-import")
