"""Signing in and up, playing as a guest and keeping the scores, and the language switch."""

from __future__ import annotations

import logging
from functools import wraps
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView, PasswordChangeView, PasswordResetView
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import guests, throttle
from accounts.forms import DeleteAccountForm, EmailForm, KeepScoresForm, LanguageForm, SignUpForm
from accounts.models import Guest, Preference

logger = logging.getLogger(__name__)


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """Switch the language: kept in a cookie, and with the account when signed in."""
    code, target = LanguageForm(request.POST).chosen()
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    response = HttpResponseRedirect(target)
    if code not in dict(settings.LANGUAGES):
        return response
    if request.user.is_authenticated:
        Preference.objects.update_or_create(user=request.user, defaults={"language": code})
    _remember_language(response, code)
    return response


def _remember_language(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class SignInView(LoginView):
    """Signing in brings back the language the person chose, on any device."""

    def form_valid(self, form):
        response = super().form_valid(form)
        chosen = Preference.objects.filter(user=form.get_user()).values_list("language", flat=True)
        code = chosen.first()
        if code in dict(settings.LANGUAGES):
            _remember_language(response, code)
        return response


class SignOutView(LogoutView):
    """Signing out leaves nothing of the person on the phone: the page's script
    clears the deals it keeps, the half-entered ones and the kept pages (asking
    first about deals still waiting); this answer does it again for a page that
    ran no script, and for an older tab, which could otherwise send them later."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = '"cache", "storage"'
        return response


def while_signups_open(view):
    """A view only while strangers may join (SIGNUPS_OPEN); a private club's is not there."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not settings.SIGNUPS_OPEN:
            raise Http404("sign-ups are closed")
        return view(request, *args, **kwargs)

    return wrapped


@while_signups_open
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not throttle.claim(request, "signups"):
            form.add_error(None, throttle.sign_up_locked())
            return render(request, "registration/signup.html", {"form": form}, status=429)
        user = form.save()
        # The language the account was made in is the account's language.
        Preference.objects.create(user=user, language=get_language())
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, {username}. Start by making a table.").format(username=user.get_username()),
        )
        return redirect("table_new")
    return render(request, "registration/signup.html", {"form": form})


@while_signups_open
@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """ "Start a game" with no account: a guest made behind the scenes, limited as sign-ups."""
    if request.user.is_authenticated:
        return redirect("game_new_first")
    if not throttle.claim(request, "guests"):
        messages.error(request, throttle.sign_up_locked())
        return redirect("home")
    guests.start_guest(request)
    return redirect("game_new_first")  # who plays and the rules; the table comes with it


@login_required
@require_http_methods(["GET", "POST"])
def keep(request: HttpRequest) -> HttpResponse:
    """A guest's scores kept: the account becomes an ordinary one, with everything in it."""
    if not guests.is_guest(request.user):
        return redirect("home")
    form = KeepScoresForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        Guest.objects.filter(user=user).delete()
        update_session_auth_hash(request, user)  # this phone stays signed in
        messages.success(
            request,
            _("Your scores are kept. Sign in as {username} on any phone to find them.").format(
                username=user.get_username()
            ),
        )
        return redirect("home")
    return render(
        request, "registration/keep.html", {"form": form}, status=422 if form.errors else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """Your account: the email, the password, everything to download, deleting it."""
    if guests.is_guest(request.user):
        return redirect("keep")
    form = EmailForm(request.POST if request.method == "POST" else None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your email address is saved."))
        return redirect("account")
    return render(
        request, "registration/account.html", {"form": form}, status=422 if form.errors else 200
    )


class PasswordChange(PasswordChangeView):
    """Django's own: the other phones signed in are signed out (this one stays)."""

    template_name = "registration/password_change.html"
    success_url = reverse_lazy("account")

    def form_valid(self, form):
        messages.success(self.request, _("Your password is changed; other phones are signed out."))
        return super().form_valid(form)


class PasswordReset(PasswordResetView):
    """Django's own, limited per address as sign-ups are: a link by email, for an hour, once."""

    template_name = "registration/password_reset.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request, *args, **kwargs):
        if not throttle.claim(request, "resets"):
            form = self.get_form()
            form.is_valid()
            form.add_error(None, throttle.RESET_LOCKED)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        # Whether the address has an account must not show in how long the
        # answer takes: it is looked up, and the mail sent, once it is sent.
        opts = {
            "use_https": self.request.is_secure(),
            "token_generator": self.token_generator,
            "from_email": self.from_email,
            "email_template_name": self.email_template_name,
            "subject_template_name": self.subject_template_name,
            "request": self.request,
            "html_email_template_name": self.html_email_template_name,
            "extra_email_context": self.extra_email_context,
        }
        return RedirectThen(self.get_success_url(), lambda: form.save(**opts))


class RedirectThen(HttpResponseRedirect):
    """A redirect that does one more thing once it is sent: the WSGI server
    closes a response after writing it to the client."""

    def __init__(self, url: str, then) -> None:
        super().__init__(url)
        self._then = then

    def close(self) -> None:
        try:
            self._then()
        except Exception:
            # The person has their answer already; a relay that failed is logged.
            logger.exception("Sending a password reset mail failed")
        finally:
            super().close()


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    """Deleting the account, after saying what goes with it."""
    user = request.user
    owned = list(
        user.tables.annotate(game_count=Count("games")).prefetch_related("memberships__user")
    )
    for table in owned:
        table.member_names = ", ".join(m.user.get_username() for m in table.memberships.all())
    form = DeleteAccountForm(request.POST if request.method == "POST" else None, user=user)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            logout(request)
            user.delete()  # the tables it owns, their players and games go with it
        messages.success(request, _("Your account and its tables are deleted."))
        return redirect("home")
    context = {"form": form, "tables": owned}
    return render(
        request, "registration/account_delete.html", context, status=422 if form.errors else 200
    )


CSRF_REFUSED = gettext_lazy(
    "This page was opened before you signed in or out (on this phone, perhaps in another "
    "tab), so what you sent was not taken. Nothing was changed."
)


def csrf_refused(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused by Django's CSRF check (CSRF_FAILURE_VIEW), said in the
    person's language with what to do: the page was opened before a sign-in,
    a sign-out or a guest's start changed its key."""
    referer = request.META.get("HTTP_REFERER", "")
    back = reverse("home")
    if url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(referer)
        back = parts.path + (f"?{parts.query}" if parts.query else "")
    return render(request, "csrf_refused.html", {"back": back, "said": CSRF_REFUSED}, status=403)
