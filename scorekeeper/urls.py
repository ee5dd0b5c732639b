from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

# Which release this is, on every admin page: what a club names when it asks for help.
admin.site.site_header = f"Black Maria scorekeeper {settings.VERSION}"
admin.site.site_title = "Black Maria scorekeeper"

# The app's own error pages, in the person's words and language.
handler400 = "scorekeeper.errors.bad_request"
handler403 = "scorekeeper.errors.forbidden"
handler404 = "scorekeeper.errors.not_found"
handler500 = "scorekeeper.errors.server_error"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("language/", account_views.language, name="language"),
    path("", include("games.urls")),
]
