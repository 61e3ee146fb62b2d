"""The joint weight of each answer to a question and each envelope."""

from __future__ import annotations

import itertools
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from .answer_moments import MomentAnswers, serves
from .prepared import prepare
from .problem import Factor, Problem, Weight, exact

Answer = tuple[Any, ...] | None
"""``(player, card)``, ``(player,)``, a tuple of those (every who can) or None."""
Shown = tuple[Any, ...]
"""An every-who-can answer: each ``(player, card)`` or ``(player,)`` shown, in order."""
Ways = Callable[[int, tuple[int, ...]], int]
"""A DP's ``ways`` in the counter, where every factor is scaled to whole numbers."""


class AnswerCounter:
    """The joint weight of each answer to a question and each envelope, for many questions.

    ``answerers`` are asked in order; the first holding any named card shows one, chosen
    uniformly among those held (weight 1/k). The answer is ``(player, card)`` when the asker
    sees the card, ``(player,)`` otherwise, and ``None`` when nobody can show.

    Why one counter serves every question: the DP fills the envelope, then the answerers in
    the order asked, keeping only how many cards of each class are left. A named card is one
    member of its class, and the members of a class are interchangeable, so given the counts
    it is equally likely to be any of them: if ``r`` of a class are left and a hand takes
    ``t``, a given ``j`` of the ``m`` named ones go there (and the others not) with chance
    C(r-m, t-j) / C(r, t). The DP's moves do not depend on the question and are computed once;
    each question only walks them with these chances. Once someone has shown a card the rest
    of the deal no longer changes the answer, so it is counted by the plain DP.

    Under that rule a question has few answers, so the walk keeps them as fields of one packed
    integer, and it depends only on the named cards still free and those known to be in an
    answerer's hand: questions alike in these share one walk (:meth:`walker`).

    With ``every=True`` (the variant where every player who can shows a card) the walk goes on
    past each shower, with the cards they took no longer free, and an answer is the tuple of
    every ``(player, card)`` (or ``(player,)``) shown, in asking order; ``()`` when nobody can.
    """

    def __init__(self, problem: Problem, answerers: Sequence[str],
                 envelope: str = "envelope", every: bool = False, moments: bool = True):
        self.answerers = tuple(answerers)
        self.every = every
        # Read the answers from MomentAnswers where it serves the question (False: always
        # walk, as the tests compare both).
        self.use_moments = moments
        self._moments: MomentAnswers | None = None
        self._starts_rows: list[tuple[int, int, int, list[tuple[str, ...]],
                                      list[frozenset[str]]]] | None = None
        # Whole numbers throughout: each factor's weights are scaled to integers. Every deal
        # meets every factor once, so all weights grow by one constant, ``unit``, which the
        # denominator of :meth:`scaled` divides out again.
        factors, self.unit = _whole_factors(problem.factors)
        problem = Problem(problem.categories, problem.places, problem.allowed, factors)
        self.prep = prepare(problem, envelope, frozenset(), first=answerers)
        if self.prep is not None:
            prep = self.prep
            self.index = {p.name: i for i, p in enumerate(prep.places)}
            self.class_of = {card: k for k, klass in enumerate(prep.classes)
                             for card in klass.members}
            self.step_of = {place: step for step, place in enumerate(prep.order)}
            self.envelope_moves = (
                [(ks, weight, new) for new, weight, ks in prep.envelope_choices()]
                if prep.order and prep.order[0] == prep.env_index else None)
            # States get small numbers: the walks key their memos by them.
            self._ids: dict[tuple[int, ...], int] = {}
            self.states: list[tuple[int, ...]] = []
            self._live: dict[int, list[tuple[int, int, int, tuple[int, ...]]]] = {}
            self._walkers: dict[tuple[tuple[str, ...], bool, int], _Question] = {}
            choices = ([(ks, weight, 1, new) for ks, weight, new in self.envelope_moves]
                       if self.envelope_moves is not None else [({}, 1, 0, prep.start)])
            # Each envelope choice stands for ``ways`` envelopes with equal shares: count
            # every cell times ``common`` (a multiple of every ``ways``) to stay in whole
            # numbers.
            self.starts = [(weight, step, self.state_id(new),
                            [key for key, _ in prep.envelope_cards(ks)])
                           for ks, weight, step, new in choices]
            self.common = math.lcm(*(len(keys) for *_, keys in self.starts))

    def state_id(self, state: tuple[int, ...]) -> int:
        found = self._ids.get(state)
        if found is None:
            found = self._ids[state] = len(self.states)
            self.states.append(state)
        return found

    def live_moves(self, step: int, sid: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """The moves from state ``sid`` that some deal completes, as (next state's number,
        weight, weight of every deal through the move, cards taken per class). They do not
        depend on the question, so they are computed once and shared by every question."""
        found = self._live.get(sid)
        if found is None:
            assert self.prep is not None   # no moves are asked of a problem with no deal
            dp = self.prep.dp
            ways = cast(Ways, dp.ways)
            state = self.states[sid]
            found = []
            # The DP has counted every state a move reaches (its memo), but the end.
            counted = dp.memo(step + 1) if step + 1 < dp.steps else {}
            ids = self._ids
            for new, weight, _ in dp.transitions(step, state):
                rest = counted.get(new)
                if rest is None:
                    rest = ways(step + 1, new)
                if rest:
                    whole = cast(int, weight)
                    number = ids.get(new)
                    if number is None:
                        number = self.state_id(new)
                    found.append((number, whole, whole * cast(int, rest),
                                  tuple(map(operator.sub, state, new))))
            self._live[sid] = found
        return found

    def distribution(self, named: Sequence[str], sees_card: bool
                     ) -> dict[Answer, dict[tuple[str, ...], Weight]]:
        """{answer: {envelope: weight}}, weights on the scale of the deal count."""
        joint, denominator = self.scaled(named, sees_card)
        return {answer: {key: exact(Fraction(value, denominator))
                         for key, value in row.items()}
                for answer, row in joint.items()}

    def scaled(self, named: Sequence[str], sees_card: bool
               ) -> tuple[dict[Answer, dict[tuple[str, ...], int]], int]:
        """As :meth:`distribution`, every weight a whole number times the denominator
        returned second (Fractions in the inner loop would be ten times slower)."""
        joint: dict[Answer, dict[tuple[str, ...], int]] = defaultdict(dict)
        for answer, keys, value in self._rows(named, sees_card):
            row = joint[answer]
            for key in keys:
                row[key] = row.get(key, 0) + value
        return dict(joint), self._denominator(named)

    def weights(self, named: Sequence[str], sees_card: bool, alone: bool = False
                ) -> tuple[dict[Answer, list[int]], int]:
        """As :meth:`scaled`, each answer's weights without their envelopes (one per
        envelope, which is all the entropy needs): envelopes alike share one weight.
        ``alone``: a question asked on its own walks unless the moment sums are built
        already (building them costs about three walks; they pay off over many questions)."""
        rows: dict[Answer, list[int]] = defaultdict(list)
        for answer, keys, value in self._rows(named, sees_card, alone):
            rows[answer] += [value] * len(keys)
        return dict(rows), self._denominator(named)

    def _denominator(self, named: Sequence[str]) -> int:
        if self.prep is None:
            return 1
        return _scale(len(named), self.every) * self.common * self.unit

    def _rows(self, named: Sequence[str], sees_card: bool, alone: bool = False
              ) -> Iterator[tuple[Answer, list[tuple[str, ...]], int]]:
        """(answer, envelopes, weight in each) for every answer with weight: each envelope
        appears once per answer."""
        prep = self.prep
        if prep is None:
            return
        question = _Question(self, named, sees_card)
        # Under the first-who-can rule the answers depend only on the named cards still free
        # and those known to be in an answerer's hand (a card in your own hand or in the
        # envelope plays no part): the walk is shared by every question alike in these.
        held = tuple(card for who in self.answerers
                     for card in question.fixed_named.get(self.index[who], ()))
        moments = (self.moments() if self.use_moments and not self.every
                   and not (alone and self._moments is None) else None)
        if moments is not None:
            stop = moments.stopper(
                {who: question.fixed_named.get(self.index[who], []) for who in self.answerers})
        loose = question.loose
        served: dict[tuple[str, ...], bool] = {}
        for start, (multiplier, step, new, keys, insides) in enumerate(self._start_rows()):
            # Envelopes that leave the same named cards free have the same answers.
            alike: dict[tuple[str, ...], list[tuple[str, ...]]]
            if len(keys) == 1:
                alike = {tuple([c for c in loose if c not in insides[0]]): keys}
            else:
                alike = defaultdict(list)
                for key, inside in zip(keys, insides, strict=True):
                    alike[tuple([c for c in loose if c not in inside])].append(key)
            for free, group in alike.items():
                answers: Mapping[Answer, int]
                if self.every:
                    answers = cast(Mapping[Answer, int], question.every_walk(free, 0, step, new))
                elif moments is not None and (
                        served[free] if free in served
                        else served.setdefault(free, serves(self, free, question.scale))):
                    answers = moments.answers(free, start, sees_card, question.scale, stop)
                else:
                    ordered = tuple(sorted(free))
                    walker = self.walker(ordered + held, sees_card, question.scale)
                    answers = walker.answers(ordered, step, new)
                for answer, value in answers.items():
                    if value:
                        yield answer, group, multiplier * value

    def _start_rows(self) -> list[tuple[int, int, int, list[tuple[str, ...]],
                                        list[frozenset[str]]]]:
        """Per envelope choice: what its answers are multiplied by, the step and state after
        it, its envelopes and their cards as sets (the same for every question)."""
        if self._starts_rows is None:
            assert self.prep is not None   # questions are asked only of a problem with deals
            constant = self.prep.constant
            self._starts_rows = [
                (cast(int, weight * constant) * (self.common // len(keys)), step, new, keys,
                 [frozenset(key) for key in keys])
                for weight, step, new, keys in self.starts]
        return self._starts_rows

    def release(self) -> None:
        """Let go of the walks and the moment sums: they refer back to this counter, so
        without this only the cyclic garbage collector would free them."""
        self._moments = None
        if self.prep is not None:
            self._walkers.clear()

    def moments(self) -> MomentAnswers:
        """The sums the first-who-can answers are read from, built at the first question
        they serve."""
        if self._moments is None:
            self._moments = MomentAnswers(self)
        return self._moments

    def walker(self, cards: tuple[str, ...], sees_card: bool, scale: int) -> _Question:
        """The walk shared by the questions whose named cards that matter are ``cards``."""
        key = (tuple(sorted(cards)), sees_card, scale)
        found = self._walkers.get(key)
        if found is None:
            found = self._walkers[key] = _Question(self, key[0], sees_card, scale)
        return found


class _Question:
    """One question's walk over an :class:`AnswerCounter`'s moves: the answers from each
    state on, memoised, given which named cards are still free (not yet in a hand or the
    envelope). Weights are whole numbers times ``scale``, so that splitting a shown card's
    weight among the k cards held stays exact."""

    def __init__(self, counter: AnswerCounter, named: Sequence[str], sees_card: bool,
                 scale: int | None = None):
        prep = counter.prep
        assert prep is not None   # questions are asked only of a problem with deals
        self.counter = counter
        self.ways = cast(Ways, prep.dp.ways)
        self.sees_card = sees_card
        self.fixed_named: dict[int, list[str]] = defaultdict(list)
        for card in named:
            if card in prep.fixed:
                self.fixed_named[prep.fixed[card]].append(card)
        self.loose = [c for c in named if c not in prep.fixed]
        self.by_class: dict[int, list[str]] = defaultdict(list)
        for card in self.loose:
            self.by_class[counter.class_of[card]].append(card)
        classes = self.named_classes = tuple(self.by_class)
        # How many cards of each named class a state holds or a move takes (one number for
        # one class, as the fast itemgetter gives it).
        self.pick: Callable[[tuple[int, ...]], Any]
        if classes:
            self.pick = operator.itemgetter(*classes)
        else:
            def pick(counts: tuple[int, ...]) -> tuple[int, ...]:
                return ()
            self.pick = pick
        self.scale = scale or _scale(len(named), counter.every)
        self.memo: dict[tuple[str, ...], list[dict[int, Any]]] = {}
        self.outcomes: dict[tuple[Any, ...], dict[Any, tuple[int, int, int]]] = {}
        self.unpacked: dict[tuple[Any, ...], dict[Answer, int]] = {}
        self.split_memo: dict[tuple[Any, ...], tuple[list[tuple[list[str], int]], int]] = {}
        # First-who-can answers are few: each is a field of one packed integer, wide enough
        # for the whole count, so adding up answers over moves is one integer operation.
        answers: list[Answer] = [None]
        for who in counter.answerers:
            answers += [(who, card) for card in named] if sees_card else [(who,)]
        width = (self.scale * self.ways(0, prep.start)).bit_length() + 1
        self.shift = {answer: i * width for i, answer in enumerate(answers)}
        self.mask = (1 << width) - 1

    def splits(self, free: tuple[str, ...], left: tuple[int, ...] | int,
               taken: tuple[int, ...] | int) -> tuple[list[tuple[list[str], int]], int]:
        """Each set of the free named cards a hand may take (``taken`` of the ``left``
        cards of each named card's class), with its chance as a numerator over one common
        denominator (returned second)."""
        lefts = left if isinstance(left, tuple) else (left,)
        takens = taken if isinstance(taken, tuple) else (taken,)
        key = (free, lefts, takens)
        found = self.split_memo.get(key)
        if found is None:
            parts = []
            for k, r, t in zip(self.named_classes, lefts, takens, strict=True):
                cards = [c for c in self.by_class[k] if c in free]
                m = len(cards)
                parts.append([(list(chosen), math.comb(r - m, t - j))
                              for j in range(min(m, t) + 1) if math.comb(r - m, t - j)
                              for chosen in itertools.combinations(cards, j)])
            options = [([c for cards, _ in combo for c in cards], math.prod(n for _, n in combo))
                       for combo in itertools.product(*parts)]
            denominator = math.prod(math.comb(r, t) for r, t in zip(lefts, takens, strict=True))
            found = self.split_memo[key] = (options, denominator)
        return found

    def unit(self, who: str, held: list[str]) -> int:
        """The packed answers of one deal in which ``who`` shows one of ``held``, each
        with an equal share."""
        if not self.sees_card:
            return self.scale << self.shift[(who,)]
        share = self.scale // len(held)
        return sum(share << self.shift[(who, card)] for card in held)

    def outcome(self, free: tuple[str, ...], a: int, left: tuple[int, ...] | int,
                taken: tuple[int, ...] | int) -> tuple[int, int, int]:
        """Answerer ``a`` takes ``taken`` of the ``left`` cards of each named class: the
        chances (numerators over the denominator returned first) that they show, as packed
        answers per deal, and that they pass."""
        who = self.counter.answerers[a]
        here = self.fixed_named[self.counter.index[who]]
        options, denominator = self.splits(free, left, taken)
        shows = passes = 0
        for cards, numerator in options:
            if here or cards:
                shows += numerator * self.unit(who, here + cards)
            else:
                passes += numerator
        return denominator, shows, passes

    def unpack(self, packed: int) -> dict[Answer, int]:
        return {answer: (packed >> shift) & self.mask for answer, shift in self.shift.items()}

    def answers(self, free: tuple[str, ...], step: int, sid: int) -> dict[Answer, int]:
        """The first-who-can answers with any weight from state ``sid``, unpacked once for
        every question that shares this walk."""
        key = (free, sid)
        found = self.unpacked.get(key)
        if found is None:
            packed = self.first_walk(free, 0, step, sid)
            found = self.unpacked[key] = {answer: value for answer, value
                                          in self.unpack(packed).items() if value}
        return found

    def memos(self, free: tuple[str, ...]) -> list[dict[int, Any]]:
        """One memo per answerer (and one for after the last), for these free cards."""
        found = self.memo.get(free)
        if found is None:
            found = self.memo[free] = [{} for _ in range(len(self.counter.answerers) + 1)]
        return found

    def first_walk(self, free: tuple[str, ...], a: int, step: int, sid: int) -> int:
        """Answers from answerer ``a`` on, packed, where everyone before ``a`` passed, from
        state number ``sid``."""
        memos = self.memos(free)
        memo = memos[a]
        found: int | None = memo.get(sid)
        if found is not None:
            return found
        counter = self.counter
        state = counter.states[sid]
        if a == len(counter.answerers):
            total = memo[sid] = self.ways(step, state) * self.scale
            return total
        who = counter.answerers[a]
        here = self.fixed_named[counter.index[who]]
        if counter.step_of.get(counter.index[who]) != step:
            # This answerer's hand is already known: they show or pass for certain.
            total = memo[sid] = (self.ways(step, state) * self.unit(who, here) if here
                                 else self.first_walk(free, a + 1, step, sid))
            return total
        # Each move's chances depend only on how many of each named class it takes.
        pick = self.pick
        left = pick(state)
        chances = self.outcomes.get((free, a, left))
        if chances is None:
            chances = self.outcomes[(free, a, left)] = {}
        later_memo = memos[a + 1]
        # After the last answerer passes, nobody shows: the deals count in the first field.
        last = a + 1 == len(counter.answerers)
        scale = self.scale
        total = 0
        for new, weight, through, taken_all in counter.live_moves(step, sid):
            taken_named = pick(taken_all)
            chance = chances.get(taken_named)
            if chance is None:
                chance = chances[taken_named] = self.outcome(free, a, left, taken_named)
            denominator, shows, passes = chance
            # A move's weight counts the ways to pick the named classes' cards, so it is a
            # multiple of the denominator.
            if shows:
                total += through // denominator * shows
            if passes and last:
                total += through // denominator * passes * scale
            elif passes:
                later = later_memo.get(new)
                if later is None:
                    later = self.first_walk(free, a + 1, step + 1, new)
                total += weight // denominator * passes * later
        memo[sid] = total
        return total

    def every_walk(self, free: tuple[str, ...], a: int, step: int, sid: int
                   ) -> dict[Shown, int]:
        """Every-who-can answers from answerer ``a`` on, given the ``free`` named cards."""
        counter = self.counter
        state = counter.states[sid]
        if a == len(counter.answerers):
            return {(): self.ways(step, state) * self.scale}
        memo = self.memos(free)[a]
        found: dict[Shown, int] | None = memo.get(sid)
        if found is not None:
            return found
        who = counter.answerers[a]
        place = counter.index[who]
        here = self.fixed_named[place]
        result: dict[Shown, int] = {}
        if counter.step_of.get(place) != step:
            later = self.every_walk(free, a + 1, step, sid)
            result = memo[sid] = self.then(who, here, 1, later) if here else later
            return result
        left = self.pick(state)
        for new, weight, _, taken_all in counter.live_moves(step, sid):
            options, denominator = self.splits(free, left, self.pick(taken_all))
            for taken, numerator in options:
                rest = tuple(c for c in free if c not in taken) if taken else free
                later = self.every_walk(rest, a + 1, step + 1, new)
                part = weight // denominator * numerator
                if here or taken:
                    later = self.then(who, here + taken, part, later)
                    part = 1
                for answer, value in later.items():
                    result[answer] = result.get(answer, 0) + part * value
        memo[sid] = result
        return result

    def then(self, who: str, held: list[str], weight: int, later: Mapping[Shown, int]
             ) -> dict[Shown, int]:
        """``who`` shows (one of) ``held``, then the ``later`` answers follow. Each later
        weight already carries ``scale``, and the k's along an answer divide it, so the
        division by len(held) is exact."""
        result: dict[Shown, int] = {}
        for suffix, value in later.items():
            if not value:
                continue
            if not self.sees_card:
                result[((who,), *suffix)] = weight * value
                continue
            for card in held:
                result[((who, card), *suffix)] = weight * value // len(held)
        return result


def _scale(named: int, every: bool) -> int:
    """What every weight is multiplied by to keep a shower's 1/k choice whole: the lcm of
    1..named, or with every shower answering named! (the k's along one answer add up to at
    most ``named``, so their product divides it)."""
    return math.factorial(named) if every else math.lcm(*range(1, named + 1))


def _whole_factors(factors: Sequence[Factor]) -> tuple[tuple[Factor, ...], int]:
    """The factors with their weights scaled to whole numbers, and the product of the
    scales (by which every deal's weight grows)."""
    out = []
    unit = 1
    for factor in factors:
        lcm = math.lcm(*(Fraction(w).denominator for w in factor.weights))
        if lcm > 1:
            factor = Factor(factor.place, factor.cards,
                            tuple(int(w * lcm) for w in factor.weights), factor.label)
        out.append(factor)
        unit *= lcm
    return tuple(out), unit
