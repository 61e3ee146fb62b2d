"""2023 Clue cards on a board: drawn when the dice show the magnifying glass, resolved before
the move (a room of your choice, a card shown to you, every player showing to the left, a card
revealed to everyone). The deck is shuffled with the seed; a drawn card goes to the bottom."""

from __future__ import annotations

from .board_state import BoardState

__all__ = ["BoardClueCards"]


class BoardClueCards(BoardState):
    """The Clue-card part of :class:`~cluedo_lab.games.board_game.BoardGame`."""

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
            self._show_for_clue(next(iter(self.hands[shower])))
        self._after_clue()

    def _clue_shown(self, card: str) -> None:
        """The shower chose ``card``: show it, then go on with the Clue card's other tasks."""
        self._show_for_clue(card)
        self._run_tasks()

    def _show_for_clue(self, card: str) -> None:
        task = self.tasks.pop(0)
        shower, to = self.names[task["shower"]], self.names[task["to"]]
        if task["public"]:
            self.emit({"reveal": card, "by": shower},
                      f"{shower} reveals {self._name(card)} to everyone")
        else:
            self.emit({"show": shower, "to": to, "card": card, "_seen_by": [shower, to]},
                      f"{shower} shows {to} {self._name(card)}")


    def _aim_clue(self, seat: int, player: str) -> None:
        """The drawer picks who shows (or reveals) a card for the Clue card."""
        card = self.clue_card
        assert card is not None     # a player is picked only while a Clue card waits
        self.tasks = [{"shower": self.names.index(player), "to": seat,
                       "public": card.kind == "reveal"}]
        self._run_tasks()
