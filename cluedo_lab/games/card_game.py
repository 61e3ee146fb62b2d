"""What the two card games share: Cluedo Card Game (Hasbro 2018, :mod:`.card_2018`) and
Cluedo The Card Game (Winning Moves 2002, standard and one-against-all, :mod:`.card_2002`).

Both follow the shared game API (:mod:`cluedo_lab.games.game`): a seeded deal plus a list of
actions, ``legal_actions()`` / ``apply()``, every event written to each seat's record exactly
as that seat learned it. Decks, features and the action deck are read from the edition files.

Actions (card arguments are card ids; names and aliases are accepted and converted):

- 2018: ``ask(items=[a, b])``; ``show(card)`` by the player who holds both asked items;
  ``accuse(cards=[suspect, weapon, location])``, then each other player in turn
  ``accuse(...)`` too or ``decline``.
- 2002: ``play(card=<action card label>, ...)`` with ``destination``, ``cards=[suspect,
  vehicle]`` or ``target`` as the card needs; ``suggest(cards=[suspect, vehicle])`` for a
  suggestion prepared last turn; ``show(card)`` by whoever must choose a card to show;
  ``accuse(cards=[suspect, vehicle, destination])``; ``end`` to finish a turn.

A shower always acts (``show``), even with a single card to give: a step only for those holding
two would tell everybody so. Snoop and All Snoop pick a card blind, so the game picks it
(seeded), not the player.

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
- Every accuser looks at the solution: their own accusation event holds it (``envelope``).
  A lone wrong accusation's cards reach the others only when ``accusation.reveal`` is
  ``"everyone"``.

Each of these choices is also an ``[[assumptions]]`` entry of the edition file.

Rules read from the edition, so that variants (:mod:`cluedo_lab.rules.variant`) play too:

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from ..rules.edition import Edition
from .game import Action, Game

_T = TypeVar("_T")

__all__ = ["CardGame", "CardFixed"]


# ---------------------------------------------------------------------------------------------
# Shared tables and set-up facts
# ---------------------------------------------------------------------------------------------

_DECKS: dict[tuple[Any, ...], int] = {}
"""A small number for each deck seen, so table keys hash quickly."""

_TABLES: dict[tuple[Any, ...], Any] = {}
"""Every question, accusation and suggestion of a deck as Action values, built once per deck
and seat and shared by all games (actions are immutable)."""


@dataclass(eq=False)
class CardFixed:
    """Facts fixed at set-up: shared by every saved position (never changed during play)."""

    deck_no: int
    """A small number for the deck (see ``_DECKS``)."""
    hands: tuple[frozenset[str], ...]
    order: dict[str, int]
    """Card id -> its place in the deck's order."""


@dataclass
class _LegalCache:
    """Legal actions computed once per position (the position is the length of history)."""

    key: int = -1
    items: tuple[Action, ...] = ()


# ---------------------------------------------------------------------------------------------
# Shared by both games
# ---------------------------------------------------------------------------------------------

class CardGame(Game):
    """What the two card games share: seats, wrong accusers, turn order, card names."""

    family: ClassVar[str] = "card"
    fixed: CardFixed
    out: list[bool]
    """Seats that accused wrongly."""
    turn: int
    _cache: _LegalCache
    OPTIONS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, edition: Edition | str, players: int | Sequence[str], seed: int = 0,
                 **options: Any):
        unknown = sorted(set(options) - self.OPTIONS)
        if unknown:
            allowed = ", ".join(sorted(self.OPTIONS)) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {type(self).__name__} "
                             f"(options: {allowed})")
        super().__init__(edition, players, seed, **options)

    def _setup_common(self) -> None:
        self._cache = _LegalCache()
        deck = (self.edition.id, tuple(self._names_of_deck()), tuple(self.edition.actions))
        self.fixed = self._fixed(
            deck_no=_DECKS.setdefault(deck, len(_DECKS)),
            hands=tuple(frozenset(c.id for c in hand) for hand in self.deal.hands),
            order={c.id: i for i, c in enumerate(self.edition.cards)})
        self.out = [False] * len(self.names)
        self._say(f"{self.edition.name}, seed {self.seed}: "
                  + ", ".join(f"{name} holds {self._names(self.deal.hands[s])}"
                              for s, name in enumerate(self.names)))
        if self.deal.face_up:
            self._say(f"Face up for everyone: {self._names(self.deal.face_up)}")

    def _fixed(self, deck_no: int, hands: tuple[frozenset[str], ...],
               order: dict[str, int]) -> CardFixed:
        """The facts fixed at set-up (a game with more of them makes its own)."""
        return CardFixed(deck_no, hands, order)

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

    def _table(self, key: tuple[Any, ...], build: Callable[[], _T]) -> _T:
        """A table of this deck (see ``_TABLES``), built by ``build()`` the first time."""
        full = (self.fixed.deck_no, *key)
        if full not in _TABLES:
            _TABLES[full] = build()
        table: _T = _TABLES[full]
        return table

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
    # Stated once, on the skeleton of :class:`~cluedo_lab.games.game.Game` (the board game's
    # :class:`~cluedo_lab.games.board_why.BoardRules` uses it too): :attr:`STAGES` names the
    # kinds of action each stage of a turn allows.

    STAGES: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Each stage of a turn and the kinds of action it allows, in the order
    :meth:`legal_actions` lists them."""
    DECK_ONLY: ClassVar[frozenset[str]] = frozenset({"accuse"})
    """Kinds whose :meth:`_refusal` of a candidate reads only the deck: their candidates are
    filtered once per deck and seat, not on every step (a long list of questions or
    accusations each time)."""
    stage: str

    def legal_actions(self) -> list[Action]:
        if self._cache.key != len(self.history):
            self._cache = _LegalCache(len(self.history), tuple(self._legal()))
        return list(self._cache.items)

    def _kinds_now(self) -> Sequence[str]:
        return self.STAGES[self.stage]

    def _passing(self, kind: str, seat: int) -> Sequence[Action]:
        filtered = super()._passing
        if kind in self.DECK_ONLY:
            return self._table(("passing", kind, seat), lambda: filtered(kind, seat))
        return filtered(kind, seat)

    def _candidates(self, kind: str, seat: int) -> Sequence[Action]:
        if kind == "accuse":
            return self._accusations(seat)
        return super()._candidates(kind, seat)

    def _refusal(self, action: Action) -> str | None:
        if action.kind == "accuse":
            return self._valid_accusation(action.get("cards"))
        return None

    def _wrong_moment(self, kind: str, who: str) -> str:
        """Why ``kind`` is not allowed at this stage of the turn."""
        return f"{kind} is not allowed now; allowed: {', '.join(self.STAGES[self.stage])}"

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
        return self._rule_refusal(action, who) or super().why_illegal(action)

    def _not_your_move(self, seat: int, who: str) -> str:
        return f"it is {self.names[self._acting]}'s move, not {who}'s"

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
