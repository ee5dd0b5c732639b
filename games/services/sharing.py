"""Members, invites and watch links."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.models import Game, Invite, Membership, Table, new_token
from games.services.errors import Refused

INVITE_USED = gettext_noop("This invite link has been used or has expired: ask for a new one.")


def member_add(*, table: Table, user: AbstractBaseUser) -> Membership:
    """Make ``user`` a member of ``table`` (the owner is one already)."""
    if user.pk == table.owner_id:
        raise Refused(
            _("{username} owns {table} already.").format(
                username=user.get_username(), table=table.name
            )
        )
    membership, created = Membership.objects.get_or_create(table=table, user=user)
    if not created:
        raise Refused(
            _("{username} is already a member of {table}.").format(
                username=user.get_username(), table=table.name
            )
        )
    return membership


def invite_create(*, table: Table, by: AbstractBaseUser) -> Invite:
    return Invite.objects.create(table=table, created_by=by)


def invite_accept(*, token: str, user: AbstractBaseUser) -> Table:
    """Use an invite once: the first to open it joins; expired or used links refuse."""
    with transaction.atomic():
        invite = Invite.objects.select_for_update().select_related("table").filter(token=token)
        invite = invite.first()
        if invite is None or not invite.is_usable:
            raise Refused(_(INVITE_USED))
        table = invite.table
        if user.pk != table.owner_id:
            Membership.objects.get_or_create(table=table, user=user)
        invite.used_at = timezone.now()
        invite.used_by = user
        invite.save(update_fields=["used_at", "used_by"])
        return table


def watch_link_replace(obj: Game | Table) -> str:
    """A new read-only link (the old one stops working)."""
    obj.watch_token = new_token()
    obj.save(update_fields=["watch_token"])
    return obj.watch_token


def watch_link_off(obj: Game | Table) -> None:
    obj.watch_token = None
    obj.save(update_fields=["watch_token"])


def membership_delete(*, membership: Membership) -> None:
    """The account no longer finds the table; its players and games stay."""
    membership.delete()
