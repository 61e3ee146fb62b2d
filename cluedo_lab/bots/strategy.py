"""Strategies of several strengths, for every edition: the players of the strategy lab.

Every bot is a small class with one method, ``choose(game, seat) -> Action``, seeded, and sees
only what a player at the table sees: its own record (``game.record(seat)``: its hand, the
face-up cards and every event as that seat saw it), its legal actions and the public table
(where the pieces stand, destination markers, its own action cards, who is asking or accusing).
It never reads the deal, so two deals that fit its record get the same move. To know when its
record has changed it looks only at how many events have happened, which every player sees.

The bots, weakest first (names for :func:`make_bot`):

``random``
    A random legal move: first a kind of move (ask, move, accuse, ...) uniformly, then one move
    of that kind. Choosing among all legal moves at once would almost always accuse at the
    first chance (hundreds of accusations against a few dozen other moves), which measures
    nothing.
``eliminator``
    The paper notepad: ticks off the cards it has seen and the simple consequences of a pass
    (:func:`cluedo_lab.board_bots.cheap_view`: no counting, hand sizes unused). It never asks
    about a card whose place it knows while a card it does not know could take that slot, and
    accuses when each category has one candidate left.
``detective`` / ``detective@P``
    Complete deduction and exact probabilities (:class:`~cluedo_lab.knowledge.Knowledge`).
    Asks about the cards another player may still hold that are likeliest to be in the
    envelope; accuses as soon as the envelope is certain, or, with a threshold ``P`` below 1,
    as soon as the likeliest envelope has probability at least ``P`` (a gamble: a wrong
    accusation puts you out).
``infogain`` / ``infogain@P``
    The detective, but it asks the legal question with the highest exact expected information
    gain about the envelope (:func:`cluedo_lab.advice.rank_questions`). With more than
    ``full_players`` players (default 3) counting every question's answers can take seconds,
    so it ranks exactly only the ``shortlist`` questions the detective's rule likes best
    (default 12). On a board it walks to the room whose best question gains most.
``bluffer`` / ``bluffer@P``
    The detective, but each question names one of its own cards on purpose (in a slot of its
    choice, while another slot still has an open card to ask about): the others hear it asked
    about a card it holds and may count it as a candidate.

Shared defaults, for moves a strategy has no policy of its own for:

- Which card to show: the one the asker has already seen from you, else the one shown to most
  players (the card and board games' own detectives, :mod:`cluedo_lab.card_bots` and
  :mod:`cluedo_lab.board_bots`).
- 2002 action cards: the card game detective's choice among the cards in hand (snoop the
  player with most unknown cards, Private Tip where it settles most, move the marker to the
  likeliest destination, ...), fed with this strategy's knowledge; a suggestion that card
  makes names the cards *this* strategy picks.
- Boards: where to go is the board detective's walk (:class:`cluedo_lab.board_bots.
  DetectiveBot`: each room's worth over one plus the turns to get there), with this
  strategy's view of the cards; 2023 Clue cards target the player with most unplaced cards.
- 2018 joint accusations: join when sure (or past the threshold), when forced, or when two
  players already accuse (the game ends then anyway); otherwise decline.
- A safety net: after ``patience`` turns on which it could have accused (default 200) a bot
  accuses its likeliest envelope, so every game ends.

Every choice is a function of the seat's record, the public table and the bot's seed: nothing
depends on timing, so a tournament replays exactly on any machine and any number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ..games.game import Action, Game
from ..knowledge.advice import rank_questions
from ..knowledge.engine import Knowledge
from ..records import ENVELOPE, Record
from ..rules.errors import Contradiction
from . import board_bots, card_bots
from .board_bots import View, cheap_view

__all__ = ["Strategy", "RandomBot", "Eliminator", "Detective", "InfoGain", "Bluffer", "BOTS",
           "make_bot", "bot_names", "catalogue", "Sight", "view_of"]


# ---------------------------------------------------------------------------------------------
# What a seat knows
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sight:
    """A seat's knowledge at one moment: its record, the view the moves are chosen from, and
    the exact knowledge behind it (None for the notepad's cheap view)."""

    record: Record
    view: View
    knowledge: Knowledge | None


def view_of(knowledge: Knowledge) -> View:
    """The exact view of a :class:`Knowledge` (as :func:`cluedo_lab.board_bots.exact_view`,
    keeping the knowledge for envelope distributions and information gain)."""
    table = knowledge.probabilities()
    envelope = {card: row[ENVELOPE] for card, row in table.items()}
    located = {card: place for card, row in table.items() for place, p in row.items() if p == 1}
    possible = {card: frozenset(p for p, v in row.items() if v > 0)
                for card, row in table.items()}
    return View(envelope, located, possible, knowledge.solution(), True)


class _Notes:
    """A Knowledge-like face for a cheap view, so the 2002 action-card policy can read it."""

    def __init__(self, record: Record, view: View):
        self.record, self.view = record, view

    def probability(self, card: Any, place: str) -> Fraction:
        card = getattr(card, "id", card)
        if self.view.located.get(card) == place:
            return Fraction(1)
        possible = self.view.possible[card]
        return Fraction(1, len(possible)) if place in possible else Fraction(0)


# ---------------------------------------------------------------------------------------------
# The shared machinery
# ---------------------------------------------------------------------------------------------

class Strategy:
    """Base class of the strategies: the game loop is shared, the questions and the
    accusations are each strategy's own (see the module docstring for the shared defaults).

    ``threshold`` (detective, infogain, bluffer): accuse once the likeliest envelope has at
    least this probability; 1 means only when certain.
    """

    name: ClassVar[str] = ""
    exact: ClassVar[bool] = True
    """Use the knowledge engine (False: the notepad's cheap view)."""
    takes_threshold: ClassVar[bool] = True

    def __init__(self, seed: int = 0, threshold: float = 1.0, patience: int = 200):
        if not 0 < threshold <= 1:
            raise ValueError(f"a threshold is a probability in (0, 1], not {threshold!r}")
        self.seed = seed
        self.threshold = threshold
        self.patience = patience
        self.rng = random.Random(seed)
        self.chances = 0        # turns on which this bot could have accused
        self._sight: tuple[tuple, Sight] | None = None
        self._worth: tuple[tuple, dict[str, float] | None] | None = None
        self._card_helper: card_bots.DetectiveBot | None = None
        self._board_helper: _Walker | None = None

    @property
    def label(self) -> str:
        """The registry name, with the threshold when it is not 1 (``detective@0.8``)."""
        return self.name if self.threshold == 1 else f"{self.name}@{self.threshold:g}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r}, seed={self.seed})"

    # -- knowledge ---------------------------------------------------------------------------
    def sight(self, game: Game, seat: int) -> Sight:
        """This seat's knowledge, recounted only when an event has happened since."""
        key = (id(game), seat, len(game.events))
        if self._sight is not None and self._sight[0] == key:
            return self._sight[1]
        record = game.record(seat)
        sight = None
        if self.exact:
            try:
                known = Knowledge(record)
                sight = Sight(record, view_of(known), known)
            except Contradiction:   # a lie (false witness) in the record: fall back to notes
                sight = None
        if sight is None:
            sight = Sight(record, cheap_view(record), None)
        self._sight = (key, sight)
        return sight

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if game.edition.family == "board":
            return self._board_move(game, seat, legal)
        return self._card_move(game, seat, legal)

    def _card_move(self, game: Any, seat: int, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        if "show" in kinds:
            return self._card_helper_for()._show(game, seat, legal)
        sight = self.sight(game, seat)
        if "decline" in kinds or kinds == {"accuse"}:
            return self._join(game, sight, legal)
        if "accuse" in kinds:
            guess = self._accusation(sight)
            if guess is not None:
                return _accuse(legal, guess)
        if "ask" in kinds:
            return self.question(game, seat, sight, _of(legal, "ask"), "items", ())
        if "suggest" in kinds:
            return self.question(game, seat, sight, _of(legal, "suggest"), "cards",
                                 (game.markers[seat],))
        if "play" in kinds:
            return self._action_card(game, seat, sight, legal)
        if "end" in kinds:
            return _of(legal, "end")[0]
        return self.rng.choice(legal)

    def _board_move(self, game: Any, seat: int, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        walker = self._walker()
        if kinds & {"show", "reveal"}:
            return walker._show(game, seat, [a for a in legal if a.kind in ("show", "reveal")])
        sight = self.sight(game, seat)
        if "clue" in kinds:
            return walker._clue_target(game, sight.view, _of(legal, "clue"))
        if "check" in kinds:
            return _of(legal, "check")[0]
        if "accuse" in kinds:
            guess = self._accusation(sight)
            if guess is not None:
                return _accuse(legal, guess)
        if "suggest" in kinds:
            return self.question(game, seat, sight, _of(legal, "suggest"), "cards",
                                 (game.room_of(seat),))
        walker.sight = sight
        if kinds & {"roll", "stay", "passage"}:
            return walker._start(game, seat, sight.view, legal)
        if "move" in kinds:
            return walker._move(game, seat, sight.view, legal)
        if "end" in kinds:
            return _of(legal, "end")[0]
        return self.rng.choice(legal)

    # -- accusing ----------------------------------------------------------------------------
    def _accusation(self, sight: Sight) -> tuple[str, ...] | None:
        """What to accuse on a turn where accusing is allowed, or None to play on."""
        self.chances += 1
        if sight.view.solution is not None:
            return sight.view.solution
        if self.threshold < 1 and sight.knowledge is not None:
            guess, chance = self.likeliest(sight, at_least=self.threshold)
            if guess is not None and chance >= self.threshold:
                return guess
        if self.chances > self.patience:
            return self.likeliest(sight)[0]
        return None

    def likeliest(self, sight: Sight, at_least: float = 0.0
                  ) -> tuple[tuple[str, ...] | None, Fraction]:
        """The likeliest envelope and its probability (ties: the first in deck order).

        The envelope's distribution costs more than the card table, and no envelope can be
        likelier than its least likely card, so below ``at_least`` it is not computed."""
        view, known = sight.view, sight.knowledge
        edition = sight.record.edition
        tops = [max(view.envelope[c.id] for c in cat.cards) for cat in edition.categories]
        if known is None:
            picks = tuple(max((c.id for c in cat.cards), key=lambda c: view.envelope[c])
                          for cat in edition.categories)
            chance = Fraction(1)
            for p in tops:
                chance *= p
            return picks, chance
        if min(tops) < at_least:
            return None, Fraction(0)
        dist = known.envelope_distribution()
        best = max(sorted(dist), key=dist.__getitem__)
        return best, dist[best]

    def _join(self, game: Any, sight: Sight, legal: list[Action]) -> Action:
        """2018: join an accusation (or accuse when nothing else is allowed)."""
        forced = not any(a.kind == "decline" for a in legal)
        guess = sight.view.solution
        if guess is None and self.threshold < 1 and sight.knowledge is not None:
            best, chance = self.likeliest(sight, at_least=self.threshold)
            guess = best if best is not None and chance >= self.threshold else None
        if guess is None and (forced or len(getattr(game, "accusing", ())) >= 2):
            guess = self.likeliest(sight)[0]
        if guess is None:
            return _of(legal, "decline")[0]
        return _accuse(legal, guess)

    # -- asking ------------------------------------------------------------------------------
    def question(self, game: Any, seat: int, sight: Sight, candidates: list[Action], key: str,
                 fixed: Sequence[str]) -> Action:
        """The question to ask among ``candidates`` (legal actions naming cards under ``key``;
        ``fixed`` cards are named anyway: the room you stand in, your destination)."""
        chosen = self.pick(game, seat, sight, _slots(game, fixed))
        return _matching(candidates, key, chosen) or self.rng.choice(candidates)

    def pick(self, game: Any, seat: int, sight: Sight, slots: list[list[str]]) -> list[str]:
        """One card per slot (a slot is the pool of cards that may fill it)."""
        picked: list[str] = []
        for pool in slots:
            options = [c for c in pool if c not in picked]
            picked.append(max(options, key=lambda c: self.rank(game, seat, sight, c)))
        return picked

    def rank(self, game: Any, seat: int, sight: Sight, card: str) -> tuple:
        """How much this strategy wants to name ``card`` (larger first; seeded ties). The
        detective: open cards first, likeliest in the envelope first."""
        return (_tier(game, seat, sight.view, card), sight.view.envelope[card],
                self.rng.random())

    def room_worth(self, game: Any, seat: int, sight: Sight) -> dict[str, float] | None:
        """What walking to each room is worth; None: the board detective's rule."""
        return None

    # -- 2002 action cards -------------------------------------------------------------------
    def _action_card(self, game: Any, seat: int, sight: Sight, legal: list[Action]) -> Action:
        known = sight.knowledge if sight.knowledge is not None else _Notes(sight.record,
                                                                            sight.view)
        env = dict(sight.view.envelope)
        action = self._card_helper_for()._play(game, seat, known, env, legal)
        if action.kind == "play" and action.get("cards") is not None:
            same = [a for a in legal if a.kind == "play" and a.get("card") == action["card"]
                    and a.get("cards") is not None]
            return self.question(game, seat, sight, same, "cards", (game.markers[seat],))
        return action

    # -- helpers -----------------------------------------------------------------------------
    def _card_helper_for(self) -> card_bots.DetectiveBot:
        if self._card_helper is None:
            self._card_helper = card_bots.DetectiveBot(self.seed)
        return self._card_helper

    def _walker(self) -> _Walker:
        if self._board_helper is None:
            self._board_helper = _Walker(self.seed, owner=self)
        return self._board_helper


class _Walker(board_bots.DetectiveBot):
    """The board detective's walking, showing and Clue-card choices, with a strategy's own
    view of the cards and, where the strategy has one, its own worth of each room."""

    def __init__(self, seed: int, owner: Strategy):
        super().__init__(seed)
        self.owner = owner
        self.sight: Sight | None = None
        self._worth_for: tuple[View, dict[str, float]] | None = None

    def room_worth(self, game: Any, seat: int, view: View) -> dict[str, float]:
        if self._worth_for is not None and self._worth_for[0] is view:
            return self._worth_for[1]
        worth = None
        if self.sight is not None and self.sight.view is view:
            worth = self.owner.room_worth(game, seat, self.sight)
        if worth is None:
            self._cache.pop("worth", None)   # the detective caches per view it computed
            worth = super().room_worth(game, seat, view)
        self._worth_for = (view, worth)
        return worth


# ---------------------------------------------------------------------------------------------
# The strategies
# ---------------------------------------------------------------------------------------------

class RandomBot(Strategy):
    """A random legal move: a kind of move uniformly, then a move of that kind."""

    name = "random"
    exact = False
    takes_threshold = False

    def choose(self, game: Game, seat: int) -> Action:
        groups: dict[str, list[Action]] = {}
        for action in game.legal_actions():
            groups.setdefault(action.kind, []).append(action)
        kind = self.rng.choice(sorted(groups))
        return self.rng.choice(groups[kind])


class Eliminator(Strategy):
    """The paper notepad: seen cards and simple rules, never asks about a card it has placed
    while an unplaced one could take the slot, accuses when one candidate is left per
    category."""

    name = "eliminator"
    exact = False
    takes_threshold = False

    def rank(self, game: Any, seat: int, sight: Sight, card: str) -> tuple:
        return (_tier(game, seat, sight.view, card), self.rng.random())


class Detective(Strategy):
    """Exact deduction; asks about the likeliest open cards; accuses when certain (or past
    its threshold)."""

    name = "detective"


class InfoGain(Strategy):
    """The detective, asking the question with the highest exact expected information gain
    (with more than three players, among a shortlist of the detective's favourites)."""

    name = "infogain"

    def __init__(self, seed: int = 0, threshold: float = 1.0, patience: int = 200,
                 full_players: int = 3, shortlist: int = 12):
        super().__init__(seed, threshold, patience)
        self.full_players = full_players
        self.shortlist = shortlist

    def question(self, game: Any, seat: int, sight: Sight, candidates: list[Action], key: str,
                 fixed: Sequence[str]) -> Action:
        known = sight.knowledge
        if known is None or sight.view.solution is not None:
            return super().question(game, seat, sight, candidates, key, fixed)
        shuffled = list(candidates)
        self.rng.shuffle(shuffled)   # equal gains: a seeded choice, not the list order
        if len(game.names) > self.full_players and len(shuffled) > self.shortlist:
            scored = [(self._score(game, seat, sight, a[key]), i) for i, a in enumerate(shuffled)]
            keep = sorted(i for _, i in sorted(scored, key=lambda s: (-s[0], s[1]))
                          [:self.shortlist])
            shuffled = [shuffled[i] for i in keep]
        named = [tuple(a[key]) + tuple(fixed) for a in shuffled]
        best = rank_questions(known, fixed=fixed, questions=named)[0]
        return shuffled[named.index(tuple(best.named))]

    def _score(self, game: Any, seat: int, sight: Sight, cards: Sequence[str]) -> float:
        """The detective's liking for a question: open cards, likely in the envelope."""
        return sum(10 * _tier(game, seat, sight.view, c) + float(sight.view.envelope[c])
                   for c in cards)

    def room_worth(self, game: Any, seat: int, sight: Sight) -> dict[str, float] | None:
        """Each room's worth: the exact gain of the detective's question there, plus a bit for
        an unseen face-down card (2023 two-player). Computed once per new event."""
        known = sight.knowledge
        if known is None or sight.view.solution is not None:
            return None
        key = (id(game), seat, len(game.events))
        if self._worth is not None and self._worth[0] == key:
            return self._worth[1]
        rooms = game.fixed.rooms
        named = [(*Strategy.pick(self, game, seat, sight, _slots(game, (room,))), room)
                 for room in rooms]
        gains = {option.named: option.gain for option in
                 rank_questions(known, questions=named)}
        worth = {}
        for room, question in zip(rooms, named, strict=True):
            seen = game.piles.get(room) in sight.view.located.values()
            worth[room] = gains[question] + (1.0 if room in game.piles and not seen else 0.0)
        self._worth = (key, worth)
        return worth


class Bluffer(Strategy):
    """The detective, naming one of its own cards in every question (while another slot
    still has an open card to ask about)."""

    name = "bluffer"

    def pick(self, game: Any, seat: int, sight: Sight, slots: list[list[str]]) -> list[str]:
        picked = super().pick(game, seat, sight, slots)
        mine = {c.id for c in sight.record.hand}
        open_slots = [i for i, c in enumerate(picked) if _tier(game, seat, sight.view, c) == 3]
        choices = [i for i, pool in enumerate(slots)
                   if mine & set(pool) and any(j != i for j in open_slots)]
        if not choices:
            return picked
        slot = self.rng.choice(choices)
        others = [c for j, c in enumerate(picked) if j != slot]
        own = sorted(c for c in slots[slot] if c in mine and c not in others)
        if not own:
            return picked
        picked[slot] = self.rng.choice(own)
        return picked


BOTS: dict[str, type[Strategy]] = {cls.name: cls for cls in
                                   (RandomBot, Eliminator, Detective, InfoGain, Bluffer)}


def bot_names() -> list[str]:
    return list(BOTS)


def make_bot(spec: str, seed: int = 0) -> Strategy:
    """A bot from its registry name, with an optional threshold: ``detective@0.8``."""
    name, at, param = spec.strip().partition("@")
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)} (a threshold may follow "
                         "@, as in detective@0.8)")
    if not at:
        return cls(seed)
    if not cls.takes_threshold:
        raise ValueError(f"bot {name!r} takes no threshold (only "
                         + ", ".join(n for n, c in BOTS.items() if c.takes_threshold) + ")")
    try:
        threshold = float(param)
    except ValueError:
        raise ValueError(f"{spec!r}: the threshold after @ must be a number") from None
    if not 0 < threshold <= 1:
        raise ValueError(f"{spec!r}: the threshold is a probability in (0, 1]")
    return cls(seed, threshold=threshold)


def catalogue() -> list[tuple[str, str]]:
    """Each bot's name and a one-line description, weakest first."""
    return [(name, " ".join((cls.__doc__ or "").split()))
            for name, cls in BOTS.items()]


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

def _tier(game: Any, seat: int, view: View, card: str) -> int:
    """3: open (not placed, another player may hold it); 2: not placed, but nobody else can
    show it; 1: placed where nobody else can show it (own hand, envelope, face up);
    0: placed with another player."""
    me = game.names[seat]
    others = any(p != me and p in game.names for p in view.possible[card])
    placed = card in view.located
    if others:
        return 0 if placed else 3
    return 1 if placed else 2


def _slots(game: Any, fixed: Sequence[str]) -> list[list[str]]:
    """The pools a question's free slots are filled from."""
    edition = game.edition
    if edition.question.form == "any":
        every = [c.id for c in edition.cards if c.id not in fixed]
        return [every] * (edition.question.items - len(fixed))
    return [[c.id for c in cat.cards] for cat in edition.categories
            if not any(c.id in fixed for c in cat.cards)]


def _matching(candidates: Sequence[Action], key: str, cards: Sequence[str]) -> Action | None:
    want = set(cards)
    return next((a for a in candidates if set(a[key]) == want), None)


def _of(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a.kind == kind]


def _accuse(legal: Sequence[Action], cards: Sequence[str]) -> Action:
    want = set(cards)
    for action in legal:
        if action.kind == "accuse" and set(action["cards"]) == want:
            return action
    raise RuntimeError(f"no legal accusation of {sorted(want)}")  # pragma: no cover

