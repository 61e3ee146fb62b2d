"""Cluedo Card Game (Hasbro 2018): questions naming two cards, shown by one player who holds
both; accusations at the start of a turn (rules and choices: :mod:`.card_game`)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import ClassVar, Literal, NotRequired, TypedDict

from .card_game import CardGame
from .game import Action, required

__all__ = ["CardGame2018"]


class Asking(TypedDict):
    """The question being answered: seats by number, cards by id. A dict, so that
    :meth:`Game.apply <cluedo_lab.games.game.Game.apply>` saves and restores it."""

    asker: int
    items: tuple[str, ...]
    passed: list[int]
    shower: NotRequired[int]
    """The seat choosing a card to show now, and its cards among the items."""
    options: NotRequired[list[str]]
    every: NotRequired[bool]
    """``question.answer = "every-who-can"``: the seats still to show (with their cards) and
    who showed what so far."""
    queue: NotRequired[list[tuple[int, list[str]]]]
    shown: NotRequired[list[tuple[int, str]]]


class CardGame2018(CardGame):
    """Cluedo Card Game (Hasbro 2018): ask your left about any two items; several players may
    accuse together. Rules read from the edition: ``question.items``, ``accusation``."""

    ARGS: ClassVar[dict[str, frozenset[str]]] = {
        "ask": frozenset({"items"}), "show": frozenset({"card"}),
        "accuse": frozenset({"cards"}), "decline": frozenset()}
    stage: Literal["ask", "show", "accusing"]
    """Asking (or accusing at the start of a turn), a card being chosen, an accusation under
    way that the others may join."""
    asking: Asking | None
    accusers: list[tuple[int, tuple[str, ...]]]
    to_decide: list[int]
    """The seats still to say whether they join the accusation, in order."""

    def setup(self) -> None:
        if self.edition.actions:
            raise ValueError(f"{self.edition.id} is not played like the 2018 card game "
                             "(no action cards); use CardGame2002")
        self._setup_common()
        self.turn = 0
        self.stage = "ask"
        self.asking = None
        self.accusers = []
        self.to_decide = []
        self._say(f"{self.names[0]} goes first")

    @property
    def items(self) -> int:
        return self.edition.question.items

    @property
    def asker(self) -> int | None:
        """Who is waiting for the card being chosen (public: everyone heard the question)."""
        return self._asking["asker"] if self.stage == "show" else None

    @property
    def accusing(self) -> list[int]:
        """Who has said they accuse this turn (public; what they accuse stays face down)."""
        return [seat for seat, _ in self.accusers] if self.stage == "accusing" else []

    @property
    def both_must_accuse(self) -> bool:
        return self.edition.accusation.two_player_both_accuse and len(self.names) == 2

    @property
    def current(self) -> int | None:
        if self._over:
            return None
        if self.stage == "show":
            return self._asking["shower"]
        if self.stage == "accusing":
            return self.to_decide[0]
        return self.turn

    @property
    def _asking(self) -> Asking:
        """The question being answered (only asked for while there is one)."""
        return required(self.asking, "question being answered")

    def _questions(self, seat: int) -> tuple[Action, ...]:
        """Any ``question.items`` cards, or one of each category when the question's form
        is one-per-category (a variant)."""
        if self.edition.question.form == "one-per-category":
            cats = [[c.id for c in cat.cards] for cat in self.edition.categories]
            return self._table(("ask", seat), lambda: tuple(
                Action.make("ask", seat, items=list(combo))
                for combo in itertools.product(*cats)))
        ids = self._names_of_deck()
        return self._table(("ask", seat), lambda: tuple(
            Action.make("ask", seat, items=list(pair))
            for pair in itertools.combinations(ids, self.items)))

    # -- playing -----------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if action.kind == "ask":
            self._ask(action.seat, tuple(action["items"]))
        elif action.kind == "show":
            self._shown(action["card"])
        elif action.kind == "accuse":
            cards = tuple(action["cards"])
            if self.stage == "ask":
                self.accusers = [(action.seat, cards)]
                self.to_decide = list(
                    [s for s in self._left(action.seat) if self.active(s)]
                    if self.edition.accusation.simultaneous else [])
                self.stage = "accusing"
                self._say(f"{self.names[action.seat]} is ready to accuse"
                          + (" and asks who else will" if self.to_decide else ""))
            else:
                self.accusers.append((action.seat, cards))
                self.to_decide.pop(0)
                self._say(f"{self.names[action.seat]} accuses too")
            self._next_accuser()
        elif action.kind == "decline":
            self.to_decide.pop(0)
            self._say(f"{self.names[action.seat]} does not accuse")
            self._next_accuser()

    def _ask(self, asker: int, items: tuple[str, ...]) -> None:
        if self.edition.question.answer == "every-who-can":
            held = [(s, [c for c in items if c in self.fixed.hands[s]])
                    for s in self._answerers(asker)]
            self.asking = {"asker": asker, "items": items, "every": True,
                           "passed": list(s for s, opts in held if not opts),
                           "queue": list((s, opts) for s, opts in held if opts),
                           "shown": []}
            self._next_shower()
            return
        passed: list[int] = []
        for seat in self._answerers(asker):
            options = [c for c in items if c in self.fixed.hands[seat]]
            if not options:
                passed.append(seat)
                continue
            # The shower always gets a step, so nobody learns whether they held one card
            # or both ("without revealing that they have both").
            self.asking = {"asker": asker, "items": items, "passed": passed, "shower": seat,
                           "options": list(options)}
            self.stage = "show"
            return
        by = self.names[asker]
        self.emit({"suggest": list(items), "by": by, "passed": [self.names[s] for s in passed]},
                  f"{by} asks about {self._names(items)}: nobody can show either")
        self._next_turn()

    def _next_shower(self) -> None:
        """Every player who can shows a card, in asking order, each in a step of their own
        (held one card or several: the others cannot tell)."""
        a = self._asking
        if a["queue"]:
            seat, options = a["queue"][0]
            a["shower"], a["options"] = seat, list(options)
            self.stage = "show"
            return
        by = self.names[a["asker"]]
        self.emit(self._every_event(a["asker"], a["items"], a["passed"], a["shown"]),
                  f"{by} asks about {self._names(a['items'])}: "
                  + self._answer_line(by, a["shown"], a["passed"]))
        self.asking = None
        self.stage = "ask"
        self._next_turn()

    def _shown(self, card: str) -> None:
        a = self._asking
        if a.get("every"):
            a["queue"].pop(0)
            a["shown"].append((a["shower"], card))
            self._next_shower()
            return
        by, shower = self.names[a["asker"]], self.names[a["shower"]]
        passed = [self.names[s] for s in a["passed"]]
        text = f"{by} asks about {self._names(a['items'])}: "
        text += "".join(f"{p} has neither; " for p in passed)
        self.emit({"suggest": list(a["items"]), "by": by, "passed": passed,
                   "shown_by": shower, "card": card, "_seen_by": [by, shower]},
                  text + f"{shower} shows {by} {self._name(card)}")
        self.asking = None
        self.stage = "ask"
        self._next_turn()

    def _next_accuser(self) -> None:
        if self.to_decide:
            return
        envelope = {c.id for c in self.deal.envelope}
        solution = [c.id for c in self.deal.envelope]
        together = len(self.accusers) > 1
        results = []
        for seat, cards in self.accusers:
            correct = set(cards) == envelope
            results.append(correct)
            verdict = "right" if correct else "wrong"
            event = self._accusation_event(seat, cards, correct, solution, together)
            if together:    # the first accuser turns over the solution for everybody
                event.update(together=True, envelope=solution, _public=True)
            self.emit(event, f"{self.names[seat]} accuses {self._names(cards)}: {verdict}")
        accusers, self.accusers = self.accusers, []
        self.stage = "ask"
        winner = next((seat for (seat, _), ok in zip(accusers, results, strict=True) if ok),
                      None)
        for (seat, _), ok in zip(accusers, results, strict=True):
            if not ok:
                self.out[seat] = True
        if winner is not None:
            self._finish(winner, f"{self.names[winner]} solves the crime and wins")
        elif len(accusers) > 1:
            self._finish(None, "The Crime card is turned over: the criminal has outwitted "
                               "every accuser, nobody wins")
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        n = len(self.names)
        for k in range(1, n + 1):
            seat = (self.turn + k) % n
            if self.active(seat):
                self.turn = seat
                return
        self._finish(None, "Every player has accused wrongly: nobody wins")

    # -- reasons -----------------------------------------------------------------------------
    def _not_your_move(self, seat: int, who: str) -> str:
        if self.stage == "show":
            a = self._asking
            return (f"{self.names[a['shower']]} must choose which card to show "
                    f"{self.names[a['asker']]}, not {who}")
        if self.stage == "accusing":
            return f"{self.names[self._acting]} decides next whether to accuse, not {who}"
        if self.out[seat]:
            return f"{who} accused wrongly: they still answer but no longer ask or accuse"
        return f"it is {self.names[self.turn]}'s turn, not {who}'s"

    # -- legality (see CardGame: one check per kind) -----------------------------------------
    STAGES: ClassVar[dict[str, tuple[str, ...]]] = {
        "ask": ("ask", "accuse"), "show": ("show",), "accusing": ("accuse", "decline")}
    DECK_ONLY: ClassVar[frozenset[str]] = frozenset({"ask", "accuse"})

    def _candidates(self, kind: str, seat: int) -> Sequence[Action]:
        if kind == "ask":
            return self._questions(seat)
        if kind == "show":
            return [Action.make("show", seat, card=c) for c in self._asking["items"]]
        if kind == "decline":
            return [Action.make("decline", seat)]
        return super()._candidates(kind, seat)

    def _refusal(self, action: Action) -> str | None:
        kind, who = action.kind, self.names[action.seat]
        if kind == "ask":
            problem = self._why_cards(action.get("items"), self.items, "a question")
            cats = self.edition.categories
            if problem is None and self.edition.question.form == "one-per-category" and \
                    sorted(self.edition.card(c).category for c in action["items"]) != \
                    sorted(c.id for c in cats):
                problem = "a question names " + ", ".join(f"one {c.name}" for c in cats)
            return problem
        if kind == "show":
            card = action.get("card")
            a = self._asking
            if card not in a["items"]:
                return f"{card!r} is not one of the items asked about " \
                       f"({self._names(a['items'])})"
            if card not in self.fixed.hands[action.seat]:
                return f"{who} does not hold {self._name(card)}"
            return None
        return super()._refusal(action)

    def _kind_refusal(self, kind: str, seat: int) -> str | None:
        if kind == "decline" and self.both_must_accuse:
            return "with two players in the advanced game, when one accuses the other must " \
                   "accuse too"
        return None

    def _wrong_moment(self, kind: str, who: str) -> str:
        return {"show": f"nobody is waiting for {who} to show a card",
                "decline": "nobody is accusing, so there is nothing to decline",
                "ask": (f"{who} must show a card first" if self.stage == "show"
                        else "an accusation is under way: accuse or decline"),
                "accuse": f"{who} must show a card first"}[kind]
