import os

# A text value flattened into a str (f"{phrase}", phrase + "…") raises in tests (rules.text).
os.environ.setdefault("TURNKEEPER_STRICT_TEXT", "1")
