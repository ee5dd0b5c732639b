"""Small template filters for the scorekeeper's pages."""

from django import template

from games.entry import MODE_NAMES
from games.models import builtin_words

register = template.Library()


@register.filter
def mode_name(mode: str) -> str:
    """An entry mode in the person's language: ``counts`` -> "counts" / "antall"."""
    return str(MODE_NAMES.get(mode, mode))


@register.filter
def builtin(text: str) -> str:
    """A built-in ruleset's name or notes in the person's language; a table's own as written."""
    return builtin_words(text)
