"""The sweep DP: fill the places one at a time, and after each place forget what no later
place can tell apart.

The state between places is how many cards of each class are left. But two cards that differ
only in a place already filled (one was allowed there, the other not; one was named in that
place's observation) are interchangeable for everything still to come, so after that place they
join one *group*. The groups only grow coarser along the sweep: after the envelope the
categories no longer matter, and each hand that is filled takes its observations with it.
Public records, where many cards are each pinned by their own observations, then keep few
states: a card's observations are forgotten as soon as the places they speak of are filled.

Every card × place weight comes from one forward pass. Merging loses which cards of a group
are which, so besides the weight of all partial deals reaching a state the pass carries, for
each original class, the weighted number of its cards still left. A move that takes ``t`` of
the ``n`` cards left in a group takes each of them with chance ``t / n`` (the moves and all
later steps depend only on the counts), so each class's share of what the place takes is its
share of what is left.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .problem import Weight
from .step_dp import CardClass, StepDP, bounded_compositions, compositions

State = tuple[int, ...]
Counts = dict[int, int]
"""Cards taken per group of a step."""
Move = dict[int, Weight]
"""Per group of a step: the move's weight times the share of the group's cards it takes."""


class SweepDP(StepDP[State, Move]):
    """Fill the places in ``order``; the state after step i counts the cards left in each
    group of step i + 1 (classes alike for the places from there on)."""

    def __init__(self, classes: Sequence[CardClass], order: Sequence[int], caps: Sequence[int],
                 cat_caps: Sequence[dict[str, int] | None],
                 factors: Sequence[tuple[int, frozenset[str], tuple[Weight, ...]]],
                 envelope: int | None = None):
        self.classes = list(classes)
        self.envelope = envelope
        self.order = list(order)
        self.caps = list(caps)
        self.cat_caps = list(cat_caps)
        self.factor_weights = [weights for _, _, weights in factors]
        self.steps = len(order)
        factor_place = [where for where, _, _ in factors]
        # groups[i]: the classes alike from step i on; group_of[i][k]: the group of class k.
        self.groups: list[list[list[int]]] = []
        self.group_of: list[list[int]] = []
        self.group_places: list[list[frozenset[int]]] = []
        self.group_factors: list[list[frozenset[int]]] = []
        self.group_category: list[list[str | None]] = []
        for step in range(self.steps + 1):
            later = frozenset(order[step:])
            by_category = any(cat_caps[p] is not None for p in later)
            index: dict[tuple[str | None, frozenset[int], frozenset[int]], int] = {}
            groups: list[list[int]] = []
            of: list[int] = []
            for k, klass in enumerate(self.classes):
                signature = (klass.category if by_category else None, klass.places & later,
                             frozenset(f for f in klass.factors if factor_place[f] in later))
                if signature not in index:
                    index[signature] = len(groups)
                    groups.append([])
                groups[index[signature]].append(k)
                of.append(index[signature])
            self.groups.append(groups)
            self.group_of.append(of)
            self.group_places.append([self.classes[g[0]].places & later for g in groups])
            self.group_factors.append([
                frozenset(f for f in self.classes[g[0]].factors if factor_place[f] in later)
                for g in groups])
            self.group_category.append([self.classes[g[0]].category if by_category else None
                                        for g in groups])
        # A group of step i lies inside one group of step i + 1.
        self.next_group = [[self.group_of[step + 1][g[0]] for g in self.groups[step]]
                           for step in range(self.steps)]
        self.start: State = tuple(sum(len(self.classes[k].members) for k in g)
                                  for g in self.groups[0])
        # Per step: the groups that may go to its place, the factors evaluated there (with
        # the groups counting towards each), and what the later places need: each its size
        # (per category for the envelope) and each "at least one" observation one card, as
        # (minimum, groups of the next step that can supply it).
        self.eligible: list[list[int]] = []
        self.local_factors: list[list[tuple[tuple[Weight, ...], list[int]]]] = []
        self.room_after: list[list[int]] = []
        self.later_limits: list[list[tuple[int, list[int]]]] = []
        for step, place in enumerate(order):
            places, fs = self.group_places[step], self.group_factors[step]
            self.eligible.append([g for g, ps in enumerate(places) if place in ps])
            self.local_factors.append([
                (weights, [g for g, gf in enumerate(fs) if f in gf])
                for f, (where, _, weights) in enumerate(factors) if where == place])
            self.room_after.append([sum(caps[p] for p in ps if p != place) for ps in places])
            nxt = step + 1
            limits: list[tuple[int, list[int]]] = []
            for later_place in order[nxt:]:
                open_to = [g for g, ps in enumerate(self.group_places[nxt]) if later_place in ps]
                per_category = cat_caps[later_place]
                if per_category is None:
                    limits.append((caps[later_place], open_to))
                else:
                    limits += [(n, [g for g in open_to
                                    if self.group_category[nxt][g] == category])
                               for category, n in per_category.items() if n]
            for f, (where, _, weights) in enumerate(factors):
                if where in order[nxt:] and weights[0] == 0:
                    limits.append((1, [g for g, gf in enumerate(self.group_factors[nxt])
                                       if f in gf]))
            self.later_limits.append(limits)
        # Each step's factors with their groups as a set: a choice takes from few groups.
        self._local_sets = [[(weights, frozenset(members)) for weights, members in local]
                            for local in self.local_factors]
        # The same, each list of groups as a fast getter (one index, or an itemgetter); a
        # need with no group to meet it can never be met.
        self._limit_picks: list[list[tuple[int, Any]]] = [
            [(least, members[0] if len(members) == 1 else
              operator.itemgetter(*members) if members else (lambda new: ()))
             for least, members in limits]
            for limits in self.later_limits]
        self._bounds: tuple[int, int] | None = None
        self._ways: list[dict[State, Weight]] = [{} for _ in order]
        self._moves: list[dict[State, list[tuple[State, Weight, Move]]]] = [{} for _ in order]

    # -- size ----------------------------------------------------------------------------------
    def bounds(self) -> tuple[int, int]:
        """Bounds on the states and on the moves tried: at each step, the ways to leave the
        cards still to place among its groups (each at most its size), and from each the
        ways to fill the place."""
        if self._bounds is not None:
            return self._bounds
        states = work = 0
        for step, place in enumerate(self.order):
            left = sum(self.caps[p] for p in self.order[step:])
            sizes = [sum(len(self.classes[k].members) for k in g) for g in self.groups[step]]
            here = max(1, bounded_compositions(left, sizes))
            eligible = self.eligible[step]
            per_category = self.cat_caps[place]
            if per_category is None:
                fills = bounded_compositions(self.caps[place], [sizes[g] for g in eligible])
            else:
                fills = math.prod(
                    bounded_compositions(n, [sizes[g] for g in eligible
                                             if self.group_category[step][g] == category])
                    for category, n in per_category.items())
            states += here
            work += here * max(1, fills)
        self._bounds = (states, work)
        return self._bounds

    # -- the DP --------------------------------------------------------------------------------
    def finished(self, state: State) -> bool:
        return not any(state)

    def transitions(self, step: int, state: State) -> list[tuple[State, Weight, Move]]:
        """The ways to fill the place at ``step``, one per state they lead to: (state of the
        next step's groups, total weight, and per group g of this step the weight times the
        share t_g / n_g of its cards taken), only those the later places can complete.
        Fillings that differ only in cards the next step no longer tells apart lead to one
        state and are added up."""
        cached = self._moves[step].get(state)
        if cached is not None:
            return cached
        base = self._carried(step, state)
        if self._singles(step, state):
            moves = self._single_moves(step, state, base)
            self._moves[step][state] = moves
            return moves
        merged: dict[State, tuple[Weight, dict[int, Weight]]] = {}
        choices = list(self._choices(step, state))
        for taken, weight, key in self._weighed(step, state, base, choices):
            # weight * t / n is whole: weight counts C(n, t) ways, and C(n, t) t / n is
            # C(n - 1, t - 1).
            old = merged.get(key)
            if old is None:
                merged[key] = (weight, {g: weight * t // state[g] if isinstance(weight, int)
                                        else weight * t / state[g]
                                        for g, t in taken.items() if t})
            else:
                shares = old[1]
                for g, t in taken.items():
                    if t:
                        x = (weight * t // state[g] if isinstance(weight, int)
                             else weight * t / state[g])
                        shares[g] = shares.get(g, 0) + x
                merged[key] = (old[0] + weight, shares)
        if self.budget is not None:
            self.budget.spend(0, len(choices))
        # Only states the later places can still complete (checked once per state reached).
        moves = [(key, weight, shares) for key, (weight, shares) in merged.items()
                 if self._completable(step, key)]
        self._moves[step][state] = moves
        return moves

    def fillings(self, step: int, state: State) -> list[tuple[State, Weight, tuple[int, ...]]]:
        """Each way to fill the place at ``step``, one by one (:meth:`transitions` adds up
        those that lead to one state): (state of the next step's groups, weight, cards taken
        from each group of this step), only those the later places can complete. The
        question ranking (:mod:`.answers`) follows named cards through them."""
        out = []
        for taken, weight, key in self._weighed(step, state, self._carried(step, state),
                                                self._choices(step, state)):
            if self._completable(step, key):
                counts = [0] * len(state)
                for g, t in taken.items():
                    counts[g] = t
                out.append((key, weight, tuple(counts)))
        return out

    def _carried(self, step: int, state: State) -> list[int]:
        """The cards left in ``state`` counted by the next step's groups, before any are
        taken at this step."""
        next_group = self.next_group[step]
        base = [0] * len(self.groups[step + 1])
        for g, n in enumerate(state):
            if n:
                base[next_group[g]] += n
        return base

    def _weighed(self, step: int, state: State, base: list[int], choices: Iterable[Counts]
                 ) -> Iterator[tuple[Counts, Weight, State]]:
        """Each choice of cards for the place at ``step`` with its weight (the place's
        factors times the ways to pick those cards from their groups) and the next step's
        state; a choice a factor weighs 0 is left out. :meth:`transitions` adds them up by
        state, :meth:`fillings` keeps them apart."""
        comb = math.comb
        next_group = self.next_group[step]
        local = self._local_sets[step]
        for taken in choices:
            weight: Weight = 1
            for weights, members in local:
                weight *= weights[sum([t for g, t in taken.items() if g in members])]
                if not weight:
                    break
            if not weight:
                continue
            new = list(base)
            for g, t in taken.items():
                if t:
                    weight *= comb(state[g], t)
                    new[next_group[g]] -= t
            yield taken, weight, tuple(new)

    def _completable(self, step: int, new: State) -> bool:
        """Whether the later places can still be filled and their "at least one"
        observations met from the cards left in ``new``."""
        for least, pick in self._limit_picks[step]:
            if (new[pick] if isinstance(pick, int) else sum(pick(new))) < least:
                return False
        return True

    def _singles(self, step: int, state: State) -> bool:
        """Whether this is a hand (no per-category counts): its fillings are then built as
        combinations of the groups with one card left (public records in mid-game have
        many) times the ways to take from the few larger groups."""
        return self.cat_caps[self.order[step]] is None

    def _single_moves(self, step: int, state: State, base: list[int]
                      ) -> list[tuple[State, Weight, Move]]:
        """:meth:`transitions` for a hand: for each way to take cards from the groups with
        several cards left, every combination of the groups with one card (at C speed)."""
        place = self.order[step]
        room = self.room_after[step]
        places = self.group_places[step]
        next_group = self.next_group[step]
        forced: list[int] = []
        lower: dict[int, int] = {}
        for g, n in enumerate(state):
            if n > room[g]:
                if place not in places[g]:
                    return []
                if n == 1:
                    forced.append(g)
                else:
                    lower[g] = n - room[g]
        eligible = [g for g in self.eligible[step] if state[g]]
        singles = [g for g in eligible if state[g] == 1 and g not in forced]
        several = [g for g in eligible if state[g] > 1]
        need = self.caps[place] - len(forced)
        if need < 0:
            return []
        local = self._local_sets[step]
        comb = math.comb
        merged: dict[State, tuple[Weight, dict[int, Weight]]] = {}
        most = min(need, sum(state[g] for g in several))
        for k in range(sum(lower.values()), most + 1):
            if need - k > len(singles):
                continue
            for part in compositions(k, several, state, [lower.get(g, 0) for g in several]):
                if self.budget is not None:
                    self.budget.spend(0, comb(len(singles), need - k))
                ways: Weight = 1
                start = list(base)
                for g, t in part.items():
                    ways *= comb(state[g], t)
                    start[next_group[g]] -= t
                for combo in itertools.combinations(singles, need - k):
                    chosen = forced + list(combo) if forced else combo
                    weight = ways
                    for weights, members in local:
                        count = len(members.intersection(chosen))
                        for g, t in part.items():
                            if g in members:
                                count += t
                        weight *= weights[count]
                        if not weight:
                            break
                    if not weight:
                        continue
                    new = list(start)
                    for g in chosen:
                        new[next_group[g]] -= 1
                    key = tuple(new)
                    old = merged.get(key)
                    shares = {} if old is None else old[1]
                    for g in chosen:
                        shares[g] = shares.get(g, 0) + weight
                    for g, t in part.items():
                        if t:
                            x = (weight * t // state[g] if isinstance(weight, int)
                                 else weight * t / state[g])
                            shares[g] = shares.get(g, 0) + x
                    merged[key] = (weight if old is None else old[0] + weight, shares)
        return [(key, weight, shares) for key, (weight, shares) in merged.items()
                if self._completable(step, key)]

    def envelope_choices(self) -> list[tuple[State, Weight, dict[int, int]]]:
        """Each way to fill the first place one by one (how many of each class), with the
        state it leads to and its weight: the envelope's contents."""
        moves = []
        comb = math.comb
        next_group = self.next_group[0]
        for taken in self._choices(0, self.start):
            weight: Weight = 1
            for weights, members in self.local_factors[0]:
                weight *= weights[sum(taken.get(g, 0) for g in members)]
            if not weight:
                continue
            new = [0] * len(self.groups[1])
            for g, n in enumerate(self.start):
                t = taken.get(g, 0)
                weight *= comb(n, t)
                new[next_group[g]] += n - t
            moves.append((tuple(new), weight, taken))
        return moves

    def _choices(self, step: int, state: State) -> Iterator[Counts]:
        place = self.order[step]
        room = self.room_after[step]
        eligible = self.eligible[step]
        lower: dict[int, int] = {}
        for g, n in enumerate(state):
            if n > room[g]:
                if place not in self.group_places[step][g]:
                    return
                lower[g] = n - room[g]
        per_category = self.cat_caps[place]
        if per_category is None:
            live = [g for g in eligible if state[g]]
            yield from compositions(self.caps[place], live, state,
                                    [lower.get(g, 0) for g in live])
            return
        parts: list[list[Counts]] = []
        categories = self.group_category[step]
        for category, cap in per_category.items():
            live = [g for g in eligible if state[g] and categories[g] == category]
            parts.append(compositions(cap, live, state, [lower.get(g, 0) for g in live]))
        taken: list[Counts] = [{}]
        for options in parts:
            taken = [{**done, **more} for done in taken for more in options]
        yield from taken

    # -- marginals -----------------------------------------------------------------------------
    def class_weights(self) -> dict[tuple[int, int], Weight]:
        """Σ over deals of (cards of original class k placed at step s), by a forward pass
        that carries, per state, the weight reaching it and each class's weighted count of
        cards still left (see the module docstring)."""
        total = self.ways(0, self.start)
        result: dict[tuple[int, int], Weight] = defaultdict(int)
        if not total:
            return result
        sizes = [len(k.members) for k in self.classes]
        layer: dict[State, list[Weight]] = {self.start: list(sizes)}
        for step in range(self.steps):
            following: dict[State, list[Weight]] = {}
            last = step + 1 == self.steps
            groups = self.groups[step]
            for state, left in layer.items():
                for new, weight, taken in self.transitions(step, state):
                    rest: Weight
                    if last:
                        rest = 0 if any(new) else 1
                    else:
                        found = self._ways[step + 1].get(new)
                        rest = found if found is not None else self.ways(step + 1, new)
                    if not rest:
                        continue
                    carried: list[Weight] = [0] * len(left)
                    for g, n in enumerate(state):
                        if not n:
                            continue
                        share = taken.get(g, 0)
                        for k in groups[g]:
                            here = left[k]
                            if not here:
                                continue
                            if share:
                                result[(step, k)] += here * share * rest
                            carried[k] = here * (weight - share)
                    if last:
                        continue
                    old = following.get(new)
                    following[new] = carried if old is None else [
                        a + b for a, b in zip(old, carried, strict=True)]
            layer = following
        return result

    # -- the counter's interface (:class:`~.counter.Counter`) ----------------------------------
    def count(self) -> Weight:
        return self.ways(0, self.start)

    def cells(self) -> Iterator[tuple[int, int, Weight]]:
        return ((k, self.order[step], weight)
                for (step, k), weight in self.class_weights().items())

    def envelopes(self) -> Iterable[tuple[dict[int, int], Weight]]:
        """The sweep fills the envelope first: its choices, each times the ways to complete
        (memoised by the count), are the distribution."""
        if not (self.order and self.order[0] == self.envelope):
            return [({}, self.count())]
        # The first step's groups are the classes themselves. The count memoised every
        # state after the envelope that can be completed: any other completes in no way.
        as_class = [members[0] for members in self.groups[0]]
        after = self.memo(1) if self.steps > 1 else {(0,) * len(self.groups[1]): 1}
        return (({as_class[g]: n for g, n in taken.items()}, weight * after.get(new, 0))
                for new, weight, taken in self.envelope_choices())
