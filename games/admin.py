from __future__ import annotations

from django.contrib import admin

from games.models import Deal, Evening, Game, Player, Ruleset, Seat, Table


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__username"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "table"]
    search_fields = ["name", "table__name"]


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = ["name", "table", "date", "scoring"]
    search_fields = ["name", "table__name"]
    filter_horizontal = ["present"]


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    list_display = ["name", "table", "hearts", "moon", "target", "deals"]
    list_filter = ["hearts", "moon"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["total", "is_winner"]


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ["number", "mode", "entry", "scores", "totals", "moon_seat", "entered_by"]
    # Deals change only through the scoring services, which keep totals right.
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "table", "status", "started_at", "finished_at"]
    list_filter = ["status"]
    readonly_fields = ["rules", "version", "status", "finished_at"]
    inlines = [SeatInline, DealInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["__str__", "mode", "entered_by", "entered_at"]
    readonly_fields = [f.name for f in Deal._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
