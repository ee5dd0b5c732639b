"""The 400 page: a request value no form could read (``BadRequest``, raised with
a message in the person's words) answers this, and changes nothing."""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``. A ``BadRequest`` of ours says what could not be read; any
    other (Django's own suspicions: a forged host, a broken cookie) says only
    that the request was not understood."""
    if type(exception) is BadRequest and exception.args:
        message = str(exception.args[0])
    else:
        message = _("This request could not be understood. Reload the page and try again.")
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"status": "refused", "problems": [message]}, status=400)
    return render(request, "refused.html", {"message": message}, status=400)
