"""The app as a club serves it: behind Caddy over HTTPS and HTTP/2 (the `front`
fixture starts deploy/production.py's stack), the phone's address passed on."""

from __future__ import annotations

import re
import subprocess
import sys

import psycopg
import pytest

from deploy.production import ROOT
from tests.deploy.phones import Phone


def rows(front, sql: str) -> list[tuple]:
    with psycopg.connect(front.env["DATABASE_URL"]) as db:
        return db.execute(sql).fetchall()


def test_the_phone_gets_http2_over_tls_with_the_apps_own_headers(front):
    page = Phone(front).get("/")
    assert page.status == 200 and page.version == "2"
    # The app's security headers come through the front untouched.
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["strict-transport-security"].startswith("max-age=31536000")
    assert page.headers["x-frame-options"] == "DENY"
    assert "server" not in page.headers
    # HTTP/3 is offered to the phones that speak it.
    assert page.headers["alt-svc"].startswith('h3=":')
    # The session cookie and CSRF cookie are Secure: Django knows it is HTTPS.
    assert "Secure" in page.headers["set-cookie"]


def test_plain_http_is_sent_to_https(front):
    port = front.env["SCOREKEEPER_HTTP_PORT"]
    done = subprocess.run(
        ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
         f"http://localhost:{port}/"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    code, target = done.stdout.split()
    assert code in ("301", "308") and target.startswith(f"https://localhost:{front.https_port}/")


def test_static_files_come_compressed_and_kept_for_good(front):
    phone = Phone(front)
    page = phone.get("/").text
    css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page).group(1)
    got = phone.get(css, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert got.status == 200 and got.version == "2"
    assert got.headers["content-encoding"] == "gzip"  # collectstatic's own copy
    assert got.headers["cache-control"] == "public, max-age=315360000, immutable"
    assert got.headers["x-content-type-options"] == "nosniff"
    plain = phone.get(css)
    assert len(got.body) < len(plain.body) / 3


def test_pages_come_compressed_whichever_way_the_phone_takes(front):
    phone = Phone(front)
    gzip = phone.get("/", headers={"Accept-Encoding": "gzip"})
    zstd = phone.get("/", headers={"Accept-Encoding": "zstd"})
    assert gzip.headers["content-encoding"] == "gzip"  # by the app, its token masked
    assert zstd.headers["content-encoding"] == "zstd"  # by the front


def test_a_forged_forwarded_for_changes_nothing_and_phones_are_counted_apart(front):
    """Sixty guests a day from one address: from one phone, whatever it claims
    to be; a second phone behind the same front has its own sixty. (The stack is
    the run's: its other tests' phones are cleared first, and 57 of the phone's
    day are taken already.)"""
    with psycopg.connect(front.env["DATABASE_URL"]) as db:
        db.execute("DELETE FROM accounts_addressslot")
        db.execute(
            "INSERT INTO accounts_addressslot (kind, address, slot, taken_at)"
            " SELECT 'guests', '127.0.0.1', n, now() FROM generate_series(0, 56) AS n"
        )
        guests = db.execute("SELECT count(*) FROM accounts_guest").fetchone()[0]
    for n in range(4):
        phone = Phone(front, "127.0.0.1")
        forged = {"X-Forwarded-For": f"198.51.100.{n}", "X-Real-IP": f"198.51.100.{n}"}
        assert phone.post("/accounts/start/", headers=forged).status == 302
    other = Phone(front, "127.0.0.2")
    assert other.post("/accounts/start/").status == 302
    slots = dict(rows(front, "SELECT address, count(*) FROM accounts_addressslot GROUP BY 1"))
    assert slots == {"127.0.0.1": 60, "127.0.0.2": 1}
    assert rows(front, "SELECT count(*) FROM accounts_guest") == [(guests + 4,)]


@pytest.mark.parametrize("protocol", ["--http2", "--http1.1"])
def test_the_front_refuses_a_body_no_page_takes_before_reading_it(front, protocol):
    """A 50 MB POST was read whole by the front (its memory from 39 to 172 MB for
    one request) before the app refused it: a few of those take a Pi down."""
    phone = Phone(front)
    for path in ("/", "/games/1/deals/", "/tables/1/import/"):
        status, sent, _ = phone.send_bytes(path, 50_000_000, protocol=protocol)
        assert status == 413 and sent < 10_000_000, (path, status, sent)
    # Just over each limit: refused; an import's 2 MB file, and a page's few KB, reach
    # the app (which refuses this junk before reading it: a 403, or the front's 503
    # when the app closed the connection under the body being sent).
    assert phone.send_bytes("/games/1/deals/", 300_001, protocol=protocol)[0] == 413
    assert phone.send_bytes("/tables/1/import/", 3_000_001, protocol=protocol)[0] == 413
    assert phone.send_bytes("/tables/1/import/", 2_100_000, protocol=protocol)[0] in (403, 503)
    assert phone.send_bytes("/games/1/deals/", 20_000, protocol=protocol)[0] in (403, 503)


def test_the_front_says_why_it_refused_a_body_in_both_languages(front):
    status, _, said = Phone(front).send_bytes("/tables/1/import/", 3_100_000)
    assert status == 413 and "at most 2 MB" in said and "høyst 2 MB" in said
    status, _, said = Phone(front).send_bytes("/games/1/deals/", 400_000)
    assert status == 413 and "more than any page here takes" in said


def test_django_s_deploy_check_is_clean_with_the_stacks_settings(front):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=front.env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout
