"""Game review: after a game, what one seat knew, when it could have known it, and the best
question it could have asked — the Cluedo counterpart of a chess engine's game review.

A review replays a saved game from its seeded deal, one action at a time, and follows one
seat's record (what that seat saw). At every position it counts the consistent deals exactly
and takes the entropy of the envelope; at each of the seat's own turns it ranks every question
that was legal then by exact expected information gain (one advisor per position, shared by
every question asked about it), and grades the question asked against the best one:

==========  ==========================================================================
best        as good as the best question in the room (or of the card game) then
good        at least 90% of the best one's expected gain
inaccuracy  at least 70%
mistake     at least 40%
blunder     less than that
==========  ==========================================================================

and "could not teach you anything" when every answer to the question was certain before it
was asked. On a board the best question *in the room the piece stood in* sets the grade; the
best in any room the piece could have reached that turn (with that roll, or by a passage) is
given separately, since reaching it may have cost something the review does not weigh.

In the 2002 card game each action card played is graded the same way, by the exact expected
gain of what it could show (:mod:`.action_gains`), against every play of the seat's action
cards legal at that moment: a Snoop or Private Tip on each other player, an All Snoop, a
Super Sleuth, a suggestion asked now from the marker (at its best question), or a marker moved
to each destination (at the best question from there).

The key moments are the first event after which the envelope was certain for the seat, each
turn where a certain accusation could have been made and was not, each accusation with its
exact chance of being right as the seat saw it, and each bluff (naming cards of one's own
hand). Every other seat's moment of certainty is taken from that seat's own record.

A record alone (not a saved game) can be reviewed too: its observer's positions, questions
(graded in the room they were asked in) and accusations; the turns of the others, and what
they saw, are not in it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..games.board_game import BoardGame
from ..games.card_2002 import CardGame2002
from ..games.factory import game_from_json
from ..games.game import Action, Game
from ..knowledge import Knowledge, legal_questions, rank_questions
from ..knowledge import constraints as cons
from ..knowledge.advice import Option, entropy
from ..records import Accuse, AllSnoop, Event, PrivateTip, Record, Snoop, Suggest, SuperSleuth
from ..rules.edition import Edition
from ..rules.errors import CluedoLabError, RecordError, SavedGameError
from ..rules.files import parse_json, read_text
from .action_gains import Choice, action_values
from .learner import MARKS
from .table_session import marks_by_event

__all__ = ["GRADES", "NOTHING_NEW", "AccusationReview", "GameReview", "LearnerSlip",
           "learner_lines",
           "OtherSeat", "Point", "ReviewError", "SeatCurve", "TurnReview", "grade",
           "grade_question", "load_review", "moment_lines", "puzzle_from_review", "review_game",
           "review_record"]

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
NOTHING_NEW = "could not teach you anything"
THRESHOLDS = ((0.9, "good"), (0.7, "inaccuracy"), (0.4, "mistake"))
"""The share of the best question's expected gain a question needs for each grade below best."""
SAME = 1e-9
"""Gains closer than this (bits) are equal: the logarithms are the only floating point."""

Cell = tuple[str, str]


class ReviewError(CluedoLabError, ValueError):
    """What was given cannot be reviewed (not a saved game or record, no such seat)."""


# -- what a review holds ----------------------------------------------------------------------

@dataclass(frozen=True)
class Point:
    """A seat's position after ``event`` events of its record (0: the deal)."""

    event: int
    deals: int | Fraction
    entropy: float
    certain: bool


@dataclass(frozen=True)
class SeatCurve:
    """One seat's positions, event by event, and the first at which the envelope was
    certain for it (None: never)."""

    seat: str
    points: tuple[Point, ...]

    @property
    def certain_from(self) -> int | None:
        return next((p.event for p in self.points if p.certain), None)

    def swings(self, count: int = 3) -> list[tuple[int, float]]:
        """The ``count`` events that lowered the envelope's entropy most: (event, bits)."""
        drops = [(b.event, a.entropy - b.entropy)
                 for a, b in zip(self.points, self.points[1:], strict=False)]
        drops = [d for d in drops if d[1] > SAME]
        return sorted(sorted(drops, key=lambda d: -d[1])[:count])


class OtherSeat:
    """Another seat of the game: when the envelope became certain for it, from its own
    record (found in a few counts: certainty, once reached, stays), how (``how``: an
    accusation told them, or ""), and its curve, counted when first asked for (the positions
    the search for certainty counted are not counted again)."""

    def __init__(self, seat: str, positions: _Positions, how: Callable[[int], str]):
        self.seat = seat
        self._positions = positions
        self.certain_from = positions.certain_from()
        self.how = how(self.certain_from) if self.certain_from else ""
        self._curve: SeatCurve | None = None

    def curve(self) -> SeatCurve:
        if self._curve is None:
            self._curve = self._positions.curve(self.seat)
        return self._curve

    def learned(self, event: int) -> float:
        """Bits of the envelope ``event`` took from this seat's uncertainty (its own record)."""
        before, after = self._positions.point(event - 1), self._positions.point(event)
        return before.entropy - after.entropy

    def __repr__(self) -> str:
        return f"<OtherSeat {self.seat!r}: certain from {self.certain_from}>"


@dataclass(frozen=True)
class TurnReview:
    """One of the seat's own turns. ``event``: the question's index in the seat's record
    (1-based), or for a turn without one the events seen by its end. ``gain`` and
    ``best_gain`` are in bits; ``best`` is the best question legal where the question was
    asked (the room the piece stood in); ``reach_best`` the best in any room the piece could
    have reached that turn (boards only)."""

    turn: int
    event: int
    question: tuple[str, ...] | None
    gain: float | None
    best: tuple[str, ...] | None
    best_gain: float | None
    grade: str | None
    room: str | None = None
    reach_room: str | None = None
    reach_best: tuple[str, ...] | None = None
    reach_gain: float | None = None
    bluff: tuple[str, ...] = ()
    accused: bool = False
    action: str | None = None
    action_event: int | None = None
    action_gain: float | None = None
    best_action: str | None = None
    best_action_gain: float | None = None
    action_grade: str | None = None
    played: Choice | None = None
    best_play: Choice | None = None

    @property
    def reaches_further(self) -> bool:
        """Was a better question than any here within reach that turn?"""
        return self.reach_gain is not None and self.reach_gain > (self.best_gain or 0.0) + SAME

    @property
    def cost(self) -> float:
        """Bits of expected gain given up against the best question where it was asked."""
        if self.gain is None or self.best_gain is None:
            return 0.0
        return max(0.0, self.best_gain - self.gain)


@dataclass(frozen=True)
class AccusationReview:
    """An accusation in the seat's record, with the chance the seat gave it just before
    (None when its cards were face down to the seat)."""

    event: int
    by: str
    cards: tuple[str, ...] | None
    chance: Fraction | None
    correct: bool


@dataclass(frozen=True)
class LearnerSlip:
    """How the learner's marks after ``event`` stood against what was certain then:
    ``missed`` certain cells not marked, ``wrong`` marks the events rule out,
    ``unjustified`` marks the events do not force."""

    event: int
    missed: tuple[Cell, ...]
    wrong: tuple[Cell, ...]
    unjustified: tuple[Cell, ...]


