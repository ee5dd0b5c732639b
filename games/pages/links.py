"""Links to hand on: a watch link or an invite, whole, for a QR code or a chat."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse


def absolute_url(request: HttpRequest, name: str, token: str | None) -> str | None:
    return request.build_absolute_uri(reverse(name, args=[token])) if token else None
