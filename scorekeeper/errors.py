"""The app's own error pages: 400, 403, 404 and 500, styled, in the person's
language and with a way back. (The CSRF refusal is accounts.views.csrf_refused.)

An error can be met before the middleware has run: a forged ``Host`` is
refused by the first middleware to read it, before the session, the language
or the person are known. Each page here makes do with what the request has.
"""

from __future__ import annotations

import logging

from django.core.exceptions import BadRequest, DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.middleware import as_served

log = logging.getLogger(__name__)


def _their_language(request: HttpRequest) -> str:
    """The language LocaleMiddleware chose, or, if it never ran, the one it would have."""
    if hasattr(request, "LANGUAGE_CODE"):
        return request.LANGUAGE_CODE
    accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    if accept:
        request.META["HTTP_ACCEPT_LANGUAGE"] = as_served(accept)
    return translation.get_language_from_request(request)


def _page(
    request: HttpRequest, status: int, title: str, message: str, *, unchanged: bool = True
) -> HttpResponse:
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"status": "refused", "problems": [message]}, status=status)
    context = {"title": title, "message": message, "unchanged": unchanged}
    return render(request, "error.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``. A ``BadRequest`` of ours says what could not be read; a
    name this server does not answer to (``ALLOWED_HOSTS``) says so; any other of
    Django's suspicions (a broken cookie) says only that it was not understood."""
    with translation.override(_their_language(request)):
        if type(exception) is BadRequest and exception.args:
            return _page(request, 400, _("Not understood"), str(exception.args[0]))
        if isinstance(exception, DisallowedHost):
            message = _(
                "This server does not answer to the name in the address. If it is yours, "
                "add that name to ALLOWED_HOSTS."
            )
            return _page(request, 400, _("Wrong address"), message)
        message = _("This request could not be understood. Reload the page and try again.")
        return _page(request, 400, _("Not understood"), message)


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``."""
    with translation.override(_their_language(request)):
        message = _("You may not do that here.")
        return _page(request, 403, _("Not allowed"), message)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: a page that is not here, or not the person's to see (the
    same words, so an outsider learns nothing of what exists)."""
    with translation.override(_their_language(request)):
        message = _(
            "There is no such page here, or it is not yours to see. If someone sent you "
            "the link, ask them to add you to their table."
        )
        return _page(request, 404, _("Not found"), message, unchanged=False)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the full page when it can be drawn, else the same words
    without the site around them (the database may be what failed)."""
    with translation.override(_their_language(request)):
        message = _(
            "Something went wrong on the server. What you sent may not have been kept: "
            "look again in a moment before sending it once more."
        )
        try:
            return _page(request, 500, _("Something went wrong"), message, unchanged=False)
        except Exception:
            log.exception("The 500 page could not be drawn; its plain copy was sent")
            html = loader.render_to_string("error_plain.html", {"message": message})
            return HttpResponseServerError(html)
