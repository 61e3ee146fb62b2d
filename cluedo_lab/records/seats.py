"""What a seat sees of an event: the one rule for games writing a seat's record and for a
record's public view.

An event as a game writes it may carry private keys (starting with ``_``): ``_seen_by`` lists
who saw its cards, ``_card_for`` maps each viewer to the card they alone saw (All Snoop),
``_secret`` lists keys whose value only ``_seen_by`` saw (a face-down accusation, a private
tip's wording): the others read ``null`` there; ``_public`` marks an event whose cards every
player saw (accusations turned up together: the solution is turned over for all). A record's
own events carry none: whoever is not its observer saw none of their cards.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

PRIVATE_KEYS = ("card", "cards", "from", "envelope")
"""The keys that name a card someone saw, or whose hand it came from."""

_PLAIN = (str, int, bool, type(None))
"""Immutable event values: shared, not copied."""


def _copied(value: Any) -> Any:
    """A copy of an event value: most are names or lists of names, copied cheaply."""
    if type(value) in _PLAIN:
        return value
    if type(value) is list and all(type(v) in _PLAIN for v in value):
        return list(value)
    return copy.deepcopy(value)


def seat_view(event: Mapping[str, Any], observer: str | None) -> dict[str, Any]:
    """``event`` as ``observer`` saw it (``None``: as everybody saw it): the cards shown or
    looked at in private are dropped for everyone who did not see them (an unseen
    refutation stays "someone showed a card"; a shower still knows their own card), and so
    are the private keys."""
    seen_by = event.get("_seen_by", ())
    out = {k: _copied(v) for k, v in event.items() if not k.startswith("_")}
    if "_card_for" in event:
        if observer is not None and observer in event["_card_for"]:
            out["card"] = event["_card_for"][observer]
        return out
    if observer not in seen_by and not event.get("_public"):
        for key in PRIVATE_KEYS:
            out.pop(key, None)
        for key in event.get("_secret", ()):
            out[key] = None
        if "showed" in out:
            out["showed"] = {who: card if who == observer else None
                             for who, card in out["showed"].items()}
    return out