@dataclass
class GameReview:
    """The review of one seat's game (see the module doc)."""

    seat: str
    edition: Edition
    record: Record
    turns: list[TurnReview]
    curve: SeatCurve
    accusations: list[AccusationReview]
    missed: list[tuple[int, int]]
    others: list[OtherSeat] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    learner: list[LearnerSlip] = field(default_factory=list)
    whole_game: bool = True

    @property
    def certain_from(self) -> int | None:
        return self.curve.certain_from

    def name(self, card: str) -> str:
        return self.edition.card(card).name

    def names(self, cards: Iterable[str] | None) -> str:
        return ", ".join(self.name(c) for c in cards) if cards is not None else "face down"

    def first_accusation(self) -> AccusationReview | None:
        return next((a for a in self.accusations if a.by == self.seat), None)

    def told(self, turn: TurnReview) -> dict[str, float]:
        """What the question of ``turn`` taught each other seat about the envelope, in bits
        (from their own records): what a bluff holds back, or fails to."""
        if turn.question is None or not self.others:
            return {}
        return {o.seat: o.learned(turn.event) for o in self.others}

    def curves(self) -> list[SeatCurve]:
        """This seat's curve, then each other seat's (counted on first use)."""
        return [self.curve, *(o.curve() for o in self.others)]

    def worst_turn(self) -> TurnReview | None:
        """The graded turn that gave up the most expected gain (None: nothing given up)."""
        graded = [t for t in self.turns if t.grade in GRADES[1:]]
        return max(graded, key=lambda t: t.cost, default=None)

    # -- output --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``cluedo-lab review --json``). It holds every other seat's curve,
        counted here if not yet (as many counts again per seat as the review's own curve);
        the text leaves them out."""
        return {
            "seat": self.seat,
            "edition": self.edition.id,
            "whole_game": self.whole_game,
            "turns": [_turn_dict(t) for t in self.turns],
            "certain_from": self.certain_from,
            "missed_accusations": [{"turn": t, "event": e} for t, e in self.missed],
            "accusations": [{"event": a.event, "by": a.by,
                             "cards": list(a.cards) if a.cards is not None else None,
                             "chance": _fraction(a.chance), "correct": a.correct}
                            for a in self.accusations],
            "bluffs": [{"event": t.event, "own_cards": list(t.bluff),
                        "cost_bits": _bits(t.cost),
                        "others_learned_bits": {s: _bits(b) for s, b in self.told(t).items()}}
                       for t in self.turns if t.bluff],
            "curve": [_point_dict(p) for p in self.curve.points],
            "swings": [{"event": e, "bits": _bits(b)} for e, b in self.curve.swings()],
            "others": [{"seat": o.seat, "certain_from": o.certain_from, "how": o.how or None,
                        "curve": [_point_dict(p) for p in o.curve().points],
                        "swings": [{"event": e, "bits": _bits(b)}
                                   for e, b in o.curve().swings()]}
                       for o in self.others],
            "learner": [{"event": s.event, "missed": [list(c) for c in s.missed],
                         "wrong": [list(c) for c in s.wrong],
                         "unjustified": [list(c) for c in s.unjustified]}
                        for s in self.learner],
            "notes": list(self.notes),
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def text(self) -> str:
        """The review as plain text (``cluedo-lab review``)."""
        return "\n".join(_text_lines(self))

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return (f"<GameReview {self.edition.id} for {self.seat!r}: {len(self.turns)} turns, "
                f"certain from {self.certain_from}>")


def grade_question(option: Option, best_gain: float) -> str:
    """The grade of a question worth ``option.gain`` where the best was worth ``best_gain``."""
    return grade(option.gain, len(option.outcomes), best_gain)


def grade(gain: float, outcomes: int, best_gain: float) -> str:
    """The grade of a question or an action card worth ``gain`` bits, with ``outcomes``
    possible answers, where the best was worth ``best_gain``."""
    if outcomes <= 1:
        return NOTHING_NEW
    if gain >= best_gain - SAME:
        return "best"
    share = gain / best_gain
    return next((grade for least, grade in THRESHOLDS if share >= least), "blunder")


# -- the replay --------------------------------------------------------------------------------

@dataclass
class _Turn:
    """What the replay saw of one of the seat's turns."""

    number: int
    start: int                          # events before the turn
    end: int = 0                        # events by its end
    question: int | None = None         # the question's index in the record (1-based)
    rooms: dict[str, None] = field(default_factory=dict)    # rooms it could ask in
    accuse_at: int | None = None        # events seen at the latest chance to accuse
    accused: bool = False
    action: str | None = None           # a card game's action card played
    play_at: int | None = None          # events seen when the action card was played
    played: Choice | None = None        # how it was played
    play_event: int | None = None       # the event it made, in the record (1-based)
    choices: dict[Choice, None] = field(default_factory=dict)  # every way it could have


def _replay(game: Game, seat: int) -> list[_Turn]:
    """Replay ``game`` from its deal and note each of ``seat``'s turns."""
    replay = type(game)(game.edition, game.names, game.seed, **game.options)
    turns: list[_Turn] = []
    key = None
    for action in game.history:
        if getattr(replay, "turn", None) == seat:
            now = (seat, getattr(replay, "turn_number", None))
            if now != key or not turns:
                turns.append(_Turn(len(turns) + 1, len(replay.events)))
            key = now
            if action.seat == seat:
                _note_choices(replay, seat, turns[-1])
                if action.kind == "play" and isinstance(replay, CardGame2002):
                    _note_play(replay, seat, action, turns[-1])
        else:
            key = None
        before = len(replay.events)
        replay.apply(action)
        if turns and key is not None:
            turn = turns[-1]
            turn.end = len(replay.events)
            for index, event in enumerate(replay.events[before:], start=before + 1):
                if event.get("by") == game.names[seat]:
                    if "suggest" in event and turn.question is None:
                        turn.question = index
                    if "accuse" in event:
                        turn.accused = True
                    if turn.play_at is not None and turn.play_event is None and \
                            index > turn.play_at and PLAY_EVENTS & set(event):
                        turn.play_event = index
            if action.seat == seat and action.kind == "play" and not _asks(replay, action):
                turn.action = _played(action)
    return turns


PLAY_EVENTS = frozenset({"suggest", "snoop", "all_snoop", "super_sleuth", "private_tip"})
"""The events an action card of the 2002 card game makes."""


def _note_play(game: CardGame2002, seat: int, action: Action, turn: _Turn) -> None:
    """The action card ``seat`` plays now, and every way it could have played one."""
    turn.play_at = len(game.events)
    turn.played = _choice(game, seat, action)
    for legal in game.legal_actions():
        if legal.kind == "play":
            turn.choices.setdefault(_choice(game, seat, legal), None)


def _choice(game: CardGame2002, seat: int, action: Action) -> Choice:
    """A play as the review values it: a suggestion asked now is one alternative whatever
    it names (its question is read from the record), an All Snoop's hand is found later."""
    label = action["card"]
    kind = game.action_kind(label).kind
    if kind == "suggest-current":
        if action.get("destination") is not None:
            return Choice("move", label, destination=action["destination"])
        return Choice("ask", label, destination=game.markers[seat])
    if kind == "suggest-any":
        return Choice("prepare", label, destination=action["destination"])
    return Choice(kind, label, target=action.get("target"))


def _note_choices(game: Game, seat: int, turn: _Turn) -> None:
    """The rooms ``seat`` could ask in from here (boards, and 2002's destinations), and
    whether it could accuse now."""
    legal = game.legal_actions()
    if any(a.kind == "accuse" for a in legal):
        turn.accuse_at = len(game.events)
    for action in legal:
        for room in _rooms_of(game, seat, action):
            turn.rooms.setdefault(room, None)


def _rooms_of(game: Game, seat: int, action: Action) -> tuple[str, ...]:
    if isinstance(game, BoardGame):
        if action.kind in ("move", "passage") and isinstance(action.get("to"), str):
            return (action["to"],)
        here = game.room_of(seat)
        if action.kind == "suggest" and here is not None:
            return (here,)
        if action.kind == "stay" and here is not None and game.may_suggest_staying(seat):
            return (here,)
    # In the 2002 card game a turn asks at the marker's place first, then plays a card: a
    # card that moves the marker moves it for the next turn's question, not this one's.
    return ()


def _asks(game: Game, action: Action) -> bool:
    """Is ``action`` a 2002 card that asks a question now (the question is graded itself)?"""
    return isinstance(game, CardGame2002) and \
        game.action_kind(action["card"]).kind == "suggest-current" and "cards" in dict(action.args)


def _played(action: Action) -> str:
    """A card game's action as a reader would say it: the card, then whom or where."""
    details = ", ".join(f"{k} {v}" for k, v in action.args if k in ("target", "destination"))
    return f"{action.get('card')}" + (f" ({details})" if details else "")


# -- positions ---------------------------------------------------------------------------------

class _Positions:
    """A seat's record cut after each number of events, each position counted at most once.

    A position's point (deals, entropy, certainty) and its certain cells are kept; its
    :class:`Knowledge` only while asked for with :meth:`at` (the questions ranked there need
    it). An event whose every constraint already holds in every deal that fits the events
    before it (a player who passes on cards known not to be theirs, a card shown that was
    known to be there) rules no deal out: the point after it is the point before it, read
    without a count. On a long record about half the events are such."""

    def __init__(self, data: Mapping[str, Any], edition: Edition):
        self.data = dict(data)
        self.events = list(data.get("events", []))
        self.edition = edition
        self.cache: dict[int, Knowledge] = {}
        self.points: dict[int, Point] = {}
        self.known: dict[int, Mapping[Cell, bool]] = {}
        self._record: Record | None = None

    def __len__(self) -> int:
        return len(self.events)

    @property
    def record(self) -> Record:
        """The whole record."""
        if self._record is None:
            self._record = self.at(len(self)).record if len(self) in self.cache else \
                Record.from_dict(self.data, edition=self.edition)
        return self._record

    def at(self, count: int) -> Knowledge:
        if count not in self.cache:
            record = Record.from_dict({**self.data, "events": self.events[:count]},
                                      edition=self.edition)
            self.cache[count] = Knowledge(record)
        return self.cache[count]

    def point(self, count: int, keep: bool = False) -> Point:
        """The position after ``count`` events; its Knowledge stays cached if ``keep`` (or
        if it was already)."""
        if count not in self.points:
            if count - 1 in self.known and self._rules_nothing_out(count):
                self.points[count] = replace(self.points[count - 1], event=count)
                self.known[count] = self.known[count - 1]
            else:
                self._count(count, keep or count in self.cache)
        return self.points[count]

    def _count(self, count: int, keep: bool) -> None:
        k = self.at(count)
        envelopes = k.envelope_distribution()
        self.points[count] = Point(count, k.consistent_deals, entropy(envelopes.values()),
                                   len(envelopes) == 1)
        self.known[count] = k.known()
        if not keep:
            del self.cache[count]

    def _rules_nothing_out(self, count: int) -> bool:
        """Does event ``count`` hold in every deal that fits the events before it?"""
        known = self.known[count - 1]
        record = self.record
        return all(_holds(known, c)
                   for c in cons.event_constraints(record, record.events[count - 1]))

    def certain(self, count: int) -> bool:
        return self.point(count).certain

    def certain_from(self) -> int | None:
        """The fewest events after which the envelope is certain (None: never). Events only
        ever rule deals out, so certainty once reached stays: steps back from the end, each
        twice the last, find a position where it is not yet certain, then bisection. Most
        seats become certain near the end if at all, where positions with few deals left
        are quick to count, and the first step back often settles it."""
        high = len(self)
        if not self.certain(high):
            return None
        step, low = 1, 0
        while high > 0:
            probe = max(0, high - step)
            if not self.certain(probe):
                low = probe + 1
                break
            high, step = probe, 2 * step
        while low < high:
            middle = (low + high) // 2
            if self.certain(middle):
                high = middle
            else:
                low = middle + 1
        return low

    def curve(self, seat: str, keep: Callable[[int], bool] = lambda n: False) -> SeatCurve:
        """Every position's point; the Knowledge of the counts ``keep`` names stays cached."""
        return SeatCurve(seat, tuple(self.point(count, keep(count))
                                     for count in range(len(self) + 1)))


def _holds(known: Mapping[Cell, bool], constraint: cons.Constraint) -> bool:
    """Does ``constraint`` hold in every deal where the ``known`` cells are as they are?
    (Only the uniform model's kinds: a refuter's choice weighs deals, it never holds.)"""
    kind, place, cards = constraint.kind, constraint.place, constraint.cards
    if kind == cons.HOLDS:
        return all(known.get((c, place)) is True for c in cards)
    if kind == cons.LACKS:
        return all(known.get((c, place)) is False for c in cards)
    if kind == cons.HOLDS_ONE_OF:
        return any(known.get((c, place)) is True for c in cards)
    if kind == cons.NOT_ALL:
        return any(known.get((c, place)) is False for c in cards)
    return False


# -- reviewing ---------------------------------------------------------------------------------

def review_game(game: Game, seat: str | int,
                marks: Mapping[int, Mapping[Cell, str]] | None = None) -> GameReview:
    """The review of ``seat`` (a name or a seat number) in ``game``, played or loaded.
    ``marks``: the learner's notepad after some events ({event: {(card, place): "holds",
    "lacks" or "maybe"}}), if the table kept them."""
    index = _seat_index(game.names, seat)
    name = game.names[index]
    turns = _replay(game, index)
    positions = _Positions(game.record_for(index), game.edition)
    record = positions.record
    needed = _needed(turns, record)
    curve = positions.curve(name, needed.__contains__)
    reviewed = [_review_turn(turn, positions, record, name) for turn in turns]
    others = [OtherSeat(game.names[s], _Positions(game.record_for(s), game.edition),
                        _told(game.names[s], game.events))
              for s in range(len(game.names)) if s != index]
    return GameReview(name, game.edition, record, reviewed, curve,
                      _accusations(positions, record), _missed(turns, curve), others,
                      [], _learner(positions, marks))


def review_record(record: Record, seat: str | None = None,
                  marks: Mapping[int, Mapping[Cell, str]] | None = None) -> GameReview:
    """The review of what a record holds: its observer's positions, the questions they asked
    (graded in the room they were asked in), their Snoops and the accusations. The others'
    turns are not in a record, so neither is when they could have known."""
    observer = record.observer
    if observer is None:
        raise ReviewError("this record is public (it has no observer): review a seat's "
                          "record or a saved game")
    if seat is not None and seat != observer:
        raise ReviewError(f"this record is {observer}'s; it holds nothing of {seat}'s turns")
    positions = _Positions(record.to_dict(), record.edition)
    turns = [_record_turn(n, e, record)
             for n, e in enumerate((e for e in record.events
                                    if isinstance(e, (Suggest, *ACTION_EVENTS))
                                    and e.by == observer), start=1)]
    needed = _needed(turns, record)
    curve = positions.curve(observer, needed.__contains__)
    reviewed = [_review_turn(turn, positions, record, observer) for turn in turns]
    notes = ["a record, not a saved game: the turns of the others are not known, nor "
             "when they could have known the solution; turns without a question, rooms "
             "within reach and missed accusations are not known either"]
    return GameReview(observer, record.edition, record, reviewed, curve,
                      _accusations(positions, record), [], [], notes,
                      _learner(positions, marks), whole_game=False)


def _record_turn(number: int, event: Event, record: Record) -> _Turn:
    """A turn of the observer's as its record shows it: one question, or one action card
    (graded against playing the same card on any other player still in the game then)."""
    if isinstance(event, Suggest):
        return _Turn(number, event.position - 1, event.position, event.position)
    played = _event_choice(event, record.edition)
    turn = _Turn(number, event.position - 1, event.position, play_at=event.position - 1,
                 played=played, play_event=event.position)
    if played.target is not None and played.kind != "all-snoop":
        leaves = record.edition.accusation.wrong == "leaves"
        gone = {e.by for e in record.events[:event.position]
                if leaves and isinstance(e, Accuse) and not e.correct}
        turn.choices = {replace(played, target=p): None for p in record.player_names
                        if p != record.observer and p not in gone}
    return turn


ACTION_EVENTS = (Snoop, AllSnoop, SuperSleuth, PrivateTip)


def _event_choice(event: Event, edition: Edition) -> Choice:
    """The action card an event of the observer's own shows them playing."""
    def label(**wanted: Any) -> str:
        found = next((k for k in edition.actions
                      if all(getattr(k, f) == v for f, v in wanted.items())), None)
        if found is None:
            raise ReviewError(f"event {event.position}: {edition.id} has no such action card")
        return found.label()
    if isinstance(event, Snoop):
        return Choice("snoop", label(kind="snoop"), target=event.target)
    if isinstance(event, AllSnoop):
        return Choice("all-snoop", label(kind="all-snoop", direction=event.direction),
                      target=event.seen_from)
    if isinstance(event, SuperSleuth):
        return Choice("super-sleuth", label(kind="super-sleuth", feature=event.feature,
                                            value=event.value))
    assert isinstance(event, PrivateTip)
    spec = {"category": event.category} if event.all else \
        {"feature": event.feature, "value": event.value}
    return Choice("private-tip", label(kind="private-tip", all=event.all, **spec),
                  target=event.to)


def _seat_index(names: Sequence[str], seat: str | int) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool):
        if 0 <= seat < len(names):
            return seat
    elif isinstance(seat, str) and seat in names:
        return list(names).index(seat)
    raise ReviewError(f"no seat {seat!r}; the players are {', '.join(names)}")


