"""Installing the app and working offline: manifest, service worker, health."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from games.selectors import server


@require_GET
def alive(request: HttpRequest) -> HttpResponse:
    """The process answers, and nothing more is asked of it: the benchmark's
    trivial view, against which every other figure is a share."""
    return HttpResponse(f"alive {settings.VERSION}", content_type="text/plain")


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For the container's health check and load balancers: the app answers and
    reaches its database, and says which release it is; 503 when the database
    does not answer."""
    if not server.database_answers():
        return HttpResponse("database unreachable", content_type="text/plain", status=503)
    return HttpResponse(f"ok {settings.VERSION}", content_type="text/plain")


THEME_COLOUR = "#0b5d3b"  # the card-table green of the top bar and the icons


PAPER_COLOUR = "#fffdf8"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: "Add to home screen" gives a full-screen app."""
    icons = [
        ("icons/icon-192.png", "192x192", "any"),
        ("icons/icon-512.png", "512x512", "any"),
        ("icons/maskable-512.png", "512x512", "maskable"),
    ]
    data = {
        "id": reverse("home"),
        "name": _("Black Maria scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Scores for Black Maria and Hearts at the card table."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": PAPER_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in icons
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@lru_cache(maxsize=1)
def _service_worker_source() -> bytes:
    # The caches' names from the one setting the page's script reads too (base.html).
    source = (settings.BASE_DIR / "static" / "js" / "sw.js").read_text()
    line = 'const VERSION = "v1";'
    if line not in source:
        raise ImproperlyConfigured(f"static/js/sw.js must name its caches with {line}")
    version = json.dumps(settings.OFFLINE_CACHE_VERSION)
    return source.replace(line, f"const VERSION = {version};").encode()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that it may look after every page."""
    response = HttpResponse(_service_worker_source(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker for a page never opened while online."""
    return render(request, "offline.html")
