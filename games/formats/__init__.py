"""The history file: JSON format 1 and CSV, written, read and uploaded."""