def _needed(turns: Sequence[_Turn], record: Record) -> set[int]:
    """The positions whose Knowledge is looked at again after the curve: before each
    question, at the end of each turn without one, and before each accusation."""
    out = {_position(t) for t in turns} | {t.play_at for t in turns if t.play_at is not None}
    return out | {e.position - 1 for e in record.events if isinstance(e, Accuse)}


def _position(turn: _Turn) -> int:
    """The events seen when the turn's question was chosen, else by the turn's end."""
    return turn.question - 1 if turn.question else turn.end


def _review_turn(turn: _Turn, positions: _Positions, record: Record, seat: str) -> TurnReview:
    review = _review_question(turn, positions, record, seat)
    if turn.play_at is None or turn.played is None:
        return review
    return _review_play(review, turn, positions.at(turn.play_at), record, seat)


def _review_question(turn: _Turn, positions: _Positions, record: Record, seat: str
                     ) -> TurnReview:
    at = _position(turn)
    k = positions.at(at)
    asked = record.events[turn.question - 1] if turn.question else None
    named = tuple(c.id for c in asked.named) if isinstance(asked, Suggest) else None
    here = _room_of(record.edition, named)
    rooms = [r for r in turn.rooms if r != here]
    if named is None and not rooms:
        return TurnReview(turn.number, at, None, None, None, None, None,
                          accused=turn.accused, action=turn.action)
    pinned = _pins(record.edition, named)
    sets = {here: legal_questions(k, pinned) if named is not None else []}
    sets.update({room: legal_questions(k, [room]) for room in rooms})
    questions = [q for qs in sets.values() for q in qs]
    if named is not None and not any(set(q) == set(named) for q in questions):
        questions.append(named)
    # One ranking, so one advisor for the position: questions of the same kind are valued once.
    options = {frozenset(o.named): o for o in rank_questions(k, seat, questions=questions)}
    best_of = {room: max((options[frozenset(q)] for q in qs), key=lambda o: o.gain)
               for room, qs in sets.items() if qs}
    reach = max(((r, best_of[r]) for r in rooms if r in best_of),
                key=lambda ro: ro[1].gain, default=None)
    if named is None:
        return TurnReview(turn.number, at, None, None, None, None, None,
                          reach_room=reach[0] if reach else None,
                          reach_best=reach[1].named if reach else None,
                          reach_gain=reach[1].gain if reach else None,
                          accused=turn.accused, action=turn.action)
    mine = options[frozenset(named)]
    best = best_of.get(here, mine)
    hand = {c.id for c in record.hand}
    return TurnReview(turn.number, turn.question or at, named, mine.gain, best.named,
                      best.gain, grade_question(mine, best.gain), here,
                      reach[0] if reach else None, reach[1].named if reach else None,
                      reach[1].gain if reach else None,
                      tuple(c for c in named if c in hand), turn.accused, turn.action)


