"""Sessions kept in the database, as Django's own, read together with their account.

Every signed-in request reads its session, then its user: two round trips
to the database, each with a query to build. Here one prepared query reads
the session and the account it was saved with; the sign-in backend
(``games/backends.py``) takes the user from it when it is the session's
user, and Django checks that user against the session as it always does.
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.prepared import Prepared, field_names


def _session(key):
    from games.models import Session

    fields = field_names(get_user_model(), "account__")
    return Session.objects.filter(session_key=key).values_list(
        "session_data", "expire_date", *fields
    )


_SESSION = Prepared(_session)


class SessionStore(db.SessionStore):
    # The stored fields of the account the session was saved with, if any.
    account_row: tuple | None = None

    @classmethod
    def get_model_class(cls):
        from games.models import Session

        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        try:
            session.account_id = get_user_model()._meta.pk.to_python(data.get(SESSION_KEY))
        except ValidationError:
            session.account_id = None
        return session

    def _get_session_from_db(self):
        key = self.session_key
        row = _SESSION.first(key=key) if key else None
        self.account_row = None
        if row is None or row[1] <= timezone.now():  # unknown, or expired
            self._session_key = None
            return None
        if row[2] is not None:
            self.account_row = row[2:]
        return self.model(session_key=key, session_data=row[0], expire_date=row[1])
