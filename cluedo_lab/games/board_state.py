"""What a board game is at any moment: the facts fixed at set-up, the pieces, the turn's stage,
and the questions every part of the game asks of them (whose move, where a piece stands, who
is still in, may this seat suggest here).

:class:`BoardState` is the base of the parts of :class:`~cluedo_lab.games.board_game.
BoardGame` (movement, suggestions, Clue cards, accusations, legality): each part reads the
state through it, and the few steps one part hands to another (drawing a Clue card after a
roll, moving after a Clue card, ending the turn after an accusation) are named here.

The changing state is plain attributes of dicts, lists, sets and immutable values, so
:meth:`Game.apply <cluedo_lab.games.game.Game.apply>` can save and restore a position; a
suggestion being answered and the cards a Clue card asks for are typed dicts for that reason.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal, NotRequired, TypedDict

from ..rules.board import Board, Node, Square, walk_of
from ..rules.clue_cards import ClueCard, load_clue_deck
from ..rules.dice import Dice
from .game import Action, Game, required

__all__ = ["BoardState", "Pending", "ClueTask", "Phase"]

Phase = Literal["start", "move", "act", "refute", "clue-show", "clue-choose", "over"]
"""The stage of a turn: before the roll (``start``), moving, after moving (``act``: suggest,
accuse, end), waiting for a card to be shown (``refute``), for a card a Clue card asks for
(``clue-show``) or for the player a Clue card targets (``clue-choose``)."""


class Pending(TypedDict):
    """The suggestion being answered: seats by number, cards by id."""

    by: int
    named: list[str]
    passed: list[int]
    order: list[int]
    """The seats still to be asked, in order."""
    showed: NotRequired[list[tuple[int, str]]]
    """``question.answer = "every-who-can"``: who showed which card so far."""
    shower: NotRequired[int]
    """The seat choosing a card to show now, and its cards named in the suggestion."""
    options: NotRequired[list[str]]


class ClueTask(TypedDict):
    """A card a Clue card asks for: ``shower`` shows one to ``to`` (to everyone: ``public``)."""

    shower: int
    to: int
    public: bool


class Faces:
    """The game's die faces in the order they are thrown, drawn from their own seeded
    generator and kept. A game reads them by position (``BoardGame.throws``), so undoing an
    action only moves the position back: no copy of a generator's state per roll."""

    def __init__(self, seed: str, sides: int):
        self._rng = random.Random(seed)
        self._sides = sides
        self._faces: list[int] = []

    def __getitem__(self, index: int) -> int:
        while len(self._faces) <= index:
            self._faces.append(self._rng.randint(1, self._sides))
        return self._faces[index]


@dataclass(frozen=True, eq=False)
class Fixed:
    """What a game decides at set-up and never changes: shared by every saved position."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]
    order: Mapping[str, int]
    hands: tuple[frozenset[str], ...]
    characters: tuple[str, ...]
    dice: Dice
    accuse_when: str
    reenter: bool
    false_witness: bool
    piles: Mapping[str, str]
    pile_cards: Mapping[str, str]
    clue_cards: bool
    faces: Faces
    every: bool = False
    """``question.answer = "every-who-can"``: every player who can shows a card."""
    leaves: bool = False
    """``accusation.wrong = "leaves"``: a wrong accuser leaves the game."""
    keeps_moving: bool = False
    """``accusation.wrong = "keeps-moving"``: a wrong accuser still takes turns to move."""
    name_yourself: bool = True
    """``question.name_yourself``: a suggestion may call the suggester's own piece."""


@cache
def clue_cards() -> tuple[ClueCard, ...]:
    """The 2023 Clue-card deck, read once."""
    return load_clue_deck().cards


