"""The records the lessons share: one copy, read by the notebooks and the tests alike.

Lesson 01 (``notebooks/01_deduction.ipynb``) follows Ann through a three-player game of the
1949 edition, one event at a time; later lessons (the notepad, what to ask) and the tests pick
the same game up after some of those events, so they all read it from here.

>>> record = ann_record(2)
>>> record["hand"], len(record["events"])
(['Plum', 'Dagger', 'Rope', 'Kitchen', 'Hall', 'Study'], 2)
>>> from cluedo_lab.knowledge.engine import Knowledge
>>> Knowledge.from_dict(ann_record(7))
<Knowledge cluedo-classic-1949 for 'Ann': 7 events, 262 consistent deals>
"""

from __future__ import annotations

from typing import Any

__all__ = ["ANN_EVENTS", "ANN_HAND", "ann_record"]

ANN_HAND = ("Plum", "Dagger", "Rope", "Kitchen", "Hall", "Study")
"""Ann's hand in lesson 01."""

ANN_EVENTS: tuple[dict[str, Any], ...] = (
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
)
"""What Ann saw in lesson 01, in order (the lesson adds them one by one)."""


def ann_record(events: int = len(ANN_EVENTS)) -> dict[str, Any]:
    """Ann's record in lesson 01 after its first ``events`` events: a fresh copy each call, so
    a notebook may add to it."""
    return {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"],
            "observer": "Ann", "hand": list(ANN_HAND),
            "events": [{k: list(v) if isinstance(v, list) else v for k, v in e.items()}
                       for e in ANN_EVENTS[:events]]}
