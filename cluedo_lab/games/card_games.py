"""The two card games, playable: Cluedo Card Game (Hasbro 2018) and Cluedo The Card Game
(Winning Moves 2002, standard and one-against-all).

Both follow the shared game API (:mod:`cluedo_lab.game`): a seeded deal plus a list of actions,
``legal_actions()`` / ``apply()``, every event written to each seat's record exactly as that
seat learned it. Decks, features and the action deck are read from the edition files.

Actions (card arguments are card ids; names and aliases are accepted and converted):

- 2018: ``ask(items=[a, b])``; ``show(card)`` by the player who holds both asked items;
  ``accuse(cards=[suspect, weapon, location])``, then each other player in turn
  ``accuse(...)`` too or ``decline``.
- 2002: ``play(card=<action card label>, ...)`` with ``destination``, ``cards=[suspect,
  vehicle]`` or ``target`` as the card needs; ``suggest(cards=[suspect, vehicle])`` for a
  suggestion prepared last turn; ``show(card)`` by whoever must choose a card to show;
  ``accuse(cards=[suspect, vehicle, destination])``; ``end`` to finish a turn.

A shower who has exactly one card to give does not act: the card goes automatically. Snoop and
All Snoop pick a card blind, so the game picks it (seeded), not the player.

Choices made where the rule books are silent (each has a test):

- Seats: seat 0 sits on the dealer's left (the deal starts there), so the dealer is the last
  seat. 2018: the player listed first starts ("the most suspicious-looking player").
  2002: the dealer starts; in one-against-all the fugitive is the dealer and seat 0 starts.
- 2018: an accusation is made at the start of your turn, instead of asking. The agreed order of
  several accusers is the declarer, then the others who join, to the declarer's left. With
  several accusers the Crime card is turned over for everyone, so the game ends then: the first
  right accusation wins, or nobody wins. A lone wrong accuser is out and play goes on.
- 2002: a suggestion prepared with "from any destination" is made at the start of your next
  turn, after drawing and before playing a card, from the marker in front of you then (another
  player may have swapped it away meanwhile). Moving with "from present destination" may still
  be followed by an accusation (PLAY 4 allows one after any card). The fugitive holds no
  destination marker and no action card. All Snoop, Snoop, Super Sleuth and Private Tip include
  the fugitive and players who accused wrongly: their hands are still in the game.
- 2002 standard: when a player must draw from an empty action deck, the discard pile (Private
  Tips included) is shuffled into a new deck.
- 2002 one-against-all: the fugitive's solution is the ``solution`` option, else one card per
  category drawn with the seed. The action deck is "used up" when a detective's turn starts
  and there is no card to draw: the fugitive escapes then, so whoever draws the last card (or
  plays on after the fugitive discards it) still has that turn. The fugitive also wins when
  every detective has accused wrongly.
- What a wrong accuser sees when peeking at the solution has no record event; it is left out
  (they no longer ask or accuse, so nothing they decide depends on it).

Rules read from the edition, so that variants (:mod:`cluedo_lab.variant`) play too:

- ``question.answer = "every-who-can"``: every player holding a named card shows one to the
  asker, in asking order, each choosing when they hold several; one record event lists them all
  (``showed``). Not with one-against-all, whose fugitive answers only when nobody else can.
- ``accusation.wrong = "leaves"``: a wrong accuser leaves the table: no longer asked (questions,
  Super Sleuth), not a Snoop or Private Tip target, and All Snoop passes hands round the players
  still in the game. By default (``"stays-to-refute"``) they still answer.
- 2018: ``question.items`` and ``question.form`` (any cards, or one of each category). 2002
  needs one-per-category suggestions (the last card is the marker's destination).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..rules.deal import Deal, deal
from ..rules.edition import ActionCardKind, Edition, normalize
from .game import Action, Game, edition_of

__all__ = ["CardGame", "CardGame2018", "CardGame2002", "card_game", "game_from_json",
           "play_log", "tournament", "TournamentResult"]


# ---------------------------------------------------------------------------------------------
# Containers that keep Game.apply's snapshot cheap
# ---------------------------------------------------------------------------------------------

class _AppendOnly(list):
    """History, events and log lines: items never change once added, so the snapshot that
    :meth:`Game.apply` takes before every action copies the list, not its items."""

    def __deepcopy__(self, memo: dict) -> _AppendOnly:
        return _AppendOnly(self)


_DECKS: dict[tuple, int] = {}
"""A small number for each deck seen, so table keys hash quickly."""

_TABLES: dict[tuple, Any] = {}
"""Every question, accusation and suggestion of a deck as Action values, built once per deck
and seat and shared by all games (actions are immutable)."""


class _Flat(list):
    """A list of immutable values (seats, card ids, flags, tuples): a snapshot copies the
    list, not each value (``copy.deepcopy`` would visit every element)."""

    def __deepcopy__(self, memo: dict) -> _Flat:
        return _Flat(self)


class _Rng(random.Random):
    """The game's random source; copied through its state, which is far cheaper than
    ``copy.deepcopy`` of a ``random.Random`` (624 numbers copied one by one)."""

    def __deepcopy__(self, memo: dict) -> _Rng:
        twin = _Rng(0)
        twin.setstate(self.getstate())
        return twin


class _Fixed:
    """Facts fixed at set-up (hands, card order, the action cards): shared by snapshots."""

    def __deepcopy__(self, memo: dict) -> _Fixed:
        return self


@dataclass
class _LegalCache:
    """Legal actions computed once per position (the position is the length of history)."""

    key: int = -1
    items: tuple[Action, ...] = ()

    def __deepcopy__(self, memo: dict) -> _LegalCache:
        return _LegalCache(self.key, self.items)


# ---------------------------------------------------------------------------------------------
# Shared by both games
# ---------------------------------------------------------------------------------------------

class CardGame(Game):
    """What the two card games share: seats, wrong accusers, turn order, card names."""

    family: ClassVar[str] = "card"
    OPTIONS: ClassVar[frozenset[str]] = frozenset()
    ARGS: ClassVar[dict[str, frozenset[str]]] = {}
    """Each action kind and the arguments it may take."""

    def __init__(self, edition: Edition | str, players: int | Sequence[str], seed: int = 0,
                 **options: Any):
        unknown = sorted(set(options) - self.OPTIONS)
        if unknown:
            allowed = ", ".join(sorted(self.OPTIONS)) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {type(self).__name__} "
                             f"(options: {allowed})")
        super().__init__(edition, players, seed, **options)

    def _setup_common(self) -> None:
        self.history = _AppendOnly(self.history)
        self.events = _AppendOnly(self.events)
        self.log = _AppendOnly(self.log)
        rng = _Rng(0)
        rng.setstate(self.rng.getstate())
        self.rng = rng
        self._cache = _LegalCache()
        self.fixed = _Fixed()
        deck = (self.edition.id, tuple(self._names_of_deck()), tuple(self.edition.actions))
        self.fixed.deck_no = _DECKS.setdefault(deck, len(_DECKS))
        n = len(self.names)
        self.fixed.hands = tuple(
            frozenset(c.id for c in hand) for hand in self.deal.hands)
        self.out = _Flat([False] * n)
        self.fixed.order = {c.id: i for i, c in enumerate(self.edition.cards)}
        self._say(f"{self.edition.name}, seed {self.seed}: "
                  + ", ".join(f"{name} holds {self._names(self.deal.hands[s])}"
                              for s, name in enumerate(self.names)))
        if self.deal.face_up:
            self._say(f"Face up for everyone: {self._names(self.deal.face_up)}")

    # -- small helpers -----------------------------------------------------------------------
    def _left(self, seat: int) -> list[int]:
        """The other seats in asking order: the asker's left first, then round the table."""
        n = len(self.names)
        return [(seat + k) % n for k in range(1, n)]

    def gone(self, seat: int) -> bool:
        """Has this seat left the game? Only when the edition says a wrong accuser leaves
        (``accusation.wrong = "leaves"``); by default a wrong accuser stays to answer."""
        return self.out[seat] and self.edition.accusation.wrong == "leaves"

    def _answerers(self, seat: int) -> list[int]:
        """Who is asked, in order: the seats to the left still in the game."""
        return [s for s in self._left(seat) if not self.gone(s)]

    def _answer_line(self, by: str, shown: Sequence[tuple[int, str]],
                     passed: Sequence[int]) -> str:
        """The log's words for an answer where every player who can shows a card."""
        parts = [f"{self.names[s]} shows {by} {self._name(c)}" for s, c in shown]
        parts += [f"{self.names[s]} has none" for s in passed]
        return "; ".join(parts) or "nobody can show a card"

    def _every_event(self, by: int, named: Sequence[str], passed: Sequence[int],
                     shown: Sequence[tuple[int, str]]) -> dict[str, Any]:
        """The record event of a question every player who can answers: only the asker
        sees the cards (each shower knows their own card anyway)."""
        order = {s: i for i, s in enumerate(self._answerers(by))}
        shown = sorted(shown, key=lambda sc: order[sc[0]])
        return {"suggest": list(named), "by": self.names[by],
                "passed": [self.names[s] for s in passed],
                "showed": {self.names[s]: c for s, c in shown}, "_seen_by": [self.names[by]]}

    def _names_of_deck(self) -> list[str]:
        return [c.id for c in self.edition.cards]

    def _table(self, key: tuple, build: Any) -> Any:
        """A table of this deck (see ``_TABLES``), built by ``build()`` the first time."""
        full = (self.fixed.deck_no, *key)
        if full not in _TABLES:
            _TABLES[full] = build()
        return _TABLES[full]

    def _accusations(self, seat: int) -> tuple[Action, ...]:
        cats = [[c.id for c in cat.cards] for cat in self.edition.categories]
        return self._table(("accuse", seat), lambda: tuple(
            Action.make("accuse", seat, cards=list(combo))
            for combo in itertools.product(*cats)))

    def _valid_accusation(self, cards: Any) -> str | None:
        """Why ``cards`` is not an accusation (one card of each category), or None."""
        cats = self.edition.categories
        wanted = ", ".join(f"one {c.name}" for c in cats)
        if not isinstance(cards, tuple) or len(cards) != len(cats):
            return f"an accusation names {wanted}"
        for card in cards:
            if card not in self.fixed.order:
                return f"{self.edition.name} has no card {card!r}"
        if sorted(self.edition.card(c).category for c in cards) != sorted(c.id for c in cats):
            return f"an accusation names {wanted}"
        return None

    def active(self, seat: int) -> bool:
        """May this seat still take turns (not out after a wrong accusation)?"""
        return not self.out[seat]

    def _finish(self, winner: int | None, text: str) -> None:
        self._winner = winner
        self._over = True
        envelope = self._names(self.deal.envelope)
        self._say(f"{text} (the solution: {envelope})")

    # -- legality ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self._cache.key != len(self.history):
            self._cache = _LegalCache(len(self.history), tuple(self._legal()))
        return list(self._cache.items)

    def _legal(self) -> list[Action]:
        raise NotImplementedError

    def apply(self, action: Action | Mapping[str, Any]) -> None:
        """As :meth:`Game.apply`; card names and aliases are first turned into card ids."""
        if not isinstance(action, Action):
            action = Action.from_dict(action)
        super().apply(self._canonical(action))

    def _canonical(self, action: Action) -> Action:
        args = dict(action.args)
        for key in ("card", "destination"):
            if isinstance(args.get(key), str) and not (key == "card" and action.kind == "play"):
                args[key] = self._card_id(args[key])
        for key in ("items", "cards"):
            value = args.get(key)
            if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                ids = [self._card_id(v) for v in value]
                if all(i in self.fixed.order for i in ids):
                    ids.sort(key=self.fixed.order.__getitem__)
                args[key] = ids
        if action.kind == "play" and isinstance(args.get("card"), str):
            args["card"] = self._label(args["card"])
        if isinstance(args.get("target"), int) and not isinstance(args["target"], bool) \
                and 0 <= args["target"] < len(self.names):
            args["target"] = self.names[args["target"]]
        return Action.make(action.kind, action.seat, **{k: _plain(v) for k, v in args.items()})

    def _card_id(self, name: str) -> str:
        try:
            return self.edition.card(name).id
        except KeyError:
            return name

    def _label(self, name: str) -> str:
        return name

    def why_illegal(self, action: Action) -> str:
        if self.is_over:
            winner = "nobody won" if self._winner is None else f"{self.names[self._winner]} won"
            return f"the game is over ({winner})"
        if not 0 <= action.seat < len(self.names):
            return f"there is no seat {action.seat} (seats 0-{len(self.names) - 1})"
        who = self.names[action.seat]
        if action.seat != self.current:
            return self._not_your_move(action.seat, who)
        if action.kind not in self.ARGS:
            return (f"no action {action.kind!r} in {self.edition.name}; kinds: "
                    + ", ".join(self.ARGS))
        extra = sorted({k for k, _ in action.args} - self.ARGS[action.kind])
        if extra:
            takes = ", ".join(sorted(self.ARGS[action.kind])) or "nothing"
            return f"{action.kind} takes {takes}, not {', '.join(extra)}"
        reason = self._why(action, who)
        return reason or super().why_illegal(action)

    def _not_your_move(self, seat: int, who: str) -> str:
        return f"it is {self.names[self.current]}'s move, not {who}'s"

    def _why(self, action: Action, who: str) -> str | None:
        return None

    def _why_cards(self, value: Any, count: int, what: str) -> str | None:
        """Why ``value`` is not a list of ``count`` distinct cards of this deck, or None."""
        if not isinstance(value, tuple) or len(value) != count:
            return f"{what} names exactly {count} cards"
        for card in value:
            if card not in self.fixed.order:
                return f"{self.edition.name} has no card {card!r}"
        if len(set(value)) != len(value):
            return f"{what} names {count} different cards"
        return None


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ---------------------------------------------------------------------------------------------
# 2018
# ---------------------------------------------------------------------------------------------

