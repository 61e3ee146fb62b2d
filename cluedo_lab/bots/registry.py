"""Every bot by name: the one place that turns ``"detective@0.8"`` into a player.

The strategy lab's players (:mod:`cluedo_lab.bots.strategies`) come first, weakest first;
then the explorer, whose long random games reach rare situations for tests, and the quick
detective a :class:`~cluedo_lab.views.table.Table` seats by default.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..games.game import Action, Game
from ..rules.errors import InvalidArgument
from .explorer import ExplorerBot
from .quick_detectives import QuickDetective
from .strategies import STRATEGIES

__all__ = ["Bot", "BOTS", "make_bot", "table_bot", "bot_names", "catalogue"]


class Bot(Protocol):
    """A player: chooses seat ``seat``'s next action through the game's public API only (its
    legal actions, the seat's own record, the public table), seeded, never reading the
    deal."""

    def choose(self, game: Game, seat: int) -> Action: ...


_THRESHOLDED = {cls.name for cls in STRATEGIES if cls.takes_threshold}

BOTS: dict[str, Callable[[int], Bot]] = {
    **{cls.name: cls for cls in STRATEGIES},
    "explorer": ExplorerBot,
    "quick-detective": QuickDetective,
}
"""Each bot's name and the class that plays it (called with a seed)."""


def bot_names() -> list[str]:
    """The names :func:`make_bot` knows, strategy lab players first (weakest first)."""
    return list(BOTS)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its registry name, with an optional threshold: ``detective@0.8``."""
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


TABLE_NAMES = {"detective": "quick-detective"}
"""The names a :class:`~cluedo_lab.views.table.Table` and the ``play`` command offer that
differ from the registry's: there, the default ``detective`` opponent is the quick one."""


def table_bot(kind: str, seed: int = 0) -> Bot:
    """A bot by the table's names (``detective``, ``random``, ``explorer``, or any registry
    name)."""
    return make_bot(TABLE_NAMES.get(kind, kind), seed)
