"""Random play that makes long games, for tests that must reach rare situations.

A uniformly random legal move almost always accuses at its first chance (hundreds of
accusations against a few dozen other moves), so the explorer first picks a *kind* of move
uniformly, then a move of that kind, and accuses only with chance ``accuse_chance``. Where an
accusation needs a suggestion nobody answered (``accusation.when =
"after-unanswered-suggestion"``, 1949 and 2014) the rules already make it rare, so the
explorer takes every chance: holding back too would make games that hardly ever end.
"""

from __future__ import annotations

import itertools
import operator
import random
from dataclasses import dataclass, field

from ..games.game import Action, Game

__all__ = ["ExplorerBot"]

_KIND = operator.attrgetter("kind")


@dataclass
class ExplorerBot:
    """Random play in long games. On a board, entering a room and stopping on a square count
    as two kinds (rooms are few among the squares); in the card games each action card counts
    as its own kind."""

    seed: int = 0
    accuse_chance: float = 0.05
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game, seat: int) -> Action:
        if game.edition.family == "board":
            return self._board_move(game)
        groups: dict[str | tuple[str, str], list[Action]] = {}
        for action in game.legal_actions():
            key = ("play", action.get("card")) if action.kind == "play" else action.kind
            groups.setdefault(key, []).append(action)
        accusations = groups.pop("accuse", None)
        if accusations and (not groups or self.rng.random() < self.accuse_chance):
            return self.rng.choice(accusations)
        return self.rng.choice(self.rng.choice(list(groups.values())))

    def _board_move(self, game: Game) -> Action:
        groups: dict[str, list[Action]] = {}
        for kind, run in itertools.groupby(game.legal_actions(), key=_KIND):
            groups.setdefault(kind, []).extend(run)   # kinds come in runs: one pass
        moves = groups.pop("move", None)
        if moves:
            rooms = [a for a in moves if type(a.args[0][1]) is str]
            for kind, chosen in (("move-room", rooms), ("move-square", moves[len(rooms):])):
                if chosen:
                    groups[kind] = chosen
        accusations = groups.pop("accuse", None)
        rare = game.edition.accusation.when == "after-unanswered-suggestion"
        if accusations and (not groups or rare or self.rng.random() < self.accuse_chance):
            return self.rng.choice(accusations)
        return self.rng.choice(groups[self.rng.choice(sorted(groups))])
