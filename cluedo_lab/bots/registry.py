"""Every bot by name: the one place that turns ``"detective@0.8"`` into a player.

The strategy lab's players (:mod:`cluedo_lab.bots.strategies`) come first, weakest first;
then the explorer, whose long random games reach rare situations for tests, and the quick
detective a :class:`~cluedo_lab.views.table.Table` seats by default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from ..games.game import Game
from ..games.loop import Player
from ..rules.errors import InvalidArgument
from .explorer import ExplorerBot
from .quick_detectives import QuickDetective
from .strategies import STRATEGIES

__all__ = ["Bot", "BOTS", "FOR_TESTS", "make_bot", "bot_names", "catalogue"]


Bot: TypeAlias = Player[Game]
"""A bot is a :class:`~cluedo_lab.games.loop.Player` of any game."""


_THRESHOLDED = {cls.name for cls in STRATEGIES if cls.takes_threshold}

BOTS: dict[str, Callable[[int], Bot]] = {
    **{cls.name: cls for cls in STRATEGIES},
    "explorer": ExplorerBot,
    "quick-detective": QuickDetective,
}
"""Each bot's name and the class that plays it (called with a seed)."""

FOR_TESTS = frozenset({"explorer"})
"""Bots that play only to test the engine (the explorer's random games reach rare
situations): never offered to students as opponents."""


def bot_names(for_students: bool = False) -> list[str]:
    """The names :func:`make_bot` knows, strategy lab players first (weakest first); with
    ``for_students``, only the bots a student may be offered (no test-only bots)."""
    return [name for name in BOTS if not (for_students and name in FOR_TESTS)]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its registry name, with an optional threshold: ``detective@0.8``.

    >>> make_bot("detective@0.8", seed=3)
    Detective(seed=3, threshold=0.8)
    >>> from cluedo_lab.games import new_game
    >>> game = new_game("cluedo-card-game-2018", 3, seed=1)
    >>> game.is_legal(make_bot("random", seed=1).choose(game, game.current))
    True
    """
    name, at, param = spec.strip().partition("@")
    cls = BOTS.get(name)
    if cls is None:
        raise InvalidArgument(f"no bot {name!r}; bots: {', '.join(BOTS)} (a threshold may "
                              "follow @, as in detective@0.8)")
    if not at:
        return cls(seed)
    if name not in _THRESHOLDED:
        raise ValueError(f"bot {name!r} takes no threshold (only "
                         + ", ".join(n for n in BOTS if n in _THRESHOLDED) + ")")
    try:
        threshold = float(param)
    except ValueError:
        raise ValueError(f"{spec!r}: the threshold after @ must be a number") from None
    if not 0 < threshold <= 1:
        raise ValueError(f"{spec!r}: the threshold is a probability in (0, 1]")
    strategy = next(s for s in STRATEGIES if s.name == name)
    return strategy(seed, threshold=threshold)


def catalogue() -> list[tuple[str, str]]:
    """Each bot's name and its description, in the order of :func:`bot_names`."""
    return [(name, " ".join((cls.__doc__ or "").split())) for name, cls in BOTS.items()]

