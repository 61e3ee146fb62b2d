"""Strategies of several strengths, for every edition: the players of the strategy lab.

Every bot is a small class with one method, ``choose(game, seat) -> Action``, seeded, and sees
only what a player at the table sees: its own record (``game.record(seat)``: its hand, the
face-up cards and every event as that seat saw it), its legal actions and the public table
(where the pieces stand, destination markers, its own action cards, who is asking or accusing).
It never reads the deal, so two deals that fit its record get the same move. To know when its
record has changed it looks only at how many events have happened, which every player sees.

The bots, weakest first (names for :func:`cluedo_lab.bots.make_bot`):

``random``
    A random legal move: first a kind of move (ask, move, accuse, ...) uniformly, then one move
    of that kind. Choosing among all legal moves at once would almost always accuse at the
    first chance (hundreds of accusations against a few dozen other moves), which measures
    nothing.
``eliminator``
    The paper notepad: ticks off the cards it has seen and the simple consequences of a pass
    (:func:`cluedo_lab.bots.notes.paper_notes`: no counting, hand sizes unused). It never asks
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
    gain about the envelope (:func:`cluedo_lab.knowledge.advice.rank_questions`). With more than
    ``full_players`` players (default 3) counting every question's answers can take seconds,
    so it ranks exactly only the ``shortlist`` questions the detective's rule likes best
    (default 12). On a board it walks to the room whose best question gains most.
``bluffer`` / ``bluffer@P``
    The detective, but each question names one of its own cards on purpose (in a slot of its
    choice, while another slot still has an open card to ask about): the others hear it asked
    about a card it holds and may count it as a candidate.

Shared defaults, for moves a strategy has no policy of its own for:

- Which card to show: the one the asker has already seen from you, else the one shown to most
  players (:mod:`cluedo_lab.bots.showing`).
- 2002 action cards: :func:`cluedo_lab.bots.action_cards.action_card_play` (snoop the
  player with most unknown cards, Private Tip where it settles most, move the marker to the
  likeliest destination, ...), fed with this strategy's knowledge; a suggestion that card
  makes names the cards *this* strategy picks.
- Boards: where to go is :mod:`cluedo_lab.bots.board_moves` (each room's worth over one plus
  the turns to get there), with this strategy's notes on the cards and, where it has one, its
  own worth of each room; 2023 Clue cards target the player with most unplaced cards.
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
from fractions import Fraction
from typing import Any, ClassVar, cast

from ..games.action import Action, find, of_kind
from ..games.board_game import BoardGame
from ..games.game import Game
from ..knowledge.advice import rank_questions
from ..knowledge.engine import Knowledge
from ..rules.errors import Contradiction
from . import board_moves
from .action_cards import CardOdds, action_card_play
from .board_turn import board_turn
from .notes import PaperNotes, PaperOdds, SeatKnowledge, UntilNextEvent, exact_notes, paper_notes
from .showing import card_to_show_in_card_game

__all__ = ["Strategy", "RandomBot", "Eliminator", "Detective", "InfoGain", "Bluffer",
           "STRATEGIES"]


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
    """Use the knowledge engine (False: paper notes)."""
    takes_threshold: ClassVar[bool] = True

    def __init__(self, seed: int = 0, threshold: float = 1.0, patience: int = 200):
        if not 0 < threshold <= 1:
            raise ValueError(f"a threshold is a probability in (0, 1], not {threshold!r}")
        self.seed = seed
        self.threshold = threshold
        self.patience = patience
        self.rng = random.Random(seed)
        self.chances = 0        # turns on which this bot could have accused
        self._known: UntilNextEvent[SeatKnowledge] = UntilNextEvent()
        self._walk_worth: tuple[PaperNotes, dict[str, float]] | None = None
        # the shared defaults draw their seeded ties apart from the strategy's own choices
        self._card_rng = random.Random(seed)
        self._board_rng = random.Random(seed)

    @property
    def label(self) -> str:
        """The registry name, with the threshold when it is not 1 (``detective@0.8``)."""
        return self.name if self.threshold == 1 else f"{self.name}@{self.threshold:g}"

    def __repr__(self) -> str:
        """Evaluable: the class and the settings that differ from the defaults."""
        settings = [f"seed={self.seed}"]
        if self.threshold != 1:
            settings.append(f"threshold={self.threshold!r}")
        if self.patience != 200:
            settings.append(f"patience={self.patience!r}")
        return f"{type(self).__name__}({', '.join(settings)})"

    # -- knowledge ---------------------------------------------------------------------------
    def seat_knowledge(self, game: Game, seat: int) -> SeatKnowledge:
        """This seat's knowledge, recounted only when an event has happened since."""
        return self._known.get(game, seat, lambda: self._recount(game, seat))

    def _recount(self, game: Game, seat: int) -> SeatKnowledge:
        record = game.record(seat)
        knows = None
        if self.exact:
            try:
                known = Knowledge(record)
                knows = SeatKnowledge(record, exact_notes(known), known)
            except Contradiction:   # a lie (false witness) in the record: paper notes
                knows = None
        if knows is None:
            knows = SeatKnowledge(record, paper_notes(record), None)
        return knows

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if game.edition.family == "board":
            return self._board_move(cast(BoardGame, game), seat, legal)
        return self._card_move(game, seat, legal)

    def _card_move(self, game: Any, seat: int, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        if "show" in kinds:
            return card_to_show_in_card_game(game, seat, legal, self._card_rng)
        knows = self.seat_knowledge(game, seat)
        if "decline" in kinds or kinds == {"accuse"}:
            return self._join(game, knows, legal)
        if "accuse" in kinds:
            guess = self._accusation(knows)
            if guess is not None:
                return find(legal, "accuse", cards=set(guess))
        if "ask" in kinds:
            return self.question(game, seat, knows, of_kind(legal, "ask"), "items", ())
        if "suggest" in kinds:
            return self.question(game, seat, knows, of_kind(legal, "suggest"), "cards",
                                 (game.markers[seat],))
        if "play" in kinds:
            return self._action_card(game, seat, knows, legal)
        if "end" in kinds:
            return of_kind(legal, "end")[0]
        return self.rng.choice(legal)

    def _board_move(self, game: BoardGame, seat: int, legal: list[Action]) -> Action:
        return board_turn(
            game, seat, legal, self._board_rng,
            notes=lambda: self.seat_knowledge(game, seat).notes,
            accusation=lambda: self._accusation(self.seat_knowledge(game, seat)),
            suggestion=lambda room, asks: self.question(
                game, seat, self.seat_knowledge(game, seat), asks, "cards", (room,)),
            worth=lambda: self._walking_worth(game, seat, self.seat_knowledge(game, seat)))

    # -- accusing ----------------------------------------------------------------------------
    def _accusation(self, knows: SeatKnowledge) -> tuple[str, ...] | None:
        """What to accuse on a turn where accusing is allowed, or None to play on."""
        self.chances += 1
        if knows.notes.solution is not None:
            return knows.notes.solution
        if self.threshold < 1 and knows.knowledge is not None:
            guess, chance = self.likeliest(knows, at_least=self.threshold)
            if guess is not None and chance >= self.threshold:
                return guess
        if self.chances > self.patience:
            return self.likeliest(knows)[0]
        return None

    def likeliest(self, knows: SeatKnowledge, at_least: float = 0.0
                  ) -> tuple[tuple[str, ...] | None, Fraction]:
        """The likeliest envelope and its probability (ties: the first in deck order).

        The envelope's distribution costs more than the card table, and no envelope can be
        likelier than its least likely card, so below ``at_least`` it is not computed."""
        notes, known = knows.notes, knows.knowledge
        edition = knows.record.edition
        tops = [max(notes.envelope[c.id] for c in cat.cards) for cat in edition.categories]
        if known is None:
            picks = tuple(max((c.id for c in cat.cards), key=lambda c: notes.envelope[c])
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

    def _join(self, game: Game, knows: SeatKnowledge, legal: list[Action]) -> Action:
        """2018: join an accusation (or accuse when nothing else is allowed)."""
        forced = not of_kind(legal, "decline")
        guess = knows.notes.solution
        if guess is None and self.threshold < 1 and knows.knowledge is not None:
            best, chance = self.likeliest(knows, at_least=self.threshold)
            guess = best if best is not None and chance >= self.threshold else None
        if guess is None and (forced or len(getattr(game, "accusing", ())) >= 2):
            guess = self.likeliest(knows)[0]
        if guess is None:
            return of_kind(legal, "decline")[0]
        return find(legal, "accuse", cards=set(guess))

    # -- asking ------------------------------------------------------------------------------
    def question(self, game: Game, seat: int, knows: SeatKnowledge, candidates: list[Action],
                 key: str, fixed: Sequence[str]) -> Action:
        """The question to ask among ``candidates`` (legal actions naming cards under ``key``;
        ``fixed`` cards are named anyway: the room you stand in, your destination)."""
        nameable = {c for a in candidates for c in a[key]}   # 1949: not your own piece
        slots = [[c for c in pool if c in nameable] or pool for pool in _slots(game, fixed)]
        chosen = self.pick(game, seat, knows, slots)
        return _matching(candidates, key, chosen) or self.rng.choice(candidates)

    def pick(self, game: Game, seat: int, knows: SeatKnowledge, slots: list[list[str]]
             ) -> list[str]:
        """One card per slot (a slot is the pool of cards that may fill it)."""
        picked: list[str] = []
        for pool in slots:
            options = [c for c in pool if c not in picked]
            picked.append(max(options, key=lambda c: self.rank(game, seat, knows, c)))
        return picked

    def rank(self, game: Game, seat: int, knows: SeatKnowledge, card: str) -> tuple[Any, ...]:
        """How much this strategy wants to name ``card`` (larger first; seeded ties). The
        detective: open cards first, likeliest in the envelope first."""
        return (_tier(game, seat, knows.notes, card), knows.notes.envelope[card],
                self.rng.random())

    def room_worth(self, game: BoardGame, seat: int, knows: SeatKnowledge
                   ) -> dict[str, float] | None:
        """What walking to each room is worth; None: the rule of
        :func:`cluedo_lab.bots.board_moves.room_worth`."""
        return None

    def _walking_worth(self, game: BoardGame, seat: int, knows: SeatKnowledge
                       ) -> dict[str, float]:
        """Each room's worth, this strategy's or the shared rule's (once per notes)."""
        if self._walk_worth is None or self._walk_worth[0] is not knows.notes:
            worth = self.room_worth(game, seat, knows)
            if worth is None:
                worth = board_moves.room_worth(game, seat, knows.notes, self._board_rng)
            self._walk_worth = (knows.notes, worth)
        return self._walk_worth[1]

    # -- 2002 action cards -------------------------------------------------------------------
    def _action_card(self, game: Any, seat: int, knows: SeatKnowledge, legal: list[Action]
                     ) -> Action:
        odds: CardOdds = knows.knowledge if knows.knowledge is not None else \
            PaperOdds(knows.record, knows.notes)
        action = action_card_play(game, seat, odds, dict(knows.notes.envelope), legal,
                                  self._card_rng)
        if action.kind == "play" and action.get("cards") is not None:
            same = [a for a in legal if a.kind == "play" and a.get("card") == action["card"]
                    and a.get("cards") is not None]
            return self.question(game, seat, knows, same, "cards", (game.markers[seat],))
        return action


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

    def rank(self, game: Game, seat: int, knows: SeatKnowledge, card: str) -> tuple[Any, ...]:
        return (_tier(game, seat, knows.notes, card), self.rng.random())


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
        self._worth: UntilNextEvent[dict[str, float]] = UntilNextEvent()

    def question(self, game: Game, seat: int, knows: SeatKnowledge, candidates: list[Action],
                 key: str, fixed: Sequence[str]) -> Action:
        known = knows.knowledge
        if known is None or knows.notes.solution is not None:
            return super().question(game, seat, knows, candidates, key, fixed)
        shuffled = list(candidates)
        self.rng.shuffle(shuffled)   # equal gains: a seeded choice, not the list order
        if len(game.names) > self.full_players and len(shuffled) > self.shortlist:
            scored = [(self._score(game, seat, knows, a[key]), i) for i, a in enumerate(shuffled)]
            keep = sorted(i for _, i in sorted(scored, key=lambda s: (-s[0], s[1]))
                          [:self.shortlist])
            shuffled = [shuffled[i] for i in keep]
        named = [tuple(a[key]) + tuple(fixed) for a in shuffled]
        best = rank_questions(known, fixed=fixed, questions=named)[0]
        return shuffled[named.index(tuple(best.named))]

    def _score(self, game: Game, seat: int, knows: SeatKnowledge, cards: Sequence[str]) -> float:
        """The detective's liking for a question: open cards, likely in the envelope."""
        return sum(10 * _tier(game, seat, knows.notes, c) + float(knows.notes.envelope[c])
                   for c in cards)

    def room_worth(self, game: BoardGame, seat: int, knows: SeatKnowledge
                   ) -> dict[str, float] | None:
        """Each room's worth: the exact gain of the detective's question there, plus a bit for
        an unseen face-down card (2023 two-player). Computed once per new event."""
        known = knows.knowledge
        if known is None or knows.notes.solution is not None:
            return None
        return self._worth.get(game, seat, lambda: self._room_gains(game, seat, knows, known))

    def _room_gains(self, game: BoardGame, seat: int, knows: SeatKnowledge, known: Knowledge
                    ) -> dict[str, float]:
        rooms = game.fixed.rooms
        named = [(*Strategy.pick(self, game, seat, knows, _slots(game, (room,))), room)
                 for room in rooms]
        gains = {option.named: option.gain for option in
                 rank_questions(known, questions=named)}
        worth = {}
        for room, question in zip(rooms, named, strict=True):
            seen = game.piles.get(room) in knows.notes.located.values()
            worth[room] = gains[question] + (1.0 if room in game.piles and not seen else 0.0)
        return worth


class Bluffer(Strategy):
    """The detective, naming one of its own cards in every question (while another slot
    still has an open card to ask about)."""

    name = "bluffer"

    def pick(self, game: Game, seat: int, knows: SeatKnowledge, slots: list[list[str]]
             ) -> list[str]:
        picked = super().pick(game, seat, knows, slots)
        mine = {c.id for c in knows.record.hand}
        open_slots = [i for i, c in enumerate(picked) if _tier(game, seat, knows.notes, c) == 3]
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


STRATEGIES: tuple[type[Strategy], ...] = (RandomBot, Eliminator, Detective, InfoGain, Bluffer)
"""The strategy lab's players, weakest first."""


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

def _tier(game: Game, seat: int, notes: PaperNotes, card: str) -> int:
    """3: open (not placed, another player may hold it); 2: not placed, but nobody else can
    show it; 1: placed where nobody else can show it (own hand, envelope, face up);
    0: placed with another player."""
    me = game.names[seat]
    others = any(p != me and p in game.names for p in notes.possible[card])
    placed = card in notes.located
    if others:
        return 0 if placed else 3
    return 1 if placed else 2


def _slots(game: Game, fixed: Sequence[str]) -> list[list[str]]:
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
