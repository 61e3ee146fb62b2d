"""Game records: what one player saw (or what everybody saw), as validated events.

A record is the kit's "PGN" (``docs/records.md``): JSON a person can type at the table, that
games save, and that the knowledge engine reads. Parsing checks everything up front, so a bad
record raises one :class:`~cluedo_lab.rules.errors.RecordError` naming the event by its position
(counted from 1) and the field, and no half-read record exists.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..rules.edition import Card, Edition
from ..rules.errors import RecordError
from ..rules.files import parse_json, read_text
from .events import ENVELOPE, FACE_UP, Accuse, Event
from .parse import read_fields
from .seating import Player, answer_order, neighbour
from .seats import seat_view

if TYPE_CHECKING:
    from ..rules.variant import Variant

__all__ = ["Player", "Record", "parse_record"]


@dataclass(frozen=True, repr=False)
class Record:
    """A validated record. Build one with :meth:`from_dict`, :meth:`from_json` or :meth:`load`.

    >>> record = Record.from_dict({
    ...     "edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"],
    ...     "observer": "Ann", "hand": ["Rope", "Hall", "Plum", "Study", "Dagger", "Kitchen"],
    ...     "events": [{"suggest": ["Green", "Candlestick", "Hall"], "by": "Ann",
    ...                 "passed": ["Bob"], "shown_by": "Cy", "card": "Green"}]})
    >>> record
    <Record cluedo-classic-1949: Ann, Bob, Cy; observer 'Ann'; 1 events>
    >>> record.places                        # where a card can be
    ('Ann', 'Bob', 'Cy', 'envelope')
    >>> record.answer_order("Cy")            # who is asked when Cy suggests
    ('Ann', 'Bob')
    """

    edition: Edition
    players: tuple[Player, ...]
    observer: str | None
    hand: tuple[Card, ...]
    face_up: tuple[Card, ...]
    face_down: tuple[str, ...]
    fugitive: str | None
    events: tuple[Event, ...]
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    escape_plan: tuple[Card, ...] = ()
    """2002 one-against-all, in the fugitive's own record: the solution they chose."""

    # -- places ------------------------------------------------------------------------------
    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def places(self) -> tuple[str, ...]:
        """Every place a card can be: players in seat order, the envelope, then piles."""
        extra = (FACE_UP,) if self.face_up else ()
        return self.player_names + (ENVELOPE,) + extra + self.face_down

    def hand_size(self, name: str) -> int:
        return next(p.hand_size for p in self.players if p.name == name)

    def departed(self) -> tuple[str, ...]:
        """Players out of the game: wrong accusers, when the edition says a wrong accuser
        leaves (``accusation.wrong = "leaves"``); they no longer answer or act."""
        if self.edition.accusation.wrong != "leaves":
            return ()
        return tuple(dict.fromkeys(e.by for e in self.events
                                   if isinstance(e, Accuse) and not e.correct))

    def answer_order(self, asker: str, out: Sequence[str] | None = None) -> tuple[str, ...]:
        """Who is asked, in order: the players after ``asker`` clockwise, leaving out those
        who left the game (``out``, by default :meth:`departed`); in one-against-all the
        fugitive answers only when nobody else can, so last."""
        gone = self.departed() if out is None else out
        return answer_order(self.player_names, asker, gone, self.fugitive)

    def neighbour(self, name: str, side: str, out: Sequence[str] | None = None) -> str:
        """The player on ``name``'s left (next in seat order) or right (previous), among
        those still in the game (see :meth:`departed`)."""
        gone = self.departed() if out is None else out
        return neighbour(self.player_names, name, side, gone)

    # -- editing -----------------------------------------------------------------------------
    def with_events(self, events: Sequence[Mapping[str, Any]]) -> Record:
        """A new record with ``events`` (raw JSON objects) in place of this one's."""
        data = dict(self.source)
        data["events"] = list(events)
        return Record.from_dict(data)

    def public(self) -> Record:
        """What every player saw: no observer, no hand, and no card that was shown or
        looked at in private (an unseen refutation stays "someone showed a card")."""
        data = {k: v for k, v in self.source.items()
                if k not in ("observer", "hand", "escape_plan")}
        data["events"] = [seat_view(raw, None) for raw in self.source.get("events", [])]
        return Record.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(json.dumps(self.source))
        return data

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.source, indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    # -- reading -----------------------------------------------------------------------------
    @classmethod
    def for_variant(cls, variant: Variant, players: Sequence[str] | int | None = None,
                    observer: str | None = None, hand: Sequence[str] = (),
                    events: Sequence[Mapping[str, Any]] = (), **setup: Any) -> Record:
        """A record of ``variant`` (``docs/records.md``) whose ``edition`` is the variant
        itself (``{"base": ..., <options>}``), so the record reads in any session."""
        count = variant.player_count(players if isinstance(players, int) else
                                     None if players is None else len(players))
        names = [f"P{i + 1}" for i in range(count)] if players is None or \
            isinstance(players, int) else list(players)
        data: dict[str, Any] = {"edition": variant.to_dict(), "players": names, **setup,
                                "events": [dict(e) for e in events]}
        if observer is not None:
            data["observer"] = observer
            data["hand"] = list(hand)
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file (UTF-8 JSON, size and nesting checked before parsing)."""
        text = read_text(path, RecordError)     # the path's type is checked first
        return cls.from_json(text, Path(path).name, folder=Path(path).parent)

    @classmethod
    def from_json(cls, text: str, source: str = "record", *,
                  folder: Path | None = None) -> Record:
        return cls.from_dict(parse_json(text, source, RecordError), folder=folder)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], edition: Edition | None = None, *,
                  fresh: bool = False, folder: Path | None = None) -> Record:
        """Parse and validate; the record keeps its own copy, so later changes to ``data``
        do not reach it. ``edition``: the edition ``data`` names, already loaded (a game
        passes its own: reading the edition again costs more than the rest of a parse).
        ``fresh=True`` skips the copy, for data made for this call and not kept (a game's
        ``record_for``): bots and checks parse a record after every event. ``folder``: the
        record file's folder, where an edition file it names by a relative path lies."""
        return parse_record(data if fresh else copy.deepcopy(data), edition, folder)

    def __repr__(self) -> str:
        who = f"observer {self.observer!r}" if self.observer else "public"
        return (f"<Record {self.edition.id}: {', '.join(self.player_names)}; {who}; "
                f"{len(self.events)} events>")

    def __str__(self) -> str:
        """The record as a reader at the table would tell it: who plays, what the observer
        holds, then every event in order."""
        lines = [f"{self.edition.name}: " + ", ".join(
            f"{p.name} ({p.hand_size} cards)" for p in self.players)]
        if self.observer is not None:
            lines.append(f"Seen by {self.observer}, holding "
                         f"{', '.join(c.name for c in self.hand) or 'nothing'}")
        else:
            lines.append("Seen by everybody (public knowledge)")
        if self.face_up:
            lines.append(f"Face up: {', '.join(c.name for c in self.face_up)}")
        if self.fugitive:
            plan = ", ".join(c.name for c in self.escape_plan)
            lines.append(f"{self.fugitive} is the fugitive"
                         + (f" and chose the escape plan {plan}" if plan else ""))
        lines += [event.describe() for event in self.events]
        return "\n".join(lines)


def parse_record(data: Mapping[str, Any], edition: Edition | None = None,
                 folder: Path | None = None) -> Record:
    """``data`` checked and read into a record (``data`` is kept, not copied). ``edition``:
    the edition ``data`` names, already loaded. ``folder``: where the record's file is; an
    edition file it names by a relative path is found there, and must stay inside it."""
    return Record(*read_fields(data, edition, folder))
