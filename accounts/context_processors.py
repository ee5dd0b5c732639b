"""What every page needs to know of the person: whether they are a guest."""

from accounts.guests import is_guest


def guest(request):
    return {"is_guest": is_guest(request.user)}