class BoardState(Game):
    """The state of a board game and the questions asked of it (see the module docstring)."""

    # -- set at set-up, never changed ---------------------------------------------------------
    fixed: Fixed
    # -- the table ----------------------------------------------------------------------------
    positions: dict[str, Node]
    """Suspect id -> corridor square or room id."""
    weapons: dict[str, str]
    """Weapon id -> room id."""
    throws: int
    """Dice thrown so far (the position in ``fixed.faces``)."""
    clue_order: tuple[int, ...]
    """The Clue-card deck by index, top first."""
    accused: list[bool]
    false_witnesses: list[bool]
    summoned: list[bool]
    """Moved by another player's suggestion since the seat's last turn."""
    # -- the turn -----------------------------------------------------------------------------
    turn_number: int
    turn: int
    phase: Phase
    rolled: tuple[int, ...]
    total: int
    entered: str | None
    """The room entered this turn (by dice, passage or Clue card)."""
    suggested: bool
    unanswered: bool
    """This turn's suggestion was answered by no card."""
    any_room: bool
    """A Clue card lets this roll reach any room."""
    summoned_now: bool
    pending: Pending | None
    tasks: list[ClueTask]
    clue_index: int | None
    reachable: tuple[tuple[str, ...], tuple[Square, ...]]
    _cache: tuple[tuple[int, ...], tuple[Action, ...], set[int] | None]
    """The legal actions of one position: (history and event counts, actions, their ids)."""

    # -- steps one part of the game hands to another -----------------------------------------
    @abstractmethod
    def _draw_clue(self, seat: int) -> None:
        """Draw a Clue card after a roll showing the magnifying glass (Clue cards)."""

    @abstractmethod
    def _after_clue(self) -> None:
        """Start the move once any Clue card is resolved (movement)."""

    @abstractmethod
    def _end_turn(self) -> None:
        """Pass the turn to the next seat still in the game (the game)."""

    @abstractmethod
    def _finish(self, winner: int | None, text: str) -> None:
        """End the game (the game)."""

    @abstractmethod
    def _accuse_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not accuse now, or None (accusations)."""

    @abstractmethod
    def _accusations(self, seat: int) -> tuple[Action, ...]:
        """Every accusation ``seat`` might make (accusations)."""

    @abstractmethod
    def proofs(self, seat: int) -> set[tuple[str, str]]:
        """The withheld cards ``seat``'s own record proves (accusations)."""

    @abstractmethod
    def _instead_of_moving(self, seat: int) -> list[Action]:
        """The legal secret passages and staying put of ``seat`` now (legality)."""

    @abstractmethod
    def _suggestions(self, seat: int) -> tuple[Action, ...]:
        """Every suggestion ``seat`` might make in its room (suggestions)."""

    # -- reading the state -------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return walk_of(self.edition.board).board

    @property
    def characters(self) -> tuple[str, ...]:
        """The suspect each seat plays."""
        return self.fixed.characters

    @property
    def dice(self) -> Dice:
        return self.fixed.dice

    @property
    def hands(self) -> tuple[frozenset[str], ...]:
        return self.fixed.hands

    @property
    def piles(self) -> Mapping[str, str]:
        """Room id -> name of the face-down pile lying there (2023 two-player)."""
        return self.fixed.piles

    @property
    def accuse_when(self) -> str:
        return self.fixed.accuse_when

    @property
    def allow_false_witness(self) -> bool:
        return self.fixed.false_witness

    @property
    def clue_deck(self) -> tuple[ClueCard, ...]:
        """Every Clue card by index (empty when the game plays without them)."""
        return clue_cards() if self.fixed.clue_cards else ()

    @property
    def clue_card(self) -> ClueCard | None:
        """The Clue card being resolved this turn, if any."""
        return None if self.clue_index is None else self.clue_deck[self.clue_index]

    @property
    def _suspects(self) -> tuple[str, ...]:
        return self.fixed.suspects

    @property
    def _weapons(self) -> tuple[str, ...]:
        return self.fixed.weapons

    @property
    def _rooms(self) -> tuple[str, ...]:
        return self.fixed.rooms

    @property
    def _order(self) -> Mapping[str, int]:
        return self.fixed.order

    @property
    def current(self) -> int | None:
        if self._over:
            return None
        if self.phase == "refute":
            return self._asking["shower"]
        if self.phase == "clue-show":
            return self.tasks[0]["shower"]
        return self.turn

    @property
    def _asking(self) -> Pending:
        """The suggestion being answered (only asked for while there is one)."""
        return required(self.pending, "suggestion being answered")

    def active(self, seat: int) -> bool:
        """May this seat still suggest and accuse (no wrong accusation, not a proven false
        witness)?"""
        return not (self.accused[seat] or self.false_witnesses[seat])

    def takes_turns(self, seat: int) -> bool:
        """Does this seat still take turns? The active seats, and a wrong accuser who keeps
        moving their piece (``accusation.wrong = "keeps-moving"``, 2014)."""
        return self.active(seat) or (self.fixed.keeps_moving and not self.false_witnesses[seat])

    def gone(self, seat: int) -> bool:
        """Has this seat left the game? Only when the edition says a wrong accuser leaves
        (``accusation.wrong = "leaves"``); by default a wrong accuser stays to answer."""
        return self.fixed.leaves and self.accused[seat]

    def answerers(self, seat: int) -> list[int]:
        """Who is asked after ``seat`` suggests, in order: the seats to the left, round the
        table, still in the game."""
        n = len(self.names)
        return [s for s in ((seat + k) % n for k in range(1, n)) if not self.gone(s)]

    def piece(self, seat: int) -> Node:
        """Where a seat's piece stands: a corridor square or a room id."""
        return self.positions[self.characters[seat]]

    def room_of(self, seat: int) -> str | None:
        where = self.piece(seat)
        return where if isinstance(where, str) else None

    def blocked(self, seat: int | None = None) -> frozenset[Square]:
        """Corridor squares taken by pieces (other than ``seat``'s)."""
        mine = None if seat is None else self.characters[seat]
        return frozenset(p for s, p in self.positions.items()
                         if not isinstance(p, str) and s != mine)

    def pieces(self) -> dict[str, Node]:
        """Suspect id -> square or room, for :func:`cluedo_lab.views.board_svg.render_svg`."""
        return dict(self.positions)

    @property
    def roll_first(self) -> bool:
        """Does every turn begin with a roll (2023), staying or a passage coming after it?"""
        return self.edition.turns.roll == "first"

    def may_suggest(self, seat: int) -> bool:
        """Could ``seat`` suggest in its room now, by the room rules (not the turn's stage)?"""
        room = self.room_of(seat)
        if room is None:
            return False
        if not self.fixed.reenter:
            return True
        return self.entered == room or (seat == self.turn and self.summoned_now
                                        and self.entered is None)

    def may_suggest_staying(self, seat: int) -> bool:
        """Would staying in its room this turn let ``seat`` suggest there? (2014: only when
        another player's suggestion moved the piece there since its last turn.)"""
        if self.room_of(seat) is None:
            return False
        return not self.fixed.reenter or (seat == self.turn and self.summoned_now)

    def may_stay(self, seat: int) -> bool:
        """May ``seat`` keep its piece in its room instead of moving? Where a room must be left
        and re-entered to be suggested again (2014), staying is allowed only when it lets the
        seat suggest there: after another player's suggestion moved the piece in."""
        if not self.fixed.reenter:
            return True
        return self.active(seat) and self.may_suggest_staying(seat)

    def callable_suspects(self, seat: int) -> tuple[str, ...]:
        """The suspects ``seat`` may call into a room: any, or any but its own piece
        (``question.name_yourself = false``, 1949: "any other Person"). A seat holding no
        suspect card may name its own piece even then: otherwise, were its piece the murderer,
        every suggestion it could make would name a suspect another player holds, and it could
        never make the unanswered suggestion an accusation needs."""
        if self.fixed.name_yourself or self.hands[seat].isdisjoint(self._suspects):
            return self._suspects
        return tuple(s for s in self._suspects if s != self.characters[seat])

    def _card(self, name: str) -> str | None:
        try:
            return self.edition.card(name).id
        except KeyError:
            return None

    def _sorted(self, cards: Iterable[str]) -> list[str]:
        return sorted(cards, key=self._order.__getitem__)

    def _where(self, node: Node) -> str:
        if isinstance(node, str):
            return f"in the {self.board.room_name(node)}"
        start = next((s for s, sq in self.board.starts.items() if sq == node), None)
        return f"on {self._name(start)}'s start square" if start is not None \
            and start in self._order else f"on square {node}"

