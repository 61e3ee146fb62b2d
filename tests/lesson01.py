"""Lesson 01's game (notebooks/01_deduction.ipynb): Ann's record, for tests that need a real,
small, well-understood position."""

from __future__ import annotations

from typing import Any

HAND = ["Plum", "Dagger", "Rope", "Kitchen", "Hall", "Study"]
EVENTS = [
    {"suggest": ["Peacock", "Spanner", "Kitchen"], "by": "Bob", "passed": ["Cy"],
     "shown_by": "Ann", "card": "Kitchen"},
    {"suggest": ["Scarlett", "Candlestick", "Lounge"], "by": "Ann", "shown_by": "Bob",
     "card": "Scarlett"},
    {"suggest": ["White", "Rope", "Hall"], "by": "Bob", "shown_by": "Cy"},
    {"suggest": ["Mustard", "Revolver", "Ballroom"], "by": "Ann", "shown_by": "Bob",
     "card": "Revolver"},
    {"suggest": ["Green", "Lead Piping", "Conservatory"], "by": "Cy", "passed": ["Ann"],
     "shown_by": "Bob"},
    {"suggest": ["Peacock", "Spanner", "Library"], "by": "Ann", "shown_by": "Bob",
     "card": "Library"},
    {"suggest": ["Mustard", "Candlestick", "Dining Room"], "by": "Cy", "passed": ["Ann"],
     "shown_by": "Bob"},
    {"suggest": ["Peacock", "Spanner", "Billiard Room"], "by": "Ann", "shown_by": "Bob",
     "card": "Billiard Room"},
]


def ann_record(events: int = len(EVENTS)) -> dict[str, Any]:
    """Ann's record after the first ``events`` events."""
    return {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"],
            "observer": "Ann", "hand": list(HAND), "events": [dict(e) for e in EVENTS[:events]]}
