"""Kept pages: compressed once, each answer a valid gzip stream with its own token."""

from __future__ import annotations

import gzip
import re
import zlib

import pytest
from django.test import RequestFactory

from games.keptpage import answer, gzip_joined, keep

TOKEN = "T" * 64
PAGES = [
    "<p>no token at all</p>",
    "@@<form>@@</form>@@",  # at the start, between, at the end
    "@@@@",  # side by side, nothing else
    "<p>Blåbær – Kari’s ♠ moon</p>@@" * 3,
    "".join(f"<tr><td>{n}</td><td>@@</td></tr>" for n in range(3000)),  # pieces of any size
    ("x" * 70_000) + "@@" + ("y" * 70_000),
]


@pytest.mark.parametrize("page", PAGES)
def test_the_joined_stream_is_the_page_with_the_token(page):
    pieces, compressed = keep(page, "@@")
    body = gzip_joined(pieces, compressed, TOKEN.encode())
    # gzip checks the CRC and the length in the trailer as well as the stream.
    assert gzip.decompress(body).decode() == page.replace("@@", TOKEN)
    assert zlib.decompress(body, wbits=31) == page.replace("@@", TOKEN).encode()


def test_the_stream_compresses_and_its_header_varies():
    page = ("<tr><td>Alice</td><td>17</td></tr>" * 200 + "@@") * 3
    pieces, compressed = keep(page, "@@")
    bodies = {gzip_joined(pieces, compressed, TOKEN.encode()) for _ in range(20)}
    assert len(bodies) > 1  # a file name of random length in each header
    assert all(len(body) < len(page) / 4 for body in bodies)
    assert all(body[3] & 0x08 for body in bodies)


def test_a_browser_without_gzip_gets_the_plain_page():
    kept = keep("<p>@@</p>", "@@")
    plain = answer(RequestFactory().get("/"), kept, TOKEN)
    assert plain.content == f"<p>{TOKEN}</p>".encode()
    assert "Content-Encoding" not in plain and plain["Vary"] == "Accept-Encoding"
    packed = answer(RequestFactory().get("/", HTTP_ACCEPT_ENCODING="br, gzip"), kept, TOKEN)
    assert packed["Content-Encoding"] == "gzip" and packed["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed.content) == plain.content


def test_a_kept_game_page_arrives_compressed_with_a_fresh_token(client, owner, moon_game):
    client.force_login(owner)
    url = moon_game.get_absolute_url()
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")  # made and kept
    second = client.get(url, HTTP_ACCEPT_ENCODING="gzip")  # from the kept copy
    plain = client.get(url).content.decode()
    tokens = re.compile(r'(?:value=|"X-CSRFToken": )"([A-Za-z0-9]{64})"')
    pages = [gzip.decompress(r.content).decode() for r in (first, second)]
    assert second["Content-Encoding"] == "gzip"
    assert tokens.sub("token", pages[1]) == tokens.sub("token", plain)
    assert len(tokens.findall(pages[1])) >= 3 and "csrf-stand-in" not in pages[1]
    # Each answer masks the token afresh.
    assert tokens.findall(pages[0]) != tokens.findall(pages[1])
