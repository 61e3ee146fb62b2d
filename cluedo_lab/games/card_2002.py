"""Cluedo The Card Game (Winning Moves 2002, standard and one-against-all): action cards and
destination markers (rules and choices: :mod:`.card_game`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

from ..rules.deal import Deal, deal
from ..rules.edition import ActionCardKind, Category, normalize
from .card_game import CardFixed, CardGame
from .game import Action, required

__all__ = ["CardGame2002"]


def _card_key(kind: ActionCardKind) -> str:
    """A short name for an action card, accepted besides its label (e.g. ``all-snoop-left``)."""
    parts = [kind.kind]
    if kind.direction:
        parts.append(kind.direction)
    if kind.all:
        parts += ["all", kind.category or ""]
    elif kind.value:
        parts += [kind.value, kind.category or ""]
    return "-".join(parts)


Stage = Literal["suggest", "play", "show", "after"]
"""A turn's stage: the suggestion prepared last turn, playing an action card, a card being
chosen to show, after the card (accuse or end)."""


@dataclass(eq=False)
class Fixed2002(CardFixed):
    """The card games' fixed facts, and the action deck's."""

    place_category: Category
    """The category of the destination markers (the last one)."""
    kinds: tuple[ActionCardKind, ...]
    labels: tuple[str, ...]
    """Each action card's label, by index in ``kinds``."""


class Waiting(TypedDict):
    """A card some seat must choose to show: for a suggestion (``what``: ``"suggest"``, or
    ``"every"`` when every player who can shows one), a Super Sleuth (``"sleuth"``) or a
    Private Tip (``"tip"``). A dict, so that :meth:`Game.apply
    <cluedo_lab.games.game.Game.apply>` saves and restores it."""

    what: Literal["suggest", "every", "sleuth", "tip"]
    by: int
    shower: NotRequired[int]
    options: NotRequired[list[str]]
    """The shower's cards that may be shown."""
    named: NotRequired[tuple[str, ...]]
    then: NotRequired[Stage]
    """The stage the turn goes on with once the suggestion is answered."""
    passed: NotRequired[list[int]]
    queue: NotRequired[list[tuple[int, list[str]]]]
    """``every``: the seats still to show, with their cards."""
    shown: NotRequired[list[tuple[int, str]]]
    index: NotRequired[int]
    """``sleuth``, ``tip``: the action card played, by index."""
    to_ask: NotRequired[list[int]]
    """``sleuth``: the seats still to be asked."""
    showed: NotRequired[list[tuple[int, str]]]
    nothing: NotRequired[list[int]]


