"""Django's own sign-in by username and password; the user read with the session.

Every signed-in request reads its user after its session. The session store
(``games/sessions.py``) reads the account with the session in one query;
while Django works out who is signed in, :class:`AuthenticationMiddleware`
lends that session to :class:`ModelBackend`, which takes the user from it
if it is the one asked for, and reads it with a prepared query otherwise.
Everything Django checks (the session's hash of the password, an inactive
account) it still checks.
"""

from __future__ import annotations

from contextvars import ContextVar

from django.contrib import auth
from django.contrib.auth import backends, get_user_model
from django.contrib.auth import middleware as auth_middleware
from django.utils.functional import SimpleLazyObject

from games.prepared import Prepared, field_names, instance

# The session being read for who is signed in, only while that is worked out.
_SIGNING_IN = ContextVar("signing_in_session", default=None)


def _user(pk):
    model = get_user_model()
    return model._default_manager.filter(pk=pk).values_list(*field_names(model))


_USER = Prepared(_user)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        if user_id is None:
            return None
        model = get_user_model()
        row = getattr(_SIGNING_IN.get(), "account_row", None)
        pk_at = model._meta.concrete_fields.index(model._meta.pk)
        if row is None or row[pk_at] != user_id:
            row = _USER.first(pk=int(user_id))
        if row is None:
            return None
        user = instance(model, row)
        return user if self.user_can_authenticate(user) else None


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, lending the request's session to the backend while it reads the user."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _signed_in(request))


def _signed_in(request):
    if not hasattr(request, "_cached_user"):
        lent = _SIGNING_IN.set(request.session)
        try:
            request._cached_user = auth.get_user(request)
        finally:
            _SIGNING_IN.reset(lent)
    return request._cached_user
