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
    integer, and from each state on it depends only on the groups the free named cards are in
    and on how many are known to be in each answerer's hand: every question alike in these
    shares one walk (:meth:`first_walk`), whatever its cards.

    With ``every=True`` (the variant where every player who can shows a card) the walk goes on
    past each shower, with the cards they took no longer free, and an answer is the tuple of
    every ``(player, card)`` (or ``(player,)``) shown, in asking order; ``()`` when nobody can.
    """

    def __init__(self, problem: Problem, answerers: Sequence[str],
                 envelope: str = "envelope", every: bool = False):
        self.answerers = tuple(answerers)
        self.every = every
        self._starts_rows: list[tuple[int, int, int, list[tuple[str, ...]],
                                      list[frozenset[str]], frozenset[int]]] | None = None
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
            self._walkers: dict[tuple[tuple[int, ...], bool, int], _FirstWalk] = {}
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
            found = self._ways[key] = sum([deals for *_, deals in self.fillings(step, sid)])
        return found

    def fillings(self, step: int, sid: int) -> list[tuple[int, int, tuple[int, ...], int]]:
        """The ways to fill the place at ``step`` from state ``sid`` that some deal
        completes, as (next state's number, weight, cards taken from each group, and the
        weight times the ways to complete after it). They do not depend on the question:
        computed once, shared by every question."""
        key = (step, sid)
        found = self._fillings.get(key)
        if found is None:
            found = []
            for new, weight, taken in self.dp.fillings(step, self.states[sid]):
                number = self.state_id(new)
                rest = self.ways(step + 1, number)
                if rest:
                    found.append((number, cast(int, weight), taken, cast(int, weight) * rest))
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
        for fields, cells in self._rows(named, sees_card):
            for answer, field in fields:
                for multiplier, keys, values in cells:
                    if values[field]:
                        row = joint[answer]
                        for key in keys:
                            row[key] = row.get(key, 0) + multiplier * values[field]
        return dict(joint), self._denominator(named)

    def weights(self, named: Sequence[str], sees_card: bool
                ) -> tuple[dict[Answer, list[int]], int]:
        """As :meth:`scaled`, each answer's weights without their envelopes, which is all
        the entropy needs: the weight of every envelope where the answer can be heard, in
        no particular order."""
        rows: dict[Answer, list[int]] = defaultdict(list)
        for fields, cells in self._rows(named, sees_card):
            for answer, field in fields:
                found = [multiplier * values[field] for multiplier, keys, values in cells
                         if values[field] for _ in keys]
                if found:
                    rows[answer] += found
        return dict(rows), self._denominator(named)

    def _denominator(self, named: Sequence[str]) -> int:
        if self.prep is None:
            return 1
        return _scale(len(named), self.every) * self.common * self.unit

    def _rows(self, named: Sequence[str], sees_card: bool
              ) -> list[tuple[list[tuple[Answer, int]],
                              list[tuple[int, list[tuple[str, ...]], Sequence[int]]]]]:
        """The answers' weights in every envelope, in parts: each part lists its answers,
        each with the index of its weight in the values of every cell of the part, and its
        cells, each (what the values are multiplied by, the envelopes with those weights,
        the values)."""
        if self.prep is None:
            return []
        fixed = self.prep.fixed
        loose = [c for c in named if c not in fixed]
        if self.every:
            question = _EveryWalk(self, named, sees_card)
            parts: list[tuple[list[tuple[Answer, int]],
                              list[tuple[int, list[tuple[str, ...]], Sequence[int]]]]] = []
            for multiplier, step, sid, free, keys in self._cells(loose):
                shown = question.every_walk(free, 0, step, sid)
                parts.append((list(zip(shown, itertools.count())),
                              [(multiplier, keys, list(shown.values()))]))
            return parts
        # Under the first-who-can rule the answers depend only on the groups the free named
        # cards are in and on how many are known to be in each answerer's hand: one walk
        # serves every question alike in those (:class:`_FirstWalk`). The envelopes that
        # leave the same named cards free name their answers alike: one part.
        held = tuple(sum(1 for c in named if fixed.get(c) == self.index[who])
                     for who in self.answerers)
        walk = self.first_walk(held, sees_card, len(named))
        by_free: dict[tuple[str, ...], list[tuple[int, list[tuple[str, ...]], Sequence[int]]]]
        by_free = defaultdict(list)
        for multiplier, step, sid, free, keys in self._cells(loose):
            signature = walk.signature(free, step)
            by_free[free].append((multiplier, keys, walk.answers(step, sid, signature)))
        return [(walk.fields(named, free), cells) for free, cells in by_free.items()]

    def _cells(self, loose: list[str]
               ) -> Iterator[tuple[int, int, int, tuple[str, ...], list[tuple[str, ...]]]]:
        """Per envelope choice and set of the ``loose`` named cards left free by its
        envelopes: what its answers are multiplied by, the step and state after it, the free
        cards and the envelopes that leave them free."""
        classes = {self.class_of[c] for c in loose}
        everyone = tuple(loose)
        for multiplier, step, sid, keys, insides, chosen in self._start_rows():
            if classes.isdisjoint(chosen):
                yield multiplier, step, sid, everyone, keys
                continue
            alike: dict[tuple[str, ...], list[tuple[str, ...]]] = defaultdict(list)
            for key, inside in zip(keys, insides, strict=True):
                alike[tuple([c for c in loose if c not in inside])].append(key)
            for free, group in alike.items():
                yield multiplier, step, sid, free, group

    def _start_rows(self) -> list[tuple[int, int, int, list[tuple[str, ...]],
                                        list[frozenset[str]], frozenset[int]]]:
        """Per state after the envelope (with the weight it stands for): what its answers
        are multiplied by, the step and state, its envelopes, their cards as sets and the
        classes they come from (the same for every question). Envelope choices that reach
        one state with one weight per envelope have the same answers: one row."""
        if self._starts_rows is None:
            assert self.prep is not None   # questions are asked only of a problem with deals
            constant = self.prep.constant
            merged: dict[tuple[int, int, int], list[tuple[str, ...]]] = defaultdict(list)
            for weight, step, new, keys in self.starts:
                multiplier = cast(int, weight * constant) * (self.common // len(keys))
                merged[(multiplier, step, new)] += keys
            self._starts_rows = [
                (multiplier, step, new, keys, [frozenset(key) for key in keys],
                 frozenset(self.class_of[c] for key in keys for c in key
                           if c in self.class_of))
                for (multiplier, step, new), keys in merged.items()]
        return self._starts_rows

    def first_walk(self, held: tuple[int, ...], sees_card: bool, named: int) -> _FirstWalk:
        """The first-who-can walk shared by the questions of ``named`` cards with ``held``
        of them known in each answerer's hand."""
        key = (held, sees_card, named)
        found = self._walkers.get(key)
        if found is None:
            found = self._walkers[key] = _FirstWalk(self, held, sees_card, named)
        return found


