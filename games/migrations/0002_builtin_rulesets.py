"""The built-in rulesets every table can pick from."""

from django.db import migrations

BLACK_MARIA = dict(
    hearts="one",
    queen_of_spades=13,
    king_of_spades=10,
    ace_of_spades=7,
    jack_of_diamonds=0,
    moon="none",
    target=100,
    deals=None,
    removed=None,
    pass_cards=None,
    pass_direction="right",
)

BUILTIN = [
    dict(BLACK_MARIA, name="Black Maria", notes="Hearts 1 each, Q♠ 13, K♠ 10, A♠ 7: 43 a deal."),
    dict(
        BLACK_MARIA,
        name="Black Maria, moon to the others",
        moon="others",
        notes="Take every heart and Q♠ K♠ A♠: the others add 43 each.",
    ),
    dict(
        BLACK_MARIA,
        name="Black Maria, moon off the shooter",
        moon="self",
        notes="Take every heart and Q♠ K♠ A♠: take 43 off your own score.",
    ),
    dict(
        BLACK_MARIA,
        name="Hearts only",
        king_of_spades=0,
        ace_of_spades=0,
        moon="others",
        target=50,
        pass_direction="cycle",
        notes="Hearts 1 each and Q♠ 13: 26 a deal. Pass left, right, across, hold.",
    ),
    dict(
        BLACK_MARIA,
        name="Spot hearts",
        hearts="spot",
        queen_of_spades=25,
        target=500,
        notes="Hearts count their face value (J 11, Q 12, K 13, A 14), Q♠ 25.",
    ),
    dict(
        BLACK_MARIA,
        name="Omnibus",
        jack_of_diamonds=-10,
        notes="Black Maria with J♦ as a bonus card: 10 off for whoever takes it.",
    ),
]


def create_builtin(apps, schema_editor):
    Ruleset = apps.get_model("games", "Ruleset")
    for settings in BUILTIN:
        Ruleset.objects.update_or_create(
            table=None, name=settings["name"], defaults={k: v for k, v in settings.items()}
        )


def remove_builtin(apps, schema_editor):
    Ruleset = apps.get_model("games", "Ruleset")
    Ruleset.objects.filter(table=None, name__in=[s["name"] for s in BUILTIN]).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_builtin, remove_builtin)]
