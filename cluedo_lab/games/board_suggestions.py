"""Suggestions on a board: the suspect's piece and the weapon move to the room, then the players
to the left answer in turn (the first who can shows a card, or with ``question.answer =
"every-who-can"`` every player who can), and one record event says who saw what."""

from __future__ import annotations

from .board_actions import cached, make
from .board_state import BoardState, Pending
from .game import Action

__all__ = ["BoardSuggestions"]


class BoardSuggestions(BoardState):
    """The suggestion part of :class:`~cluedo_lab.games.board_game.BoardGame`."""

    def _suggestions(self, seat: int) -> tuple[Action, ...]:
        # Keyed by the decks, not the edition's id: two editions may share an id (a renamed
        # copy, a variant) and still differ in their cards.
        suspects = self.callable_suspects(seat)
        return cached(("suggest", suspects, self._weapons, seat), lambda: tuple(
            make("suggest", seat, cards=[s, w])
            for s in suspects for w in self._weapons))

    def _suggest(self, seat: int, cards: tuple[str, ...]) -> None:
        room = self.room_of(seat)
        assert room is not None     # the legal actions offer suggestions only in a room
        suspect = next(c for c in cards if c in self._suspects)
        weapon = next(c for c in cards if c in self._weapons)
        named = sorted((suspect, weapon, room), key=self._order.__getitem__)
        if self.positions[suspect] != room:
            self.positions[suspect] = room
            if suspect in self.characters and self.characters.index(suspect) != seat:
                self.summoned[self.characters.index(suspect)] = True
        self.weapons[weapon] = room
        self.suggested = True
        pending: Pending = {"by": seat, "named": named, "passed": [],
                            "order": self.answerers(seat)}
        if self.fixed.every:
            pending["showed"] = []
        self.pending = pending
        self._say(f"{self.names[seat]} suggests {self._name(suspect)} in the "
                  f"{self.board.room_name(room)} with the {self._name(weapon)}")
        self._next_refuter()

    def _next_refuter(self) -> None:
        p = self._asking
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
        self.unanswered = True
        self.emit({"suggest": p["named"], "by": by, "passed": passed},
                  f"{', '.join(passed)} cannot show a card: nobody can answer" if passed
                  else "nobody is left in the game to answer")
        self.pending = None
        self.phase = "act"

    def _shown(self, card: str) -> None:
        p = self._asking
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
        p = self._asking
        by = self.names[p["by"]]
        shown = dict(p["showed"])
        passed = [self.names[s] for s in p["passed"]]
        self.unanswered = not shown
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

    def _pass(self, seat: int) -> None:
        """A refuter withholds the cards they hold (a false witness, when the game allows)."""
        self._say(f"{self.names[seat]} says they cannot show a card")
        self._asking["passed"].append(seat)
        self._next_refuter()
