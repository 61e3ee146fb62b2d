"""First-who-can answers for every question from one forward pass over the DP's states.

Why this works: the members of a class are interchangeable, so given how many cards of each
class every place takes, a given named card is equally likely to be any member. Given that
the DP is in state ``s`` before an answerer's step, the chance that every named card is still
undealt is therefore the product over their classes of ``r_k(s) / r_k(start)`` (``r_k`` = cards
of class k left): it depends on the state only, not on the path. So the weight of "this
answerer is the first to hold a named card, and holds exactly the set S" is a sum over the
answerer's moves of

    α(s) · through(move) · Π_{k∈S} t_k · Π_{k∈F∖S} (r_k(s) − t_k)  /  Π_{k∈F} r_k(start)

(α = weight of the paths from the start, ``t_k`` = cards of class k the move takes, F = the
named classes). Expanding the products, it is a sum of terms α · (Σ_moves through · Π_{k∈T}
t_k) · Π_{k∈R} r_k over the splits T ⊔ R of F: sums over states that do not depend on the
question once states are grouped by the counts of the classes in R. A question then costs a
few look-ups instead of a walk over the DP, and ``α`` for every envelope at once is one
integer with a field per envelope choice.

It serves the first-who-can rule when the named cards not yet placed lie in different
categories (every question of the one-per-category editions). A named card known to be in an
answerer's hand makes that answerer show for certain: nobody after them is asked, and what
the others before them do not show is theirs. :class:`~.answers.AnswerCounter` walks the DP
for the other questions.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, cast

from .prepared import Prepared

Classes = tuple[int, ...]
"""Class numbers, in increasing order."""

MOST_NAMED = 3
"""Questions with more free named cards than this are walked (the sums grow with 2^cards)."""

LARGEST_SCALE = math.lcm(*range(1, 7))
"""Questions whose weights are scaled by more (naming over six cards) are walked: the packed
fields are made wide enough for this scale."""


class Walked(Protocol):
    """What :class:`MomentAnswers` reads of the :class:`~.answers.AnswerCounter` whose DP it
    sums (the counter builds this module's sums, so this module names only what it reads)."""

    @property
    def prep(self) -> Prepared | None: ...
    @property
    def every(self) -> bool: ...
    @property
    def answerers(self) -> tuple[str, ...]: ...
    @property
    def index(self) -> Mapping[str, int]: ...
    @property
    def class_of(self) -> Mapping[str, int]: ...
    @property
    def step_of(self) -> Mapping[int, int]: ...
    @property
    def states(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def starts(self) -> Sequence[tuple[Any, int, int, list[Any]]]: ...

    def live_moves(self, step: int, sid: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
        ...


class MomentAnswers:
    """The packed sums of one :class:`~.answers.AnswerCounter`'s DP that every question's
    first-who-can answers are read from."""

    def __init__(self, counter: Walked):
        prep = counter.prep
        assert prep is not None   # built only for a problem with deals
        self.counter = counter
        self.category = [k.category for k in prep.classes]
        dp = prep.dp
        ways = cast(Any, dp.ways)
        # The answerers in asking order with the DP step that deals their hand (None when
        # it is known: they show only a named card known there, see :meth:`stopper`).
        self.asked = [(who, counter.step_of.get(counter.index[who]))
                      for who in counter.answerers]
        self.totals = [ways(step, counter.states[sid]) for _, step, sid, _ in counter.starts]
        self.start_counts = [counter.states[sid] for _, _, sid, _ in counter.starts]
        # One field per envelope choice, wide enough for any sum read from it.
        # A table entry is at most ``most`` cubed times the deals from the start (at most
        # three classes, each taking or leaving at most ``most`` cards); an answer adds at
        # most 4 entries with coefficients of at most 4 times the scale.
        most = max([*(len(k.members) for k in prep.classes), *prep.caps, 1])
        bound = max(self.totals, default=1) * most ** 3 * 16 * LARGEST_SCALE
        self.width = (bound.bit_length() + 2 + 7) // 8 * 8   # whole bytes, to unpack fast
        self._forward()
        self._tables: dict[tuple[int, Classes], dict[Classes, int]] = {}
        self._groups: dict[int, dict[Classes, dict[tuple[int, ...], int]]] = {}
        self._per_start: dict[tuple[tuple[str, ...], int, bool, int, int, tuple[str, ...]],
                              dict[Any, int]] = {}
        self._values: dict[tuple[tuple[str, ...], bool, int, int, int],
                           list[tuple[Any, list[int]]]] = {}
        self._answers: dict[tuple[tuple[str, ...], bool, int, int, int],
                            list[tuple[Any, int, int]]] = {}

    def _forward(self) -> None:
        """α of every state before each answerer's step, a field per envelope choice."""
        counter = self.counter
        self.alpha: dict[int, dict[int, int]] = {}
        if all(step is None for _, step in self.asked) or not counter.starts:
            return
        first = counter.starts[0][1]
        last = max(step for _, step in self.asked if step is not None)
        layer: dict[int, int] = defaultdict(int)
        for i, (_, _, sid, _) in enumerate(counter.starts):
            layer[sid] += 1 << (i * self.width)
        for step in range(first, last + 1):
            self.alpha[step] = layer
            if step == last:
                break
            following: dict[int, int] = defaultdict(int)
            for sid, alpha in layer.items():
                for new, weight, _, _ in counter.live_moves(step, sid):
                    following[new] += alpha * weight
            layer = following

    def _table(self, step: int, taken: Classes) -> dict[Classes, int]:
        """Σ over the states before ``step`` of α · (Σ_moves through · Π_{k∈taken} t_k) ·
        Π_{k∈R} r_k, for every set R of classes, one per category not in ``taken``, with
        at most MOST_NAMED classes in all."""
        key = (step, taken)
        found = self._tables.get(key)
        if found is not None:
            return found
        grouped = self._grouped(step).get(taken, {})
        flat, groups_of = self._others(taken)
        room = MOST_NAMED - len(taken)
        table: dict[Classes, int] = defaultdict(int)
        position = {k: i for i, k in enumerate(flat)}
        columns = [[(k, position[k]) for k in group] for group in groups_of]
        for counts, value in grouped.items():
            # Grow R one category at a time: at most one class of each.
            combos: list[tuple[Classes, int]] = [((), value)]
            for column in columns:
                combos += [(chosen + (k,), part * counts[i] if counts[i] > 1 else part)
                           for chosen, part in combos if len(chosen) < room
                           for k, i in column if counts[i]]
            for chosen, part in combos:
                table[chosen if len(chosen) < 2 else tuple(sorted(chosen))] += part
        found = self._tables[key] = dict(table)
        return found

    def _others(self, taken: Classes) -> tuple[list[int], list[list[int]]]:
        """The classes of the categories ``taken`` has none of, flat and by category."""
        used = {self.category[k] for k in taken}
        others: dict[str, list[int]] = defaultdict(list)
        for k, cat in enumerate(self.category):
            if cat not in used:
                others[cat].append(k)
        groups_of = list(others.values())
        return [k for group in groups_of for k in group], groups_of

    def _grouped(self, step: int) -> dict[Classes, dict[tuple[int, ...], int]]:
        """For every set T of classes that one move takes together (one per category, at
        most MOST_NAMED): Σ α · Σ_moves through · Π_{k∈T} t_k over the states before
        ``step``, grouped by the counts left of the classes in the other categories."""
        found = self._groups.get(step)
        if found is not None:
            return found
        counter = self.counter
        category = self.category
        # The classes of the other categories depend only on the categories taken: each
        # state's counts of them are read once per such set.
        flats: dict[frozenset[str], list[int]] = {}
        cats_of: dict[Classes, frozenset[str]] = {}
        grouped: dict[Classes, dict[tuple[int, ...], int]] = defaultdict(
            lambda: defaultdict(int))
        # Per count of cards taken per class: each such T with Π_{k∈T} t_k (moves repeat
        # these patterns from many states).
        splits: dict[tuple[int, ...], list[tuple[Classes, int]]] = {}
        for sid, alpha in self.alpha.get(step, {}).items():
            moments: dict[Classes, int] = defaultdict(int)
            for _, _, through, counts in counter.live_moves(step, sid):
                parts = splits.get(counts)
                if parts is None:
                    present = [k for k, n in enumerate(counts) if n]
                    parts = splits[counts] = [
                        (taken, math.prod([counts[k] for k in taken]))
                        for size in range(1, min(MOST_NAMED, len(present)) + 1)
                        for taken in itertools.combinations(present, size)
                        if len({category[k] for k in taken}) == size]
                for taken, product in parts:
                    moments[taken] += through * product
            state = counter.states[sid]
            read: dict[frozenset[str], tuple[int, ...]] = {}
            for taken, moment in moments.items():
                cats = cats_of.get(taken)
                if cats is None:
                    cats = cats_of[taken] = frozenset(category[k] for k in taken)
                    if cats not in flats:
                        flats[cats] = self._others(taken)[0]
                key = read.get(cats)
                if key is None:
                    key = read[cats] = tuple([state[k] for k in flats[cats]])
                grouped[taken][key] += alpha * moment
        found = self._groups[step] = {taken: dict(rows) for taken, rows in grouped.items()}
        return found

    def _packed(self, free: tuple[str, ...], sees_card: bool, scale: int, stop: int,
                held: int) -> list[tuple[Any, int, int]]:
        """(answer, positive part, negative part) per card shown by the answerers asked
        up to number ``stop`` (who holds ``held`` named cards known to be there), each part
        packed with a field per envelope choice and weighted by Π_{k∈F} r_k(start)."""
        key = (free, sees_card, scale, stop, held)
        found = self._answers.get(key)
        if found is not None:
            return found
        class_of = self.counter.class_of
        classes = sorted((class_of[card], card) for card in free)
        named = tuple(k for k, _ in classes)
        card_of = dict(classes)
        result: list[tuple[Any, int, int]] = []
        for number, (who, step) in enumerate(self.asked[:stop + 1]):
            if step is None:
                continue
            coefficient = _coefficients(len(named), held if number == stop else 0, scale)
            splits: list[tuple[Classes, int]] = []
            for size in range(1, len(named) + 1):
                for taken in itertools.combinations(named, size):
                    rest = tuple(k for k in named if k not in taken)
                    value = self._table(step, taken).get(rest, 0)
                    if value:
                        splits.append((taken, value))
            if not sees_card:
                # Not for the answerer holding known named cards: they always show.
                if number == stop:
                    continue
                plus = sum(scale * value for taken, value in splits if len(taken) % 2)
                minus = sum(scale * value for taken, value in splits if not len(taken) % 2)
                if plus or minus:
                    result.append(((who,), plus, minus))
                continue
            for k in named:
                plus = minus = 0
                for taken, value in splits:
                    if k in taken:
                        c = coefficient[len(taken)]
                        if c > 0:
                            plus += c * value
                        else:
                            minus -= c * value
                if plus or minus:
                    result.append(((who, card_of[k]), plus, minus))
        self._answers[key] = result
        return result

    def _unpacked(self, free: tuple[str, ...], sees_card: bool, scale: int, stop: int,
                  held: int) -> list[tuple[Any, list[int]]]:
        """As :meth:`_packed`, each answer's value (positive part minus negative part) for
        every envelope choice, unpacked once: most envelope choices leave the same named
        cards free, so each question reads most of them."""
        key = (free, sees_card, scale, stop, held)
        found = self._values.get(key)
        if found is None:
            size = self.width // 8
            length = size * len(self.counter.starts)
            found = self._values[key] = []
            for answer, plus, minus in self._packed(free, sees_card, scale, stop, held):
                positive = plus.to_bytes(length, "little")
                negative = minus.to_bytes(length, "little")
                found.append((answer, [int.from_bytes(positive[i:i + size], "little")
                                       - int.from_bytes(negative[i:i + size], "little")
                                       for i in range(0, length, size)]))
        return found

    def stopper(self, held: Mapping[str, Sequence[str]]) -> tuple[int, list[str]]:
        """The number of the first answerer with named cards known in hand (``held``), and
        those cards: they show for certain, so nobody after them is asked."""
        for number, (who, _) in enumerate(self.asked):
            if held.get(who):
                return number, list(held[who])
        return len(self.asked), []

    def answers(self, free: Sequence[str], start: int, sees_card: bool, scale: int,
                stopper: tuple[int, list[str]]) -> dict[Any, int]:
        """The first-who-can answers from envelope choice number ``start`` when ``free``
        are the named cards not yet placed and ``stopper`` is the :meth:`stopper`, weights
        times ``scale`` (as the walk gives)."""
        free = tuple(sorted(free))
        stop, here = stopper
        # Envelopes that leave the same named cards free share the answers.
        key = (free, start, sees_card, scale, stop, tuple(here))
        found = self._per_start.get(key)
        if found is None:
            found = self._per_start[key] = self._answers_from(free, start, sees_card, scale,
                                                              stop, here)
        return found

    def _answers_from(self, free: tuple[str, ...], start: int, sees_card: bool, scale: int,
                      stop: int, here: list[str]) -> dict[Any, int]:
        counts = self.start_counts[start]
        class_of = self.counter.class_of
        divisor = math.prod(counts[class_of[card]] for card in free)
        out: dict[Any, int] = {}
        shown = 0
        for answer, values in self._unpacked(free, sees_card, scale, stop, len(here)):
            value = values[start]
            if value:
                whole, left = divmod(value, divisor)
                assert not left, "the named cards' chances divide the weights"
                out[answer] = out.get(answer, 0) + whole
                shown += whole
        rest = self.totals[start] * scale - shown
        if not here:
            if rest:
                out[None] = rest
            return out
        # What is left is the stopper's: their known cards share it equally.
        who = self.asked[stop][0]
        if not sees_card:
            out[(who,)] = rest
            return out
        share, left = divmod(rest, len(here))
        assert not left, "the scale makes every share whole"
        for card in here:
            out[(who, card)] = out.get((who, card), 0) + share
        return {answer: value for answer, value in out.items() if value}


@functools.cache
def _coefficients(named: int, here: int, scale: int) -> dict[int, int]:
    """The weight of "holds exactly S" for each card shown among S and the ``here`` ones,
    times ``scale``: Σ over T ⊇ S ∋ card of (-1)^|T∖S| / (|S| + here), by |T| alone."""
    out = {}
    for size in range(1, named + 1):
        value = sum(Fraction((-1) ** (size - j) * math.comb(size - 1, j - 1), j + here)
                    for j in range(1, size + 1)) * scale
        assert value.denominator == 1, "the scale makes every share whole"
        out[size] = int(value)
    return out


def serves(counter: Walked, free: Sequence[str], scale: int) -> bool:
    """Whether :class:`MomentAnswers` gives this question's answers: first-who-can, the
    free named cards at most MOST_NAMED and in different categories, the weights' scale at
    most LARGEST_SCALE."""
    if counter.every or len(free) > MOST_NAMED or scale > LARGEST_SCALE:
        return False
    prep = counter.prep
    assert prep is not None
    categories = [prep.classes[counter.class_of[card]].category for card in free]
    return len(set(categories)) == len(categories)
