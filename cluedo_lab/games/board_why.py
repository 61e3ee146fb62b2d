"""Why a board game refuses an action: the reasons :meth:`BoardGame.why_illegal` gives, one
rule at a time (the move, the suggestion, the card shown, the accusation, the false witness)."""

from __future__ import annotations

from ..rules.board import walk_of
from .board_state import BoardState
from .game import Action

__all__ = ["KINDS", "BoardRefusals"]

KINDS = ("roll", "passage", "stay", "move", "suggest", "show", "pass", "clue", "reveal",
         "accuse", "check", "end")
"""Every kind of action in the board game."""


class BoardRefusals(BoardState):
    """The reasons half of :class:`BoardGame`: what was wrong with a refused action."""

    def why_illegal(self, action: Action) -> str:
        if self._over:
            who = "nobody won" if self._winner is None else f"{self.names[self._winner]} won"
            return f"the game is over ({who})"
        n = len(self.names)
        if not 0 <= action.seat < n:
            return f"there is no seat {action.seat} (seats 0-{n - 1})"
        if action.kind not in KINDS:
            return f"no action {action.kind!r} in the board game; kinds: {', '.join(KINDS)}"
        who = self.names[action.seat]
        if action.seat != self.current:
            return self._not_your_move(action.seat, who)
        reason = self._why(action, who)
        return reason or super().why_illegal(action)

    def _not_your_move(self, seat: int, who: str) -> str:
        current = self.names[self._acting]
        if self.phase == "refute":
            return (f"{current} must choose which card to show "
                    f"{self.names[self._asking['by']]}, not {who}")
        if self.phase == "clue-show":
            return f"{current} must choose a card for the Clue card, not {who}"
        if self.gone(seat):
            return f"{who} accused wrongly and left the game"
        if self.accused[seat]:
            return f"{who} accused wrongly: they take no more turns but still show cards"
        if self.false_witnesses[seat]:
            return f"{who} was found a false witness: no more turns, but still shows cards"
        return f"it is {current}'s turn, not {who}'s"

    def _why(self, action: Action, who: str) -> str | None:
        kind, phase, seat = action.kind, self.phase, action.seat
        room = self.room_of(seat)
        here = self.board.room_name(room) if room else None
        waiting = {"refute": ("show", "pass"), "clue-show": ("show", "reveal"),
                   "clue-choose": ("clue",)}
        if phase in waiting and kind not in waiting[phase]:
            task = {"refute": f"{who} must first show a card of the suggestion",
                    "clue-show": f"{who} must first choose a card for the Clue card",
                    "clue-choose": f"{who} must first choose a player for the Clue card"}
            return task[phase]
        if kind in ("passage", "stay") and phase == "start" and self.roll_first:
            return f"{who} must roll the dice first: every turn begins with a roll, and then " \
                   "you may move, stay or take a secret passage"
        if kind == "roll" and phase == "move":
            return f"{who} has already rolled this turn"
        if kind in ("roll", "passage", "stay") and phase not in ("start", "move"):
            return f"{who} has already moved (or rolled) this turn"
        if kind in ("passage", "stay") and phase == "move" and not self.roll_first and (
                kind == "passage" or self.edition.turns.must_move):
            return f"{who} has rolled: a secret passage or staying replaces the roll, so " \
                   "now the piece moves"
        if kind == "stay" and room is None and not self.edition.turns.must_move:
            return None
        if kind in ("passage", "stay") and room is None:
            return f"{who} is not in a room"
        if kind == "stay" and not self.may_stay(action.seat):
            return f"in {self.edition.name} you may not stay in the {here}: leave it and come " \
                   "back in to suggest it again (staying is allowed only after another " \
                   "player's suggestion moved your piece there)"
        if kind == "passage" and room is not None:
            exits = self.board.passage_from(room)
            if not exits:
                return f"the {here} has no secret passage"
            return f"the secret passage from the {here} leads to the " \
                   f"{self.board.room_name(exits[0])}, not {action.get('to')!r}"
        if kind == "move":
            return self._why_move(action, who)
        if kind == "suggest":
            return self._why_suggest(action, who, room)
        if kind in ("show", "reveal", "pass"):
            return self._why_show(action, who)
        if kind == "clue":
            if phase != "clue-choose":
                return "no Clue card is waiting for a player to be chosen"
            player = action.get("player")
            if player in self.names and self.gone(self.names.index(player)):
                return f"{player} left the game after a wrong accusation"
            return f"{player!r} is not another player at the table"
        if kind == "accuse":
            return self._why_accuse(action, who, room)
        if kind == "check":
            return self._why_check(action, who)
        if kind == "end" and phase != "act":
            if phase == "start":
                return f"{who} must first roll the dice" if self.roll_first \
                    else f"{who} must first roll, take a passage or stay"
            return f"{who} must first move (the roll was {self.total})"
        return None

    def _why_move(self, action: Action, who: str) -> str:
        if self.phase == "start":
            return f"{who} must roll the dice first" if self.roll_first \
                else f"{who} must roll the dice first (or take a secret passage, or stay)"
        if self.phase != "move":
            return f"{who} has already moved this turn"
        to = action.get("to")
        here = self.piece(action.seat)
        if isinstance(to, str):
            if to not in self._rooms:
                return f"{to!r} is not a room of {self.board.name}"
            if to == here:
                instead = " (stay instead)" if self.may_stay(action.seat) else ""
                return f"{who} is already in the {self.board.room_name(to)}: leaving and " \
                       f"coming back in one move is not allowed{instead}"
            need = walk_of(self.edition.board).reach(here, None,
                                                     self.blocked(action.seat)).get(to)
            if need is None:
                return f"other pieces block every way to the {self.board.room_name(to)}"
            return f"the {self.board.room_name(to)} is {need} moves away; the roll was " \
                   f"{self.total}"
        if not (isinstance(to, tuple) and len(to) == 2 and all(type(v) is int for v in to)):
            return f"move to a room id or a square [row, col], not {to!r}"
        square = (to[0], to[1])
        kind = self.board.kind(square)
        if kind != "corridor":
            return f"square {square} is {kind}: pieces enter rooms through doors, by the " \
                   "room's name"
        occupant = next((s for s, p in self.positions.items() if p == square), None)
        if occupant is not None:
            return f"square {square} is occupied by {self._name(occupant)}"
        if square == here:
            return f"{who} is already on {square}"
        need = walk_of(self.edition.board).reach(here, None,
                                                 self.blocked(action.seat)).get(square)
        if need is None:
            return f"other pieces block every way to square {square}"
        if need <= self.total and self.edition.turns.movement == "exact":
            return f"square {square} is {need} moves away, but in {self.edition.name} a move " \
                   f"that stays in the corridors uses the whole roll ({self.total}), never " \
                   "crossing a square twice, and no such walk ends there"
        return f"square {square} is {need} moves away; the roll was {self.total}"

    def _why_suggest(self, action: Action, who: str, room: str | None) -> str | None:
        if room is None:
            return f"{who} is not in a room: a suggestion names the room you are in"
        here = self.board.room_name(room)
        if self.phase == "start":
            return f"{who} must first roll the dice" if self.roll_first \
                else f"{who} must first roll, take a passage or stay in the {here}"
        if self.phase == "move":
            return f"{who} must first move (the roll was {self.total})"
        if self.suggested:
            return f"{who} has already made a suggestion this turn"
        if not self.active(action.seat):
            return f"{who} accused wrongly (or was found a false witness) and may make no " \
                   "more suggestions"
        if not self.may_suggest(action.seat):
            return f"{who} must leave the {here} and come back in to suggest it again (a " \
                   "piece moved there by another player's suggestion may suggest on its " \
                   "next turn only)"
        cards = action.get("cards")
        if not isinstance(cards, tuple) or len(cards) != 2 or \
                sum(c in self._suspects for c in cards) != 1 or \
                sum(c in self._weapons for c in cards) != 1:
            return f"name one suspect and one weapon; the room is the {here}, where {who} is"
        if not any(c in self.callable_suspects(action.seat) for c in cards):
            return f"in {self.edition.name} a suggestion calls any other person into the " \
                   f"room, not {who}'s own piece (allowed only to a player holding no " \
                   "suspect card)"
        return None

    def _why_show(self, action: Action, who: str) -> str | None:
        card = action.get("card")
        if self.phase == "refute":
            p = self._asking
            if action.kind == "reveal":
                return f"{who} shows the card to {self.names[p['by']]} only: use show"
            if action.kind == "pass":
                held = self._names(p["options"])
                return f"{who} holds {held}, named in the suggestion, and must show one " \
                       "(false-witness rule; the game allows withholding only with the " \
                       "option false_witness=True)"
            if card not in p["named"]:
                return f"{card!r} was not named in the suggestion ({self._names(p['named'])})"
            return f"{who} does not hold {self._name(card)}"
        if self.phase == "clue-show":
            public = self.tasks[0]["public"]
            if action.kind == "pass":
                return f"{who} must show a card of their hand for the Clue card"
            if public and action.kind == "show":
                return "this Clue card makes the card public: use reveal"
            if not public and action.kind == "reveal":
                return "this Clue card shows the card to one player only: use show"
            return f"{who} does not hold {card!r}"
        return f"nobody is waiting for {who} to show a card"

    def _why_accuse(self, action: Action, who: str, room: str | None) -> str | None:
        reason = self._accuse_refusal(action.seat)
        if reason is not None:
            return reason
        cards = action.get("cards")
        categories = (self._suspects, self._weapons, self._rooms)
        if not isinstance(cards, tuple) or len(cards) != 3 or \
                any(sum(c in cat for c in cards) != 1 for cat in categories):
            return "an accusation names one suspect, one weapon and one room"
        return None

    def _why_check(self, action: Action, who: str) -> str | None:
        if not self.allow_false_witness:
            return "in this game nobody can withhold a card (start it with false_witness=True " \
                   "to allow lies), so there is no false witness to find"
        player, card = action.get("player"), action.get("card")
        if player not in self.names or player == who:
            return f"{player!r} is not another player"
        target = self.names.index(player)
        if not self.active(target):
            return f"{player} already takes no more turns"
        passed = any(player in e.get("passed", ()) and card in e["suggest"]
                     for e in self.events if "suggest" in e)
        if not passed:
            return f"{player} never passed on a suggestion naming {card!r}"
        return f"{who}'s own record does not show {player} holding {card!r}"

    # -- records and text --------------------------------------------------------------------
