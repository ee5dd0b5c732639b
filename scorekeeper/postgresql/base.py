"""Django's PostgreSQL backend, checking a kept connection's health only after a pause.

With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` at the start of every
request that uses a kept connection: a tenth of the time of a scoreboard
poll. A connection that finished a request moments ago is known to work, so
the check is kept for connections that sat idle (when a database restart
could have cut them off unseen). A connection that breaks under steady use
fails its request, as without the check, and Django replaces it after.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

# A connection used less than this long ago is not checked again.
CHECK_AFTER_IDLE = 1.0  # seconds


class DatabaseWrapper(base.DatabaseWrapper):
    last_seen: float | None = None

    def close_if_unusable_or_obsolete(self) -> None:
        # Called as each request starts and ends.
        super().close_if_unusable_or_obsolete()
        now, last = time.monotonic(), self.last_seen
        self.last_seen = now
        if self.connection is not None and last is not None and now - last < CHECK_AFTER_IDLE:
            self.health_check_done = True
