"""The table's quick detectives: one for the board games, one for the card games.

They are the opponents a :class:`~cluedo_lab.views.table.Table` seats by default: each plays
its family's own rules of thumb from its seat's record (its hand, the face-up cards, every
event as it saw it), its legal actions and the public table, and never reads the deal. The
strategy lab's players are in :mod:`cluedo_lab.bots.strategies`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from ..games.action import Action, find, of_kind
from ..games.board_game import BoardGame
from ..games.card_2002 import CardGame2002
from ..games.card_game import CardGame
from ..games.game import Game
from ..knowledge.engine import Knowledge
from ..records import ENVELOPE
from ..rules.errors import Contradiction
from . import board_moves
from .action_cards import action_card_play, likeliest_suggestion, ranked
from .board_turn import board_turn
from .notes import PaperNotes, UntilNextEvent, exact_notes, paper_notes
from .showing import card_to_show_in_card_game

__all__ = ["BoardDetective", "CardDetective", "QuickDetective"]


@dataclass
class BoardDetective:
    """Goes where a suggestion teaches most per turn spent (:mod:`cluedo_lab.bots.
    board_moves`), asks the suspect and weapon that teach most there, and accuses as soon as
    its own record proves the solution.

    Notes are retaken only after new events. With ``exact=False``, or once its record is
    contradictory (as after a false witness), the bot keeps paper notes instead
    (``paper`` tells). No clock is consulted, so the same seed gives the same game on any
    machine. After ``patience`` rounds without a proof it accuses its likeliest guess, so no
    game runs forever.
    """

    seed: int = 0
    exact: bool = True
    model: str = "uniform"
    patience: int = 150
    rng: random.Random = field(init=False, repr=False)
    paper: bool = field(init=False, default=False)
    _game: tuple[int, int] | None = field(init=False, repr=False, default=None)
    _notes: UntilNextEvent[PaperNotes] = field(init=False, repr=False,
                                              default_factory=UntilNextEvent)
    _worth: tuple[PaperNotes, dict[str, float]] | None = field(init=False, repr=False,
                                                             default=None)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def notes(self, game: BoardGame, seat: int) -> PaperNotes:
        """This seat's notes, retaken only when new events have arrived."""
        return self._notes.get(game, seat, lambda: self._take_notes(game, seat))

    def _take_notes(self, game: BoardGame, seat: int) -> PaperNotes:
        if self._game != (id(game), seat):
            self._game = (id(game), seat)
            self.paper = not self.exact
        record = game.record(seat)
        notes = None
        if not self.paper:
            try:
                notes = exact_notes(Knowledge(record, self.model))
            except Contradiction:
                self.paper = True
        if notes is None:
            notes = paper_notes(record)
        return notes

    def room_worth(self, game: BoardGame, seat: int, notes: PaperNotes) -> dict[str, float]:
        """Each room's worth to this seat (computed once per notes)."""
        if self._worth is None or self._worth[0] is not notes:
            self._worth = (notes, board_moves.room_worth(game, seat, notes, self.rng))
        return self._worth[1]

    def choose(self, game: BoardGame, seat: int) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return board_turn(
            game, seat, legal, self.rng,
            notes=lambda: self.notes(game, seat),
            accusation=lambda: self._accusation(game, seat),
            suggestion=lambda room, asks: self._suggestion(game, seat, room, asks),
            worth=lambda: self.room_worth(game, seat, self.notes(game, seat)))

    def _accusation(self, game: BoardGame, seat: int) -> tuple[str, ...] | None:
        """The proven solution; after ``patience`` rounds, the likeliest guess."""
        notes = self.notes(game, seat)
        guess = notes.solution
        if guess is None and game.turn_number > self.patience * len(game.names):
            guess = self._best_guess(game, notes)
        return guess

    def _suggestion(self, game: BoardGame, seat: int, room: str, asks: list[Action]) -> Action:
        """The suspect and weapon that teach most in ``room``."""
        notes = self.notes(game, seat)
        named = board_moves.best_suggestion(game, seat, notes, room, self.rng)[1]
        return find(asks, "suggest", cards=named)

    def _best_guess(self, game: BoardGame, notes: PaperNotes) -> tuple[str, ...]:
        picks = [max(ids, key=lambda c: (notes.envelope[c], self.rng.random()))
                 for ids in (game.fixed.suspects, game.fixed.weapons, game.fixed.rooms)]
        return tuple(sorted(picks, key=game.fixed.order.__getitem__))


