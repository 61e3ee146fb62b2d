"""The joint weight of each answer to a question and each envelope: the one way the question
ranking values a question.

Each question walks the sweep DP (:mod:`.sweep_dp`) with its places in the order the players
are asked: the envelope, then each answerer's hand. The sweep forgets after each hand what no
later place tells apart, so it keeps few states (on the six-player positions of
``benchmarks/ranking.py``, 264 where a DP keeping every class apart kept 4,462), and the named
cards are followed through it by their chances: see :class:`AnswerCounter`.
"""

from __future__ import annotations

import itertools
import math
import operator
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from .prepared import prepare
from .problem import Factor, Problem, Weight, exact
from .sweep_dp import SweepDP

Answer = tuple[Any, ...] | None
"""``(player, card)``, ``(player,)``, a tuple of those (every who can) or None."""
Shown = tuple[Any, ...]
"""An every-who-can answer: each ``(player, card)`` or ``(player,)`` shown, in order."""


class AnswerCounter:
    """The joint weight of each answer to a question and each envelope, for many questions.

    ``answerers`` are asked in order; the first holding any named card shows one, chosen
    uniformly among those held (weight 1/k). The answer is ``(player, card)`` when the asker
    sees the card, ``(player,)`` otherwise, and ``None`` when nobody can show.

    Why one DP serves every question: the sweep DP fills the envelope, then the answerers in
    the order asked, keeping only how many cards are left in each *group* (cards that no later
    place tells apart). The members of a group are interchangeable for everything still to
    come, so a hand that takes ``t`` of the ``r`` cards left in a group takes any given ``j``
    of the ``m`` named ones there (and not the others) with chance C(r-m, t-j) / C(r, t),
    whatever happened before. The DP's fillings do not depend on the question and are
    computed once; each question walks them with these chances, its named cards still free
    (not yet dealt) as part of its state. Once someone has shown a card the rest of the deal
    no longer changes the answer, so it is counted by the plain DP.

    Under that rule a question has few answers, so the walk keeps them as fields of one packed
    integer, and it depends only on the named cards still free and those known to be in an
    answerer's hand: questions alike in these share one walk (:meth:`walker`).

    With ``every=True`` (the variant where every player who can shows a card) the walk goes on
    past each shower, with the cards they took no longer free, and an answer is the tuple of
    every ``(player, card)`` (or ``(player,)``) shown, in asking order; ``()`` when nobody can.
    """

    def __init__(self, problem: Problem, answerers: Sequence[str],
                 envelope: str = "envelope", every: bool = False):
        self.answerers = tuple(answerers)
        self.every = every
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
            self.dp = SweepDP(prep.classes, prep.order, prep.caps, prep.cat_caps,
                              prep.factors, prep.env_index)
            self.index = {p.name: i for i, p in enumerate(prep.places)}
            self.class_of = {card: k for k, klass in enumerate(prep.classes)
                             for card in klass.members}
            self.step_of = {place: step for step, place in enumerate(prep.order)}
            # States get small numbers: the walks key their memos by them.
            self._ids: dict[tuple[int, ...], int] = {}
            self.states: list[tuple[int, ...]] = []
            self._fillings: dict[tuple[int, int],
                                 list[tuple[int, int, tuple[int, ...], int]]] = {}
            self._ways: dict[tuple[int, int], int] = {}
            self._getters: dict[tuple[int, ...], Callable[[tuple[int, ...]], Any]] = {}
            self._walkers: dict[tuple[tuple[str, ...], bool, int], _Question] = {}
            # With the envelope first, its first step's groups are the classes themselves.
            choices: list[tuple[dict[int, int], Weight, int, tuple[int, ...]]]
            if prep.order and prep.order[0] == prep.env_index:
                as_class = [members[0] for members in self.dp.groups[0]]
                choices = [({as_class[g]: n for g, n in taken.items()}, weight, 1, new)
                           for new, weight, taken in self.dp.envelope_choices()
                           if self.ways(1, self.state_id(new))]
            else:
                choices = [({}, 1, 0, self.dp.start)]
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

    def ways(self, step: int, sid: int) -> int:
        """The weight of every way to complete the deal from state ``sid`` before ``step``
        (the sweep DP's count, over :meth:`fillings`)."""
        if step == self.dp.steps:
            return 0 if any(self.states[sid]) else 1
        key = (step, sid)
        found = self._ways.get(key)
        if found is None:
            found = self._ways[key] = sum([weight * rest for _, weight, _, rest
                                           in self.fillings(step, sid)])
        return found

    def fillings(self, step: int, sid: int) -> list[tuple[int, int, tuple[int, ...], int]]:
        """The ways to fill the place at ``step`` from state ``sid`` that some deal
        completes, as (next state's number, weight, cards taken from each group, ways to
        complete after it). They do not depend on the question: computed once, shared by
        every question."""
        key = (step, sid)
        found = self._fillings.get(key)
        if found is None:
            found = []
            for new, weight, taken in self.dp.fillings(step, self.states[sid]):
                number = self.state_id(new)
                rest = self.ways(step + 1, number)
                if rest:
                    found.append((number, cast(int, weight), taken, rest))
            self._fillings[key] = found
        return found

    def taken_from(self, groups: tuple[int, ...]) -> Callable[[tuple[int, ...]], Any]:
        """What tells the cards a filling takes from ``groups`` (those the named cards are
        in): a fast getter, its result a number, a tuple, or () for no group."""
        found = self._getters.get(groups)
        if found is None:
            if groups:
                found = operator.itemgetter(*groups)
            else:
                def found(taken: tuple[int, ...]) -> tuple[int, ...]:
                    return ()
            self._getters[groups] = found
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

    def weights(self, named: Sequence[str], sees_card: bool
                ) -> tuple[dict[Answer, list[int]], int]:
        """As :meth:`scaled`, each answer's weights without their envelopes (one per
        envelope, which is all the entropy needs): envelopes alike share one weight."""
        rows: dict[Answer, list[int]] = defaultdict(list)
        for answer, keys, value in self._rows(named, sees_card):
            rows[answer] += [value] * len(keys)
        return dict(rows), self._denominator(named)

    def _denominator(self, named: Sequence[str]) -> int:
        if self.prep is None:
            return 1
        return _scale(len(named), self.every) * self.common * self.unit

    def _rows(self, named: Sequence[str], sees_card: bool
              ) -> Iterator[tuple[Answer, list[tuple[str, ...]], int]]:
        """(answer, envelopes, weight in each) for every answer with weight: each envelope
        appears once per answer."""
        if self.prep is None:
            return
        question = _Question(self, named, sees_card)
        # Under the first-who-can rule the answers depend only on the named cards still free
        # and those known to be in an answerer's hand (a card in your own hand or in the
        # envelope plays no part): the walk is shared by every question alike in these.
        held = tuple(card for who in self.answerers
                     for card in question.fixed_named.get(self.index[who], ()))
        loose = question.loose
        walkers: dict[tuple[str, ...], tuple[tuple[str, ...], _Question]] = {}
        for multiplier, step, new, keys, insides in self._start_rows():
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
                else:
                    found = walkers.get(free)
                    if found is None:
                        ordered = tuple(sorted(free))
                        found = walkers[free] = (ordered, self.walker(ordered + held, sees_card,
                                                                      question.scale))
                    answers = found[1].answers(found[0], step, new)
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

    def walker(self, cards: tuple[str, ...], sees_card: bool, scale: int) -> _Question:
        """The walk shared by the questions whose named cards that matter are ``cards``."""
        key = (tuple(sorted(cards)), sees_card, scale)
        found = self._walkers.get(key)
        if found is None:
            found = self._walkers[key] = _Question(self, key[0], sees_card, scale)
        return found


