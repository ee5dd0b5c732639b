"""Making an account, and keeping a guest's scores in one."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.guests import PREFIX


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        # An email, if given, is the only way back to a forgotten password.
        fields = ("username", "email")
        labels = {"email": gettext_lazy("Email (optional)")}
        help_texts = {"email": gettext_lazy("Only to send you a link if you forget your password.")}

    def clean_username(self) -> str:
        # Django's own check (in any case) returns nothing for a taken name, and
        # says it in its words: ours says it, and returns the name otherwise.
        username = self.cleaned_data.get("username") or ""
        taken = get_user_model().objects.filter(username__iexact=username)
        if taken.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(
                _("Someone has the username {username} already: choose another.").format(
                    username=username
                )
            )
        if username.lower().startswith(PREFIX):
            # Kept for the accounts "Start a game" makes.
            raise forms.ValidationError(
                _("A username can't start with “{prefix}”.").format(prefix=PREFIX)
            )
        return username


class KeepScoresForm(SignUpForm):
    """A guest's account made an ordinary one: a username, a password, an email if wanted."""


class EmailForm(forms.ModelForm):
    class Meta:
        model = get_user_model()
        fields = ("email",)
        labels = {"email": gettext_lazy("Email, to reset a forgotten password")}


class DeleteAccountForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Type your username to delete the account"))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self) -> str:
        typed = self.cleaned_data["username"].strip()
        if typed != self.user.get_username():
            raise forms.ValidationError(_("That is not your username: nothing was deleted."))
        return typed


class LanguageForm(forms.Form):
    """The language switch at the foot of every page, and the page to go back to.
    A value that can't be read is left out: the switch never answers an error."""

    language = forms.ChoiceField(required=False, choices=settings.LANGUAGES)
    next = forms.CharField(required=False, max_length=2000)

    def chosen(self) -> tuple[str, str]:
        self.is_valid()
        return self.cleaned_data.get("language", ""), self.cleaned_data.get("next", "")