class CardGame2002(CardGame):
    """Cluedo The Card Game (Winning Moves 2002): action cards say what you may do; your
    destination marker says where you suggest from. ``edition.mode == "one-against-all"``
    makes the last seat the fugitive."""

    OPTIONS: ClassVar[frozenset[str]] = frozenset({"solution"})
    ARGS: ClassVar[dict[str, frozenset[str]]] = {
        "play": frozenset({"card", "destination", "cards", "target"}),
        "suggest": frozenset({"cards"}), "show": frozenset({"card"}),
        "accuse": frozenset({"cards"}), "end": frozenset()}
    CARD_ARGS: ClassVar[dict[str, frozenset[str]]] = {
        "suggest-any": frozenset({"destination"}),
        "suggest-current": frozenset({"cards", "destination"}),
        "snoop": frozenset({"target"}), "private-tip": frozenset({"target"}),
        "all-snoop": frozenset(), "super-sleuth": frozenset()}
    fixed: Fixed2002
    fugitive: int | None
    deck: list[int]
    """The action deck by index into ``fixed.kinds``; the top is the end of the list."""
    _pile: list[int]
    """The discard pile; the top is the end of the list."""
    _face_down: int
    """How many cards at the pile's bottom are Private Tips."""
    action_hands: list[list[int]]
    markers: list[str | None]
    """Each seat's destination marker (the fugitive holds none)."""
    pile: list[str]
    """The destination markers nobody holds, in deck order."""
    pending: list[bool]
    """A suggestion prepared last turn ("from any destination")."""
    stage: Stage
    waiting: Waiting | None

    # -- set-up ------------------------------------------------------------------------------
    def _deal(self) -> Deal:
        fugitive = self.edition.mode == "one-against-all"
        if "solution" in self.options and not fugitive:
            raise ValueError("only the fugitive chooses the solution: the 'solution' option "
                             "needs the one-against-all edition")
        if not fugitive:
            return super()._deal()
        chosen = self.options.get("solution")
        if chosen is None:
            rng = random.Random(f"{self.seed}-fugitive")
            chosen = [rng.choice(cat.cards).id for cat in self.edition.categories]
        return deal(self.edition, len(self.names), self.seed, envelope=list(chosen))

    def setup(self) -> None:
        edition = self.edition
        if not edition.actions:
            raise ValueError(f"{edition.id} has no action deck; use CardGame2018")
        if edition.question.form != "one-per-category":
            raise ValueError(f"{edition.id}: the 2002 card game's suggestions name one card of "
                             "each category (the last from your destination marker)")
        if edition.mode == "one-against-all" and edition.question.answer != "first-who-can":
            raise ValueError(f"{edition.id}: the fugitive answers only when nobody else can, "
                             "so only the first player who can answers")
        self._setup_common()
        n = len(self.names)
        dealer = edition.dealer_seat(n)
        self.fugitive = dealer if edition.mode == "one-against-all" else None
        self.deck = list(i for i, k in enumerate(self.fixed.kinds) for _ in range(k.count))
        self.rng.shuffle(self.deck)         # the top of the deck is the end of the list
        self._pile = []
        self._face_down = 0
        self.action_hands = [[] for _ in range(n)]
        for seat in self.detectives:
            for _ in range(edition.action_hand):
                self.action_hands[seat].append(self.deck.pop())
        places = [c.id for c in self.fixed.place_category.cards]
        shuffled = places[:]
        self.rng.shuffle(shuffled)
        self.markers = [None] * n
        for seat in self.detectives:
            self.markers[seat] = shuffled.pop()
        self.pile = list(sorted(shuffled, key=self.fixed.order.__getitem__))
        self.pending = [False] * n
        self.stage = "play"
        self.waiting = None
        self._say("Markers: " + ", ".join(f"{self.names[s]} at {self._name(self._marker(s))}"
                                          for s in self.detectives)
                  + f"; by the pile: {self._names(self.pile)}")
        if self.fugitive is not None:
            self._say(f"{self.names[self.fugitive]} is the fugitive and chose "
                      f"{self._names(self.deal.envelope)}")
        # The dealer plays first; the fugitive, who deals, has no turns: their left starts.
        self.turn = (dealer + 1) % n if self.fugitive is not None else dealer
        self._start_turn(self.turn)

    def _fixed(self, deck_no: int, hands: tuple[frozenset[str], ...],
               order: dict[str, int]) -> Fixed2002:
        kinds = self.edition.actions
        return Fixed2002(deck_no, hands, order, place_category=self.edition.categories[-1],
                         kinds=kinds, labels=tuple(k.label() for k in kinds))

    @property
    def detectives(self) -> list[int]:
        """Seats that take turns (everyone but the fugitive)."""
        return [s for s in range(len(self.names)) if s != getattr(self, "fugitive", None)]

    def record_extras(self) -> dict[str, Any]:
        return {} if self.fugitive is None else {"fugitive": self.names[self.fugitive]}

    def record_for(self, seat: int | None) -> dict[str, Any]:
        """The record of what ``seat`` learned; the fugitive's holds the escape plan they
        chose (ONE AGAINST ALL 1), which the knowledge engine pins to the envelope."""
        data = super().record_for(seat)
        if seat is not None and seat == self.fugitive:
            data["escape_plan"] = [c.id for c in self.deal.envelope]
        return data

    def active(self, seat: int) -> bool:
        return seat != self.fugitive and not self.out[seat]

    # -- public state for players and bots ---------------------------------------------------
    def action_cards(self, seat: int) -> list[str]:
        """The labels of ``seat``'s action cards (private to that seat)."""
        return [self.fixed.labels[i] for i in self.action_hands[seat]]

    def action_kind(self, label: str) -> ActionCardKind:
        return self.fixed.kinds[self.fixed.labels.index(label)]

    def marker_holder(self, place: str) -> int | None:
        """The seat holding ``place``'s destination marker, None when it lies by the pile."""
        return self.markers.index(place) if place in self.markers else None

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def discard(self) -> list[str | None]:
        """The discard pile as everyone at the table sees it, bottom first: the label of each
        card played face up, and ``None`` for each Private Tip slipped face down beneath
        (PLAY: its wording is kept secret from the other players)."""
        return [None if i < self._face_down else self.fixed.labels[index]
                for i, index in enumerate(self._pile)]

    @property
    def asker(self) -> int | None:
        """Who is waiting for the card being chosen (public: everyone saw the card played)."""
        return self._waiting["by"] if self.stage == "show" else None

    # -- turns -------------------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        if self._over:
            return None
        if self.stage == "show":
            return self._waiting["shower"]
        return self.turn

    @property
    def _waiting(self) -> Waiting:
        """The card being chosen (only asked for while one is)."""
        return required(self.waiting, "card being chosen to show")

    def _marker(self, seat: int) -> str:
        """A detective's destination marker (the fugitive holds none)."""
        return required(self.markers[seat], f"destination marker for seat {seat}")

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        if not self.deck:
            if self.fugitive is not None:
                self._finish(self.fugitive, f"The action deck is used up: "
                                            f"{self.names[self.fugitive]} escapes and wins")
                return
            if self._pile:
                self.deck, self._pile, self._face_down = self._pile, [], 0
                self.rng.shuffle(self.deck)
                self._say("The action deck is empty: the discard pile is shuffled into a "
                          "new deck")
        if self.deck:
            self.action_hands[seat].append(self.deck.pop())
        self.stage = "suggest" if self.pending[seat] else "play"
        self._say(f"{self.names[seat]}'s turn: holds "
                  + ", ".join(self.action_cards(seat)))

    def _end_turn(self) -> None:
        n = len(self.names)
        for k in range(1, n + 1):
            seat = (self.turn + k) % n
            if self.active(seat):
                self._start_turn(seat)
                return
        if self.fugitive is not None:
            self._finish(self.fugitive, f"Every detective has accused wrongly: "
                                        f"{self.names[self.fugitive]} escapes and wins")
        else:
            self._finish(None, "Every player has accused wrongly: nobody wins")

    # -- legal actions -----------------------------------------------------------------------
    def _pairs(self, kind: str, seat: int, **extra: Any) -> tuple[Action, ...]:
        """Every suspect-and-vehicle choice (the non-place categories) as ``kind`` actions."""
        cats = [[c.id for c in cat.cards] for cat in self.edition.categories[:-1]]
        return self._table((kind, seat, tuple(sorted(extra.items()))), lambda: tuple(
            Action.make(kind, seat, cards=list(combo), **extra)
            for combo in itertools.product(*cats)))

    def _plays(self, seat: int, label: str) -> Sequence[Action]:
        """Every way ``seat`` might play the action card ``label``, before the check: each
        player as a target, each destination to move to, each suspect and vehicle."""
        kind = self.action_kind(label).kind
        if kind in ("snoop", "private-tip"):
            # The deck's tables serve every game of it: the targets depend on who plays.
            return self._table(("play", seat, label, self.names), lambda: tuple(
                Action.make("play", seat, card=label, target=name) for name in self.names))
        if kind not in ("suggest-any", "suggest-current"):
            return [Action.make("play", seat, card=label)]
        places = [c.id for c in self.fixed.place_category.cards]
        moves = self._table(("play", seat, label), lambda: tuple(
            Action.make("play", seat, card=label, destination=d) for d in places))
        if kind == "suggest-any":
            return moves
        return (*self._pairs("play", seat, card=label), *moves)

    # -- playing -----------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind == "show":
            self._shown(action["card"])
        elif kind == "suggest":
            self.pending[seat] = False
            self._suggest(seat, tuple(action["cards"]), then="play")
        elif kind == "end":
            self._say(f"{self.names[seat]} ends the turn")
            self._end_turn()
        elif kind == "accuse":
            self._accuse(seat, tuple(action["cards"]))
        elif kind == "play":
            self._play(action)

    def _play(self, action: Action) -> None:
        seat, label = action.seat, action["card"]
        who = self.names[seat]
        index = self.fixed.labels.index(label)
        self.action_hands[seat].remove(index)
        kind = self.fixed.kinds[index]
        if kind.kind == "private-tip":
            self._pile.insert(0, index)   # slipped face down under the pile
            self._face_down += 1
        else:
            self._pile.append(index)
        self.stage = "after"
        if kind.kind == "suggest-any":
            self._move(seat, action["destination"])
            self.pending[seat] = True
            self._say(f"{who} plays {label}: will suggest from "
                      f"{self._name(self._marker(seat))} next turn")
        elif kind.kind == "suggest-current":
            if action.get("destination") is not None:
                self._move(seat, action["destination"])
                self._say(f"{who} plays {label} to move, and makes no suggestion")
            else:
                self._say(f"{who} plays {label}")
                self._suggest(seat, tuple(action["cards"]), then="after")
        elif kind.kind == "snoop":
            self._snoop(seat, self.names.index(action["target"]))
        elif kind.kind == "all-snoop":
            self._all_snoop(seat, kind.direction or "left")
        elif kind.kind == "super-sleuth":
            self._sleuth_next({"what": "sleuth", "by": seat, "index": index,
                               "to_ask": list(self._answerers(seat)), "showed": [],
                               "nothing": []})
        elif kind.kind == "private-tip":
            self._private_tip(seat, self.names.index(action["target"]), index)

    def _move(self, seat: int, place: str) -> None:
        """Exchange ``seat``'s marker for ``place``'s: with its holder, or by the pile."""
        mine = self._marker(seat)
        if place == mine:
            return
        holder = self.marker_holder(place)
        if holder is None:
            self.pile.remove(place)
            self.pile.append(mine)
            self.pile.sort(key=self.fixed.order.__getitem__)
            where = "by the pile"
        else:
            self.markers[holder] = mine
            where = f"with {self.names[holder]}"
        self.markers[seat] = place
        self._say(f"{self.names[seat]} swaps {self._name(mine)} for {self._name(place)} {where}")

    def _suggest(self, seat: int, cards: tuple[str, ...], then: Stage) -> None:
        named = tuple(sorted((*cards, self._marker(seat)), key=self.fixed.order.__getitem__))
        order = self._answerers(seat)
        if self.fugitive is not None and self.fugitive in order:
            order = [s for s in order if s != self.fugitive] + [self.fugitive]
        if self.edition.question.answer == "every-who-can":
            held = [(s, [c for c in named if c in self.fixed.hands[s]]) for s in order]
            self._every_next({"what": "every", "by": seat, "named": named, "then": then,
                              "passed": list(s for s, opts in held if not opts),
                              "queue": list((s, opts) for s, opts in held if opts),
                              "shown": []})
            return
        passed: list[int] = []
        for other in order:
            options = [c for c in named if c in self.fixed.hands[other]]
            if not options:
                passed.append(other)
                continue
            self._wait({"what": "suggest", "by": seat, "named": named, "passed": passed,
                        "shower": other, "options": list(options), "then": then})
            return
        by = self.names[seat]
        self.emit({"suggest": list(named), "by": by, "passed": [self.names[s] for s in passed]},
                  f"{by} suggests {self._names(named)}: nobody can show a card")
        self.stage = then

    def _wait(self, waiting: Waiting) -> None:
        """Someone must choose a card to show: always a step of its own, even with one
        card to show, so that nobody learns whether the shower held several."""
        self.waiting = waiting
        self.stage = "show"

    def _every_next(self, w: Waiting) -> None:
        """Every player who can shows a card, in asking order, each in a step of their own."""
        if w["queue"]:
            seat, options = w["queue"][0]
            self.waiting = {**w, "shower": seat, "options": list(options)}
            self.stage = "show"
            return
        self.waiting = None
        by = self.names[w["by"]]
        self.emit(self._every_event(w["by"], w["named"], w["passed"], w["shown"]),
                  f"{by} suggests {self._names(w['named'])}: "
                  + self._answer_line(by, w["shown"], w["passed"]))
        self.stage = w["then"]

    def _shown(self, card: str) -> None:
        w = self._waiting
        self.waiting = None
        if w["what"] == "every":
            w["queue"].pop(0)
            w["shown"].append((w["shower"], card))
            self._every_next(w)
        elif w["what"] == "suggest":
            by, shower = self.names[w["by"]], self.names[w["shower"]]
            passed = [self.names[s] for s in w["passed"]]
            text = f"{by} suggests {self._names(w['named'])}: "
            text += "".join(f"{p} cannot; " for p in passed)
            self.emit({"suggest": list(w["named"]), "by": by, "passed": passed,
                       "shown_by": shower, "card": card, "_seen_by": [by, shower]},
                      text + f"{shower} shows {by} {self._name(card)}")
            self.stage = w["then"]
            if w["shower"] == self.fugitive:
                self._fugitive_reward(w["shower"])
        elif w["what"] == "sleuth":
            w["showed"].append((w["shower"], card))
            self._sleuth_next(w)
        elif w["what"] == "tip":
            self._tip_done(w["by"], w["shower"], w["index"], [card])

    def _fugitive_reward(self, fugitive: int) -> None:
        if self.deck:
            self._pile.append(self.deck.pop())
            self._say(f"{self.names[fugitive]} refuted, and discards the top action "
                      f"card ({self.fixed.labels[self._pile[-1]]}); {len(self.deck)} left")

    def _snoop(self, seat: int, target: int) -> None:
        card = self.rng.choice(self.deal.hands[target]).id
        by, name = self.names[seat], self.names[target]
        self.emit({"snoop": name, "by": by, "card": card, "_seen_by": [by]},
                  f"{by} snoops on {name} and sees {self._name(card)}")

    def _all_snoop(self, seat: int, direction: str) -> None:
        ring = [s for s in range(len(self.names)) if not self.gone(s)]
        step = -1 if direction == "left" else 1   # hands go left: you see your right's hand
        seen = {}
        for i, viewer in enumerate(ring):         # those who left pass no hand
            source = ring[(i + step) % len(ring)]
            seen[self.names[viewer]] = self.rng.choice(self.deal.hands[source]).id
        by = self.names[seat]
        text = "; ".join(f"{v} sees {self._name(c)}" for v, c in seen.items())
        self.emit({"all_snoop": direction, "by": by, "_card_for": seen},
                  f"{by} plays All Snoop ({direction}): {text}")

    def _sleuth_next(self, w: Waiting) -> None:
        kind = self.fixed.kinds[w["index"]]
        while w["to_ask"]:
            other = w["to_ask"].pop(0)
            options = self._cards_asked(other, kind)
            if options:
                self._wait({**w, "shower": other, "options": list(options)})
                return
            w["nothing"].append(other)
        by = self.names[w["by"]]
        showed = {self.names[s]: c for s, c in w["showed"]}
        parts = [f"{self.names[s]} shows {self._name(c)}" for s, c in w["showed"]]
        parts += [f"{self.names[s]} has none" for s in w["nothing"]]
        self.emit({"super_sleuth": {"feature": kind.feature, "value": kind.value}, "by": by,
                   "showed": showed, "nothing": [self.names[s] for s in w["nothing"]],
                   "_seen_by": [by]},
                  f"{by} plays Super Sleuth (one {kind.value} {kind.category}): "
                  + "; ".join(parts))
        self.stage = "after"

    def _private_tip(self, seat: int, target: int, index: int) -> None:
        kind = self.fixed.kinds[index]
        hand = self.deal.hands[target]
        if kind.all:
            self._tip_done(seat, target, index,
                           [c.id for c in hand if c.category == kind.category])
            return
        options = self._cards_asked(target, kind)
        if not options:
            self._tip_done(seat, target, index, [])
        else:
            self._wait({"what": "tip", "by": seat, "index": index, "shower": target,
                        "options": list(options)})

    def _cards_asked(self, seat: int, kind: ActionCardKind) -> list[str]:
        """The cards of ``seat``'s hand that a Super Sleuth or a one-card Private Tip asks
        for."""
        feature = kind.feature
        assert feature is not None      # the edition reader gives these cards a feature
        return [c.id for c in self.deal.hands[seat] if c.features.get(feature) == kind.value]

    def _tip_done(self, seat: int, target: int, index: int, cards: list[str]) -> None:
        kind = self.fixed.kinds[index]
        by, to = self.names[seat], self.names[target]
        spec = ({"category": kind.category, "all": True} if kind.all
                else {"feature": kind.feature, "value": kind.value})
        cards = sorted(cards, key=self.fixed.order.__getitem__)
        # Onlookers see a tip pass and how many cards come back, not its wording.
        self.emit({"private_tip": spec, "by": by, "to": to, "cards": cards,
                   "returned": len(cards), "_seen_by": [by, to], "_secret": ["private_tip"]},
                  f"{by} plays {self.fixed.labels[index]} on {to}, who secretly hands back "
                  f"{self._names(cards) or 'nothing'}")
        self.stage = "after"

    def _accuse(self, seat: int, cards: tuple[str, ...]) -> None:
        correct = set(cards) == {c.id for c in self.deal.envelope}
        who = self.names[seat]
        self.emit(self._accusation_event(seat, cards, correct,
                                         [c.id for c in self.deal.envelope]),
                  f"{who} accuses {self._names(cards)}: {'right' if correct else 'wrong'}")
        if correct:
            self._finish(seat, f"{who} solves the case and wins")
            return
        self.out[seat] = True
        self.pending[seat] = False
        self._end_turn()

    # -- input and reasons -------------------------------------------------------------------
    def _label(self, name: str) -> str:
        def build() -> dict[str, str]:
            lookup = {}
            for kind, label in zip(self.fixed.kinds, self.fixed.labels, strict=True):
                lookup[normalize(label)] = label
                lookup[normalize(_card_key(kind))] = label
            return lookup
        return self._table(("labels",), build).get(normalize(name), name)

    def _not_your_move(self, seat: int, who: str) -> str:
        if self.stage == "show":
            w = self._waiting
            return (f"{self.names[w['shower']]} must choose which card to show "
                    f"{self.names[w['by']]}, not {who}")
        if seat == self.fugitive:
            return f"{who} is the fugitive and takes no turns"
        if self.out[seat]:
            return f"{who} accused wrongly and makes no further plays"
        return f"it is {self.names[self.turn]}'s turn, not {who}'s"

    # -- legality (see CardGame: one check per kind) -----------------------------------------
    STAGES: ClassVar[dict[str, tuple[str, ...]]] = {
        "suggest": ("suggest",), "play": ("play", "accuse"), "show": ("show",),
        "after": ("end", "accuse")}
    DECK_ONLY: ClassVar[frozenset[str]] = frozenset({"suggest", "accuse"})
    """(A suggestion's refusal reads the marker only for a three-card suggestion, never a
    candidate.)"""

    def _candidates(self, kind: str, seat: int) -> Sequence[Action]:
        if kind == "show":
            return [Action.make("show", seat, card=c) for c in self._waiting["options"]]
        if kind == "suggest":
            return self._pairs("suggest", seat)
        if kind == "end":
            return [Action.make("end", seat)]
        if kind == "play":
            return [play for label in dict.fromkeys(self.action_cards(seat))
                    for play in self._plays(seat, label)]
        return super()._candidates(kind, seat)

    def _passing(self, kind: str, seat: int) -> Sequence[Action]:
        if kind != "play":
            return super()._passing(kind, seat)
        return [play for label in dict.fromkeys(self.action_cards(seat))
                for play in self._passing_plays(seat, label)]

    def _passing_plays(self, seat: int, label: str) -> Sequence[Action]:
        """The ways to play ``label`` that pass. A suggestion card's refusal reads only the
        deck and the seat's marker, so they are filtered once per marker."""
        def passing() -> tuple[Action, ...]:
            return tuple(a for a in self._plays(seat, label) if self._refusal(a) is None)
        if self.action_kind(label).kind in ("suggest-any", "suggest-current"):
            return self._table(("passing", seat, label, self.markers[seat]), passing)
        return passing()

    def _refusal(self, action: Action) -> str | None:
        kind, seat, who = action.kind, action.seat, self.names[action.seat]
        if kind == "show":
            w = self._waiting
            card = action.get("card")
            if card not in w["options"]:
                return f"{card!r} is not a card {who} may show now (choose one of " \
                       f"{self._names(w['options'])})"
            return None
        if kind == "suggest":
            return self._why_suggestion(action.get("cards"), seat)
        if kind == "play":
            return self._why_play(action, seat, who)
        return super()._refusal(action)

    def _wrong_moment(self, kind: str, who: str) -> str:
        if self.stage == "show":
            return (f"{who} must first choose which card to show "
                    f"{self.names[self._waiting['by']]}")
        prepared = f"{who} must first make the suggestion prepared last turn"
        played = f"{who} has already played a card this turn: accuse or end"
        return {
            "suggest": (played if self.stage == "after" else
                        f"{who} has no suggestion prepared: play an action card or accuse"),
            "end": (prepared if self.stage == "suggest" else
                    f"{who} must play an action card or accuse before ending the turn"),
            "play": (f"{prepared}, from {self._name(self._marker(self.turn))}"
                     if self.stage == "suggest" else played),
            "accuse": prepared,
            "show": f"nobody is waiting for {who} to show a card",
        }[kind]

    def _why_suggestion(self, cards: Any, seat: int) -> str | None:
        cats = self.edition.categories
        names = " and ".join(f"a {c.name}" for c in cats[:-1])
        mine = self._marker(seat)
        if isinstance(cards, tuple) and len(cards) == len(cats) and all(
                c in self.fixed.order for c in cards):
            place = next((c for c in cards if self.edition.card(c).category
                          == self.fixed.place_category.id), None)
            if place is not None and place != mine:
                holder = self.marker_holder(place)
                where = "lies by the pile" if holder is None else \
                    f"is in front of {self.names[holder]}"
                return (f"the marker for {self._name(place)} is not yours (it {where}): you "
                        f"suggest from your own marker's destination, {self._name(mine)}")
        problem = self._why_cards(cards, len(cats) - 1, "a suggestion")
        if problem is None and sorted(self.edition.card(c).category for c in cards) != \
                sorted(c.id for c in cats[:-1]):
            problem = "wrong categories"
        if problem:
            return (f"a suggestion names {names}; the {self.fixed.place_category.name.lower()} is "
                    f"your marker's ({self._name(mine)}) ({problem})")
        return None

    def _why_play(self, action: Action, seat: int, who: str) -> str | None:
        label = action.get("card")
        if label not in self.fixed.labels:
            return f"no action card {label!r}; cards: {', '.join(self.fixed.labels)}"
        if label not in self.action_cards(seat):
            return f"{who} holds no {label!r} card (holds: " \
                   f"{', '.join(self.action_cards(seat))})"
        kind = self.action_kind(label)
        extra = {k for k, _ in action.args} - {"card"}
        if extra - self.CARD_ARGS[kind.kind]:
            takes = ", ".join(sorted(self.CARD_ARGS[kind.kind])) or "no choices"
            return (f"{label} takes {takes}, not "
                    f"{', '.join(sorted(extra - self.CARD_ARGS[kind.kind]))}")
        target = action.get("target")
        if kind.kind in ("snoop", "private-tip"):
            if target == who:
                return f"{who} cannot play {label} on themselves: choose an opponent"
            if target in self.names and self.gone(self.names.index(target)):
                return f"{target} has left the game after a wrong accusation"
            if target not in self.names:
                return f"{label} needs a target: one of " \
                       f"{', '.join(n for n in self.names if n != who)}"
        destination = action.get("destination")
        places = [c.id for c in self.fixed.place_category.cards]
        if kind.kind == "suggest-any" and destination not in places:
            return f"{label} needs a destination: one of {self._names(places)}"
        if kind.kind == "suggest-current":
            if destination is not None:
                if destination not in places:
                    return f"{destination!r} is not a destination"
                if destination == self.markers[seat]:
                    return (f"{self._name(destination)} is already {who}'s destination: "
                            "suggest from it, or move to another")
                if "cards" in extra:
                    return "move or suggest, not both: moving ends the turn"
            else:
                return self._why_suggestion(action.get("cards"), seat)
        return None
