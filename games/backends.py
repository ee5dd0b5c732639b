"""Django's own sign-in by username and password, with the user read by a prepared query.

Every signed-in request reads its user after its session; building that one
small query each time cost more than running it.
"""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model

from games.prepared import Prepared, field_names, instance


def _user(pk):
    model = get_user_model()
    return model._default_manager.filter(pk=pk).values_list(*field_names(model))


_USER = Prepared(_user)


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        # The id from the session is checked as the user model's primary key.
        row = _USER.first(pk=int(user_id)) if user_id is not None else None
        if row is None:
            return None
        user = instance(get_user_model(), row)
        return user if self.user_can_authenticate(user) else None