class _Question:
    """One question's walk over an :class:`AnswerCounter`'s fillings: the answers from each
    state on, memoised, given which named cards are still free (not yet in a hand or the
    envelope). Weights are whole numbers times ``scale``, so that splitting a shown card's
    weight among the k cards held stays exact."""

    def __init__(self, counter: AnswerCounter, named: Sequence[str], sees_card: bool,
                 scale: int | None = None):
        prep = counter.prep
        assert prep is not None   # questions are asked only of a problem with deals
        # The counter keeps its walks (:meth:`AnswerCounter.walker`): a weak reference back
        # leaves no cycle, so reference counting frees both when the advisor goes.
        self._counter = weakref.ref(counter)
        start = counter.state_id(counter.dp.start)
        self.sees_card = sees_card
        self.fixed_named: dict[int, list[str]] = defaultdict(list)
        for card in named:
            if card in prep.fixed:
                self.fixed_named[prep.fixed[card]].append(card)
        self.loose = [c for c in named if c not in prep.fixed]
        self.scale = scale or _scale(len(named), counter.every)
        self.memo: dict[tuple[str, ...], list[dict[int, Any]]] = {}
        self.outcomes: dict[tuple[Any, ...], dict[Any, tuple[int, int, int]]] = {}
        self.unpacked: dict[tuple[Any, ...], dict[Answer, int]] = {}
        self.split_memo: dict[tuple[Any, ...], tuple[list[tuple[list[str], int]], int]] = {}
        self._named_at: dict[tuple[tuple[str, ...], int],
                             tuple[tuple[int, ...], tuple[list[str], ...]]] = {}
        # First-who-can answers are few: each is a field of one packed integer, wide enough
        # for the whole count, so adding up answers over moves is one integer operation.
        answers: list[Answer] = [None]
        for who in counter.answerers:
            answers += [(who, card) for card in named] if sees_card else [(who,)]
        width = (self.scale * counter.ways(0, start)).bit_length() + 1
        self.shift = {answer: i * width for i, answer in enumerate(answers)}
        self.mask = (1 << width) - 1

    @property
    def counter(self) -> AnswerCounter:
        counter = self._counter()
        assert counter is not None, "a walk is used only while its counter lives"
        return counter

    def named_at(self, free: tuple[str, ...], step: int
                 ) -> tuple[tuple[int, ...], tuple[list[str], ...]]:
        """The groups of ``step`` the ``free`` named cards are in, and the cards in each."""
        key = (free, step)
        found = self._named_at.get(key)
        if found is None:
            group_of = self.counter.dp.group_of[step]
            class_of = self.counter.class_of
            by_group: dict[int, list[str]] = defaultdict(list)
            for card in free:
                by_group[group_of[class_of[card]]].append(card)
            groups = tuple(sorted(by_group))
            found = self._named_at[key] = (groups, tuple(by_group[g] for g in groups))
        return found

    def splits(self, free: tuple[str, ...], step: int, left: tuple[int, ...] | int,
               taken: tuple[int, ...] | int) -> tuple[list[tuple[list[str], int]], int]:
        """Each set of the free named cards a hand at ``step`` may take (``taken`` of the
        ``left`` cards of each group they are in, one number for one group), with its
        chance as a numerator over one common denominator (returned second)."""
        key = (free, step, left, taken)
        found = self.split_memo.get(key)
        if found is None:
            if isinstance(left, int):
                left, taken = (left,), (cast(int, taken),)
            assert isinstance(taken, tuple)
            parts = []
            for cards, r, t in zip(self.named_at(free, step)[1], left, taken, strict=True):
                m = len(cards)
                parts.append([(list(chosen), math.comb(r - m, t - j))
                              for j in range(min(m, t) + 1) if math.comb(r - m, t - j)
                              for chosen in itertools.combinations(cards, j)])
            options = [([c for cards, _ in combo for c in cards], math.prod(n for _, n in combo))
                       for combo in itertools.product(*parts)]
            denominator = math.prod(math.comb(r, t) for r, t in zip(left, taken, strict=True))
            found = self.split_memo[key] = (options, denominator)
        return found

    def unit(self, who: str, held: list[str]) -> int:
        """The packed answers of one deal in which ``who`` shows one of ``held``, each
        with an equal share."""
        if not self.sees_card:
            return self.scale << self.shift[(who,)]
        share = self.scale // len(held)
        return sum(share << self.shift[(who, card)] for card in held)

    def outcome(self, free: tuple[str, ...], a: int, step: int, left: tuple[int, ...] | int,
                taken: tuple[int, ...] | int) -> tuple[int, int, int]:
        """Answerer ``a`` takes ``taken`` of the ``left`` cards of each group the free named
        cards are in: the chances (numerators over the denominator returned first) that they
        show, as packed answers per deal, and that they pass."""
        who = self.counter.answerers[a]
        here = self.fixed_named[self.counter.index[who]]
        options, denominator = self.splits(free, step, left, taken)
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
            total = memo[sid] = counter.ways(step, sid) * self.scale
            return total
        who = counter.answerers[a]
        here = self.fixed_named[counter.index[who]]
        if counter.step_of.get(counter.index[who]) != step:
            # This answerer's hand is already known: they show or pass for certain.
            total = memo[sid] = (counter.ways(step, sid) * self.unit(who, here) if here
                                 else self.first_walk(free, a + 1, step, sid))
            return total
        # Each move's chances depend only on how many cards it takes from the groups the
        # named cards are in.
        pick = counter.taken_from(self.named_at(free, step)[0])
        left = pick(state)
        chances = self.outcomes.get((free, a, left))
        if chances is None:
            chances = self.outcomes[(free, a, left)] = {}
        later_memo = memos[a + 1]
        # After the last answerer passes, nobody shows: the deals count in the first field.
        last = a + 1 == len(counter.answerers)
        scale = self.scale
        total = 0
        for new, weight, taken, rest in counter.fillings(step, sid):
            taken_named = pick(taken)
            chance = chances.get(taken_named)
            if chance is None:
                chance = chances[taken_named] = self.outcome(free, a, step, left,
                                                             taken_named)
            denominator, shows, passes = chance
            # A move's weight counts the ways to pick the cards of the named cards' groups,
            # so it is a multiple of the denominator.
            if shows:
                total += weight * rest // denominator * shows
            if passes and last:
                total += weight * rest // denominator * passes * scale
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
            return {(): counter.ways(step, sid) * self.scale}
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
        pick = counter.taken_from(self.named_at(free, step)[0])
        left = pick(state)
        for new, weight, counts, _ in counter.fillings(step, sid):
            options, denominator = self.splits(free, step, left, pick(counts))
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