class CardGame2018(CardGame):
    """Cluedo Card Game (Hasbro 2018): ask your left about any two items; several players may
    accuse together. Rules read from the edition: ``question.items``, ``accusation``."""

    ARGS: ClassVar[dict[str, frozenset[str]]] = {
        "ask": frozenset({"items"}), "show": frozenset({"card"}),
        "accuse": frozenset({"cards"}), "decline": frozenset()}

    def setup(self) -> None:
        if self.edition.actions:
            raise ValueError(f"{self.edition.id} is not played like the 2018 card game "
                             "(no action cards); use CardGame2002")
        self._setup_common()
        self.turn = 0
        self.stage = "ask"            # ask | show (a choice) | accusing
        self.asking: dict[str, Any] | None = None
        self.accusers: list[tuple[int, tuple[str, ...]]] = _Flat()
        self.to_decide: list[int] = _Flat()
        self._say(f"{self.names[0]} goes first")

    @property
    def items(self) -> int:
        return self.edition.question.items

    @property
    def asker(self) -> int | None:
        """Who is waiting for the card being chosen (public: everyone heard the question)."""
        return self.asking["asker"] if self.stage == "show" else None

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
            return self.asking["shower"]
        if self.stage == "accusing":
            return self.to_decide[0]
        return self.turn

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

    def _legal(self) -> list[Action]:
        if self._over:
            return []
        seat = self.current
        if self.stage == "show":
            return [Action.make("show", seat, card=c) for c in self.asking["options"]]
        if self.stage == "accusing":
            extra = [] if self.both_must_accuse else [Action.make("decline", seat)]
            return [*self._accusations(seat), *extra]
        return [*self._questions(seat), *self._accusations(seat)]

    # -- playing -----------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        if action.kind == "ask":
            self._ask(action.seat, tuple(action["items"]))
        elif action.kind == "show":
            self._shown(action["card"])
        elif action.kind == "accuse":
            cards = tuple(action["cards"])
            if self.stage == "ask":
                self.accusers = _Flat([(action.seat, cards)])
                self.to_decide = _Flat(
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
                           "passed": _Flat(s for s, opts in held if not opts),
                           "queue": _Flat((s, opts) for s, opts in held if opts),
                           "shown": _Flat()}
            self._next_shower()
            return
        passed: list[int] = _Flat()
        for seat in self._answerers(asker):
            options = [c for c in items if c in self.fixed.hands[seat]]
            if not options:
                passed.append(seat)
                continue
            self.asking = {"asker": asker, "items": items, "passed": passed, "shower": seat,
                           "options": _Flat(options)}
            if len(options) == 1:
                self._shown(options[0])
            else:
                self.stage = "show"
            return
        by = self.names[asker]
        self.emit({"suggest": list(items), "by": by, "passed": [self.names[s] for s in passed]},
                  f"{by} asks about {self._names(items)}: nobody can show either")
        self._next_turn()

    def _next_shower(self) -> None:
        """Every player who can shows a card, in asking order; one with a choice must act."""
        a = self.asking
        while a["queue"]:
            seat, options = a["queue"][0]
            if len(options) > 1:
                a["shower"], a["options"] = seat, _Flat(options)
                self.stage = "show"
                return
            a["queue"].pop(0)
            a["shown"].append((seat, options[0]))
        by = self.names[a["asker"]]
        self.emit(self._every_event(a["asker"], a["items"], a["passed"], a["shown"]),
                  f"{by} asks about {self._names(a['items'])}: "
                  + self._answer_line(by, a["shown"], a["passed"]))
        self.asking = None
        self.stage = "ask"
        self._next_turn()

    def _shown(self, card: str) -> None:
        a = self.asking
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
        results = []
        for seat, cards in self.accusers:
            correct = set(cards) == envelope
            results.append(correct)
            verdict = "right" if correct else "wrong"
            self.emit({"accuse": list(cards), "by": self.names[seat], "correct": correct},
                      f"{self.names[seat]} accuses {self._names(cards)}: {verdict}")
        accusers, self.accusers = self.accusers, _Flat()
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
            a = self.asking
            return (f"{self.names[a['shower']]} must choose which card to show "
                    f"{self.names[a['asker']]}, not {who}")
        if self.stage == "accusing":
            return f"{self.names[self.current]} decides next whether to accuse, not {who}"
        if self.out[seat]:
            return f"{who} accused wrongly: they still answer but no longer ask or accuse"
        return f"it is {self.names[self.turn]}'s turn, not {who}'s"

    def _why(self, action: Action, who: str) -> str | None:
        kind = action.kind
        stages = {"ask": ("ask", "accuse"), "show": ("show",), "accusing": ("accuse", "decline")}
        if kind not in stages[self.stage]:
            return {"show": f"nobody is waiting for {who} to show a card",
                    "decline": "nobody is accusing, so there is nothing to decline",
                    "ask": (f"{who} must show a card first" if self.stage == "show"
                            else "an accusation is under way: accuse or decline"),
                    "accuse": f"{who} must show a card first"}[kind]
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
            a = self.asking
            if card not in a["items"]:
                return f"{card!r} is not one of the items asked about " \
                       f"({self._names(a['items'])})"
            if card not in self.fixed.hands[action.seat]:
                return f"{who} does not hold {self._name(card)}"
        if kind == "accuse":
            return self._valid_accusation(action.get("cards"))
        if kind == "decline" and self.both_must_accuse:
            return "with two players in the advanced game, when one accuses the other must " \
                   "accuse too"
        return None


