from django.contrib.auth import views as auth_views
from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
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
    path("players/<int:pk>/rename/", views.player_rename, name="player_rename"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("games/<int:pk>/deals/check/", views.deal_check, name="deal_check"),
    path("games/<int:pk>/deals/", views.deal_new, name="deal_new"),
    path("games/<int:pk>/rematch/", views.game_rematch_view, name="game_rematch"),
    path("deals/<int:pk>/edit/", views.deal_edit_view, name="deal_edit"),
    path("deals/<int:pk>/delete/", views.deal_delete_view, name="deal_delete"),
]
