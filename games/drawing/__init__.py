"""Drawn on the server: the result as a picture (Pillow) and links as QR codes
(segno). What they show is read through ``games/pages/``; the charts' geometry is
the engine's (``games/engine/chart.py``)."""
