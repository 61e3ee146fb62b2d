"""Accusations and false witnesses on a board: when a seat may accuse (``accusation.when``),
what a right or a wrong accusation does, and the proofs a seat's own record holds that a
player withheld a card (the ``false_witness`` option)."""

from __future__ import annotations

import itertools

from .board_actions import cached, make
from .board_state import BoardState
from .game import Action

__all__ = ["BoardAccusations"]


class BoardAccusations(BoardState):
    """The accusation part of :class:`~cluedo_lab.games.board_game.BoardGame`."""

    def _may_accuse(self, seat: int) -> bool:
        return self._accuse_refusal(seat) is None

    def _accuse_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not accuse now (None: it may): the one statement of when an
        accusation is legal, read by the legal actions and the refusals alike."""
        who, name = self.names[seat], self.edition.name
        if self.phase not in ("start", "act"):
            return f"{who} must first finish moving (the roll was {self.total})"
        if not self.active(seat):
            return f"{who} accused wrongly or was found a false witness, and may make no " \
                   "more suggestions or accusations"
        if self.phase == "start" and self.roll_first:
            return f"in {name} every turn begins with a roll: accuse after rolling"
        when = self.accuse_when
        if when in ("after-suggestion", "after-unanswered-suggestion") and not self.suggested:
            return f"in {name} an accusation is made in the same turn as your own " \
                   "suggestion, after it"
        if when == "after-unanswered-suggestion" and not self.unanswered:
            return f"in {name} a card shown to you ends your turn: you may accuse only " \
                   "after a suggestion nobody could answer"
        if when == "in-room" and self.room_of(seat) is None:
            return f"{who} must be in a room to accuse (any room may be named)"
        return None

    def _accusations(self, seat: int) -> tuple[Action, ...]:
        return cached(("accuse", self._suspects, self._weapons, self._rooms, seat),
                       lambda: tuple(
            make("accuse", seat, cards=list(c))
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
                  else f"{name} still moves and shows cards, but makes no more suggestions "
                       "or accusations" if self.fixed.keeps_moving
                  else f"{name} takes no more turns but still shows cards")
        self._end_turn()

    def _check(self, seat: int, player: str, card: str) -> None:
        target = self.names.index(player)
        self.false_witnesses[target] = True
        self.emit({"reveal": card, "by": player},
                  f"{self.names[seat]} proves that {player} withheld {self._name(card)}: "
                  f"{player} is a false witness, takes no more turns but still shows cards")