def _review_play(review: TurnReview, turn: _Turn, k: Knowledge, record: Record, seat: str
                 ) -> TurnReview:
    """``review`` with the turn's action card graded by its exact expected gain against
    every way the seat could have played one of its action cards then."""
    played = turn.played
    assert played is not None
    if played.kind == "ask" and turn.play_event is not None:
        asked = record.events[turn.play_event - 1]
        if isinstance(asked, Suggest):
            played = replace(played, question=tuple(c.id for c in asked.named))
    values = action_values(k, seat, [played, *turn.choices])
    mine = values[played]
    best = max(values.values(), key=lambda v: v.gain)
    if best.gain <= mine.gain + SAME:
        best = mine
    names = {c.id: c.name for c in record.edition.cards}
    return replace(review, action=mine.choice.text(names),
                   action_event=turn.play_event or turn.play_at, action_gain=mine.gain,
                   best_action=best.choice.text(names), best_action_gain=best.gain,
                   action_grade=grade(mine.gain, mine.outcomes, best.gain),
                   played=mine.choice, best_play=best.choice)


def _room_of(edition: Edition, named: tuple[str, ...] | None) -> str | None:
    """The room (or 2002 destination) a question was asked in: its card of the last
    category, when questions on this edition are asked in a place."""
    if named is None or not _asks_in_a_place(edition):
        return None
    last = edition.categories[-1].id
    return next((c for c in named if edition.card(c).category == last), None)


