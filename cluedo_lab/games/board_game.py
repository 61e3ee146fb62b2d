"""The three board games, playable: Cluedo (1949), Clue (2014 mansion) and Clue (2023).

A :class:`BoardGame` is the shared game API (:mod:`cluedo_lab.game`) on a board from
:mod:`cluedo_lab.board`: a seeded deal plus a list of actions, ``legal_actions()`` /
``apply()``, every event written to each seat's record exactly as that seat learned it. Rules
come from the edition file (dice, board, who starts, ``question.reenter_to_repeat``,
``deal.face_down_places``); no card name is written here.

A turn, as actions (card arguments are card ids; names and aliases are accepted):

1. ``roll`` (the game rolls its seeded dice), or ``passage(to=room)`` from a room with a secret
   passage, or ``stay`` in the room you are in. With ``turns.roll = "first"`` (2023) everybody
   rolls, and staying or the passage come after the roll. A 2023 roll showing the magnifying
   glass draws one Clue card (:mod:`cluedo_lab.clue_cards`), resolved at once:
   ``clue(player=name)`` when the drawer picks a player, ``show(card)`` / ``reveal(card)`` by
   whoever must show one.
2. ``move(to=room)`` or ``move(to=[row, col])``: any room or corridor square the roll reaches
   (orthogonal steps, no square twice, none occupied, rooms through doors, entering ends the
   move, no exact roll needed). With ``turns.must_move = false`` (2023: you "may" move)
   ``stay`` keeps the piece where it is.
3. ``suggest(cards=[suspect, weapon])`` in the room you are in: the suspect's piece and the
   weapon move there and stay. Players to the left answer in turn; one holding several named
   cards chooses with ``show(card)``.
4. ``accuse(cards=[suspect, weapon, room])`` (one per player; any room may be named), or
   ``end``.

Choices made where the rule books are silent or differ (each has a test):

- Seats sit clockwise in list order and seat ``i`` plays the ``i``-th suspect of the edition
  (option ``characters``): on the classic board that order is the start squares clockwise.
  1949: the seat playing Miss Scarlett starts (``turns.first``); 2014/2023: each seat rolls one
  die, the highest starts and tied seats roll again.
- Corridor moves may stop short of the roll ("up to", as 2023 says). The 1949 and 2014 books
  say "move that number"; stopping short never changes which rooms you can enter, and exact
  endpoints would need every self-avoiding walk of the roll's length.
- Dice are thrown from the game's own seeded sequence of faces (1949: two dice unless the
  option ``dice=1``), so the same seed and the same actions give the same game.
- With ``turns.must_move`` (1949, 2014) you must move after rolling if any square or room is
  in reach; in a room whose doors are all blocked you count as staying.
- Spare pieces: 1949 places them in rooms before play (seeded); 2014 puts every piece on its
  start square (Set the Scene 2), and so does 2023 (its set-up pages are missing). Weapons
  start in different rooms, seeded (1949 Act 2 "as you wish"; 2014 "no more than one per room").
- When you may accuse is the edition's ``accusation.when`` (1949 and 2014: in the same turn as
  your own suggestion, after it; 2023: on your turn whenever your piece is in a room), and
  where the spare pieces begin is ``turns.spare_pieces``; the options ``accuse_when`` and
  ``spare_pieces`` override them for one game. A wrong accusation's cards are seen by the
  accuser alone when the edition says so (``accusation.reveal``: 1949 writes them down).
- 2014 re-entry (``question.reenter_to_repeat``): you may suggest in a room you entered this
  turn, or, on your next turn only, in one your piece was moved to by another player's
  suggestion (if it stays there). Elsewhere a suggestion is possible in any room you are in.
- 2023 Clue cards are drawn as soon as the dice are rolled and resolved before moving; the
  deck is shuffled with the seed and a drawn card goes to the bottom. ``clue_cards=False``
  plays without them.
- 2023 two-player: you look at a room's face-down card each time your piece enters that room
  on your own turn (by dice, passage or Clue card); a piece moved there by a suggestion does
  not look.
- A player who can show a card always shows it by an action of their own, even with one card
  to show: a turn that waits only when a player holds two named cards would tell the table so.
- False witness: the game normally refuses to let a player who holds a named card pass. With
  ``false_witness=True`` a refuter may ``pass`` anyway (a lie): every seat's record then holds a
  false "passed", so the knowledge engine finds no deal fitting it (that contradiction is the
  evidence). Any player whose own record proves the lie (the liar passed on a suggestion
  naming a card, and this player has seen the liar hold it: shown to them or revealed) may
  ``check(player, card)`` on their turn: the card is revealed to everyone and the liar takes no
  more turns but still shows cards (1949 5(k), 2014 "False witness").

Rules read from the edition, so that variants (:func:`cluedo_lab.variant.variant`) play on a
board too (the published editions use neither):

- ``question.answer = "every-who-can"``: the asking does not stop at the first player who
  shows a card. Every other player, in answering order, who holds a named card shows one to
  the suggester (choosing with ``show(card)`` when holding several); the others pass. One
  record event lists them all (``showed``): the suggester sees every card, everyone else sees
  who showed, not what (as in the card games, :mod:`cluedo_lab.games.card_game`).
- ``accusation.wrong = "leaves"``: a wrong accuser leaves the game: no more turns, no longer
  asked after a suggestion, and passed over by Clue cards (2023: "the player on your left" is
  the next player still in the game; a card that lets you pick a player offers only those
  still in it). Their piece stays where it stands, still blocks a corridor square and can
  still be moved into a room by another player's suggestion: the board keeps every suspect's
  piece. The game ends, with nobody winning, when every player has left (or is a proven false
  witness); a player left alone plays on until they accuse.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from ..rules.board import Board, Node, Square, walk_of
from ..rules.clue_cards import ClueCard, load_clue_deck
from ..rules.dice import Dice
from ..rules.edition import ACCUSE_WHEN, SPARE_PIECES, Edition, load_edition, normalize
from .board_why import BoardRefusals
from .game import Action, Game, edition_of

__all__ = ["BoardGame", "OPTIONS"]

OPTIONS: dict[str, str] = {
    "dice": "number of dice (1949 says only 'the dice': 1 or the edition's 2)",
    "characters": "the suspect each seat plays, in seat order",
    "clue_cards": "2023: draw Clue cards on a magnifying glass (default true)",
    "false_witness": "let a refuter pass while holding a named card (default false)",
    "spare_pieces": "'start' or 'rooms': where the pieces nobody plays begin "
                    "(default: the edition's turns.spare_pieces)",
    "accuse_when": "'after-suggestion', 'in-room' or 'anywhere' "
                   "(default: the edition's accusation.when)",
}


# ---------------------------------------------------------------------------------------------
# Shared, immutable helpers (kept out of the game's state, so a saved position stays small)
# ---------------------------------------------------------------------------------------------

_EDITIONS: dict[str, Edition] = {}


def _edition(ref: Edition | str | Mapping[str, Any]) -> Edition:
    """Editions are immutable: load each shipped one once (a load reads and checks a file)."""
    if isinstance(ref, Edition | Mapping):
        return edition_of(ref)
    if ref not in _EDITIONS:
        _EDITIONS[ref] = load_edition(ref)
    return _EDITIONS[ref]


class _Faces:
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
class _Fixed:
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
    faces: _Faces
    every: bool = False
    """``question.answer = "every-who-can"``: every player who can shows a card."""
    leaves: bool = False
    """``accusation.wrong = "leaves"``: a wrong accuser leaves the game."""


_ACTIONS: dict[tuple, Any] = {}


def _cached(key: tuple, build: Any) -> Any:
    """Actions are immutable values: build each table once and share it between games."""
    if key not in _ACTIONS:
        _ACTIONS[key] = build()
    return _ACTIONS[key]


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

class BoardGame(BoardRefusals, Game):
    """A board edition played by the rules of its rule book (see the module docstring)."""

    family: ClassVar[str] = "board"

    def __init__(self, edition: Edition | str, players: int | Sequence[str], seed: int = 0,
                 **options: Any):
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; options: {', '.join(OPTIONS)}")
        super().__init__(_edition(edition), players, seed, **options)

    # -- set-up ------------------------------------------------------------------------------
    def setup(self) -> None:
        ed = self.edition
        if ed.board is None or ed.dice is None:
            raise ValueError(f"{ed.id} has no board or no dice")
        if ed.accusation.simultaneous:
            raise ValueError(f"{ed.id}: the board game plays one accuser at a time")
        self._cache: tuple[tuple, tuple[Action, ...], set[int] | None] = ((), (), None)
        board = walk_of(ed.board).board
        suspects, weapons, rooms = self._categories(board)
        defaults = {"spare_pieces": ed.turns.spare_pieces, "accuse_when": ed.accusation.when}
        opts = {**defaults, **self.options}
        spare = _choice(opts["spare_pieces"], SPARE_PIECES, "spare_pieces")
        count = opts.get("dice", ed.dice.count)
        if type(count) is not int or not 1 <= count <= 3:
            raise ValueError(f"option dice: expected 1, 2 or 3 dice, got {count!r}")
        dice = Dice(count, ed.dice.sides, tuple(ed.dice.icon_faces))
        piles = {self._pile_room(pile, rooms): (pile, card.id)
                 for pile, card in self.deal.face_down}
        self.fixed = _Fixed(
            suspects=suspects, weapons=weapons, rooms=rooms,
            order={c.id: i for i, c in enumerate(ed.cards)},
            hands=tuple(frozenset(c.id for c in hand) for hand in self.deal.hands),
            characters=self._seat_characters(opts.get("characters"), suspects),
            dice=dice,
            accuse_when=_choice(opts["accuse_when"], ACCUSE_WHEN, "accuse_when"),
            reenter=ed.question.reenter_to_repeat,
            false_witness=_flag(opts.get("false_witness", False), "false_witness"),
            piles={room: pile for room, (pile, _) in piles.items()},
            pile_cards={room: card for room, (_, card) in piles.items()},
            clue_cards=bool(dice.icon_faces) and _flag(opts.get("clue_cards", True),
                                                       "clue_cards"),
            faces=_Faces(f"{self.seed}-dice", dice.sides),
            every=ed.question.answer == "every-who-can",
            leaves=ed.accusation.wrong == "leaves")
        self.throws = 0

        # Pieces, weapons and the Clue-card deck: all seeded.
        played = set(self.characters)
        self.positions: dict[str, Node] = {}
        for suspect in suspects:
            if suspect in played or spare == "start":
                self.positions[suspect] = board.starts[suspect]
            else:
                self.positions[suspect] = self.rng.choice(rooms)
        shuffled = list(rooms)
        self.rng.shuffle(shuffled)
        self.weapons: dict[str, str] = {w: shuffled[i % len(shuffled)]
                                        for i, w in enumerate(weapons)}
        self.clue_order: tuple[int, ...] = ()
        if self.fixed.clue_cards:
            order = list(range(len(self.clue_deck)))
            self.rng.shuffle(order)
            self.clue_order = tuple(order)

        n = len(self.names)
        self.accused = [False] * n
        self.false_witnesses = [False] * n
        self.summoned = [False] * n
        self.turn_number = 0
        self._say(f"{ed.name} ({ed.id}), seed {self.seed}, {self.dice} "
                  f"on {board.name}")
        for seat, name in enumerate(self.names):
            self._say(f"{name} plays {self._name(self.characters[seat])} and holds "
                      f"{self._names(c.id for c in self.deal.hands[seat])}")
        if self.deal.face_up:
            self._say(f"Face up for everyone: {self._names(c.id for c in self.deal.face_up)}")
        for room, pile in self.piles.items():
            self._say(f"A card lies face down in the {board.room_name(room)} ({pile})")
        spares = [s for s in self._suspects if s not in played]
        if spares:
            self._say("Spare pieces: " + ", ".join(
                f"{self._name(s)} {self._where(self.positions[s])}" for s in spares))
        self._say("Weapons: " + ", ".join(f"{self._name(w)} in the {board.room_name(r)}"
                                          for w, r in self.weapons.items()))
        self._begin_turn(self._first_seat())

    def _categories(self, board: Board) -> tuple[tuple[str, ...], ...]:
        """The piece, weapon and room categories, recognised by the board (rooms are the board's
        rooms, suspects have start squares), so no category id is assumed."""
        rooms = suspects = None
        rest = []
        for category in self.edition.categories:
            ids = tuple(c.id for c in category.cards)
            if set(ids) == set(board.rooms) and rooms is None:
                rooms = ids
            elif set(ids) <= set(board.starts) and suspects is None:
                suspects = ids
            else:
                rest.append(ids)
        if rooms is None or suspects is None or len(rest) != 1:
            raise ValueError(f"{self.edition.id} does not fit board {board.id}: expected one "
                             "category of its rooms, one of suspects with start squares and "
                             "one of weapons")
        return suspects, rest[0], rooms

    def _seat_characters(self, chosen: Any, suspects: tuple[str, ...]) -> tuple[str, ...]:
        n = len(self.names)
        if chosen is None:
            return suspects[:n]
        if not isinstance(chosen, list | tuple) or len(chosen) != n:
            raise ValueError(f"option characters: name one suspect per seat ({n})")
        ids = []
        for name in chosen:
            card = self._card(name) if isinstance(name, str) else None
            if card not in suspects:
                raise ValueError(f"option characters: {name!r} is not a suspect of "
                                 f"{self.edition.name}")
            ids.append(card)
        if len(set(ids)) != n:
            raise ValueError("option characters: each seat plays a different suspect")
        return tuple(ids)

    def _pile_room(self, pile: str, rooms: tuple[str, ...]) -> str:
        """The room a face-down pile lies in: its name is the room's card (edition data)."""
        key = self._card(pile)
        if key not in rooms:
            key = next((r for r in rooms if normalize(r) == normalize(pile)), None)
        if key is None:
            raise ValueError(f"face-down pile {pile!r} is not a room of {self.board.name}")
        return key

    def _first_seat(self) -> int:
        first = self.edition.first_player
        n = len(self.names)
        if first == "highest-roll":
            contenders = list(range(n))
            while True:
                rolls = {s: self._throw() for s in contenders}
                self._say("Roll for the first turn: " + ", ".join(
                    f"{self.names[s]} {r}" for s, r in rolls.items()))
                best = max(rolls.values())
                contenders = [s for s, r in rolls.items() if r == best]
                if len(contenders) == 1:
                    return contenders[0]
        if first in self._suspects:
            if first not in self.characters:
                raise ValueError(f"{self._name(first)} always moves first in "
                                 f"{self.edition.name}, so a seat must play that piece")
            return self.characters.index(first)
        return n - 1 if first == "dealer" else 0

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
        return _clue_cards() if self.fixed.clue_cards else ()

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
            return self.pending["shower"]
        if self.phase == "clue-show":
            return self.tasks[0]["shower"]
        return self.turn

    def active(self, seat: int) -> bool:
        """Does this seat still take turns (no wrong accusation, not a proven false witness)?"""
        return not (self.accused[seat] or self.false_witnesses[seat])

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
        """Suspect id -> square or room, for :func:`cluedo_lab.board_svg.render_svg`."""
        return dict(self.positions)

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

    def targets(self) -> tuple[tuple[str, ...], tuple[Square, ...]]:
        """Rooms and corridor squares the current roll lets the player move to (computed once
        per roll, when the move starts)."""
        return self.reachable if self.phase == "move" else ((), ())

    def _find_targets(self) -> None:
        here = self.piece(self.turn)
        near, squares = walk_of(self.edition.board).targets(here, self.total,
                                                          self.blocked(self.turn))
        rooms = tuple(r for r in self._rooms if r != here and (self.any_room or r in near))
        self.reachable = (rooms, squares)

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return list(self._offered())

    def _offered(self) -> tuple[Action, ...]:
        """The legal actions, computed once per state (every state change is an action)."""
        key = (len(self.history), len(self.events))
        if self._cache[0] != key:
            self._cache = (key, tuple(self._legal()), None)
        return self._cache[1]

    def is_legal(self, action: Action) -> bool:
        """Is ``action`` one of the legal actions? Bots hand back the very objects
        :meth:`legal_actions` listed, so identity is tried first (a set of ids, built once
        per state); an action built elsewhere is compared by value."""
        offered = self._offered()
        ids = self._cache[2]
        if ids is None:
            ids = set(map(id, offered))
            self._cache = (self._cache[0], offered, ids)
        return id(action) in ids or action in offered

    def _legal(self) -> list[Action]:
        if self._over:
            return []
        seat = self.current
        phase = self.phase
        if phase == "refute":
            out = [_make("show", seat, card=c) for c in self.pending["options"]]
            return out + ([_make("pass", seat)] if self.allow_false_witness else [])
        if phase == "clue-show":
            kind = "reveal" if self.tasks[0]["public"] else "show"
            return [_make(kind, seat, card=c) for c in self._sorted(self.hands[seat])]
        if phase == "clue-choose":
            return [_make("clue", seat, player=self.names[s]) for s in range(len(self.names))
                    if s != seat and not self.gone(s)]
        out: list[Action] = []
        room = self.room_of(seat)
        if phase == "start":
            out.append(_make("roll", seat))
            if not self.roll_first:
                out += self._instead_of_moving(seat, room)
        elif phase == "move":
            out += _moves(seat, self.reachable)
            out += self._instead_of_moving(seat, room)
        elif phase == "act":
            if room is not None and not self.suggested and self.may_suggest(seat):
                out += self._suggestions(seat)
            out.append(_make("end", seat))
        if self._may_accuse(seat):
            out += self._accusations(seat)
        if self.allow_false_witness:
            out += [_make("check", seat, player=p, card=c)
                    for p, c in sorted(self.proofs(seat))
                    if self.active(self.names.index(p))]
        return out

    @property
    def roll_first(self) -> bool:
        """Does every turn begin with a roll (2023), staying or a passage coming after it?"""
        return self.edition.turns.roll == "first"

    def _instead_of_moving(self, seat: int, room: str | None) -> list[Action]:
        """Secret passages and staying: before the roll (1949, 2014) or, when every turn rolls
        first, after it (2023: staying also in a corridor, since moving is not required)."""
        out: list[Action] = []
        if self.phase == "move" and not self.roll_first:
            return out
        if room is not None:
            out += [_make("passage", seat, to=r) for r in self.board.passage_from(room)]
        if room is not None or (self.phase == "move" and not self.edition.turns.must_move):
            out.append(_make("stay", seat))
        return out

    def _may_accuse(self, seat: int) -> bool:
        if self.phase not in ("start", "act") or not self.active(seat):
            return False
        if self.accuse_when == "anywhere":
            return True
        if self.accuse_when == "in-room":
            return self.room_of(seat) is not None
        return self.suggested

    def _suggestions(self, seat: int) -> tuple[Action, ...]:
        # Keyed by the decks, not the edition's id: two editions may share an id (a renamed
        # copy, a variant) and still differ in their cards.
        return _cached(("suggest", self._suspects, self._weapons, seat), lambda: tuple(
            _make("suggest", seat, cards=[s, w])
            for s in self._suspects for w in self._weapons))

    def _accusations(self, seat: int) -> tuple[Action, ...]:
        return _cached(("accuse", self._suspects, self._weapons, self._rooms, seat),
                       lambda: tuple(
            _make("accuse", seat, cards=list(c))
            for c in itertools.product(self._suspects, self._weapons, self._rooms)))

    def proofs(self, seat: int) -> set[tuple[str, str]]:
        """(player, card) pairs that ``seat``'s own record proves were withheld: the player
        passed on a suggestion naming the card, and ``seat`` has seen them hold it."""
        me = self.names[seat]
        passed: set[tuple[str, str]] = set()
        seen: set[tuple[str, str]] = set()
        for event in self.events:
            if "suggest" in event:
                passed.update((p, c) for p in event.get("passed", ()) for c in event["suggest"])
                if event.get("shown_by") and me in event.get("_seen_by", ()):
                    seen.add((event["shown_by"], event["card"]))
                if me in event.get("_seen_by", ()):
                    seen.update(event.get("showed", {}).items())
            elif "show" in event and me in event["_seen_by"]:
                seen.add((event["show"], event["card"]))
            elif "reveal" in event:
                seen.add((event["by"], event["reveal"]))
        return {(p, c) for p, c in passed & seen if p != me}

    # -- playing -----------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind == "roll":
            self._roll(seat)
        elif kind == "passage":
            self._say(f"{self.names[seat]} takes the secret passage to the "
                      f"{self.board.room_name(action['to'])}")
            self._enter(seat, action["to"])
        elif kind == "stay":
            room = self.room_of(seat)
            self._say(f"{self.names[seat]} stays in the {self.board.room_name(room)}" if room
                      else f"{self.names[seat]} stays on square {self.piece(seat)}")
            self.phase = "act"
        elif kind == "move":
            to = action["to"]
            if isinstance(to, str):
                self._say(f"{self.names[seat]} moves into the {self.board.room_name(to)}")
                self._enter(seat, to)
            else:
                self.positions[self.characters[seat]] = tuple(to)
                self._say(f"{self.names[seat]} moves to square {tuple(to)}")
                self.phase = "act"
        elif kind == "suggest":
            self._suggest(seat, tuple(action["cards"]))
        elif kind == "show":
            if self.phase == "refute":
                self._shown(action["card"])
            else:
                self._clue_shown(action["card"])
        elif kind == "reveal":
            self._clue_shown(action["card"])
        elif kind == "pass":
            self._say(f"{self.names[seat]} says they cannot show a card")
            self.pending["passed"].append(seat)
            self._next_refuter()
        elif kind == "clue":
            target = self.names.index(action["player"])
            self.tasks = [{"shower": target, "to": seat,
                           "public": self.clue_card.kind == "reveal"}]
            self._run_tasks()
        elif kind == "accuse":
            self._accuse(seat, tuple(action["cards"]))
        elif kind == "check":
            self._check(seat, action["player"], action["card"])
        elif kind == "end":
            self._end_turn()

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.turn_number += 1
        self.phase = "start"
        self.rolled: tuple[int, ...] = ()
        self.total = 0
        self.entered: str | None = None
        self.suggested = False
        self.any_room = False
        self.summoned_now = self.summoned[seat]
        self.summoned[seat] = False
        self.pending: dict[str, Any] | None = None
        self.tasks: list[dict[str, Any]] = []
        self.clue_index: int | None = None
        self.reachable: tuple[tuple[str, ...], tuple[Square, ...]] = ((), ())
        self._say(f"-- Turn {self.turn_number}: {self.names[seat]} "
                  f"({self._name(self.characters[seat])}), "
                  f"{self._where(self.piece(seat))}")

    def _end_turn(self) -> None:
        n = len(self.names)
        for k in range(1, n + 1):
            seat = (self.turn + k) % n
            if self.active(seat):
                self._begin_turn(seat)
                return
        self._finish(None, "Nobody can still win: every player has accused wrongly or been "
                           "found a false witness")

    def _finish(self, winner: int | None, text: str) -> None:
        self._winner = winner
        self._over = True
        self.phase = "over"
        self._say(f"{text} (the envelope: {self._names(c.id for c in self.deal.envelope)})")

    def _roll(self, seat: int) -> None:
        faces = tuple(self._throw() for _ in range(self.dice.count))
        self.rolled, self.total = faces, sum(faces)
        glass = any(f in self.dice.icon_faces for f in faces)
        shown = " + ".join(f"{f} (glass)" if f in self.dice.icon_faces else str(f)
                           for f in faces)
        self._say(f"{self.names[seat]} rolls {shown} = {self.total}")
        self.phase = "move"
        if glass and self.clue_deck:
            self._draw_clue(seat)
        else:
            self._after_clue()

    def _throw(self) -> int:
        """One die thrown: the next face of the game's seeded sequence."""
        self.throws += 1
        return self.fixed.faces[self.throws - 1]

    def _stuck(self, seat: int) -> None:
        """No square or room in reach: in a room that is staying, in a corridor the turn ends."""
        self._say(f"{self.names[seat]} cannot move")
        self.phase = "act"

    def _enter(self, seat: int, room: str) -> None:
        self.positions[self.characters[seat]] = room
        self.entered = room
        self.phase = "act"
        if room in self.piles:
            name, pile = self.names[seat], self.piles[room]
            card = self.fixed.pile_cards[room]
            self.emit({"room_card": pile, "by": name, "card": card, "_seen_by": [name]},
                      f"{name} looks at the face-down card in the "
                      f"{self.board.room_name(room)}: {self._name(card)}")

    # -- Clue cards --------------------------------------------------------------------------
    def _draw_clue(self, seat: int) -> None:
        index, *rest = self.clue_order
        self.clue_order = (*rest, index)
        card = self.clue_deck[index]
        self.clue_index = index
        self._say(f"{self.names[seat]} draws a Clue card, {card.title!r}: {card.text}")
        others = self.answerers(seat)      # to the left, round the table, still in the game
        ring = [seat, *others]
        if card.kind == "any-room":
            self.any_room = True
            self._after_clue()
        elif card.kind == "left-shows":
            self.tasks = [{"shower": s, "to": seat, "public": False} for s in others[:1]]
            self._run_tasks()
        elif card.kind == "all-show-left":
            k = len(ring)
            self.tasks = [{"shower": ring[i], "to": ring[(i + 1) % k], "public": False}
                          for i in range(k)] if k > 1 else []
            self._run_tasks()
        elif len(others) <= 1:  # show-me / reveal with one other player: nothing to choose
            self.tasks = [{"shower": s, "to": seat, "public": card.kind == "reveal"}
                          for s in others]
            self._run_tasks()
        else:
            self.phase = "clue-choose"

    def _run_tasks(self) -> None:
        while self.tasks:
            shower = self.tasks[0]["shower"]
            if len(self.hands[shower]) > 1:
                self.phase = "clue-show"
                return
            self._clue_shown(next(iter(self.hands[shower])))
        self._after_clue()

    def _clue_shown(self, card: str) -> None:
        task = self.tasks.pop(0)
        shower, to = self.names[task["shower"]], self.names[task["to"]]
        if task["public"]:
            self.emit({"reveal": card, "by": shower},
                      f"{shower} reveals {self._name(card)} to everyone")
        else:
            self.emit({"show": shower, "to": to, "card": card, "_seen_by": [shower, to]},
                      f"{shower} shows {to} {self._name(card)}")
        if self.tasks:
            self._run_tasks()
        else:
            self._after_clue()

    def _after_clue(self) -> None:
        """Start the move: find where the roll (or a Clue card) lets the piece go."""
        self.phase = "move"
        self._find_targets()
        if not any(self.reachable) and not self._instead_of_moving(self.turn,
                                                                  self.room_of(self.turn)):
            self._stuck(self.turn)

    # -- suggestions -------------------------------------------------------------------------
    def _suggest(self, seat: int, cards: tuple[str, ...]) -> None:
        room = self.room_of(seat)
        suspect = next(c for c in cards if c in self._suspects)
        weapon = next(c for c in cards if c in self._weapons)
        named = sorted((suspect, weapon, room), key=self._order.__getitem__)
        if self.positions[suspect] != room:
            self.positions[suspect] = room
            if suspect in self.characters and self.characters.index(suspect) != seat:
                self.summoned[self.characters.index(suspect)] = True
        self.weapons[weapon] = room
        self.suggested = True
        self.pending = {"by": seat, "named": named, "passed": [],
                        "order": self.answerers(seat)}
        if self.fixed.every:
            self.pending["showed"] = []
        self._say(f"{self.names[seat]} suggests {self._name(suspect)} in the "
                  f"{self.board.room_name(room)} with the {self._name(weapon)}")
        self._next_refuter()

    def _next_refuter(self) -> None:
        p = self.pending
        while p["order"]:
            seat = p["order"].pop(0)
            options = [c for c in p["named"] if c in self.hands[seat]]
            if not options:
                p["passed"].append(seat)
                continue
            p["shower"], p["options"] = seat, options
            self.phase = "refute"
            return
        if self.fixed.every:
            self._every_answered()
            return
        by = self.names[p["by"]]
        passed = [self.names[s] for s in p["passed"]]
        self.emit({"suggest": p["named"], "by": by, "passed": passed},
                  f"{', '.join(passed)} cannot show a card: nobody can answer" if passed
                  else "nobody is left in the game to answer")
        self.pending = None
        self.phase = "act"

    def _shown(self, card: str) -> None:
        p = self.pending
        if self.fixed.every:
            p["showed"].append((p["shower"], card))
            self._next_refuter()
            return
        by, shower = self.names[p["by"]], self.names[p["shower"]]
        passed = [self.names[s] for s in p["passed"]]
        text = "".join(f"{who} cannot show a card; " for who in passed)
        self.emit({"suggest": p["named"], "by": by, "passed": passed, "shown_by": shower,
                   "card": card, "_seen_by": [by, shower]},
                  text + f"{shower} shows {by} {self._name(card)}")
        self.pending = None
        self.phase = "act"

    def _every_answered(self) -> None:
        """Every player asked has shown a card or passed: one event lists them all, in asking
        order. Only the suggester sees the cards (each shower knows their own card anyway),
        as in the card games."""
        p = self.pending
        by = self.names[p["by"]]
        shown = dict(p["showed"])
        passed = [self.names[s] for s in p["passed"]]
        if shown:
            text = "; ".join(f"{self.names[s]} shows {by} {self._name(shown[s])}" if s in shown
                             else f"{self.names[s]} cannot show a card"
                             for s in self.answerers(p["by"]))
        elif passed:
            text = f"{', '.join(passed)} cannot show a card: nobody can answer"
        else:
            text = "nobody is left in the game to answer"
        self.emit({"suggest": p["named"], "by": by, "passed": passed,
                   "showed": {self.names[s]: c for s, c in p["showed"]}, "_seen_by": [by]},
                  text)
        self.pending = None
        self.phase = "act"

    # -- accusations and false witnesses -----------------------------------------------------
    def _accuse(self, seat: int, cards: tuple[str, ...]) -> None:
        solution = [c.id for c in self.deal.envelope]
        correct = set(cards) == set(solution)
        name = self.names[seat]
        self.emit(self._accusation_event(seat, cards, correct, solution),
                  f"{name} accuses {self._names(cards)}: " + ("right!" if correct else "wrong"))
        if correct:
            self._finish(seat, f"{name} solves the crime and wins")
            return
        self.accused[seat] = True
        self._say(f"{name} leaves the game" if self.fixed.leaves
                  else f"{name} takes no more turns but still shows cards")
        self._end_turn()

    def _check(self, seat: int, player: str, card: str) -> None:
        target = self.names.index(player)
        self.false_witnesses[target] = True
        self.emit({"reveal": card, "by": player},
                  f"{self.names[seat]} proves that {player} withheld {self._name(card)}: "
                  f"{player} is a false witness, takes no more turns but still shows cards")

    # -- names and reasons -------------------------------------------------------------------
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
        return f"on {self._name(start)}'s start square" if start in self._order \
            else f"on square {node}"

    def _canonical(self, action: Action) -> Action:
        """Names, aliases and seat numbers become ids; lists of cards go in deck order."""
        args = dict(action.args)
        for key in ("card",):
            if isinstance(args.get(key), str):
                args[key] = self._card(args[key]) or args[key]
        if isinstance(args.get("cards"), tuple) and all(isinstance(c, str)
                                                        for c in args["cards"]):
            ids = [self._card(c) or c for c in args["cards"]]
            if all(i in self._order for i in ids):
                ids.sort(key=self._order.__getitem__)
            args["cards"] = tuple(ids)
        to = args.get("to")
        if isinstance(to, str):
            args["to"] = self._room_id(to)
        player = args.get("player")
        if isinstance(player, int) and not isinstance(player, bool) \
                and 0 <= player < len(self.names):
            args["player"] = self.names[player]
        if args == dict(action.args):
            return action
        return Action.make(action.kind, action.seat, **{k: _plain(v) for k, v in args.items()})

    def _room_id(self, name: str) -> str:
        if name in self._rooms:
            return name
        card = self._card(name)
        return card if card in self._rooms else name

    def status(self) -> str:
        """Where everything stands, and whose move it is, as text."""
        lines = []
        for seat, name in enumerate(self.names):
            flags = []
            if self.gone(seat):
                flags.append("accused wrongly, left the game")
            elif self.accused[seat]:
                flags.append("accused wrongly")
            if self.false_witnesses[seat]:
                flags.append("false witness")
            extra = f" [{', '.join(flags)}]" if flags else ""
            lines.append(f"{name} ({self._name(self.characters[seat])}) "
                         f"{self._where(self.piece(seat))}{extra}")
        lines.append("Weapons: " + ", ".join(f"{self._name(w)} ({self.board.room_name(r)})"
                                             for w, r in self.weapons.items()))
        if self._over:
            lines.append("Game over: " + ("nobody won" if self._winner is None
                                          else f"{self.names[self._winner]} won"))
        else:
            lines.append(f"Turn {self.turn_number}: {self.names[self.current]} to act "
                         f"({self.phase})")
        return "\n".join(lines)


