"""The password reset page does not tell who has an account by how long it takes."""

from __future__ import annotations

import http.client
import statistics
import time
import urllib.parse

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

RELAY_SECONDS = 0.03  # a mail relay on another machine


class SlowRelay(EmailBackend):
    """The test's outbox, as slow to take a message as a relay elsewhere."""

    def send_messages(self, messages):
        time.sleep(RELAY_SECONDS)
        return super().send_messages(messages)


def ask(live_server, email: str, n: int) -> float:
    """Seconds until the answer is in, as the browser sees it (from an address of its own)."""
    host = urllib.parse.urlsplit(live_server.url)
    connection = http.client.HTTPConnection(host.hostname, host.port, timeout=10)
    connection.request("GET", "/accounts/password/reset/")
    page = connection.getresponse()
    body = page.read().decode()
    cookie = page.getheader("Set-Cookie").split(";")[0]
    token = body.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    data = urllib.parse.urlencode({"email": email, "csrfmiddlewaretoken": token})
    headers = {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": f"192.0.2.{n}",  # the limit is per address: each its own
    }
    started = time.perf_counter()
    connection.request("POST", "/accounts/password/reset/", data, headers)
    answer = connection.getresponse()
    answer.read()
    taken = time.perf_counter() - started
    connection.close()
    assert answer.status == 302, answer.status
    return taken


@pytest.mark.django_db(transaction=True)
def test_a_known_and_an_unknown_address_take_the_same_time(live_server, settings):
    settings.MAILERS = {"default": {"BACKEND": "tests.accounts.test_reset_timing.SlowRelay"}}
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    get_user_model().objects.create_user("ann", "ann@example.com", "a-long-pass-phrase")
    known, unknown = [], []
    for n in range(1, 25):
        known.append(ask(live_server, "ann@example.com", 2 * n))
        unknown.append(ask(live_server, "nobody@example.com", 2 * n + 1))
    for _ in range(50):  # the mail goes once the answer is sent
        if len(mail.outbox) == 24:
            break
        time.sleep(0.1)
    assert len(mail.outbox) == 24 and mail.outbox[0].to == ["ann@example.com"]
    fast, slow = sorted([statistics.median(known), statistics.median(unknown)])
    assert slow <= fast * 1.25, (statistics.median(known), statistics.median(unknown))
