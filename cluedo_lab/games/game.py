"""Playable games: one API for every edition, boards and card games alike.

A game is a seeded deal plus the list of actions applied to it, so it saves as a few lines of
JSON and replays exactly. Whoever must act next (the player whose turn it is, or a player who
must choose which card to show) is :attr:`Game.current`; :meth:`Game.legal_actions` lists what
they may do and :meth:`Game.apply` does it, refusing anything else with an
:class:`~cluedo_lab.rules.errors.IllegalAction` that says why and leaves the game unchanged.

Before every action the game saves its position (the attributes that change during play), so
an action that fails half-way changes nothing; :meth:`Game.undo` takes the last action back by
replaying the others from the deal, as a saved game is loaded (keeping a position per action
would cost more memory than long bot games can spare).

Everything that happens is also written as record events (``docs/records.md``) with who saw
what, so :meth:`Game.record_for` gives each seat exactly the record of what it learned — the
knowledge engine reads it like a record typed by hand.
"""

from __future__ import annotations

import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from ..records import Record
from ..records.parse import player_name_problem
from ..records.seats import seat_view
from ..rules.deal import Deal, deal
from ..rules.edition import Card, Edition, check_playable, load_edition
from ..rules.errors import (
    IllegalAction,
    InvalidArgument,
    NothingToUndo,
    SavedGameError,
    WrongType,
)
from ..rules.variant import edition_ref
from .action import Action
from .loop import LIMIT, Player, run

__all__ = ["Action", "Game", "edition_of", "required"]

_T = TypeVar("_T")


def required(value: _T | None, what: str) -> _T:
    """``value``, which the rules say is there now (``what`` names it when it is not: a bug)."""
    if value is None:
        raise AssertionError(f"no {what} now")
    return value


_CONTAINERS = frozenset({dict, list, set})
"""The mutable containers a game's position is made of; every other attribute value is
immutable (or, like the dice's kept faces, only ever read by position) and is shared."""

_GROWING = ("history", "events", "log")
"""Lists that only grow during play: a saved position keeps their lengths."""


