"""The builders of what a page shows: scoreboard, entry, the phone's settings, ladder, QR."""
