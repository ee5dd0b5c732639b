from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

# Which release this is, on every admin page: what a club names when it asks for help.
admin.site.site_header = f"Black Maria scorekeeper {settings.VERSION}"
admin.site.site_title = "Black Maria scorekeeper"

# A value no form could read: the 400 page in the person's words.
handler400 = "scorekeeper.errors.bad_request"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("language/", account_views.language, name="language"),
    path("", include("games.urls")),
]
