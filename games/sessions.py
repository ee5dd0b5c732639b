"""Sessions kept in the database, as Django's own, read with a prepared query.

Every signed-in request reads its session first; building that one small
query each time cost more than running it.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.prepared import Prepared

_SESSION = Prepared(
    lambda key: Session.objects.filter(session_key=key).values_list("session_data", "expire_date")
)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        row = _SESSION.first(key=key) if key else None
        if row is None or row[1] <= timezone.now():  # unknown, or expired
            self._session_key = None
            return None
        return Session(session_key=key, session_data=row[0], expire_date=row[1])