def _copy_position(value: Any) -> Any:
    """A copy of part of a position: dicts and lists level by level, sets one level."""
    kind = type(value)
    if kind is dict:
        return {k: _copy_position(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list:
        return [_copy_position(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is set:
        return set(value)
    return value


@dataclass(frozen=True)
class _Drawn:
    """A random source in a saved position: the generator and its state."""

    rng: random.Random
    state: tuple[Any, ...]


class Game(ABC):
    """Base class of the playable editions. Subclasses set :attr:`family` and implement the
    abstract methods; saving, replaying, records and the safety of :meth:`apply` live here."""

    family: ClassVar[str] = ""

    def __init__(self, edition: Edition | str, players: int | Sequence[str], seed: int = 0,
                 **options: Any):
        self.edition = edition_of(edition)
        if self.edition.family != self.family:
            raise ValueError(f"{self.edition.name} is a {self.edition.family} game, not a "
                             f"{self.family} game")
        if isinstance(players, int) and not isinstance(players, bool):
            self.edition.check_players(players)     # before any name is made
            names = [f"P{i + 1}" for i in range(players)]
        elif isinstance(players, Sequence) and not isinstance(players, str):
            self.edition.check_players(len(players))
            names = list(players)
        else:
            raise WrongType(f"players: a number of players or a list of names, not "
                            f"{type(players).__name__}")
        check_playable(self.edition, len(names))
        for name in names:
            problem = player_name_problem(name)
            if problem:
                raise InvalidArgument(f"players: {problem}")
        if len(set(names)) != len(names):
            raise InvalidArgument("player names repeat")
        self.names: tuple[str, ...] = tuple(names)
        self.seed = seed
        self.options = dict(options)
        self.deal: Deal = self._deal()
        self.rng = random.Random(f"{seed}-play")
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self.log: list[str] = []
        self._winner: int | None = None
        self._over = False
        self.setup()

    # -- to implement ------------------------------------------------------------------------
    def _deal(self) -> Deal:
        return deal(self.edition, len(self.names), self.seed)

    @abstractmethod
    def setup(self) -> None:
        """Anything after the deal: pieces on the board, action cards dealt, who starts."""

    @property
    @abstractmethod
    def current(self) -> int | None:
        """The seat that must act next, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the current seat may take now."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (the base class has already checked it)."""

    # -- legality, stated once per family ----------------------------------------------------
    # A family says which kinds of action this moment of the turn allows (:meth:`_kinds_now`),
    # whether the seat may take one of a kind now (:meth:`_kind_refusal`), every action of a
    # kind in a well-formed shape (:meth:`_candidates`) and why one of them is refused
    # (:meth:`_refusal`). The legal actions are the candidates that pass; a family's
    # ``why_illegal`` gives the first reason on the same path (:meth:`_rule_refusal`).
    ARGS: ClassVar[Mapping[str, frozenset[str]]] = {}
    """Each kind of action and the arguments it takes."""

    def _kinds_now(self) -> Sequence[str]:
        """The kinds of action this moment of the turn allows, in the order they are listed."""
        raise NotImplementedError

    def _kind_refusal(self, kind: str, seat: int) -> str | None:
        """Why ``seat`` may not take an action of ``kind`` now (a kind this moment allows),
        or None when it may."""
        return None

    def _candidates(self, kind: str, seat: int) -> Sequence[Action]:
        """Every action of ``kind`` that ``seat`` might take, in the order they are listed:
        the right arguments with values of the right sort; :meth:`_refusal` decides."""
        raise NotImplementedError(kind)

    def _refusal(self, action: Action) -> str | None:
        """Why ``action``'s arguments are refused now (its kind being allowed and the seat to
        act allowed to take it), or None when it is legal."""
        return None

    def _legal(self) -> list[Action]:
        """The legal actions, from the rules above."""
        if self._over:
            return []
        seat = self._acting
        legal: list[Action] = []
        for kind in self._kinds_now():
            if self._kind_refusal(kind, seat) is None:
                legal += self._passing(kind, seat)
        return legal

    def _passing(self, kind: str, seat: int) -> Sequence[Action]:
        """The candidates of ``kind`` for ``seat`` whose arguments pass now (a family may
        keep those whose refusal reads only the deck)."""
        return tuple(a for a in self._candidates(kind, seat) if self._refusal(a) is None)

    def _wrong_moment(self, kind: str, who: str) -> str:
        """Why ``kind`` (a kind of the game) is not allowed at this moment of the turn."""
        raise NotImplementedError

    def _rule_refusal(self, action: Action, who: str) -> str | None:
        """The first rule ``action`` (a kind of the game, by the seat to act) breaks, on the
        path :meth:`_legal` takes: arguments its kind does not take, a kind this moment does
        not allow, a seat that may not take the kind now, arguments refused now."""
        takes = self.ARGS[action.kind]
        extra = sorted({k for k, _ in action.args} - takes)
        if extra:
            return f"{action.kind} takes {', '.join(sorted(takes)) or 'nothing'}, " \
                   f"not {', '.join(extra)}"
        if action.kind not in self._kinds_now():
            return self._wrong_moment(action.kind, who)
        return self._kind_refusal(action.kind, action.seat) or self._refusal(action)

    @property
    def _acting(self) -> int:
        """The seat that must act (only asked for while the game goes on)."""
        return required(self.current, "seat to act: the game is over")

    @property
    def winner(self) -> int | None:
        """The winning seat, None while playing or when nobody can win any more."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def event_count(self) -> int:
        """How many events have happened: every seat's record holds each of them (what a
        seat sees of one differs), so the count is public, and a seat's record changes
        exactly when it grows."""
        return len(self.events)

    def why_illegal(self, action: Action) -> str:
        """Why ``action`` is not allowed now; subclasses say more where they can."""
        if self.is_over:
            return "the game is over"
        if action.seat != self.current:
            return f"it is seat {self.current}'s move, not seat {action.seat}'s"
        kinds = sorted({a.kind for a in self.legal_actions()})
        return f"{action} is not allowed now; allowed kinds: {', '.join(kinds)}"

    def is_legal(self, action: Action) -> bool:
        """Is ``action`` (as given, names not yet turned into ids) allowed now?"""
        return action in self.legal_actions()

    def _canonical(self, action: Action) -> Action:
        """``action`` with names turned into the ids the legal actions use."""
        return action

    def legal_form(self, action: Action | Mapping[str, Any]) -> Action:
        """``action`` as the legal actions write it (card, room and player names turned into
        ids) if it is allowed now; otherwise raise IllegalAction saying why."""
        if not isinstance(action, Action):
            action = Action.from_dict(action)
        if not self.is_legal(action):
            action = self._canonical(action)
            if not self.is_legal(action):
                raise IllegalAction(self.why_illegal(action))
        return action

    # -- playing -----------------------------------------------------------------------------
    def apply(self, action: Action | Mapping[str, Any]) -> None:
        """Do ``action`` if it is legal; otherwise raise IllegalAction and change nothing.
        Card, room and player names may stand for their ids."""
        action = self.legal_form(action)
        saved = self._position()
        try:
            self._apply(action)
        except Exception:
            self._restore(saved)
            raise
        self.history.append(action)

    def undo(self) -> Action:
        """Take back the last action and return it: the game is exactly as it was before."""
        if not self.history:
            raise NothingToUndo("there is no action to undo")
        action = self.history[-1]
        replay = type(self)(self.edition, self.names, self.seed, **self.options)
        for earlier in self.history[:-1]:
            replay.apply(earlier)
        self.__dict__ = replay.__dict__
        return action

    def _position(self) -> dict[str, Any]:
        """The attributes as they are now, for :meth:`_restore`: containers copied, growing
        lists as their lengths, random sources as their states, the rest shared."""
        saved: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key in _GROWING:
                saved[key] = len(value)
            elif type(value) in _CONTAINERS:
                saved[key] = _copy_position(value)
            elif isinstance(value, random.Random):
                saved[key] = _Drawn(value, value.getstate())
            else:
                saved[key] = value
        return saved

    def _restore(self, saved: dict[str, Any]) -> None:
        state = self.__dict__
        kept = {}
        for key in _GROWING:
            del state[key][saved[key]:]
            kept[key] = state[key]
        state.clear()
        for key, value in saved.items():
            if type(value) is _Drawn:
                value.rng.setstate(value.state)
                value = value.rng
            state[key] = value
        state.update(kept)

    def play(self, bots: Sequence[Player[Game]], max_actions: int = LIMIT) -> int | None:
        """Let ``bots`` (one :class:`~cluedo_lab.games.loop.Player` per seat) play to the end
        with :func:`~cluedo_lab.games.loop.run`; returns the winner."""
        return run(self, bots, max_actions).winner

    def _say(self, text: str) -> None:
        """A log line with no record event (turns, declarations, the end)."""
        self.log.append(text)

    def _name(self, card: str | Card) -> str:
        return self.edition.card(card).name

    def _names(self, cards: Iterable[str | Card]) -> str:
        return ", ".join(self._name(c) for c in cards)

    def emit(self, event: Mapping[str, Any], text: str) -> None:
        """Record an event (with its '_seen_by' visibility) and a line of the readable log."""
        self.events.append(dict(event))
        self.log.append(text)

    def _accusation_event(self, seat: int, cards: Sequence[str], correct: bool,
                          solution: list[str], together: bool = False) -> dict[str, Any]:
        """The record event of an accusation. The accuser looks at the solution (``envelope``,
        theirs alone); a wrong lone accusation's cards stay with the accuser when the edition
        says it is made face down (``accusation.reveal = "accuser"``). Accusations turned up
        together, and a correct one, are seen by everybody; the game ends with them."""
        by = self.names[seat]
        event: dict[str, Any] = {"accuse": list(cards), "by": by, "correct": correct}
        if correct or together:
            return event
        event["envelope"] = solution
        event["_seen_by"] = [by]
        if self.edition.accusation.reveal == "accuser":
            event["_secret"] = ["accuse"]
        return event

    # -- what each seat knows ----------------------------------------------------------------
    def record_for(self, seat: int | None) -> dict[str, Any]:
        """The record of what ``seat`` learned (None: what everybody learned)."""
        data: dict[str, Any] = {
            "edition": self._edition_name(),
            "players": [{"name": n, "hand_size": len(h)}
                        for n, h in zip(self.names, self.deal.hands, strict=True)],
        }
        if self.deal.face_up:
            data["face_up"] = [c.id for c in self.deal.face_up]
        if self.deal.face_down:
            data["face_down"] = [pile for pile, _ in self.deal.face_down]
        extra = self.record_extras()
        data.update(extra)
        observer = None
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < len(self.names):
                raise InvalidArgument(f"seat: expected 0 to {len(self.names) - 1} or None, "
                                      f"not {seat!r}")
            observer = self.names[seat]
            data["observer"] = observer
            data["hand"] = [c.id for c in self.deal.hands[seat]]
        data["events"] = [seat_view(e, observer) for e in self.events]
        return data

    def record(self, seat: int | None) -> Record:
        """``Record.from_dict(self.record_for(seat))``, parsed against the loaded edition."""
        return Record.from_dict(self.record_for(seat), edition=self.edition, fresh=True)

    def record_extras(self) -> dict[str, Any]:
        """Set-up keys a subclass adds to every record (e.g. the fugitive)."""
        return {}

    def true_places(self) -> dict[str, str]:
        """Where every card really is, by place name (for checking records)."""
        where = {c.id: "envelope" for c in self.deal.envelope}
        for name, hand in zip(self.names, self.deal.hands, strict=True):
            where.update({c.id: name for c in hand})
        where.update({c.id: "face-up" for c in self.deal.face_up})
        where.update({card.id: pile for pile, card in self.deal.face_down})
        return where

    # -- saving ------------------------------------------------------------------------------
    def deal_digest(self) -> str:
        """A short fingerprint of the deal, saved with the game so that a load can tell when
        the seed or the edition no longer give the cards the actions were played with."""
        cards = {"hands": [sorted(c.id for c in hand) for hand in self.deal.hands],
                 "envelope": sorted(c.id for c in self.deal.envelope),
                 "face_up": sorted(c.id for c in self.deal.face_up),
                 "face_down": sorted(c.id for _, c in self.deal.face_down)}
        return hashlib.sha256(json.dumps(cards).encode()).hexdigest()[:16]

    def _edition_name(self) -> str:
        """How a record names the edition: its id, or the path of a user's file that took a
        shipped edition's id (the id alone would load the shipped one)."""
        ref = edition_ref(self.edition)
        return ref if isinstance(ref, str) else self.edition.id

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.family, "edition": edition_ref(self.edition),
                "players": list(self.names),
                "seed": self.seed, "options": self.options, "deal": self.deal_digest(),
                "actions": [a.to_dict() for a in self.history]}

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a saved game by replaying its actions from the seeded deal."""
        missing = [k for k in ("edition", "players", "seed") if k not in data]
        if missing:
            raise SavedGameError(f"field {missing[0]!r}: missing")
        game = cls(data["edition"], data["players"], data["seed"], **data.get("options", {}))
        digest = data.get("deal")
        if digest is not None and digest != game.deal_digest():
            raise ValueError("deal: the seed and the edition no longer deal the cards this "
                             "game was saved with (was the seed or the edition changed?)")
        for position, action in enumerate(data.get("actions", []), start=1):
            try:
                game.apply(action)
            except IllegalAction as error:
                raise IllegalAction(f"saved action {position}: {error}") from None
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_dict(json.loads(text))

    # -- text ------------------------------------------------------------------------------
    def status(self) -> str:
        """Who won, or whose move it is and what they may do, as text."""
        if self.is_over:
            return "Game over: " + ("nobody won" if self.winner is None
                                    else f"{self.names[self.winner]} won")
        kinds = sorted({a.kind for a in self.legal_actions()})
        return f"{self.names[self._acting]} to act: {', '.join(kinds)}"

    def __str__(self) -> str:
        return self.status()

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self.current} to act"
        return (f"<{type(self).__name__}({self.edition.id!r}, {list(self.names)!r}, "
                f"seed={self.seed}): {len(self.history)} actions, {state}>")


def edition_of(ref: Edition | str | Mapping[str, Any]) -> Edition:
    """The edition a game names: an Edition, an id or path, or a variant written as
    ``{"base": <edition id>, <option>: ...}`` (how a saved game of a variant names it, so the
    file opens in a new session)."""
    if isinstance(ref, Edition):
        return ref
    if isinstance(ref, Mapping):
        from ..rules.variant import variant_from_dict
        return variant_from_dict(ref).edition
    return load_edition(ref)

