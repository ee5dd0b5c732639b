from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from games import views

FMT = r"\.(?P<fmt>json|csv)$"

# Grouped by their first part: Django tries patterns in order, so a request
# for a game's page or poll looks through a dozen patterns, not sixty.
game_urls = [
    path("", views.game_detail, name="game_detail"),
    path("live/", views.game_live, name="game_live"),
    path("deals/", views.deal_new, name="deal_new"),
    path("deals/check/", views.deal_check, name="deal_check"),
    path("deals/queued/", views.deal_queued, name="deal_queued"),
    re_path(r"^export" + FMT, views.game_export, name="game_export"),
    path("note/", views.game_note, name="game_note"),
    path("print/", views.game_print, name="game_print"),
    path("rematch/", views.game_rematch_view, name="game_rematch"),
    path("share/", views.game_share, name="game_share"),
    path("watch-link/", views.game_watch_link, name="game_watch_link"),
    path("changes/", views.game_changes, name="game_changes"),
]

watch_table_urls = [
    path("", views.watch_table, name="watch_table"),
    path("games/<int:pk>/", views.watch_table_game, name="watch_table_game"),
    path("games/<int:pk>/live/", views.watch_table_game_live, name="watch_table_game_live"),
    re_path(
        r"^games/(?P<pk>\d+)/export" + FMT,
        views.watch_table_game_export,
        name="watch_table_game_export",
    ),
]

watch_urls = [
    path("<str:token>/", views.watch_game, name="watch_game"),
    path("<str:token>/live/", views.watch_game_live, name="watch_game_live"),
    re_path(r"^(?P<token>[\w-]+)/export" + FMT, views.watch_game_export, name="watch_game_export"),
    path("tables/<str:token>/", include(watch_table_urls)),
]

table_urls = [
    path("", views.table_detail, name="table_detail"),
    re_path(r"^export" + FMT, views.table_export, name="table_export"),
    path("players/", views.player_add, name="player_add"),
    path("ruleset/", views.table_default_ruleset, name="table_default_ruleset"),
    path("rulesets/new/", views.ruleset_new, name="ruleset_new"),
    path("rulesets/preview/", views.ruleset_preview, name="ruleset_preview"),
    path("rulesets/<int:ruleset_pk>/", views.ruleset_edit, name="ruleset_edit"),
    path("games/new/", views.game_new, name="game_new"),
    path("settings/", views.table_settings, name="table_settings"),
    path("history/", views.table_history, name="table_history"),
    path("stats/", views.table_stats, name="table_stats"),
    path("import/", views.table_import, name="table_import"),
    path("delete/", views.table_delete, name="table_delete"),
    path("members/", views.member_new, name="member_new"),
    path("members/<int:member_pk>/remove/", views.member_remove, name="member_remove"),
    path("invites/", views.invite_new, name="invite_new"),
    path("watch-link/", views.table_watch_link, name="table_watch_link"),
]

urlpatterns = [
    path("games/<int:pk>/", include(game_urls)),
    path("watch/", include(watch_urls)),
    path("tables/<int:pk>/", include(table_urls)),
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("account/export.json", views.account_export, name="account_export"),
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("language/", views.language, name="language"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("tables/new/", views.table_new, name="table_new"),
    path("me/stats/", views.my_stats, name="my_stats"),
    path("invites/<str:token>/", views.invite_accept_view, name="invite_accept"),
    path("players/<int:pk>/rename/", views.player_rename, name="player_rename"),
    path("players/<int:pk>/link/", views.player_link, name="player_link"),
    path("deals/<int:pk>/edit/", views.deal_edit_view, name="deal_edit"),
    path("deals/<int:pk>/delete/", views.deal_delete_view, name="deal_delete"),
]
