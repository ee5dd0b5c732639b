"""What the game page hands its script for working without a network.

The phone checks a deal entered offline against the deal total with the
engine's own message templates (so the words are the server's), keeps it, and
sends it when the network is back; the server then judges it as any other.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from games import entry
from games import rules as r
from games.scoreboard import Scoreboard


def offline_config(board: Scoreboard) -> str:
    rules, names = board.rules, board.names
    players = len(names)
    values = r.valued_cards(rules, players)
    config = {
        "names": names,
        "total": board.deal_total,
        "hearts": len(r.hearts_in_pack(rules, players)),
        "values": dict(values),
        "labels": {code: r.card_label(code) for code in values},
        "order": sorted(values, key=r.card_sort_key),
        "specials": list(r.special_cards(rules, players)),
        # What the banner says for the next deals, as numbers move on offline.
        "coming": {
            str(c.number): {
                "heading": c.heading,
                "passes": [[p.giver, p.receiver] for p in c.passes],
            }
            for c in board.coming_after(8)
        },
        "text": {
            # The engine's and the entry form's own words.
            "heartsNotWhole": _(r.HEARTS_NOT_WHOLE),
            "heartsSum": _(r.HEARTS_SUM),
            "nobodyTook": _(r.NOBODY_TOOK),
            "pointsSum": _(r.POINTS_SUM),
            "and": _(r.AND),
            "heartsToEnter": _(entry.HEARTS_TO_ENTER),
            "pointsToEnter": _(entry.POINTS_TO_ENTER),
            "notANumber": _(entry.POINTS_NOT_A_NUMBER),
            "counted": _("{counted} of {total}"),
            "rest": _("the rest: {points}"),
            "enterDeal": _("Enter deal {number}"),
            "saveDeal": _("Save deal {number}"),
            "addsUp": _("Adds up. With no network it is kept on this phone when you save."),
            "offline": _("Offline — last updated {time}"),
            "deal": _("Deal {number}"),
            "waiting": _("waiting to send"),
            "sending": _("sending…"),
            "refused": _("not recorded: {reason}"),
            "conflict": _("entered meanwhile by {by}: which one stands?"),
            "theirs": _("Theirs: {scores}"),
            "yours": _("Yours: {scores}"),
            "keepTheirs": _("Keep theirs"),
            "replace": _("Replace theirs with mine"),
            "next": _("Enter mine as the next deal"),
            "edit": _("Edit"),
            "discard": _("Discard"),
            "signIn": _("Sign in again, then it is sent."),
        },
    }
    return json.dumps(config, ensure_ascii=False, separators=(",", ":"))
