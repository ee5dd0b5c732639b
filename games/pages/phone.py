"""What a page with a deal entry hands its script (``data-phone``).

The phone checks a deal as it is tapped, online and offline, with the rules
and the message templates the server uses (``static/js/check.js``), so its
words are the server's; the game page's script also keeps a deal entered
offline and sends it when the network is back, where the server judges it as
any other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from django.utils.translation import gettext as _

from games import engine
from games.pages import entry
from games.pages.scoreboard import Scoreboard


def check_config(rules: engine.Rules, names: Sequence[str]) -> dict:
    """Everything the phone's check of an entry needs: the cards, their values, the words."""
    players = len(names)
    values = engine.valued_cards(rules, players)
    hearts = engine.hearts_in_pack(rules, players)
    return {
        "names": list(names),
        "total": engine.deal_total(rules, players),
        "hearts": len(hearts),
        "values": dict(values),
        "cards": {
            code: {
                "label": engine.card_label(code),
                "name": engine.card_name(code),
                "suit": engine.SUIT_NAMES[code[-1]],
            }
            for code in values
        },
        "order": sorted(values, key=engine.card_sort_key),
        "entryOrder": entry.DealEntry.blank("cards", rules, names).cards_to_assign(),
        "specials": list(engine.special_cards(rules, players)),
        "heartValues": sorted((values[c] for c in hearts), reverse=True),
        "spot": rules.hearts == "spot",
        "moon": rules.moon,
        "moonValue": engine.moon_value(rules, players),
        "bonus": engine.bonus_value(rules, players),
        "text": {
            # The engine's and the entry form's own words.
            "heartsNotWhole": _(engine.HEARTS_NOT_WHOLE),
            "heartsSum": _(engine.HEARTS_SUM),
            "pointsSum": _(engine.POINTS_SUM),
            "infeasible": _(engine.INFEASIBLE),
            "infeasibleCards": _(engine.INFEASIBLE_CARDS),
            "moonOthers": _(engine.MOON_OTHERS),
            "moonSelf": _(engine.MOON_SELF),
            "and": _(engine.AND),
            "stillToEnter": _(entry.STILL_TO_ENTER),
            "heartsFor": _(entry.HEARTS_FOR),
            "pointsFor": _(entry.POINTS_FOR),
            "whoTook": _(entry.WHO_TOOK),
            "whoTookCount": [entry.who_took_words(n) for n in range(len(values) + 1)],
            "cardsNamed": entry.CARDS_NAMED,
            "notANumber": _(entry.POINTS_NOT_A_NUMBER),
            "heartsNotANumber": _(entry.HEARTS_NOT_A_NUMBER),
            "counted": _("{counted} of {total}"),
            "rest": _("the rest: {points}"),
            "theRest": _("(the rest)"),
            # Said in the bar beside Save; one for each count (its plural form).
            "restHearts": [entry.rest_hearts_words(n) for n in range(len(hearts) + 1)],
            "restPoints": entry.rest_points_words(),
            "addsUp": _("Adds up:"),
            "addsUpCards": _("Adds up, cards taken:"),
            "takenSoFar": _("Taken so far"),
            "nothingYet": _("nothing yet"),
        },
    }


def page_config(board: Scoreboard, *, offline: bool = True, me=None) -> str:
    """The entry's check, and on the game page what working offline needs: with
    ``me``, the person signed in, whose deals the phone keeps (a phone passed to
    another person sends nothing of theirs)."""
    config = check_config(board.rules, board.names)
    if me is not None:
        config["me"] = {"id": me.pk, "name": me.get_username()}
    if offline:
        config["coming"] = {
            # What the banner says for the next deals, as numbers move on offline.
            str(c.number): {
                "turn": c.turn,
                "passing": c.passing,
                "passes": [[p.giver, p.receiver] for p in c.passes],
            }
            for c in board.coming_after(8)
        }
        config["text"].update(
            {
                "enterDeal": _("Enter deal {number}"),
                "saveDeal": _("Save deal {number}"),
                "keptWhenSaved": _("With no network it is kept on this phone when you save."),
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
                "keptBy": _("kept by {name}: sign in as {name} to send it"),
            }
        )
    return json.dumps(config, ensure_ascii=False, separators=(",", ":"))
