"""Small template filters for the scorekeeper's pages."""

from django import template
from django.conf import settings
from django.utils.html import escapejs
from django.utils.translation import gettext_lazy

from games.access import owns
from games.models import builtin_words
from games.pages.entry import MODE_NAMES
from games.selectors.games import board_version, game_etag

register = template.Library()


@register.filter
def mode_name(mode: str) -> str:
    """An entry mode in the person's language: ``counts`` -> "counts" / "antall"."""
    return str(MODE_NAMES.get(mode, mode))


@register.filter
def owned_by(table, user) -> bool:
    """``{% if table|owned_by:user %}``: show what only the table's owner may do."""
    return bool(user) and owns(user, table)


@register.filter
def builtin(text: str) -> str:
    """A built-in ruleset's name or notes in the person's language; a table's own as written."""
    return builtin_words(text)


@register.simple_tag
def qr_code(url: str, label: str):
    """``{% qr_code url label %}``: the link as a QR code to scan from another phone."""
    from games.drawing.qr import qr_svg

    return qr_svg(url, label)


CERTAINTY = {
    "settling": gettext_lazy("still settling"),
    "fair": gettext_lazy("fairly sure"),
    "sure": gettext_lazy("sure"),
}


@register.filter
def certainty_words(key: str) -> str:
    """How sure a rating is, in the person's language (:func:`games.engine.ratings.certainty`)."""
    return str(CERTAINTY.get(key, ""))


@register.simple_tag
def poll_etag(game, readonly: bool = False) -> str:
    """The version of ``game`` a scoreboard shows, sent with its poll (a JSON string's
    inside): a member's goes with the table's chances too."""
    chances = None if readonly else game.table.chances_version
    return escapejs(game_etag(game.pk, board_version(game.version, chances)))


@register.simple_tag
def poll_every() -> str:
    """htmx's trigger for a page that follows a game: every POLL_INTERVAL_MS."""
    ms = settings.POLL_INTERVAL_MS
    return f"every {ms // 1000}s" if ms % 1000 == 0 else f"every {ms}ms"


@register.simple_tag
def kept_retry_ms() -> int:
    """How often the phone tries again to send the deals it keeps."""
    return settings.KEPT_RETRY_MS


@register.simple_tag
def offline_cache_version() -> str:
    """What the phone's caches are named with, by the page's script as by sw.js."""
    return settings.OFFLINE_CACHE_VERSION


@register.filter
def tagged(messages, tag: str):
    """The first message carrying ``tag``, for a page that says it in a place of its own."""
    return next((m for m in messages if tag in m.tags.split()), None)
