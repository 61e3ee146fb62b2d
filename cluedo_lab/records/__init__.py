"""Game records: what one player saw, or what everybody saw, as validated events."""

from .events import (
    ENVELOPE,
    FACE_UP,
    Accuse,
    AllSnoop,
    Event,
    PrivateTip,
    Reveal,
    RoomCard,
    Show,
    Snoop,
    Suggest,
    SuperSleuth,
)
from .parse import custom_edition
from .record import Player, Record, parse_record
from .seats import seat_view

__all__ = [
    "ENVELOPE", "FACE_UP", "Accuse", "AllSnoop", "Event", "PrivateTip", "Reveal", "RoomCard",
    "Show", "Snoop", "Suggest", "SuperSleuth", "Player", "Record", "custom_edition",
    "parse_record", "seat_view",
]