class _FirstWalk:
    """The first-who-can answers from each state on, shared by every question with the
    same number of named cards, as many known in each answerer's hand, and the same view
    (whether the asker sees the card shown).

    Why questions share it: from answerer ``a`` on, the walk depends on the named cards
    still free only through the groups of ``a``'s step they are in (the members of a group
    are interchangeable for everything still to come), so it is keyed by that *signature*,
    the sorted groups of the free named cards. For the same reason every free named card
    of one group is shown by a later answerer with the same weight: the answers are packed
    per answerer as one field per group of the signature at that answerer's step (its
    *slot*), one for the cards known in their hand and one for nobody, and a question
    renames the slots back to its own cards (:meth:`fields`). A later answerer's slots
    depend only on the signature at ``a``, so the answers of every walk that reaches a
    state can be added up as they are.

    Weights are whole numbers times ``scale`` (the lcm of 1..named), so that splitting a
    shown card's weight among the k cards held stays exact."""

    def __init__(self, counter: AnswerCounter, held: tuple[int, ...], sees_card: bool,
                 named: int):
        # The counter keeps its walks: a weak reference back leaves no cycle, so reference
        # counting frees both when the advisor goes.
        self._counter = weakref.ref(counter)
        self.held = held
        self.sees_card = sees_card
        self.scale = _scale(named, False)
        # Per answerer: a field per slot (at most one per named card) and one for their
        # known cards when the asker sees the card, else one field; field 0 is nobody.
        self.block = named + 1 if sees_card else 1
        self.known = named
        self.width = (self.scale * counter.ways(0, counter.state_id(counter.dp.start))
                      ).bit_length() + 1
        self.mask = (1 << self.width) - 1
        self.fields_count = 1 + len(counter.answerers) * self.block
        self.nodes: dict[tuple[int, tuple[int, ...]], _Node] = {}
        self._chances: dict[tuple[int, tuple[int, ...]],
                            dict[Any, dict[Any, tuple[int, int, int]]]] = {}
        self.unpacked: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
        self._signatures: dict[tuple[tuple[str, ...], int], tuple[int, ...]] = {}
        self._regrouped: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}
        self._slots: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    @property
    def counter(self) -> AnswerCounter:
        counter = self._counter()
        assert counter is not None, "a walk is used only while its counter lives"
        return counter

    def field(self, a: int, slot: int) -> int:
        """The field of answerer ``a`` showing a card of ``slot`` (``self.known`` for a
        card known in their hand; 0 when the asker does not see the card)."""
        return 1 + a * self.block + (slot if self.sees_card else 0)

    def signature(self, free: tuple[str, ...], step: int) -> tuple[int, ...]:
        """The groups of ``step`` the ``free`` named cards are in, sorted."""
        key = (free, step)
        found = self._signatures.get(key)
        if found is None:
            counter = self.counter
            group_of = counter.dp.group_of[step]
            found = self._signatures[key] = tuple(sorted(group_of[counter.class_of[c]]
                                                         for c in free))
        return found

    def regrouped(self, step: int, signature: tuple[int, ...]) -> tuple[int, ...]:
        """The signature at the next step of one at ``step``."""
        key = (step, signature)
        found = self._regrouped.get(key)
        if found is None:
            following = self.counter.dp.next_group[step]
            found = self._regrouped[key] = tuple(sorted(following[g] for g in signature))
        return found

    def slots(self, signature: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The distinct groups of a signature and how many named cards are in each."""
        found = self._slots.get(signature)
        if found is None:
            groups = tuple(sorted(set(signature)))
            found = self._slots[signature] = (groups, tuple(signature.count(g)
                                                            for g in groups))
        return found

    def fields(self, named: Sequence[str], free: tuple[str, ...]) -> list[tuple[Answer, int]]:
        """Each answer of the question of ``named`` cards whose ``free`` ones are free after
        the envelope, with its field in the packed answers."""
        counter = self.counter
        fixed = counter.prep.fixed if counter.prep is not None else {}
        out: list[tuple[Answer, int]] = [(None, 0)]
        for a, who in enumerate(counter.answerers):
            place = counter.index[who]
            step = counter.step_of.get(place)
            if not self.sees_card:
                out.append(((who,), self.field(a, 0)))
                continue
            groups = self.slots(self.signature(free, step))[0] if step is not None else ()
            for card in named:
                if fixed.get(card) == place:
                    out.append(((who, card), self.field(a, self.known)))
                elif card in free and step is not None:
                    group = counter.dp.group_of[step][counter.class_of[card]]
                    out.append(((who, card), self.field(a, groups.index(group))))
        return out

    def answers(self, step: int, sid: int, signature: tuple[int, ...]) -> list[int]:
        """Every field of the answers from state ``sid`` at ``step`` (after the envelope),
        unpacked once for every question that reaches it."""
        key = (step, sid, signature)
        found = self.unpacked.get(key)
        if found is None:
            packed = self.walk(0, step, sid, signature)
            mask, width = self.mask, self.width
            found = self.unpacked[key] = [(packed >> (i * width)) & mask
                                          for i in range(self.fields_count)]
        return found

    def outcome(self, a: int, signature: tuple[int, ...], left: tuple[int, ...] | int,
                taken: tuple[int, ...] | int) -> tuple[int, int, int]:
        """Answerer ``a`` takes ``taken`` of the ``left`` cards of each group the free named
        cards are in: the chances (numerators over the denominator returned first) that they
        show, as packed answers per deal, and that they pass. Of the m named cards of a group
        a hand taking t of its r cards takes j given ones in C(m, j) C(r - m, t - j) of the
        C(r, t) ways; one given card among them in C(m - 1, j - 1) C(r - m, t - j)."""
        if isinstance(left, int):
            left, taken = (left,), (cast(int, taken),)
        assert isinstance(taken, tuple)
        comb = math.comb
        counts = self.slots(signature)[1]
        known = self.held[a]
        scale = self.scale
        shift = self.width
        denominator = math.prod(comb(r, t) for r, t in zip(left, taken, strict=True))
        shows = passes = 0
        for js in itertools.product(*(range(min(m, t) + 1)
                                      for m, t in zip(counts, taken, strict=True))):
            others = math.prod(comb(r - m, t - j)
                               for r, m, t, j in zip(left, counts, taken, js, strict=True))
            if not others:
                continue
            shown = known + sum(js)
            if not shown:
                passes += others
                continue
            picks = [comb(m, j) for m, j in zip(counts, js, strict=True)]
            if not self.sees_card:
                shows += others * math.prod(picks) * scale << (self.field(a, 0) * shift)
                continue
            share = scale // shown
            for slot, (m, j) in enumerate(zip(counts, js, strict=True)):
                if j:
                    ways = comb(m - 1, j - 1) * math.prod(picks[:slot] + picks[slot + 1:])
                    shows += others * ways * share << (self.field(a, slot) * shift)
            if known:
                shows += others * math.prod(picks) * share << (self.field(a, self.known)
                                                                * shift)
        return denominator, shows, passes

    def node(self, a: int, step: int, signature: tuple[int, ...]) -> _Node:
        """What the walk needs at answerer ``a`` (at ``step``) for free named cards in the
        groups ``signature``, the same from every state."""
        key = (a, signature)
        found = self.nodes.get(key)
        if found is None:
            counter = self.counter
            answerers = counter.answerers
            if a == len(answerers):
                found = _Node(a, step, signature, counter.taken_from(()), None, False, False)
            else:
                known_hand = counter.step_of.get(counter.index[answerers[a]]) != step
                later = (self.node(a + 1, step, signature) if known_hand else
                         self.node(a + 1, step + 1, self.regrouped(step, signature)))
                groups, counts = self.slots(signature)
                found = _Node(a, step, signature, counter.taken_from(groups), later, known_hand,
                              a + 1 == len(answerers))
                # A take's chances depend on the signature only through how many named
                # cards are in each of its groups: the signatures alike in that share them.
                found.chances = self._chances.setdefault((a, counts), {})
            self.nodes[key] = found
        return found

    def walk(self, a: int, step: int, sid: int, signature: tuple[int, ...]) -> int:
        """Answers from answerer ``a`` on, packed, where everyone before ``a`` passed, from
        state number ``sid`` with the free named cards in the groups ``signature``."""
        return self._at(self.node(a, step, signature), sid)

    def _at(self, node: _Node, sid: int) -> int:
        """:meth:`walk` at ``node``: from its memo, or worked out once."""
        found = node.memo.get(sid)
        return self._value(node, sid) if found is None else found

    def _value(self, node: _Node, sid: int) -> int:
        """:meth:`walk` from a state not yet in the node's memo."""
        counter = self.counter
        step = node.step
        later = node.later
        if later is None:
            total = node.memo[sid] = counter.ways(step, sid) * self.scale
            return total
        if node.known_hand:
            total = node.memo[sid] = self._known_hand(node, later, sid)
            return total
        # Each move's chances depend only on how many cards it takes from the groups the
        # named cards are in (its *take*), and come as whole numbers over a denominator
        # that divides the move's weight (which counts the ways to pick those cards).
        pick = node.pick
        left = pick(counter.states[sid])
        chances = node.chances.get(left)
        if chances is None:
            chances = node.chances[left] = {}
        later_memo = later.memo
        total = 0
        for new, weight, taken, deals in counter.fillings(step, sid):
            took = pick(taken)
            chance = chances.get(took)
            if chance is None:
                chance = chances[took] = self.chance(node, left, took)
            denominator, shows, passes = chance
            if shows:
                total += deals // denominator * shows
            if passes:
                after = later_memo.get(new)
                if after is None:
                    after = self._value(later, new)
                total += weight // denominator * passes * after
        node.memo[sid] = total
        return total

    def _known_hand(self, node: _Node, later: _Node, sid: int) -> int:
        """:meth:`walk` at an answerer whose hand is already known: they show or pass for
        certain (passing, the walk goes on at ``later``, the node's next)."""
        counter = self.counter
        a, step = node.a, node.step
        known = self.held[a]
        if not known:
            return self._at(later, sid)
        if self.sees_card:
            return (counter.ways(step, sid) * (self.scale // known)
                    << (self.field(a, self.known) * self.width))
        return counter.ways(step, sid) * self.scale << (self.field(a, 0) * self.width)

    def chance(self, node: _Node, left: tuple[int, ...] | int, took: tuple[int, ...] | int
               ) -> tuple[int, int, int]:
        """:meth:`outcome` at ``node``. When the last answerer passes nobody shows (the
        first field, so the deals times ``scale``): added to what they show, nothing is
        left to walk."""
        denominator, shows, passes = self.outcome(node.a, node.signature, left, took)
        if node.last:
            return denominator, shows + passes * self.scale, 0
        return denominator, shows, passes


class _Node:
    """A :class:`_FirstWalk` at one answerer ``a`` (at ``step``) for one ``signature``: its
    answers by state number, the signature's distinct groups and the getter of the cards a
    move takes from them, the node after this answerer passes (None after the last), whether
    this answerer's hand is already known, whether they are the last asked, and the chances
    of each take by the cards left in those groups."""

    __slots__ = ("a", "step", "signature", "memo", "pick", "later", "known_hand", "last",
                 "chances")

    def __init__(self, a: int, step: int, signature: tuple[int, ...],
                 pick: Callable[[tuple[int, ...]], Any], later: _Node | None, known_hand: bool,
                 last: bool):
        self.a = a
        self.step = step
        self.signature = signature
        self.memo: dict[int, int] = {}
        self.pick = pick
        self.later = later
        self.known_hand = known_hand
        self.last = last
        self.chances: dict[Any, dict[Any, tuple[int, int, int]]] = {}


class _EveryWalk:
    """One question's walk over an :class:`AnswerCounter`'s fillings where every player who
    can shows a card: the answers from each state on, memoised, given which named cards are
    still free (not yet in a hand or the envelope); they change as showers take them.
    Weights are whole numbers times ``scale`` (named!), so that splitting a shown card's
    weight among the k cards held stays exact."""

    def __init__(self, counter: AnswerCounter, named: Sequence[str], sees_card: bool):
        prep = counter.prep
        assert prep is not None   # questions are asked only of a problem with deals
        self._counter = weakref.ref(counter)
        self.sees_card = sees_card
        self.fixed_named: dict[int, list[str]] = defaultdict(list)
        for card in named:
            if card in prep.fixed:
                self.fixed_named[prep.fixed[card]].append(card)
        self.scale = _scale(len(named), True)
        self.memo: dict[tuple[str, ...], list[dict[int, Any]]] = {}
        self.split_memo: dict[tuple[Any, ...], tuple[list[tuple[list[str], int]], int]] = {}
        self._named_at: dict[tuple[tuple[str, ...], int],
                             tuple[tuple[int, ...], tuple[list[str], ...]]] = {}

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

    def memos(self, free: tuple[str, ...]) -> list[dict[int, Any]]:
        """One memo per answerer (and one for after the last), for these free cards."""
        found = self.memo.get(free)
        if found is None:
            found = self.memo[free] = [{} for _ in range(len(self.counter.answerers) + 1)]
        return found

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
