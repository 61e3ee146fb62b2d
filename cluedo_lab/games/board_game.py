"""The three board games, playable: Cluedo (1949), Clue (2014 mansion) and Clue (2023).

A :class:`BoardGame` is the shared game API (:mod:`cluedo_lab.games.game`) on a board from
:mod:`cluedo_lab.rules.board`: a seeded deal plus a list of actions, ``legal_actions()`` /
``apply()``, every event written to each seat's record exactly as that seat learned it. Rules
come from the edition file (dice, board, who starts, ``question.reenter_to_repeat``,
``deal.face_down_places``); no card name is written here.

A turn, as actions (card arguments are card ids; names and aliases are accepted):

1. ``roll`` (the game rolls its seeded dice), or ``passage(to=room)`` from a room with a secret
   passage, or ``stay`` in the room you are in. With ``turns.roll = "first"`` (2023) everybody
   rolls, and staying or the passage come after the roll. A 2023 roll showing the magnifying
   glass draws one Clue card (:mod:`cluedo_lab.rules.clue_cards`), resolved at once:
   ``clue(player=name)`` when the drawer picks a player, ``show(card)`` / ``reveal(card)`` by
   whoever must show one.
2. ``move(to=room)`` or ``move(to=[row, col])``: any room or corridor square the roll reaches
   (orthogonal steps, no square twice, none occupied, rooms through doors, entering ends the
   move, no exact roll needed for a room; a corridor square at exactly the roll in 1949 and
   2014, within it in 2023: ``turns.movement``). With ``turns.must_move = false`` (2023: you
   "may" move) ``stay`` keeps the piece where it is.
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
- A move that ends in a corridor uses the whole roll in 1949 and 2014 ("that number of
  squares") and may stop short in 2023 ("up to"); no square is crossed twice in one move, which
  only the 2023 book says (``turns.movement`` and its ``[[assumptions]]``).
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

Rules read from the edition, so that variants (:func:`cluedo_lab.rules.variant.variant`) play on a
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

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..rules.board import Board, walk_of
from ..rules.dice import Dice
from ..rules.edition import ACCUSE_WHEN, SPARE_PIECES, Edition, load_edition, normalize
from ..rules.errors import InvalidArgument
from .board_accusations import BoardAccusations
from .board_clues import BoardClueCards
from .board_movement import BoardMovement
from .board_state import Faces, Fixed
from .board_suggestions import BoardSuggestions
from .board_why import BoardRules
from .game import Action, edition_of

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

_EDITIONS: dict[str, Edition] = {}


def _edition(ref: Edition | str | Mapping[str, Any]) -> Edition:
    """Editions are immutable: load each shipped one once (a load reads and checks a file)."""
    if isinstance(ref, Edition | Mapping):
        return edition_of(ref)
    if ref not in _EDITIONS:
        _EDITIONS[ref] = load_edition(ref)
    return _EDITIONS[ref]


class BoardGame(BoardRules, BoardMovement, BoardSuggestions, BoardClueCards, BoardAccusations):
    """A board edition played by the rules of its rule book (see the module docstring): the
    set-up, whose turn it is and the carrying out of an action are here; what is legal (the
    legal actions and the reason for a refusal, from one set of rules), moving, suggestions,
    Clue cards and accusations are its parts (:mod:`.board_why`, :mod:`.board_movement`,
    :mod:`.board_suggestions`, :mod:`.board_clues`, :mod:`.board_accusations`), on the state
    of :mod:`.board_state`."""

    family: ClassVar[str] = "board"

    def __init__(self, edition: Edition | str, players: int | Sequence[str], seed: int = 0,
                 **options: Any):
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise InvalidArgument(f"unknown option {unknown[0]!r}; options: "
                                  f"{', '.join(OPTIONS)}")
        super().__init__(_edition(edition), players, seed, **options)

    def setup(self) -> None:
        ed = self.edition
        if ed.board is None or ed.dice is None:
            raise ValueError(f"{ed.id} has no board or no dice")
        if ed.accusation.simultaneous:
            raise ValueError(f"{ed.id}: the board game plays one accuser at a time")
        self._cache = ((), (), None)
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
        self.fixed = Fixed(
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
            faces=Faces(f"{self.seed}-dice", dice.sides),
            every=ed.question.answer == "every-who-can",
            leaves=ed.accusation.wrong == "leaves",
            keeps_moving=ed.accusation.wrong == "keeps-moving",
            name_yourself=ed.question.name_yourself)
        self.throws = 0

        # Pieces, weapons and the Clue-card deck: all seeded.
        played = set(self.characters)
        self.positions = {}
        for suspect in suspects:
            if suspect in played or spare == "start":
                self.positions[suspect] = board.starts[suspect]
            else:
                self.positions[suspect] = self.rng.choice(rooms)
        shuffled = list(rooms)
        self.rng.shuffle(shuffled)
        self.weapons = {w: shuffled[i % len(shuffled)] for i, w in enumerate(weapons)}
        self.clue_order = ()
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
        dealer = self.edition.dealer_seat(n)
        return dealer if first == "dealer" else (dealer + 1) % n

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

    def _apply(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind == "roll":
            self._roll(seat)
        elif kind == "passage":
            self._passage(seat, action["to"])
        elif kind == "stay":
            self._stay(seat)
        elif kind == "move":
            self._move_piece(seat, action["to"])
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
            self._pass(seat)
        elif kind == "clue":
            self._aim_clue(seat, action["player"])
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
        self.rolled = ()
        self.total = 0
        self.entered = None
        self.suggested = False
        self.unanswered = False
        self.any_room = False
        self.summoned_now = self.summoned[seat]
        self.summoned[seat] = False
        self.pending = None
        self.tasks = []
        self.clue_index = None
        self.reachable = ((), ())
        self._say(f"-- Turn {self.turn_number}: {self.names[seat]} "
                  f"({self._name(self.characters[seat])}), "
                  f"{self._where(self.piece(seat))}")

    def _end_turn(self) -> None:
        n = len(self.names)
        if any(self.active(seat) for seat in range(n)):
            for k in range(1, n + 1):
                seat = (self.turn + k) % n
                if self.takes_turns(seat):
                    self._begin_turn(seat)
                    return
        self._finish(None, "Nobody can still win: every player has accused wrongly or been "
                           "found a false witness")

    def _finish(self, winner: int | None, text: str) -> None:
        self._winner = winner
        self._over = True
        self.phase = "over"
        self._say(f"{text} (the envelope: {self._names(c.id for c in self.deal.envelope)})")

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
            lines.append(f"Turn {self.turn_number}: {self.names[self._acting]} to act "
                         f"({self.phase})")
        return "\n".join(lines)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _choice(value: Any, allowed: Sequence[str], option: str) -> str:
    if value not in allowed:
        raise ValueError(f"option {option}: expected one of {list(allowed)}, got {value!r}")
    chosen: str = value
    return chosen


def _flag(value: Any, option: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"option {option}: expected true or false, got {value!r}")
    flag: bool = value
    return flag