def _make(kind: str, seat: int, **args: Any) -> Action:
    """Actions of the board game, each built once and shared (they are immutable values)."""
    key = (kind, seat, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                    for k, v in args.items())))
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action.make(kind, seat, **args)
    return action


_MOVES: dict[tuple[int, Node], Action] = {}


def _move(seat: int, to: Node) -> Action:
    """``move(to=...)``: the most frequent action, looked up by its plain key."""
    action = _MOVES.get((seat, to))
    if action is None:
        action = _MOVES[seat, to] = Action.make("move", seat, to=to)
    return action


_MOVE_LISTS: dict[tuple, tuple[Action, ...]] = {}


def _moves(seat: int, reachable: tuple[tuple[str, ...], tuple[Square, ...]]
           ) -> tuple[Action, ...]:
    """The move actions to ``reachable``'s rooms and squares (the same few target lists come
    back roll after roll; the table is emptied when it grows large)."""
    key = (seat, reachable)
    moves = _MOVE_LISTS.get(key)
    if moves is None:
        if len(_MOVE_LISTS) > 20_000:
            _MOVE_LISTS.clear()
        rooms, squares = reachable
        moves = _MOVE_LISTS[key] = tuple(_move(seat, to) for to in (*rooms, *squares))
    return moves


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _choice(value: Any, allowed: Sequence[str], option: str) -> str:
    if value not in allowed:
        raise ValueError(f"option {option}: expected one of {list(allowed)}, got {value!r}")
    return value


def _flag(value: Any, option: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"option {option}: expected true or false, got {value!r}")
    return value


@cache
def _clue_cards() -> tuple[ClueCard, ...]:
    return load_clue_deck().cards