# ---------------------------------------------------------------------------------------------
# 2002
# ---------------------------------------------------------------------------------------------

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
        self.fugitive: int | None = n - 1 if edition.mode == "one-against-all" else None
        self.fixed.place_category = edition.categories[-1]
        self.fixed.kinds = edition.actions
        self.fixed.labels = tuple(k.label() for k in self.fixed.kinds)
        self.deck = _Flat(i for i, k in enumerate(self.fixed.kinds) for _ in range(k.count))
        self.rng.shuffle(self.deck)         # the top of the deck is the end of the list
        self.discard: list[int] = _Flat()   # the top of the pile is the end of the list
        self.action_hands: list[list[int]] = [_Flat() for _ in range(n)]
        for seat in self.detectives:
            for _ in range(edition.action_hand):
                self.action_hands[seat].append(self.deck.pop())
        places = [c.id for c in self.fixed.place_category.cards]
        shuffled = places[:]
        self.rng.shuffle(shuffled)
        self.markers: list[str | None] = _Flat([None] * n)
        for seat in self.detectives:
            self.markers[seat] = shuffled.pop()
        self.pile = _Flat(sorted(shuffled, key=self.fixed.order.__getitem__))
        self.pending = _Flat([False] * n)
        self.stage = "play"           # suggest | play | show | after
        self.waiting: dict[str, Any] | None = None
        self._say("Markers: " + ", ".join(f"{self.names[s]} at {self._name(self.markers[s])}"
                                          for s in self.detectives)
                  + f"; by the pile: {self._names(self.pile)}")
        if self.fugitive is not None:
            self._say(f"{self.names[self.fugitive]} is the fugitive and chose "
                      f"{self._names(self.deal.envelope)}")
        self.turn = 0 if self.fugitive is not None else n - 1
        self._start_turn(self.turn)

    @property
    def detectives(self) -> list[int]:
        """Seats that take turns (everyone but the fugitive)."""
        return [s for s in range(len(self.names)) if s != getattr(self, "fugitive", None)]

    def record_extras(self) -> dict[str, Any]:
        return {} if self.fugitive is None else {"fugitive": self.names[self.fugitive]}

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
    def asker(self) -> int | None:
        """Who is waiting for the card being chosen (public: everyone saw the card played)."""
        return self.waiting["by"] if self.stage == "show" else None

    # -- turns -------------------------------------------------------------------------------
    @property
    def current(self) -> int | None:
        if self._over:
            return None
        if self.stage == "show":
            return self.waiting["shower"]
        return self.turn

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        if not self.deck:
            if self.fugitive is not None:
                self._finish(self.fugitive, f"The action deck is used up: "
                                            f"{self.names[self.fugitive]} escapes and wins")
                return
            if self.discard:
                self.deck, self.discard = self.discard, _Flat()
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
        """Every way ``seat`` may play the action card ``label``."""
        kind = self.action_kind(label).kind
        if kind in ("snoop", "private-tip"):
            return [Action.make("play", seat, card=label, target=name)
                    for other, name in enumerate(self.names)
                    if other != seat and not self.gone(other)]
        if kind not in ("suggest-any", "suggest-current"):
            return [Action.make("play", seat, card=label)]
        mine = self.markers[seat]
        places = [c.id for c in self.fixed.place_category.cards]
        if kind == "suggest-any":
            return self._table(("play", seat, label), lambda: tuple(
                Action.make("play", seat, card=label, destination=d) for d in places))
        return self._table(("play", seat, label, mine), lambda: (
            *self._pairs("play", seat, card=label),
            *(Action.make("play", seat, card=label, destination=d) for d in places
              if d != mine)))

    def _legal(self) -> list[Action]:
        if self._over:
            return []
        seat = self.current
        if self.stage == "show":
            return [Action.make("show", seat, card=c) for c in self.waiting["options"]]
        if self.stage == "suggest":
            return list(self._pairs("suggest", seat))
        if self.stage == "after":
            return [Action.make("end", seat), *self._accusations(seat)]
        plays: list[Action] = []
        for label in dict.fromkeys(self.action_cards(seat)):
            plays += self._plays(seat, label)
        return [*plays, *self._accusations(seat)]

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
            self.discard.insert(0, index)   # slipped face down under the pile
        else:
            self.discard.append(index)
        self.stage = "after"
        if kind.kind == "suggest-any":
            self._move(seat, action["destination"])
            self.pending[seat] = True
            self._say(f"{who} plays {label}: will suggest from "
                      f"{self._name(self.markers[seat])} next turn")
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
                               "queue": _Flat(self._answerers(seat)), "showed": _Flat(),
                               "nothing": _Flat()})
        elif kind.kind == "private-tip":
            self._private_tip(seat, self.names.index(action["target"]), index)

    def _move(self, seat: int, place: str) -> None:
        """Exchange ``seat``'s marker for ``place``'s: with its holder, or by the pile."""
        mine = self.markers[seat]
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

    def _suggest(self, seat: int, cards: tuple[str, ...], then: str) -> None:
        named = tuple(sorted((*cards, self.markers[seat]), key=self.fixed.order.__getitem__))
        order = self._answerers(seat)
        if self.fugitive is not None and self.fugitive in order:
            order = [s for s in order if s != self.fugitive] + [self.fugitive]
        if self.edition.question.answer == "every-who-can":
            held = [(s, [c for c in named if c in self.fixed.hands[s]]) for s in order]
            self._every_next({"what": "every", "by": seat, "named": named, "then": then,
                              "passed": _Flat(s for s, opts in held if not opts),
                              "queue": _Flat((s, opts) for s, opts in held if opts),
                              "shown": _Flat()})
            return
        passed: list[int] = _Flat()
        for other in order:
            options = [c for c in named if c in self.fixed.hands[other]]
            if not options:
                passed.append(other)
                continue
            self._wait({"what": "suggest", "by": seat, "named": named, "passed": passed,
                        "shower": other, "options": _Flat(options), "then": then})
            return
        by = self.names[seat]
        self.emit({"suggest": list(named), "by": by, "passed": [self.names[s] for s in passed]},
                  f"{by} suggests {self._names(named)}: nobody can show a card")
        self.stage = then

    def _wait(self, waiting: dict[str, Any]) -> None:
        """Someone must choose a card to show: act now if there is no choice."""
        self.waiting = waiting
        if len(waiting["options"]) == 1:
            self._shown(waiting["options"][0])
        else:
            self.stage = "show"

    def _every_next(self, w: dict[str, Any]) -> None:
        """Every player who can shows a card, in asking order; one with a choice must act."""
        while w["queue"]:
            seat, options = w["queue"][0]
            if len(options) > 1:
                self.waiting = {**w, "shower": seat, "options": _Flat(options)}
                self.stage = "show"
                return
            w["queue"].pop(0)
            w["shown"].append((seat, options[0]))
        self.waiting = None
        by = self.names[w["by"]]
        self.emit(self._every_event(w["by"], w["named"], w["passed"], w["shown"]),
                  f"{by} suggests {self._names(w['named'])}: "
                  + self._answer_line(by, w["shown"], w["passed"]))
        self.stage = w["then"]

    def _shown(self, card: str) -> None:
        w = self.waiting
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
                self._fugitive_reward()
        elif w["what"] == "sleuth":
            w["showed"].append((w["shower"], card))
            self._sleuth_next(w)
        elif w["what"] == "tip":
            self._tip_done(w["by"], w["shower"], w["index"], [card])

    def _fugitive_reward(self) -> None:
        if self.deck:
            self.discard.append(self.deck.pop())
            self._say(f"{self.names[self.fugitive]} refuted, and discards the top action "
                      f"card ({self.fixed.labels[self.discard[-1]]}); {len(self.deck)} left")

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

    def _sleuth_next(self, w: dict[str, Any]) -> None:
        kind = self.fixed.kinds[w["index"]]
        while w["queue"]:
            other = w["queue"].pop(0)
            options = [c.id for c in self.deal.hands[other]
                       if c.features.get(kind.feature) == kind.value]
            if options:
                self._wait({**w, "shower": other, "options": _Flat(options)})
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
        options = [c.id for c in hand if c.features.get(kind.feature) == kind.value]
        if not options:
            self._tip_done(seat, target, index, [])
        else:
            self._wait({"what": "tip", "by": seat, "index": index, "shower": target,
                        "options": _Flat(options)})

    def _tip_done(self, seat: int, target: int, index: int, cards: list[str]) -> None:
        kind = self.fixed.kinds[index]
        by, to = self.names[seat], self.names[target]
        spec = ({"category": kind.category, "all": True} if kind.all
                else {"feature": kind.feature, "value": kind.value})
        cards = sorted(cards, key=self.fixed.order.__getitem__)
        self.emit({"private_tip": spec, "by": by, "to": to, "cards": cards,
                   "_seen_by": [by, to]},
                  f"{by} plays {self.fixed.labels[index]} on {to}, who secretly hands back "
                  f"{self._names(cards) or 'nothing'}")
        self.stage = "after"

    def _accuse(self, seat: int, cards: tuple[str, ...]) -> None:
        correct = set(cards) == {c.id for c in self.deal.envelope}
        who = self.names[seat]
        self.emit({"accuse": list(cards), "by": who, "correct": correct},
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
            w = self.waiting
            return (f"{self.names[w['shower']]} must choose which card to show "
                    f"{self.names[w['by']]}, not {who}")
        if seat == self.fugitive:
            return f"{who} is the fugitive and takes no turns"
        if self.out[seat]:
            return f"{who} accused wrongly and makes no further plays"
        return f"it is {self.names[self.turn]}'s turn, not {who}'s"

    def _why(self, action: Action, who: str) -> str | None:
        kind, seat = action.kind, action.seat
        allowed = {"suggest": ("suggest",), "play": ("play", "accuse"), "show": ("show",),
                   "after": ("end", "accuse")}[self.stage]
        if kind not in allowed and self.stage == "show":
            return (f"{who} must first choose which card to show "
                    f"{self.names[self.waiting['by']]}")
        if kind not in allowed:
            mine = self.markers[seat]
            return {
                "suggest": (f"{who} has already played a card this turn: accuse or end"
                            if self.stage == "after" else
                            f"{who} has no suggestion prepared: play an action card or "
                            "accuse"),
                "end": (f"{who} must first make the suggestion prepared last turn"
                        if self.stage == "suggest" else f"{who} must play an action card or "
                        "accuse before ending the turn"),
                "play": (f"{who} must first make the suggestion prepared last turn, from "
                         f"{self._name(mine)}" if self.stage == "suggest" else
                         f"{who} has already played a card this turn: accuse or end"),
                "accuse": f"{who} must first make the suggestion prepared last turn",
                "show": f"nobody is waiting for {who} to show a card",
            }[kind]
        if kind == "show":
            w = self.waiting
            card = action.get("card")
            if card not in w["options"]:
                return f"{card!r} is not a card {who} may show now (choose one of " \
                       f"{self._names(w['options'])})"
            return None
        if kind == "accuse":
            return self._valid_accusation(action.get("cards"))
        if kind == "suggest":
            return self._why_suggestion(action.get("cards"), seat)
        if kind == "play":
            return self._why_play(action, seat, who)
        return None

    def _why_suggestion(self, cards: Any, seat: int) -> str | None:
        cats = self.edition.categories
        names = " and ".join(f"a {c.name}" for c in cats[:-1])
        mine = self.markers[seat]
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


# ---------------------------------------------------------------------------------------------
# Creating, loading, logs and tournaments
# ---------------------------------------------------------------------------------------------

def game_class(edition: Edition) -> type[CardGame]:
    """The class that plays ``edition``: an action deck means the 2002 game."""
    if edition.family != "card":
        raise ValueError(f"{edition.id} is a {edition.family} game, not a card game")
    return CardGame2002 if edition.actions else CardGame2018


def card_game(edition: Edition | str, players: int | Sequence[str], seed: int = 0,
              **options: Any) -> CardGame:
    """A new card game of ``edition`` (an id, a path or an Edition)."""
    ed = edition_of(edition)
    return game_class(ed)(ed, players, seed, **options)


def game_from_json(text: str) -> CardGame:
    """Load a saved card game (either edition) by replaying its actions."""
    import json

    data = json.loads(text)
    return game_class(edition_of(data["edition"])).from_dict(data)


def _bots(names: Sequence[str], players: int, seed: int) -> list[Any]:
    from ..bots.registry import table_bot as make_bot

    if not names:
        raise ValueError("name at least one bot")
    chosen = [names[min(seat, len(names) - 1)] for seat in range(players)]
    return [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(chosen)]


def play_log(edition_id: str, players: int | Sequence[str], seed: int = 0,
             bots: Sequence[str] = ("detective",), **options: Any) -> str:
    """Play one game with bots (one name per seat; the last one fills the remaining seats:
    ``detective``, ``random`` or ``explorer``) and return its readable log."""
    game = card_game(edition_id, players, seed, **options)
    seated = _bots(bots, len(game.names), seed)
    kinds = [bots[min(seat, len(bots) - 1)] for seat in range(len(game.names))]
    game.play(seated)
    head = [f"# {game.edition.name} ({game.edition.id}), seed {seed}",
            "# seats: " + ", ".join(f"{n} ({k})" for n, k in zip(game.names, kinds,
                                                                 strict=True)),
            f"# {len(game.history)} actions"]
    return "\n".join(head + list(game.log))


@dataclass
class TournamentResult:
    """Who solved how many cases, and each game's dealer and winner."""

    cases: int
    solved: dict[str, int]
    games: list[dict[str, Any]] = field(default_factory=list)

    @property
    def champion(self) -> str | None:
        best = [n for n, k in self.solved.items() if k >= self.cases]
        return best[0] if best else None

    def __str__(self) -> str:
        lines = [f"game {i + 1}: dealer {g['dealer']}, "
                 + (f"solved by {g['solved_by']}" if g["solved_by"] else
                    f"not solved ({g['result']})")
                 for i, g in enumerate(self.games)]
        lines.append("cases solved: " + ", ".join(f"{n} {k}" for n, k in self.solved.items()))
        lines.append(f"Master Detective: {self.champion or 'nobody yet'}")
        return "\n".join(lines)


def tournament(edition_id: str, players: Sequence[str], cases: int = 2, seed: int = 0,
               bots: Mapping[str, str] | None = None, max_games: int = 200,
               **options: Any) -> TournamentResult:
    """Play games until one player has solved ``cases`` cases (2002 "Tournament").

    The players keep their places round the table and the deal passes to the left each game
    (the dealer is the last seat; in one-against-all the dealer is the fugitive, so everyone
    takes a turn as fugitive). ``bots`` maps names to bot kinds (default: detectives). A
    fugitive's escape solves no case.
    """
    from ..bots.registry import table_bot as make_bot

    names = list(players)
    if cases < 1:
        raise ValueError("a tournament needs at least one case to solve")
    kinds = {n: (bots or {}).get(n, "detective") for n in names}
    result = TournamentResult(cases, {n: 0 for n in names})
    for number in range(max_games):
        table = names[number % len(names):] + names[:number % len(names)]
        game_seed = seed * 10_000 + number
        game = card_game(edition_id, table, game_seed, **options)
        seated = [make_bot(kinds[n], game_seed * 10 + i) for i, n in enumerate(table)]
        game.play(seated)
        fugitive = getattr(game, "fugitive", None)
        solver = None
        if game.winner is not None and game.winner != fugitive:
            solver = table[game.winner]
            result.solved[solver] += 1
        outcome = "nobody won" if game.winner is None else f"{table[game.winner]} won"
        result.games.append({"seed": game_seed, "dealer": table[-1], "solved_by": solver,
                             "result": outcome, "actions": len(game.history)})
        if solver is not None and result.solved[solver] >= cases:
            return result
    return result
