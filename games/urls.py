from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games import views
from games.forms import ThrottledSignInForm

FMT = r"\.(?P<fmt>json|csv)$"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("account/export.json", views.account_export, name="account_export"),
    re_path(r"^tables/(?P<pk>\d+)/export" + FMT, views.table_export, name="table_export"),
    re_path(r"^games/(?P<pk>\d+)/export" + FMT, views.game_export, name="game_export"),
    re_path(
        r"^watch/(?P<token>[\w-]+)/export" + FMT, views.watch_game_export, name="watch_game_export"
    ),
    re_path(
        r"^watch/tables/(?P<token>[\w-]+)/games/(?P<pk>\d+)/export" + FMT,
        views.watch_table_game_export,
        name="watch_table_game_export",
    ),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=ThrottledSignInForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.signup, name="signup"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/<int:pk>/", views.table_detail, name="table_detail"),
    path("tables/<int:pk>/players/", views.player_add, name="player_add"),
    path("tables/<int:pk>/ruleset/", views.table_default_ruleset, name="table_default_ruleset"),
    path("tables/<int:pk>/rulesets/new/", views.ruleset_new, name="ruleset_new"),
    path("tables/<int:pk>/rulesets/preview/", views.ruleset_preview, name="ruleset_preview"),
    path("tables/<int:pk>/rulesets/<int:ruleset_pk>/", views.ruleset_edit, name="ruleset_edit"),
    path("tables/<int:pk>/games/new/", views.game_new, name="game_new"),
    path("tables/<int:pk>/settings/", views.table_settings, name="table_settings"),
    path("tables/<int:pk>/history/", views.table_history, name="table_history"),
    path("tables/<int:pk>/stats/", views.table_stats, name="table_stats"),
    path("tables/<int:pk>/import/", views.table_import, name="table_import"),
    path("me/stats/", views.my_stats, name="my_stats"),
    path("games/<int:pk>/note/", views.game_note, name="game_note"),
    path("games/<int:pk>/print/", views.game_print, name="game_print"),
    path("tables/<int:pk>/delete/", views.table_delete, name="table_delete"),
    path("tables/<int:pk>/members/", views.member_new, name="member_new"),
    path(
        "tables/<int:pk>/members/<int:member_pk>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("tables/<int:pk>/invites/", views.invite_new, name="invite_new"),
    path("tables/<int:pk>/watch-link/", views.table_watch_link, name="table_watch_link"),
    path("invites/<str:token>/", views.invite_accept_view, name="invite_accept"),
    path("players/<int:pk>/rename/", views.player_rename, name="player_rename"),
    path("players/<int:pk>/link/", views.player_link, name="player_link"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/deals/check/", views.deal_check, name="deal_check"),
    path("games/<int:pk>/deals/", views.deal_new, name="deal_new"),
    path("games/<int:pk>/deals/queued/", views.deal_queued, name="deal_queued"),
    path("games/<int:pk>/rematch/", views.game_rematch_view, name="game_rematch"),
    path("games/<int:pk>/live/", views.game_live, name="game_live"),
    path("games/<int:pk>/share/", views.game_share, name="game_share"),
    path("games/<int:pk>/watch-link/", views.game_watch_link, name="game_watch_link"),
    path("games/<int:pk>/changes/", views.game_changes, name="game_changes"),
    path("watch/<str:token>/", views.watch_game, name="watch_game"),
    path("watch/<str:token>/live/", views.watch_game_live, name="watch_game_live"),
    path("watch/tables/<str:token>/", views.watch_table, name="watch_table"),
    path(
        "watch/tables/<str:token>/games/<int:pk>/",
        views.watch_table_game,
        name="watch_table_game",
    ),
    path(
        "watch/tables/<str:token>/games/<int:pk>/live/",
        views.watch_table_game_live,
        name="watch_table_game_live",
    ),
    path("deals/<int:pk>/edit/", views.deal_edit_view, name="deal_edit"),
    path("deals/<int:pk>/delete/", views.deal_delete_view, name="deal_delete"),
]
