# Times at the card table in 24-hour form, as the rest of the app shows them:
# Django's British default ("10 a.m.") ends in a full stop, which doubled up
# at the end of a sentence ("Entered 1 Dec 2026, 10 a.m..").
DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
