"""The interface every counter of deals implements: the listing and the two DPs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from .problem import Weight


class Counter(Protocol):
    """The deals of a :class:`~.prepared.Prepared` problem, counted by class.

    Weights leave out the problem's constant (the factors the reduction settled), which
    :func:`~.routes.solve` multiplies back in; classes and places are by index into the
    prepared problem."""

    def count(self) -> Weight:
        """The weight of every deal."""
        ...

    def cells(self) -> Iterable[tuple[int, int, Weight]]:
        """(class, place, Σ over deals of the cards of the class in the place)."""
        ...

    def envelopes(self) -> Iterable[tuple[Mapping[int, int], Weight]]:
        """(cards of each class in the envelope, weight of the deals with that envelope
        mix); a mix stands for its envelopes in equal shares. Read after :meth:`count`."""
        ...

    def memoised(self) -> int:
        """How many states the counter has kept (0 for the listing)."""
        ...
