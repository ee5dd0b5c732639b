"""A table's own rulesets: new, edit, and the live preview of their totals."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.access import get_own_ruleset_for_owner, get_ruleset_for_table, get_table_for_owner
from games.forms.games import RulesetBaseForm
from games.forms.rulesets import RulesetForm
from games.models import Ruleset, Table, builtin_words
from games.pages.rules import ruleset_summary
from games.services.rulesets import ruleset_save
from games.views.responses import HtmxHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's own ruleset, starting from another one (``?from=``)."""
    table = get_table_for_owner(request, pk)
    base_id = RulesetBaseForm(request.GET).read()["from"]
    base = Ruleset.black_maria() if base_id is None else get_ruleset_for_table(table, base_id)
    instance = Ruleset(table=table)
    if base is not None:
        for field in RulesetForm.Meta.fields:
            setattr(instance, field, getattr(base, field))
        instance.name = (_("{name} (our rules)") if base.is_builtin else _("{name} (copy)")).format(
            name=builtin_words(base.name)
        )
        # A note written for other settings would contradict these: the table writes its own.
        instance.notes = ""
        instance.pk = None
    form = RulesetForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        ruleset = ruleset_save(ruleset=form.save(commit=False), table=table)
        messages.success(
            request, _("{rules} saved: new games start from it.").format(rules=ruleset.name)
        )
        return redirect("table_settings", table.pk)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: HttpRequest, pk: int, ruleset_pk: int) -> HttpResponse:
    ruleset = get_own_ruleset_for_owner(request, pk, ruleset_pk)
    table = ruleset.table
    form = RulesetForm(request.POST or None, instance=ruleset)
    if request.method == "POST" and form.is_valid():
        ruleset_save(ruleset=form.save(commit=False), table=table)
        messages.success(
            request,
            _("{rules} saved. Games already started keep their rules.").format(rules=ruleset.name),
        )
        return redirect("table_settings", table.pk)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_POST
def ruleset_preview(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The deal total, moon value and warnings for the settings as they stand."""
    table = get_table_for_owner(request, pk)
    form = RulesetForm(request.POST)
    summary = ruleset_summary(form.to_rules()) if form.is_valid() else []
    return render(
        request,
        "games/ruleset_form.html#summary",
        {"table": table, "form": form, "summary": summary, "preview": True},
    )


def _render_ruleset_form(
    request: HttpRequest, table: Table, form: RulesetForm, *, status: int = 200
) -> HttpResponse:
    summary = []
    if form.is_bound and form.is_valid():
        summary = ruleset_summary(form.to_rules())
    elif not form.is_bound:
        summary = ruleset_summary(form.instance.to_rules())
    return render(
        request,
        "games/ruleset_form.html",
        {"table": table, "form": form, "summary": summary},
        status=status,
    )
