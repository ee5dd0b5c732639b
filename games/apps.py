from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Black Maria scores"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext, pgettext

        from games.engine import words
        from games.services import tables  # noqa: F401 (its receiver tells members of a deleted table)

        # The engine's messages in the person's language.
        words.use_translation(gettext, pgettext, ngettext)
