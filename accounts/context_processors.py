"""What every page needs to know of the person (whether they are a guest) and of the
server (whether strangers may join)."""

from django.conf import settings

from accounts.guests import is_guest


def guest(request):
    # An error page can be drawn before AuthenticationMiddleware has run (a forged
    # Host is refused first): then nobody is signed in as far as the page knows.
    user = getattr(request, "user", None)
    return {
        "is_guest": user is not None and is_guest(user),
        "signups_open": settings.SIGNUPS_OPEN,
    }
