"""Moving on a board: rolling the game's seeded dice, where a roll reaches, secret passages,
staying, entering a room (and looking at its face-down card, 2023 two-player), and a piece
that cannot move. The one movement search is :class:`cluedo_lab.rules.board.Walk`."""

from __future__ import annotations

from ..rules.board import Square, walk_of
from .board_state import BoardState

__all__ = ["BoardMovement"]


class BoardMovement(BoardState):
    """The movement part of :class:`~cluedo_lab.games.board_game.BoardGame`."""

    def _passage(self, seat: int, to: str) -> None:
        self._say(f"{self.names[seat]} takes the secret passage to the "
                  f"{self.board.room_name(to)}")
        self._enter(seat, to)

    def _stay(self, seat: int) -> None:
        room = self.room_of(seat)
        self._say(f"{self.names[seat]} stays in the {self.board.room_name(room)}" if room
                  else f"{self.names[seat]} stays on square {self.piece(seat)}")
        self.phase = "act"

    def _move_piece(self, seat: int, to: str | Square) -> None:
        if isinstance(to, str):
            self._say(f"{self.names[seat]} moves into the {self.board.room_name(to)}")
            self._enter(seat, to)
        else:
            square = (to[0], to[1])
            self.positions[self.characters[seat]] = square
            self._say(f"{self.names[seat]} moves to square {square}")
            self.phase = "act"

    def targets(self) -> tuple[tuple[str, ...], tuple[Square, ...]]:
        """Rooms and corridor squares the current roll lets the player move to (computed once
        per roll, when the move starts): rooms within the roll, squares at exactly the roll
        or within it, as the edition's ``turns.movement`` says."""
        return self.reachable if self.phase == "move" else ((), ())

    def _find_targets(self) -> None:
        here = self.piece(self.turn)
        near, squares = walk_of(self.edition.board).targets(
            here, self.total, self.blocked(self.turn), self.edition.turns.movement)
        rooms = tuple(r for r in self._rooms if r != here and (self.any_room or r in near))
        self.reachable = (rooms, squares)

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

    def _after_clue(self) -> None:
        """Start the move: find where the roll (or a Clue card) lets the piece go."""
        self.phase = "move"
        self._find_targets()
        if not any(self.reachable) and not self._instead_of_moving(self.turn):
            self._stuck(self.turn)