def _asks_in_a_place(edition: Edition) -> bool:
    return edition.family == "board" or bool(edition.actions)


def _pins(edition: Edition, named: tuple[str, ...] | None) -> list[str]:
    room = _room_of(edition, named)
    return [room] if room is not None else []


def _accusations(positions: _Positions, record: Record) -> list[AccusationReview]:
    out = []
    order = {c.id: i for i, c in enumerate(record.edition.cards)}
    for event in record.events:
        if not isinstance(event, Accuse):
            continue
        cards = tuple(sorted((c.id for c in event.named), key=order.__getitem__)) \
            if event.named else None
        chance = None
        if cards is not None:
            envelopes = positions.at(event.position - 1).envelope_distribution()
            chance = envelopes.get(cards, Fraction(0))
        out.append(AccusationReview(event.position, event.by, cards, chance, event.correct))
    return out


def _told(seat: str, events: Sequence[Mapping[str, Any]]) -> Callable[[int], str]:
    """How ``seat`` came to know after a given number of ``events`` (see :func:`_how`)."""
    return lambda when: _how(seat, events[when - 1])


def _how(seat: str, event: Mapping[str, Any]) -> str:
    """How ``seat`` came to know at ``event``, when an accusation told them ("" if not)."""
    if "accuse" not in event:
        return ""
    return "by their own accusation" if event.get("by") == seat else \
        f"only from {event.get('by')}'s accusation"


def _missed(turns: Sequence[_Turn], curve: SeatCurve) -> list[tuple[int, int]]:
    """(turn, events seen) of each turn whose last chance to accuse came with the envelope
    certain, and no accusation."""
    certain = curve.certain_from
    return [(t.number, t.accuse_at) for t in turns
            if certain is not None and t.accuse_at is not None and t.accuse_at >= certain
            and not t.accused]


def _learner(positions: _Positions, marks: Mapping[int, Mapping[Cell, str]] | None
             ) -> list[LearnerSlip]:
    out = []
    for event, page in sorted((marks or {}).items()):
        if not 0 <= event <= len(positions):
            raise ReviewError(f"learner marks after event {event}: the record has "
                              f"{len(positions)} events")
        positions.point(event)
        known = positions.known[event]
        said = {cell: mark == "holds" for cell, mark in page.items() if mark != "maybe"}
        wrong = sorted(c for c, v in said.items() if c in known and known[c] != v)
        missed = sorted(c for c, v in known.items() if said.get(c) != v and c not in wrong)
        unjustified = sorted(c for c in said if c not in known)
        out.append(LearnerSlip(event, tuple(missed), tuple(wrong), tuple(unjustified)))
    return out


# -- a puzzle from a key moment ----------------------------------------------------------------

def puzzle_from_review(review: GameReview, event: int | None = None) -> Any:
    """A puzzle set at a key moment of ``review``: at the turn whose question gave up most
    against the best one there ("which would you ask?"), or, if every question was the best,
    at the first event after which the envelope was certain ("which card is in it?").
    ``event`` picks the moment: a question of the seat's, or a position where the envelope
    was certain for it."""
    from ..rules.variant import edition_ref
    from .puzzle_kinds import moment_puzzle
    from .puzzles import PuzzleError

    turn = review.worst_turn() if event is None else \
        next((t for t in review.turns if t.question and t.event == event), None)
    if event is None and turn is None:
        event = review.certain_from
        if event is None:
            raise PuzzleError("no key moment in this review: every question was the best "
                              "there and the envelope never became certain")
    data = review.record.to_dict()
    data["edition"] = edition_ref(review.edition)
    if turn is not None:
        assert turn.question is not None
        data["events"] = data["events"][:turn.event - 1]
        return moment_puzzle(data, review.edition, turn.question, turn.room)
    assert event is not None
    if not 0 <= event <= len(review.record.events):
        raise PuzzleError(f"event {event}: the record has {len(review.record.events)} events")
    told = review.record.events[event - 1] if event else None
    if isinstance(told, Accuse):
        raise PuzzleError(f"event {event} is an accusation that showed the envelope: no "
                          "puzzle in reading it off")
    data["events"] = data["events"][:event]
    return moment_puzzle(data, review.edition)


