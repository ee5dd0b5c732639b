"""Small template filters for the scorekeeper's pages."""

from django import template

from games.forms import MODE_NAMES

register = template.Library()


@register.filter
def mode_name(mode: str) -> str:
    """An entry mode in the person's language: ``counts`` -> "counts" / "antall"."""
    return str(MODE_NAMES.get(mode, mode))
