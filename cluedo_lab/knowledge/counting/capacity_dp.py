"""The capacity DP: place the classes one at a time, remembering how full each place is."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

from .problem import Weight, divide
from .step_dp import CardClass, StepDP, bounded_compositions, compositions

Caps = tuple[tuple[int, ...], tuple[int, ...]]


class CapacityDP(StepDP[Caps, dict[int, int]]):
    """Place the classes one at a time; the state is the room left in every place (the
    envelope one slot per category) plus the count of each observation still open.

    Where many cards are each pinned by their own observation (public records, long games),
    a DP that fills the places in turn must remember which of them are left: up to 2^cards
    states. This DP only remembers how full each place is, at most the product of (size + 1),
    and an observation is open only between its first and last class, so classes are ordered
    to close them soon.
    """

    def __init__(self, classes: list[CardClass], caps: list[int],
                 cat_caps: list[dict[str, int] | None],
                 factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]]):
        self.classes = classes
        slots: list[tuple[int, str | None]] = []
        start_caps: list[int] = []
        for place, cap in enumerate(caps):
            if cap <= 0:
                continue
            per_category = cat_caps[place]
            if per_category is None:
                slots.append((place, None))
                start_caps.append(cap)
            else:
                for cat, n in per_category.items():
                    if n > 0:
                        slots.append((place, cat))
                        start_caps.append(n)
        self.slots = slots
        # The envelope's slots (one per category): their fillers make the envelope's contents.
        self.envelope_slots = frozenset(i for i, (_, cat) in enumerate(slots) if cat is not None)
        slot_of = {slot: i for i, slot in enumerate(slots)}
        self.start_caps = tuple(start_caps)
        self.allowed = [[slot_of[(p, None if cat_caps[p] is None else k.category)]
                         for p in sorted(k.places)
                         if (p, None if cat_caps[p] is None else k.category) in slot_of]
                        for k in classes]
        # Each factor: which slots count for it, its weights, and where counting stops
        # changing the weight (at-least-one needs only "none" or "some").
        self.not_allowed = [[i for i in range(len(slots)) if i not in allowed]
                            for allowed in self.allowed]
        self.factor_slots = [frozenset(i for i, (p, _) in enumerate(slots) if p == where)
                             for where, _, _ in factors]
        self.weights = [weights for _, _, weights in factors]
        self.count_cap = [next(c for c in range(len(w)) if len(set(w[c:])) == 1)
                          for w in self.weights]
        self.order = self._order(factors)
        members_of = [[k for k in self.order if f in classes[k].factors]
                      for f in range(len(factors))]
        self.closes: dict[int, list[int]] = {k: [] for k in self.order}
        for f, ks in enumerate(members_of):
            if ks:
                self.closes[ks[-1]].append(f)
        self.factors_of = {k: [f for f in range(len(factors)) if f in classes[k].factors]
                           for k in self.order}
        self.counted = {k: [(f, self.factor_slots[f], self.count_cap[f]) for f in fs]
                        for k, fs in self.factors_of.items()}
        # Look-ahead: an "at least one" observation still waiting for a card after a step
        # needs room left in its place, or no deal completes.
        last_of = {f: self.order.index(ks[-1]) for f, ks in enumerate(members_of) if ks}
        self.needs_after = [[(f, self.factor_slots[f]) for f, last in last_of.items()
                             if self.weights[f][0] == 0 and last > j]
                            for j in range(len(self.order))]
        # Look-ahead: how many cards the classes after each step can still bring to a slot.
        self.supply_after = []
        for j in range(len(self.order)):
            supply = [0] * len(slots)
            for k in self.order[j + 1:]:
                for i in self.allowed[k]:
                    supply[i] += len(classes[k].members)
            self.supply_after.append(supply)
        self.steps = len(self.order)
        self._bounds: tuple[int, int] | None = None
        self._ways: list[dict[Caps, Weight]] = [{} for _ in self.order]
        self._moves: list[dict[Caps, list[tuple[Caps, Weight, dict[int, int]]]]] = [
            {} for _ in self.order]
        self.start = (self.start_caps, (0,) * len(factors))
        # Interchangeable slots: the same size, open to the same classes, in no observation
        # (two players nobody has learned anything about). Swapping them maps deals to deals,
        # so a state counts the same with their room left in either order: keep one order.
        # The envelope's slots stay apart: which class fills them is its distribution.
        groups: dict[tuple[int, tuple[bool, ...]], list[int]] = defaultdict(list)
        for i in range(len(slots)):
            if i in self.envelope_slots or any(i in fs for fs in self.factor_slots):
                continue
            groups[(self.start_caps[i],
                    tuple(i in allowed for allowed in self.allowed))].append(i)
        self.symmetric = [g for g in groups.values() if len(g) > 1]

    def _order(self, factors: Sequence[object]) -> list[int]:
        """Classes with observations first, greedily closing observations as soon as
        possible; then the rest, smallest first (the last, largest classes are then left to
        fill what room remains, with fewer ways to split)."""
        special = [k for k, c in enumerate(self.classes) if c.factors]
        rest = sorted((k for k, c in enumerate(self.classes) if not c.factors),
                      key=lambda k: len(self.classes[k].members))
        remaining_members = {f: sum(1 for k in special if f in self.classes[k].factors)
                             for f in range(len(factors))}
        opened: set[int] = set()
        order = []
        todo = set(special)
        while todo:
            def cost(k: int) -> tuple[int, int, int]:
                fs = self.classes[k].factors
                new = sum(1 for f in fs if f not in opened)
                closing = sum(1 for f in fs if remaining_members[f] == 1)
                return (new - closing, -closing, k)
            k = min(todo, key=cost)
            todo.remove(k)
            order.append(k)
            for f in self.classes[k].factors:
                opened.add(f)
                remaining_members[f] -= 1
        return order + rest

    def bounds(self) -> tuple[int, int]:
        """Bounds on the states and on the moves tried: before each class, the ways to
        leave the room still to fill among the slots (each at most its size) times the
        counts of the observations open then, and from each the ways to split the class."""
        if self._bounds is not None:
            return self._bounds
        states = work = 0
        open_now: set[int] = set()
        for j, k in enumerate(self.order):
            left = sum(len(self.classes[c].members) for c in self.order[j:])
            here = max(1, bounded_compositions(left, self.start_caps)) * math.prod(
                self.count_cap[f] + 1 for f in open_now)
            splits = bounded_compositions(len(self.classes[k].members),
                                          [self.start_caps[i] for i in self.allowed[k]])
            states += here
            work += here * max(1, splits)
            open_now |= set(self.factors_of[k])
            open_now -= set(self.closes[k])
        self._bounds = (states, work)
        return self._bounds

    def transitions(self, step: int, state: Caps) -> list[tuple[Caps, Weight, dict[int, int]]]:
        cached = self._moves[step].get(state)
        if cached is not None:
            return cached
        caps, counts = state
        k = self.order[step]
        members = len(self.classes[k].members)
        supply = self.supply_after[step]
        allowed = self.allowed[k]
        # Later classes bring at most ``supply`` to each slot: this class must fill the rest
        # of the slots it may go to, and the others must already be within reach.
        if any(caps[i] > supply[i] for i in self.not_allowed[k]):
            self._moves[step][state] = []
            return []
        splits: Iterable[dict[int, int]]
        if members == 1:
            # One card (the common case late in a game): it goes to a slot that must have
            # it, or to any slot with room.
            forced = [i for i in allowed if caps[i] > supply[i]]
            if forced:
                only = forced[0]
                splits = ([{only: 1}] if len(forced) == 1 and caps[only] - supply[only] == 1
                          else [])
            else:
                splits = [{i: 1} for i in allowed if caps[i]]
        else:
            least = [max(0, caps[i] - supply[i]) for i in allowed]
            splits = compositions(members, allowed, caps, least)
        whole = math.factorial(members)
        counted = self.counted[k]
        closes = self.closes[k]
        needs = self.needs_after[step]
        moves = []
        for split in splits:
            new_caps = list(caps)
            weight: Weight = whole
            items = split.items()
            for i, n in items:
                new_caps[i] -= n
                if n > 1:
                    weight //= math.factorial(n)
            for group in self.symmetric:
                if len(group) == 2:
                    first, second = group
                    if new_caps[first] < new_caps[second]:
                        new_caps[first], new_caps[second] = new_caps[second], new_caps[first]
                    continue
                for i, room in zip(group, sorted((new_caps[i] for i in group), reverse=True),
                                   strict=True):
                    new_caps[i] = room
            new_counts = counts
            if counted:
                raised = list(counts)
                for f, slots_of_f, most in counted:
                    placed = 0
                    for i, n in items:
                        if i in slots_of_f:
                            placed += n
                    if placed:
                        raised[f] = min(most, raised[f] + placed)
                for f in closes:
                    weight *= self.weights[f][raised[f]]
                    raised[f] = 0
                new_counts = tuple(raised)
            if needs and _starved(needs, new_counts, new_caps):
                continue
            if weight:
                moves.append(((tuple(new_caps), new_counts), weight, split))
        self._moves[step][state] = moves
        return moves

    def finished(self, state: Caps) -> bool:
        return not any(state[0])

    def slot_weights(self) -> dict[tuple[int, int], Weight]:
        """Σ over deals of (cards of class k in slot i)."""
        result: dict[tuple[int, int], Weight] = defaultdict(int)
        for step, through, split in self.flows(self.start):
            k = self.order[step]
            for i, n in split.items():
                if n:
                    result[(k, i)] += through * n
        # States keep one order of interchangeable slots' room, so only a group's total is
        # right slot by slot; by symmetry each slot of the group has an equal share of it.
        for group in self.symmetric:
            for k in range(len(self.classes)):
                total = sum(result.get((k, i), 0) for i in group)
                if total:
                    for i in group:
                        result[(k, i)] = divide(total, len(group))
        return result

    def envelope_weights(self) -> dict[tuple[tuple[int, int], ...], Weight]:
        """Σ over deals, by which classes fill the envelope's slots: keys are ((class, cards
        it puts there), ...) in the order the classes are placed.

        One forward pass over the moves the count already made: a state carries, for each
        way the envelope's slots filled so far were filled, the weight of the partial deals
        that did so. When a move fills the last slot, the ways to complete from its state
        (memoised by the count) finish those deals, and they are carried no further; before
        the first slot is filled a state carries one entry. So only the states between the
        first and the last envelope card carry more than one."""
        result: dict[tuple[tuple[int, int], ...], Weight] = defaultdict(int)
        if not self.ways(0, self.start):
            return result
        slots = sorted(self.envelope_slots)
        layer: dict[Caps, dict[tuple[tuple[int, int], ...], Weight]] = {self.start: {(): 1}}
        for step in range(self.steps):
            k = self.order[step]
            last = step + 1 == self.steps
            following: dict[Caps, dict[tuple[tuple[int, int], ...], Weight]] = {}
            ways = self._ways[step + 1] if not last else {}
            for state, partial in layer.items():
                for new, weight, split in self.transitions(step, state):
                    rest: Weight
                    if last:
                        rest = 0 if any(new[0]) else 1
                    else:
                        found = ways.get(new)
                        rest = found if found is not None else self.ways(step + 1, new)
                    if not rest:
                        continue
                    taken = tuple((k, split[i]) for i in slots if split.get(i))
                    if not any(new[0][i] for i in slots):
                        # The envelope is complete: finish these deals now.
                        through = weight * rest
                        for choice, forward in partial.items():
                            result[choice + taken] += forward * through
                        continue
                    target = following.get(new)
                    if target is None:
                        target = following[new] = {}
                    for choice, forward in partial.items():
                        key = choice + taken if taken else choice
                        target[key] = target.get(key, 0) + forward * weight
            layer = following
        return result


    # -- the counter's interface (:class:`~.counter.Counter`) ----------------------------------
    def count(self) -> Weight:
        return self.ways(0, self.start)

    def cells(self) -> Iterator[tuple[int, int, Weight]]:
        return ((k, self.slots[slot][0], weight)
                for (k, slot), weight in self.slot_weights().items())

    def envelopes(self) -> Iterator[tuple[dict[int, int], Weight]]:
        return ((dict(choice), weight) for choice, weight in self.envelope_weights().items())


def _starved(needs: list[tuple[int, frozenset[int]]], counts: Sequence[int],
             caps: Sequence[int]) -> bool:
    """Whether some observation still waiting for a card has no room left for one."""
    for f, slots in needs:
        if not counts[f]:
            for i in slots:
                if caps[i]:
                    break
            else:
                return True
    return False
