"""A whole page kept compressed, with each answer's own CSRF token put in.

Compressing a game page of 60 deals (80 KB) took a third of each answer's
time. A kept page is split where the token goes and each piece compressed
once, as tightly as zlib can (raw deflate, ending on a byte boundary); an
answer joins the pieces with the token between them in uncompressed
("stored") deflate blocks, in a gzip wrapper: a valid gzip stream, built in
microseconds. The token is never
compressed together with the page's text, so its length can't give it away
(BREACH); the gzip header carries a filename of random length, as Django's
own compression does.
"""

from __future__ import annotations

import re
import secrets
import struct
import zlib

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

ACCEPTS_GZIP = re.compile(r"\bgzip\b")
_FNAME = 0x08  # the gzip header flag: a zero-terminated file name follows


def keep(html: str, stand_in: str) -> tuple[list[bytes], list[bytes]]:
    """The page's pieces around ``stand_in``, plain and compressed (cacheable as is)."""
    pieces = [piece.encode() for piece in html.split(stand_in)]
    compressed = []
    for index, piece in enumerate(pieces):
        deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
        ending = zlib.Z_FINISH if index == len(pieces) - 1 else zlib.Z_SYNC_FLUSH
        compressed.append(deflate.compress(piece) + deflate.flush(ending))
    return pieces, compressed


def answer(request: HttpRequest, kept: tuple[list[bytes], list[bytes]], token: str) -> HttpResponse:
    """The kept page with ``token`` in it: gzip if the browser takes it."""
    pieces, compressed = kept
    filling = token.encode()
    if not ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(filling.join(pieces))
    else:
        response = HttpResponse(gzip_joined(pieces, compressed, filling))
        response.headers["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def gzip_joined(pieces: list[bytes], compressed: list[bytes], filling: bytes) -> bytes:
    """A gzip stream of ``filling.join(pieces)`` from the pieces compressed by :func:`keep`."""
    if len(filling) > 0xFFFF:
        raise ValueError("A stored block holds at most 65,535 bytes.")
    # A stored block that is not the last: a header byte (the rest of its bits
    # pad to the byte boundary), the length and its complement, the bytes.
    stored = b"\x00" + struct.pack("<HH", len(filling), len(filling) ^ 0xFFFF) + filling
    body = stored.join(compressed)
    plain = filling.join(pieces)
    filename = secrets.token_hex(1 + secrets.randbelow(50)).encode() + b"\x00"
    header = b"\x1f\x8b\x08" + bytes([_FNAME]) + b"\x00\x00\x00\x00\x00\xff" + filename
    trailer = struct.pack("<II", zlib.crc32(plain), len(plain) & 0xFFFFFFFF)
    return header + body + trailer