# -- loading -----------------------------------------------------------------------------------

def load_review(path: str | Path, seat: str | None = None,
                marks: Mapping[int, Mapping[Cell, str]] | None = None) -> GameReview:
    """Review the file at ``path``: a saved game (``seat`` needed) or a seat's record. Any
    problem raises :class:`ReviewError` (or the kit's own error) with a one-line message."""
    name = Path(path).name
    text = read_text(path, SavedGameError)
    data = parse_json(text, name, SavedGameError)
    if isinstance(data, dict) and "actions" in data:
        if seat is None:
            players = data.get("players")
            hint = f": one of {', '.join(map(str, players))}" \
                if isinstance(players, list) else ""
            raise ReviewError(f"{name} is a saved game: say whose game to review with "
                              f"--seat NAME{hint}")
        game = game_from_json(text, name)
        kept = _saved_marks(data.get("marks"), game, name)
        if marks is None and kept is not None and kept[0] == seat:
            marks = kept[1]
        return review_game(game, seat, marks)
    if isinstance(data, dict) and "events" in data:
        try:
            record = Record.from_dict(data)
        except RecordError as error:
            raise ReviewError(f"{name} is neither a saved game nor a record: "
                              f"{_one_line(error)}") from None
        return review_record(record, seat, marks)
    raise ReviewError(f"{name} is neither a saved game (it has no 'actions') nor a record "
                      "(it has no 'events')")


def _saved_marks(data: Any, game: Game, name: str
                 ) -> tuple[str, dict[int, dict[Cell, str]]] | None:
    """The learner's marks a saved game holds (whose, and after each event), checked."""
    if data is None:
        return None
    def fail(problem: str) -> ReviewError:
        return ReviewError(f"{name}: field 'marks': {problem}")
    if not isinstance(data, dict) or set(data) != {"seat", "pages"}:
        raise fail("expected {\"seat\": NAME, \"pages\": [...]}")
    seat, pages = data["seat"], data["pages"]
    if seat not in game.names:
        raise fail(f"no seat {seat!r}; the players are {', '.join(game.names)}")
    places = Record.from_dict(game.record_for(game.names.index(seat)),
                              edition=game.edition).places
    events = len(game.events)
    kept: dict[int, dict[Cell, str]] = {}
    for page in pages if isinstance(pages, list) else [None]:
        if not isinstance(page, dict) or type(page.get("events")) is not int or \
                not 0 <= page["events"] <= events or not isinstance(page.get("marks"), list):
            raise fail(f"each page is {{\"events\": 0..{events}, \"marks\": [[card, place, "
                       "mark], ...]}")
        cells: dict[Cell, str] = {}
        for item in page["marks"]:
            if not (isinstance(item, list) and len(item) == 3 and
                    all(isinstance(x, str) for x in item)):
                raise fail(f"page at {page['events']} events: a mark is [card, place, mark]")
            card, place, mark = item
            try:
                card = game.edition.card(card).id
            except CluedoLabError as error:
                raise fail(_one_line(error)) from None
            if place not in places or mark not in MARKS:
                raise fail(f"{item}: the place is one of {', '.join(places)} and the mark one "
                           f"of {', '.join(MARKS)}")
            cells[(card, place)] = mark
        kept[page["events"]] = cells
    return seat, marks_by_event(kept, events)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


# -- text --------------------------------------------------------------------------------------

