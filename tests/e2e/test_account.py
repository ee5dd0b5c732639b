"""Your account on a phone: a new password signs the other phone out, a forgotten
one is reset by email, and deleting says what goes first."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from games.models import Table
from tests.e2e.conftest import check_page, follow, sign_in

OLD, NEW, NEWER = "a-long-pass-phrase", "another-long-pass-phrase", "a-third-long-pass-phrase"


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    return context.new_page()


def test_the_password_changed_reset_by_email_and_the_account_deleted(
    browser: Browser, live_server, mailoutbox
):
    user = get_user_model().objects.create_user("ann", "ann@example.com", OLD)
    table = Table.objects.create(name="Friday club", owner=user)
    here, there = phone(browser), phone(browser)
    sign_in(here, live_server)
    sign_in(there, live_server)

    follow(here.get_by_role("link", name="Account"))
    check_page(here, "40-account")
    here.get_by_role("link", name="Change the password").tap()
    here.fill("#id_old_password", OLD)
    here.fill("#id_new_password1", NEW)
    here.fill("#id_new_password2", NEW)
    here.get_by_role("button", name="Change the password").tap()
    expect(here.locator(".messages")).to_contain_text("other phones are signed out")
    there.reload()
    expect(there.get_by_role("heading", name="A scorekeeper for Black Maria")).to_be_visible()

    # Forgotten: a link by email, used once.
    there.goto(live_server.url + "/accounts/login/")
    there.get_by_role("link", name="Forgotten your password?").tap()
    there.fill("#id_email", "ann@example.com")
    there.get_by_role("button", name="Send me the link").tap()
    expect(there.get_by_role("heading", name="Look in your email")).to_be_visible()
    # The mail goes once the answer is sent (so the answer's time tells nothing).
    for _ in range(50):
        if mail.outbox:
            break
        there.wait_for_timeout(100)
    link = re.search(r"https?://\S+/accounts/password/reset/\S+/", mail.outbox[-1].body).group(0)
    there.goto(link)
    there.fill("#id_new_password1", NEWER)
    there.fill("#id_new_password2", NEWER)
    there.get_by_role("button", name="Save the new password").tap()
    expect(there.get_by_role("heading", name="Your password is changed")).to_be_visible()
    there.goto(link)
    expect(there.locator("main")).to_contain_text("has been used already")
    there.goto(live_server.url + "/accounts/login/")
    there.fill("#id_username", "ann")
    there.fill("#id_password", NEW)
    there.locator("main button[type=submit]").tap()
    expect(there.locator(".errors")).to_be_visible()  # the old one no longer works
    there.fill("#id_password", NEWER)
    there.locator("main button[type=submit]").tap()
    expect(there.get_by_role("heading", name="Your tables")).to_be_visible()

    # Deleting: the page says what goes with the account first.
    there.get_by_role("link", name="Account").tap()
    there.get_by_role("link", name="Delete the account…").tap()
    expect(there.locator("main")).to_contain_text("Friday club — 0 games")
    check_page(there, "41-account-delete")
    there.fill("#id_username", "ann")
    there.get_by_role("button", name="Delete my account for good").tap()
    expect(there.get_by_role("heading", name="A scorekeeper for Black Maria")).to_be_visible()
    assert not Table.objects.filter(pk=table.pk).exists()
    assert not get_user_model().objects.filter(username="ann").exists()
    here.context.close()
    there.context.close()
