"""One seat at a game: what its player may see and do, asked the same way of every game family.

A :class:`~cluedo_lab.games.game.Game` knows everything (every hand, the envelope, the engine's
log written for an all-seeing reader). A :class:`Seat` is the part of it one player has at a
real table: the actions they may take now, their record (what they saw, event by event), the
public state (whose turn it is, where the pieces and markers stand, the Clue card being read),
what is theirs alone (their 2002 action cards), and the solution once the game is over.

The families differ: only a board game has pieces and rooms, only the 2002 card game action
cards and destination markers, only the 2018 card game accusations others may join. Each family
has its own small :class:`Seat` (:func:`seat_of` picks it, as :func:`~.factory.game_class` picks
the engine), and a family without a thing answers with nothing (``None``, ``False``, an empty
list), so a caller asks one typed question instead of probing the game for attributes.

What an action tells each player goes through the one rule for what a seat sees,
:func:`~cluedo_lab.records.seat_view`: :meth:`Seat.heard` writes the action as an event with
who saw which argument (a Private Tip's wording: its two players) and reads it as this seat.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ..records import Record, seat_view
from ..rules.clue_cards import ClueCard
from ..rules.edition import Card
from ..rules.errors import IllegalAction
from .action import Action
from .board_game import BoardGame
from .card_2002 import CardGame2002
from .card_2018 import CardGame2018
from .card_game import CardGame
from .game import Game

__all__ = ["Seat", "BoardSeat", "CardSeat2002", "CardSeat2018", "seat_of"]

G = TypeVar("G", bound=Game, covariant=True)
C = TypeVar("C", bound=CardGame, covariant=True)


class Seat(Generic[G]):
    """Seat ``index`` of ``game``, as its player sees it. Build one with :func:`seat_of`."""

    def __init__(self, game: G, index: int) -> None:
        if not 0 <= index < len(game.names):
            raise ValueError(f"there is no seat {index} (seats 0-{len(game.names) - 1})")
        self.game = game
        self.index = index

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.index} ({self.name}) at {self.game!r}>"

    @property
    def name(self) -> str:
        return self.game.names[self.index]

    # -- doing -------------------------------------------------------------------------------
    @property
    def to_act(self) -> bool:
        """Must this seat act now (its turn, or a card of its hand to show)?"""
        return not self.game.is_over and self.game.current == self.index

    def legal_actions(self) -> list[Action]:
        """What this seat may do now: nothing unless it must act."""
        return self.game.legal_actions() if self.to_act else []

    def legal_form(self, action: Action) -> Action:
        """``action`` as the game's legal actions write it (names turned into ids), if this
        seat may take it now; else :class:`IllegalAction` saying why."""
        if action.seat != self.index:
            raise IllegalAction(f"you sit in seat {self.index} ({self.name}), not seat "
                                f"{action.seat}")
        return self.game.legal_form(action)

    # -- what every family shows -------------------------------------------------------------
    def record(self) -> Record:
        """This seat's record: what its player saw (:func:`~cluedo_lab.records.seat_view`)."""
        return self.game.record(self.index)

    @property
    def turn(self) -> int | None:
        """Whose turn it is (while another seat chooses a card to show, still the asker's)."""
        return self.game.current

    def solution(self) -> tuple[Card, ...] | None:
        """The envelope's cards, which everybody sees once the game is over (None before)."""
        return tuple(self.game.deal.envelope) if self.game.is_over else None

    def told(self, action: Action) -> dict[str, Any]:
        """``action`` as a record event: its arguments, with who saw each (everybody at the
        table, unless the family's rules hide one)."""
        return {"action": action.kind, "by": self.game.names[action.seat],
                **{key: value for key, value in action.args},
                "_seen_by": list(self.game.names)}

    def heard(self, action: Action) -> dict[str, Any]:
        """``action`` as this seat's player heard it: an argument they did not see reads
        ``None`` (:func:`~cluedo_lab.records.seat_view` decides)."""
        return seat_view(self.told(action), self.name)

    # -- what only some families have --------------------------------------------------------
    @property
    def piece(self) -> str | None:
        """The suspect (card id) this seat plays on the board (None without a board)."""
        return None

    def room_of(self, seat: int) -> str | None:
        """The room (board room id) ``seat``'s piece stands in, if any: public."""
        return None

    def place_name(self, value: str) -> str | None:
        """The name of a board room id (None when ``value`` names none)."""
        return None

    @property
    def clue_card(self) -> ClueCard | None:
        """The Clue card being read out this turn (board 2023)."""
        return None

    @property
    def accusation_open(self) -> bool:
        """Has a player said this turn that they accuse, so that others may join (2018)?"""
        return False

    @property
    def action_cards(self) -> list[str] | None:
        """The labels of this seat's action cards, its own secret (2002; None: no deck)."""
        return None

    @property
    def markers(self) -> list[tuple[str, str]] | None:
        """Each player's destination marker as (player, place id) (2002; None: none)."""
        return None

    @property
    def board_game(self) -> BoardGame | None:
        """The game, when it is played on a board (its pieces are public)."""
        return None

    def board_lines(self) -> list[str]:
        """Where every piece and weapon stands, as lines of text (a board game)."""
        return []


class _CardSeat(Seat[C]):
    """A card game's seat: its turn is the game's."""

    @property
    def turn(self) -> int | None:
        return self.game.turn


class CardSeat2018(_CardSeat[CardGame2018]):
    """A seat at Cluedo Card Game (2018)."""

    @property
    def accusation_open(self) -> bool:
        return bool(self.game.accusing)


class CardSeat2002(_CardSeat[CardGame2002]):
    """A seat at Cluedo The Card Game (2002): action cards, destination markers."""

    @property
    def action_cards(self) -> list[str] | None:
        return self.game.action_cards(self.index)

    @property
    def markers(self) -> list[tuple[str, str]] | None:
        return [(name, marker) for name, marker in zip(self.game.names, self.game.markers,
                                                        strict=True) if marker is not None]

    def told(self, action: Action) -> dict[str, Any]:
        """A Private Tip is passed face down: only its player and its target read which card
        it is (as only they see its event's wording)."""
        event = super().told(action)
        if action.kind == "play" and self.private_tip(action["card"]):
            event["_seen_by"] = [event["by"], action["target"]]
            event["_secret"] = ["card"]
        return event

    def private_tip(self, label: str) -> bool:
        """Is the action card labelled ``label`` a Private Tip?"""
        return self.game.action_kind(label).kind == "private-tip"


class BoardSeat(Seat[BoardGame]):
    """A seat at a board game: pieces, rooms, the dice and Clue cards."""

    @property
    def turn(self) -> int | None:
        return self.game.turn

    @property
    def piece(self) -> str | None:
        return self.game.characters[self.index]

    def room_of(self, seat: int) -> str | None:
        return self.game.room_of(seat)

    def place_name(self, value: str) -> str | None:
        board = self.game.board
        return board.room_name(value) if value in board.rooms else None

    @property
    def clue_card(self) -> ClueCard | None:
        return self.game.clue_card

    @property
    def board_game(self) -> BoardGame | None:
        return self.game

    def board_lines(self) -> list[str]:
        return self.game.status().splitlines()


def seat_of(game: Game, index: int) -> Seat[Game]:
    """Seat ``index`` of ``game``, as the seat of its family."""
    if isinstance(game, BoardGame):
        return BoardSeat(game, index)
    if isinstance(game, CardGame2002):
        return CardSeat2002(game, index)
    if isinstance(game, CardGame2018):
        return CardSeat2018(game, index)
    return Seat(game, index)