def _fraction(p: Fraction | None) -> str | None:
    if p is None:
        return None
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _bits(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def _deals(value: int | Fraction) -> int | str:
    return value if isinstance(value, int) else str(_fraction(Fraction(value)))


def _point_dict(p: Point) -> dict[str, Any]:
    return {"event": p.event, "deals": _deals(p.deals), "entropy": _bits(p.entropy)}


def _turn_dict(t: TurnReview) -> dict[str, Any]:
    return {"turn": t.turn, "event": t.event,
            "question": list(t.question) if t.question else None, "gain": _bits(t.gain),
            "best": list(t.best) if t.best else None, "best_gain": _bits(t.best_gain),
            "grade": t.grade, "room": t.room, "reach_room": t.reach_room,
            "reach_best": list(t.reach_best) if t.reach_best else None,
            "reach_gain": _bits(t.reach_gain), "bluff": list(t.bluff), "accused": t.accused,
            "action": t.action, "action_event": t.action_event,
            "action_gain": _bits(t.action_gain), "best_action": t.best_action,
            "best_action_gain": _bits(t.best_action_gain), "action_grade": t.action_grade,
            "played": t.played.to_dict() if t.played else None,
            "best_play": t.best_play.to_dict() if t.best_play else None}


def _text_lines(review: GameReview) -> list[str]:
    r = review
    lines = [f"Game review: {r.seat}, {r.edition.name}"]
    lines += [f"({note})" for note in r.notes]
    lines += ["", "Your turns (gains are expected bits about the envelope):"]
    if not r.turns:
        lines.append("  none")
    for t in r.turns:
        lines.append("  " + _turn_line(r, t))
    lines += ["", "Key moments:"]
    lines += ["  " + line for line in moment_lines(r)]
    if r.others:
        lines += ["", "When the others could have known the solution (from their own records):"]
        for c in r.others:
            when = f"after event {c.certain_from}" if c.certain_from is not None else "never"
            lines.append(f"  {c.seat}: {when}" + (f" ({c.how})" if c.how else ""))
    lines += ["", "The curve (after each event: consistent deals, bits left in the envelope):"]
    marked = {e for e, _ in r.curve.swings()}
    for p in r.curve.points:
        star = "  <- a big step" if p.event in marked else ""
        lines.append(f"  {p.event:4} {_deals_text(p.deals):>24} {p.entropy:8.3f}{star}")
    if r.learner:
        lines += ["", "Your notes against what was certain:"]
        lines += ["  " + line for line in learner_lines(r)]
    return lines


def learner_lines(r: GameReview) -> list[str]:
    """The learner's notes event by event: the facts that became certain at that event and
    were not marked, and the marks that were wrong (a line when either changes)."""
    out = []
    before: tuple[Cell, ...] = ()
    shown = None
    for s in r.learner:
        new = [c for c in s.missed if c not in before]
        if (new, s.wrong) != ([], shown):
            text = f"after event {s.event}: {len(s.missed)} certain and not marked"
            if new:
                text += f" (new: {_cells(r, new)})"
            text += f"; {len(s.wrong)} wrong" + (f" ({_cells(r, s.wrong)})" if s.wrong else "")
            if s.unjustified:
                text += f"; {len(s.unjustified)} not yet justified"
            out.append(text)
        before, shown = s.missed, s.wrong
    return out


def _turn_line(r: GameReview, t: TurnReview) -> str:
    head = f"turn {t.turn}, event {t.event}: "
    reach = (f"; better within reach: {r.names(t.reach_best)} in the "
             f"{r.name(t.reach_room)} ({t.reach_gain:.3f})"
             if t.reaches_further and t.reach_room else "")
    played = ""
    if t.action_grade and t.action_gain is not None and t.best_action_gain is not None:
        played = f"; event {t.action_event}: {t.action} ({t.action_gain:.3f}) — {t.action_grade}"
        if t.action_grade not in ("best", NOTHING_NEW):
            played += f"; best: {t.best_action} ({t.best_action_gain:.3f})"
    elif t.action and t.question is not None:
        played = f"; then played {t.action}"
    if t.question is None:
        if t.action_grade:
            return head + played.removeprefix(f"; event {t.action_event}: ") + reach
        did = "accused" if t.accused else f"played {t.action}" if t.action else \
            "asked nothing"
        return head + did + reach
    assert t.gain is not None and t.best_gain is not None and t.best is not None
    text = f"asked {r.names(t.question)} ({t.gain:.3f}) — {t.grade}"
    if t.grade not in ("best", NOTHING_NEW):
        text += f"; best: {r.names(t.best)} ({t.best_gain:.3f})"
    if t.bluff:
        text += f"; a bluff with your own {r.names(t.bluff)}"
    return head + text + reach + played


def moment_lines(r: GameReview) -> list[str]:
    """The key moments, one line each."""
    out = []
    first = r.first_accusation()
    if r.certain_from is None:
        out.append("the envelope never became certain for you")
    else:
        told = r.record.events[r.certain_from - 1] if r.certain_from else None
        if isinstance(told, Accuse):
            who = "your" if told.by == r.seat else f"{told.by}'s"
            out.append(f"the envelope was certain for you only from {who} accusation at "
                       f"event {r.certain_from}")
        else:
            out.append(f"you could have accused after event {r.certain_from}" +
                       (f"; you accused at event {first.event}" if first else
                        "; you never accused"))
    for turn, seen in r.missed:
        out.append(f"turn {turn}: the envelope was certain (after event {seen}) and you did "
                   "not accuse")
    for a in r.accusations:
        who = "you" if a.by == r.seat else a.by
        verdict = "right" if a.correct else "wrong"
        if a.chance is None:
            out.append(f"event {a.event}: {who} accused face down ({verdict})")
        else:
            out.append(f"event {a.event}: {who} accused {r.names(a.cards)} ({verdict}; a "
                       f"chance of {_fraction(a.chance)} as you saw it)")
    for t in r.turns:
        if t.bluff:
            lessons = "; ".join(f"{seat} learned {bits:.3f}"
                                for seat, bits in r.told(t).items())
            out.append(f"event {t.event}: a bluff naming your own {r.names(t.bluff)}, "
                       f"{t.cost:.3f} bits below the best question there"
                       + (f" (bits about the envelope: {lessons})" if lessons else ""))
    return out


def _deals_text(value: int | Fraction) -> str:
    return f"{value:,}" if isinstance(value, int) else str(value)


def _cells(r: GameReview, cells: Sequence[Cell]) -> str:
    more = f" and {len(cells) - 5} more" if len(cells) > 5 else ""
    return ", ".join(f"{r.name(c)} {'in' if p == 'envelope' else 'with'} {p}"
                     for c, p in cells[:5]) + more


def log_deals(p: Point) -> float:
    """log10 of a point's consistent deals (the curve's left scale)."""
    return math.log10(p.deals) if p.deals > 0 else 0.0
