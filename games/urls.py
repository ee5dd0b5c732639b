from django.urls import include, path, re_path, register_converter

from games.views import (
    clubnights,
    deals,
    exports,
    games,
    history,
    imports,
    install,
    live,
    pictures,
    players,
    rulesets,
    sharing,
    tables,
)


class TokenConverter:
    """A link token: letters, digits, - and _ (as ``secrets.token_urlsafe`` makes them).

    Anything else (a NUL, a space) is simply not a link: 404.
    """

    regex = r"[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

FMT = r"\.(?P<fmt>json|csv)$"

# Grouped by their first part: Django tries patterns in order, so a request
# for a game's page or poll looks through a dozen patterns, not sixty.
game_urls = [
    path("", games.game_detail, name="game_detail"),
    path("live/", live.game_live, name="game_live"),
    path("deals/", deals.deal_new, name="deal_new"),
    path("deals/queued/", deals.deal_queued, name="deal_queued"),
    re_path(r"^export" + FMT, exports.game_export, name="game_export"),
    path("note/", games.game_note, name="game_note"),
    path("print/", games.game_print, name="game_print"),
    path("rematch/", games.game_rematch_view, name="game_rematch"),
    path("share/", sharing.game_share, name="game_share"),
    path("watch-link/", sharing.game_watch_link, name="game_watch_link"),
    path("changes/", games.game_changes, name="game_changes"),
    path("picture.png", pictures.game_picture_view, name="game_picture"),
    path("delete/", games.game_delete_view, name="game_delete"),
]

watch_table_urls = [
    path("", live.watch_table, name="watch_table"),
    path("picture.png", pictures.watch_ladder_picture, name="watch_ladder_picture"),
    path("games/<int:pk>/", live.watch_table_game, name="watch_table_game"),
    path("games/<int:pk>/live/", live.watch_table_game_live, name="watch_table_game_live"),
    path(
        "games/<int:pk>/picture.png",
        pictures.watch_table_game_picture,
        name="watch_table_game_picture",
    ),
    re_path(
        r"^games/(?P<pk>\d+)/export" + FMT,
        exports.watch_table_game_export,
        name="watch_table_game_export",
    ),
]

watch_urls = [
    path("<token:token>/", live.watch_game, name="watch_game"),
    path("<token:token>/live/", live.watch_game_live, name="watch_game_live"),
    path("<token:token>/picture.png", pictures.watch_game_picture, name="watch_game_picture"),
    re_path(
        r"^(?P<token>[A-Za-z0-9_-]{1,64})/export" + FMT,
        exports.watch_game_export,
        name="watch_game_export",
    ),
    path("tables/<token:token>/", include(watch_table_urls)),
    path("evenings/<token:token>/", clubnights.watch_evening, name="watch_evening"),
    path("evenings/<token:token>/live/", clubnights.watch_evening_live, name="watch_evening_live"),
    path(
        "evenings/<token:token>/picture.png",
        pictures.watch_evening_picture,
        name="watch_evening_picture",
    ),
]

evening_urls = [
    path("", clubnights.evening_detail, name="evening_detail"),
    path("live/", clubnights.evening_live, name="evening_live"),
    path("picture.png", pictures.evening_picture_view, name="evening_picture"),
    path("draw/", clubnights.evening_draw, name="evening_draw"),
    path("round/", clubnights.evening_round, name="evening_round"),
    path("present/", clubnights.evening_present, name="evening_present"),
    path("watch-link/", clubnights.evening_watch_link, name="evening_watch_link"),
    path("delete/", clubnights.evening_delete, name="evening_delete"),
]

table_urls = [
    path("", tables.table_detail, name="table_detail"),
    re_path(r"^export" + FMT, exports.table_export, name="table_export"),
    path("players/", players.player_add, name="player_add"),
    path("ruleset/", tables.table_default_ruleset, name="table_default_ruleset"),
    path("rulesets/new/", rulesets.ruleset_new, name="ruleset_new"),
    path("rulesets/preview/", rulesets.ruleset_preview, name="ruleset_preview"),
    path("rulesets/<int:ruleset_pk>/", rulesets.ruleset_edit, name="ruleset_edit"),
    path("games/new/", games.game_new, name="game_new"),
    path("evenings/new/", clubnights.evening_new, name="evening_new"),
    path("seasons/", tables.season_new, name="season_new"),
    path("seasons/<int:season_pk>/delete/", tables.season_delete, name="season_delete"),
    path("settings/", tables.table_settings, name="table_settings"),
    path("history/", history.table_history, name="table_history"),
    path("stats/", history.table_stats, name="table_stats"),
    path("ladder.png", pictures.ladder_picture_view, name="ladder_picture"),
    path("import/", imports.table_import, name="table_import"),
    path("delete/", tables.table_delete, name="table_delete"),
    path("chances/", tables.table_chances, name="table_chances"),
    path("members/", sharing.member_new, name="member_new"),
    path("members/<int:member_pk>/remove/", sharing.member_remove, name="member_remove"),
    path("invites/", sharing.invite_new, name="invite_new"),
    path("watch-link/", sharing.table_watch_link, name="table_watch_link"),
]

urlpatterns = [
    path("games/<int:pk>/", include(game_urls)),
    path("watch/", include(watch_urls)),
    path("tables/<int:pk>/", include(table_urls)),
    path("evenings/<int:pk>/", include(evening_urls)),
    path("", tables.home, name="home"),
    path("healthz", install.health, name="health"),
    path("livez", install.alive, name="alive"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("offline/", install.offline, name="offline"),
    path("account/export.json", exports.account_export, name="account_export"),
    path("tables/new/", tables.table_new, name="table_new"),
    path("games/new/", games.game_new_first, name="game_new_first"),
    path("me/stats/", history.my_stats, name="my_stats"),
    path("invites/<token:token>/", sharing.invite_accept_view, name="invite_accept"),
    path("players/<int:pk>/", players.player_detail, name="player_detail"),
    path("players/<int:pk>/rename/", players.player_rename, name="player_rename"),
    path("players/<int:pk>/link/", players.player_link, name="player_link"),
    path("deals/<int:pk>/edit/", deals.deal_edit_view, name="deal_edit"),
    path("deals/<int:pk>/delete/", deals.deal_delete_view, name="deal_delete"),
]
