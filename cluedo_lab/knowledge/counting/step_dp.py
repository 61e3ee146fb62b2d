"""What the DPs share (sweep and capacity): classes of interchangeable cards, the
memoised chain of steps, and the ways to take cards from classes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .problem import Weight


@dataclass
class CardClass:
    """Cards that share a category, allowed places (by index) and factors (by index): only
    how many of them go to a place matters."""

    category: str
    members: tuple[str, ...]
    places: frozenset[int]
    factors: frozenset[int]


State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move")


class Budget:
    """What a DP may spend, counted as it counts: the states it memoises (its memory) and
    its work, the moves it tries (fillings built, kept or not) times ``move_cost``, the
    relative cost of one move of that DP. Work, not seconds: the same record is admitted or
    refused on any machine, however fast or busy. Past either limit (None: no limit)
    ``spend`` calls ``refuse(states, work)``, which raises."""

    def __init__(self, states: int | None = None, work: int | None = None,
                 refuse: Callable[[int, int], None] | None = None, move_cost: int = 1):
        self.max_states = states
        self.max_work = work
        self.move_cost = move_cost
        self.refuse = refuse
        self.states = 0
        self.moves = 0

    @property
    def work(self) -> int:
        return self.moves * self.move_cost

    def spend(self, states: int, moves: int) -> None:
        """``states`` more memoised, ``moves`` more tried."""
        self.states += states
        self.moves += moves
        if ((self.max_states is not None and self.states > self.max_states)
                or (self.max_work is not None and self.work > self.max_work)):
            if self.refuse is not None:
                self.refuse(self.states, self.work)


class StepDP(Generic[State, Move]):
    """A chain of steps with memoised totals: subclasses say what each step may do
    (``transitions``) and which final states count (``finished``)."""

    _ways: list[dict[State, Weight]]
    steps: int
    budget: Budget | None = None
    """What the counting may spend (:class:`Budget`), None: no limit."""

    def transitions(self, step: int, state: State) -> list[tuple[State, Weight, Move]]:
        raise NotImplementedError

    def finished(self, state: State) -> bool:
        raise NotImplementedError

    def memoised(self) -> int:
        """How many states the DP has counted from so far."""
        return sum(len(memo) for memo in self._ways)

    def memo(self, step: int) -> Mapping[State, Weight]:
        """The totals memoised before ``step``: after ``ways(0, start)``, every state of
        that step that some move reaches and the later places can complete."""
        return self._ways[step]

    def ways(self, step: int, state: State) -> Weight:
        """Weight of all ways to complete the chain from ``state`` before ``step``."""
        if step == self.steps:
            return 1 if self.finished(state) else 0
        memo = self._ways[step]
        found = memo.get(state)
        if found is not None:
            return found
        total: Weight = 0
        moves = self.transitions(step, state)
        if self.budget is not None:
            self.budget.spend(1, len(moves))
        if step + 1 == self.steps:
            finished = self.finished
            for new, weight, _ in moves:
                if finished(new):
                    total += weight
        else:
            following = self._ways[step + 1]
            for new, weight, _ in moves:
                rest = following.get(new)
                if rest is None:
                    rest = self.ways(step + 1, new)
                if rest:
                    total += weight * rest
        memo[state] = total
        return total

    def flows(self, start: State) -> Iterator[tuple[int, Weight, Move]]:
        """(step, weight of all deals through this move, move) for every live move: the
        forward weight of its state × its own weight × the ways to complete after it."""
        self.ways(0, start)
        layer: dict[State, Weight] = {start: 1}
        for step in range(self.steps):
            following: dict[State, Weight] = defaultdict(int)
            # Every state a move reaches has its ways memoised by now (ways(0, start) asked
            # for all of them); after the last step only finished states count.
            rest_of = (self._ways[step + 1].get if step + 1 < self.steps else
                       lambda new: 1 if self.finished(new) else 0)
            for state, forward in layer.items():
                for new, weight, move in self.transitions(step, state):
                    rest = rest_of(new)
                    if not rest:
                        continue
                    flow = forward * weight
                    following[new] += flow
                    yield step, flow * rest, move
            layer = following


def compositions(total: int, classes: list[int], state: Mapping[int, int] | Sequence[int],
                  least: Sequence[int] | None = None) -> list[dict[int, int]]:
    """Every way to take ``total`` cards from the classes, at most ``state[k]`` from class k
    and (if given) at least ``least[j]`` from the j-th class listed."""
    most = [state[k] for k in classes]
    least = least or [0] * len(classes)
    # What the classes after each position can take at least and at most.
    low_after, high_after = [0] * (len(classes) + 1), [0] * (len(classes) + 1)
    for j in range(len(classes) - 1, -1, -1):
        low_after[j] = low_after[j + 1] + least[j]
        high_after[j] = high_after[j + 1] + most[j]
    if not low_after[0] <= total <= high_after[0]:
        return []
    if not classes:
        return [{}]
    # Grow all partial choices one class at a time (list comprehensions: no call per node);
    # the bounds leave the last class exactly what is left.
    partial: list[tuple[int, tuple[int, ...]]] = [(total, ())]
    for j in range(len(classes) - 1):
        low, high, after_low, after_high = least[j], most[j], low_after[j + 1], high_after[j + 1]
        partial = [(left - n, taken + (n,)) for left, taken in partial
                   for n in range(max(low, left - after_high), min(high, left - after_low) + 1)]
    return [{k: n for k, n in zip(classes, taken + (left,), strict=True) if n}
            for left, taken in partial]


def bounded_compositions(total: int, sizes: Sequence[int]) -> int:
    """How many ways to write ``total`` as a sum with the i-th term between 0 and
    ``sizes[i]``: the coefficient of x^total in the product of (1 + x + ... + x^size)."""
    if total < 0:
        return 0
    poly = [1] + [0] * total
    for size in sizes:
        running = 0
        grown = [0] * (total + 1)
        for i in range(total + 1):
            running += poly[i]
            if i - size - 1 >= 0:
                running -= poly[i - size - 1]
            grown[i] = running
        poly = grown
    return poly[total]
