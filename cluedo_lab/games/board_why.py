"""What the board game allows, said once: :class:`BoardRules` lists the legal actions and
gives the reason for a refusal from the same rules (which kinds each phase of a turn allows,
whether this seat may take a kind now, whether an action's arguments are allowed).

The legal actions are the candidates of each kind the phase allows whose seat may take that
kind now and whose arguments pass; :meth:`BoardRules.why_illegal` walks the same path and
returns the first reason it meets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ..rules.board import walk_of
from .board_actions import cached, make, moves
from .board_state import BoardState
from .game import Action

__all__ = ["KINDS", "PHASES", "BoardRules"]

PHASES: dict[str, tuple[str, ...]] = {
    "start": ("roll", "passage", "stay", "accuse", "check"),
    "move": ("move", "passage", "stay", "accuse", "check"),
    "act": ("suggest", "end", "accuse", "check"),
    "refute": ("show", "pass"),
    "clue-show": ("reveal", "show"),
    "clue-choose": ("clue",),
}
"""The kinds each phase of a turn allows, in the order the legal actions list them."""

_WAITING = {"refute": "{who} must first show a card of the suggestion",
            "clue-show": "{who} must first choose a card for the Clue card",
            "clue-choose": "{who} must first choose a player for the Clue card"}
"""What the seat to act must do in a phase that waits for one answer."""


class BoardRules(BoardState):
    """The legality half of :class:`BoardGame`: its legal actions and its refusals."""

    ARGS: ClassVar[Mapping[str, frozenset[str]]] = {
        "roll": frozenset(), "passage": frozenset({"to"}), "stay": frozenset(),
        "move": frozenset({"to"}), "suggest": frozenset({"cards"}), "show": frozenset({"card"}),
        "pass": frozenset(), "clue": frozenset({"player"}), "reveal": frozenset({"card"}),
        "accuse": frozenset({"cards"}), "check": frozenset({"player", "card"}),
        "end": frozenset()}
    """Each kind of action in the board game and the arguments it takes."""

    # -- the legal actions -------------------------------------------------------------------
    def _kinds_now(self) -> Sequence[str]:
        return PHASES[self.phase]

    def _passing(self, kind: str, seat: int) -> Sequence[Action]:
        """A suggestion's and an accusation's check reads only the cards they name, so those
        are filtered once per deck and seat."""
        filtered = super()._passing
        if kind == "accuse":
            return cached(("passing", kind, self._suspects, self._weapons, self._rooms, seat),
                          lambda: filtered(kind, seat))
        if kind == "suggest":
            return cached(("passing", kind, self.callable_suspects(seat), self._weapons, seat),
                          lambda: filtered(kind, seat))
        return filtered(kind, seat)

    def _candidates(self, kind: str, seat: int) -> Sequence[Action]:
        """Every action of ``kind`` that ``seat`` might take now, in the order they are
        listed: the right arguments with values of the right sort; :meth:`_refusal` decides."""
        room = self.room_of(seat)
        if kind == "move":
            return moves(seat, self.reachable)
        if kind == "passage":
            return [make("passage", seat, to=r) for r in self.board.passage_from(room)] \
                if room is not None else []
        if kind == "suggest":
            return self._suggestions(seat)
        if kind == "accuse":
            return self._accusations(seat)
        if kind == "check":
            return [make("check", seat, player=p, card=c) for p, c in sorted(self.proofs(seat))]
        if kind in ("show", "reveal"):
            cards = self._asking["options"] if self.phase == "refute" else \
                self._sorted(self.hands[seat])
            return [make(kind, seat, card=c) for c in cards]
        if kind == "clue":
            return [make("clue", seat, player=name) for name in self.names]
        return [make(kind, seat)]

    # -- the rules ---------------------------------------------------------------------------
    def _wrong_moment(self, kind: str, who: str) -> str:
        """Why ``kind`` is not allowed in this phase of the turn."""
        phase = self.phase
        if phase in _WAITING:
            return _WAITING[phase].format(who=who)
        room = self.room_of(self.turn)
        if kind in ("show", "pass", "reveal"):
            return f"nobody is waiting for {who} to show a card"
        if kind == "clue":
            return "no Clue card is waiting for a player to be chosen"
        if kind == "roll" and phase == "move":
            return f"{who} has already rolled this turn"
        if kind in ("roll", "passage", "stay"):
            return f"{who} has already moved (or rolled) this turn"
        if kind == "move" and phase == "start":
            return f"{who} must roll the dice first" if self.roll_first \
                else f"{who} must roll the dice first (or take a secret passage, or stay)"
        if kind == "move":
            return f"{who} has already moved this turn"
        if kind == "suggest" and room is None:
            return f"{who} is not in a room: a suggestion names the room you are in"
        if phase == "start":        # a suggestion or the end of the turn, before moving
            here = f" in the {self.board.room_name(room)}" if kind == "suggest" and room \
                else ""
            return f"{who} must first roll the dice" if self.roll_first \
                else f"{who} must first roll, take a passage or stay{here}"
        return f"{who} must first move (the roll was {self.total})"

    def _kind_refusal(self, kind: str, seat: int) -> str | None:
        """Why ``seat`` may not take an action of ``kind`` now (a kind its phase allows), or
        None when it may."""
        who = self.names[seat]
        room = self.room_of(seat)
        here = self.board.room_name(room) if room else None
        if kind in ("passage", "stay"):
            return self._passage_or_stay_refusal(kind, seat, who, room, here)
        if kind == "suggest":
            if room is None:
                return f"{who} is not in a room: a suggestion names the room you are in"
            if self.suggested:
                return f"{who} has already made a suggestion this turn"
            if not self.active(seat):
                return f"{who} accused wrongly (or was found a false witness) and may make " \
                       "no more suggestions"
            if not self.may_suggest(seat):
                return f"{who} must leave the {here} and come back in to suggest it again " \
                       "(a piece moved there by another player's suggestion may suggest on " \
                       "its next turn only)"
        if kind == "pass" and not self.allow_false_witness:
            held = self._names(self._asking["options"])
            return f"{who} holds {held}, named in the suggestion, and must show one " \
                   "(false-witness rule; the game allows withholding only with the option " \
                   "false_witness=True)"
        if kind in ("show", "reveal") and self.phase == "clue-show":
            public = self.tasks[0]["public"]
            if public and kind == "show":
                return "this Clue card makes the card public: use reveal"
            if not public and kind == "reveal":
                return "this Clue card shows the card to one player only: use show"
        if kind == "accuse":
            return self._accuse_refusal(seat)
        if kind == "check" and not self.allow_false_witness:
            return "in this game nobody can withhold a card (start it with " \
                   "false_witness=True to allow lies), so there is no false witness to find"
        return None

    def _instead_of_moving(self, seat: int) -> list[Action]:
        """The legal secret passages and staying put of ``seat`` now."""
        return [a for kind in ("passage", "stay") if self._kind_refusal(kind, seat) is None
                for a in self._passing(kind, seat)]

    def _passage_or_stay_refusal(self, kind: str, seat: int, who: str, room: str | None,
                                 here: str | None) -> str | None:
        """Secret passages and staying: before the roll (1949, 2014) or, when every turn
        rolls first, after it (2023: staying also in a corridor, since moving is not
        required)."""
        must_move = self.edition.turns.must_move
        if self.phase == "start" and self.roll_first:
            return f"{who} must roll the dice first: every turn begins with a roll, and " \
                   "then you may move, stay or take a secret passage"
        if self.phase == "move" and not self.roll_first:
            if kind == "passage" or must_move:
                return f"{who} has rolled: a secret passage or staying replaces the roll, " \
                       "so now the piece moves"
            return None
        if kind == "stay" and self.phase == "move" and not must_move:
            return None
        if room is None:
            return f"{who} is not in a room"
        if kind == "stay" and not self.may_stay(seat):
            return f"in {self.edition.name} you may not stay in the {here}: leave it and " \
                   "come back in to suggest it again (staying is allowed only after another " \
                   "player's suggestion moved your piece there)"
        if kind == "passage" and not self.board.passage_from(room):
            return f"the {here} has no secret passage"
        return None

    def _refusal(self, action: Action) -> str | None:
        """Why ``action``'s arguments are refused now (its kind being allowed), or None."""
        kind, seat = action.kind, action.seat
        who = self.names[seat]
        if kind == "passage":
            room = self.room_of(seat)
            assert room is not None         # the kind's rule asks for a room
            exits = self.board.passage_from(room)
            if action.get("to") in exits:
                return None
            return f"the secret passage from the {self.board.room_name(room)} leads to " \
                   f"the {self.board.room_name(exits[0])}, not {action.get('to')!r}"
        if kind == "move":
            return self._why_move(action, who)
        if kind == "suggest":
            return self._why_suggest(action, who)
        if kind in ("show", "reveal"):
            return self._why_show(action, who)
        if kind == "clue":
            player = action.get("player")
            if player in self.names and player != who and \
                    not self.gone(self.names.index(player)):
                return None
            if player in self.names and self.gone(self.names.index(player)):
                return f"{player} left the game after a wrong accusation"
            return f"{player!r} is not another player at the table"
        if kind == "accuse":
            cards = action.get("cards")
            categories = (self._suspects, self._weapons, self._rooms)
            if not isinstance(cards, tuple) or len(cards) != 3 or \
                    any(sum(c in cat for c in cards) != 1 for cat in categories):
                return "an accusation names one suspect, one weapon and one room"
            return None
        if kind == "check":
            return self._why_check(action, who)
        return None

    # -- refusals ----------------------------------------------------------------------------
    def why_illegal(self, action: Action) -> str:
        if self._over:
            who = "nobody won" if self._winner is None else f"{self.names[self._winner]} won"
            return f"the game is over ({who})"
        n = len(self.names)
        if not 0 <= action.seat < n:
            return f"there is no seat {action.seat} (seats 0-{n - 1})"
        if action.kind not in self.ARGS:
            return f"no action {action.kind!r} in the board game; kinds: {', '.join(KINDS)}"
        who = self.names[action.seat]
        if action.seat != self.current:
            return self._not_your_move(action.seat, who)
        return self._rule_refusal(action, who) or super().why_illegal(action)

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

    def _why_move(self, action: Action, who: str) -> str | None:
        """None when the roll reaches ``action``'s target (the one movement search decides,
        once per roll); otherwise what stands in the way."""
        rooms, squares = self.reachable
        to = action.get("to")
        if to in rooms or to in squares:
            return None
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

    def _why_suggest(self, action: Action, who: str) -> str | None:
        """Why a suggestion's cards are refused: one suspect and one weapon, the suspect one
        the seat may call."""
        room = self.room_of(action.seat)
        here = self.board.room_name(room) if room else None
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
        """Why this card may not be shown: in answer to a suggestion, one of the named cards
        the seat holds; for a Clue card, any card of the seat's hand."""
        card = action.get("card")
        if self.phase == "refute":
            p = self._asking
            if card in p["options"]:
                return None
            if card not in p["named"]:
                return f"{card!r} was not named in the suggestion ({self._names(p['named'])})"
            return f"{who} does not hold {self._name(card)}"
        if card in self.hands[action.seat]:
            return None
        return f"{who} does not hold {card!r}"

    def _why_check(self, action: Action, who: str) -> str | None:
        """Why ``action`` names no proven false witness: the seat's own record must show the
        player passing on a suggestion naming the card, and holding it."""
        player, card = action.get("player"), action.get("card")
        if player not in self.names or player == who:
            return f"{player!r} is not another player"
        target = self.names.index(player)
        if not self.active(target):
            return f"{player} already takes no more turns"
        if (player, card) in self.proofs(action.seat):
            return None
        passed = any(player in e.get("passed", ()) and card in e["suggest"]
                     for e in self.events if "suggest" in e)
        if not passed:
            return f"{player} never passed on a suggestion naming {card!r}"
        return f"{who}'s own record does not show {player} holding {card!r}"


KINDS = tuple(BoardRules.ARGS)
"""Every kind of action in the board game."""