@dataclass
class CardDetective:
    """Asks about cards it is not yet sure of and accuses as soon as its record proves the
    solution (``Knowledge.solution()``). Asked to show a card, it repeats one the asker has
    already seen from it when it can, so it gives away as little as possible."""

    seed: int = 0
    model: str = "uniform"
    rng: random.Random = field(init=False, repr=False)
    _known: UntilNextEvent[Knowledge] = field(init=False, repr=False,
                                              default_factory=UntilNextEvent)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def knowledge(self, game: CardGame, seat: int) -> Knowledge:
        """The knowledge of ``seat``'s own record, recounted only when new events arrive."""
        return self._known.get(game, seat, lambda: Knowledge(game.record(seat), self.model))

    def choose(self, game: CardGame, seat: int) -> Action:
        legal = game.legal_actions()
        kinds = {a.kind for a in legal}
        if "show" in kinds:
            return card_to_show_in_card_game(game, seat, legal, self.rng)
        known = self.knowledge(game, seat)
        solution = known.solution()
        if "decline" in kinds or (kinds == {"accuse"}):
            return self._join(game, known, solution, legal)
        if solution is not None and "accuse" in kinds:
            return find(legal, "accuse", cards=set(solution))
        env = {c.id: known.probability(c, ENVELOPE) for c in game.edition.cards}
        if "ask" in kinds:
            return find(legal, "ask", items=set(self._question(game, env)))
        if "suggest" in kinds:
            return find(legal, "suggest", cards=set(likeliest_suggestion(game, env, self.rng)))
        if "play" in kinds:
            # only the 2002 game has action cards
            return action_card_play(cast(CardGame2002, game), seat, known, env, legal, self.rng)
        if "end" in kinds:
            return Action.make("end", seat)
        return self.rng.choice(legal)

    def _question(self, game: CardGame, env: dict[str, Fraction]) -> list[str]:
        """What to ask (2018 and its variants): the ``question.items`` uncertain cards most
        likely in the envelope, or one card of each category when the question names one of
        each."""
        q = game.edition.question
        if q.form == "one-per-category":
            return [ranked([c.id for c in cat.cards], env, self.rng)[0]
                    for cat in game.edition.categories]
        uncertain = ranked([c for c, p in env.items() if 0 < p < 1], env, self.rng)
        rest = ranked([c for c in env if c not in uncertain], env, self.rng)
        return (uncertain + rest)[:q.items]

    def _join(self, game: CardGame, known: Knowledge, solution: tuple[str, ...] | None,
              legal: Sequence[Action]) -> Action:
        """Join an accusation when sure, when forced, or when the game ends anyway."""
        others = len(getattr(game, "accusing", ()))
        forced = not of_kind(legal, "decline")
        if solution is None and (forced or others >= 2):
            dist = known.envelope_distribution()
            solution = max(dist, key=lambda k: (dist[k], self.rng.random()))
        if solution is None:
            return find(legal, "decline")
        return find(legal, "accuse", cards=set(solution))


class QuickDetective:
    """The table's default opponent: on a board it walks where a suggestion teaches most,
    at cards it asks about what it is unsure of; it accuses once its record proves the
    solution."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.board = BoardDetective(seed)
        self.cards = CardDetective(seed)

    def __repr__(self) -> str:
        return f"QuickDetective(seed={self.seed})"

    def choose(self, game: Game, seat: int) -> Action:
        if game.edition.family == "board":
            return self.board.choose(cast(BoardGame, game), seat)
        return self.cards.choose(cast(CardGame, game), seat)
