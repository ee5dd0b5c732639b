from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Black Maria scores"

    def ready(self) -> None:
        from django.utils.translation import gettext, pgettext

        from games import rules

        # The engine's messages in the person's language.
        rules.use_translation(gettext, pgettext)
