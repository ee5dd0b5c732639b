"""A link as a QR code another phone's camera opens: drawn here as SVG, no script."""

from __future__ import annotations

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def qr_svg(url: str, label: str) -> SafeString:
    """``url`` as an inline SVG QR code, dark on white whatever the page's colours.

    segno draws it from ``url`` alone (paths and numbers: nothing of the text is
    written into the markup); ``label`` names it for a screen reader.
    """
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=5, border=4, dark="#000", light="#fff", omitsize=True)
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return mark_safe(f'<div class="qr">{svg}</div>')
