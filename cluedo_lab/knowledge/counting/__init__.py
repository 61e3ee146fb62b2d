"""Exact counting of the deals consistent with a record's constraints.

**The problem** (:mod:`.problem`): every card lies in exactly one *place* (a hand, the
envelope, a pile); each place holds a fixed number of cards (the envelope a fixed number per
category); a card may be barred from some places; and *factors* weigh each deal by how many of
a set of cards lie in one place (``holds_one_of`` weighs 0 for none and 1 otherwise,
``not_all`` 0 for all of them, the refuter-choice model 1/k). The answer is the total weight
of the deals, the weight of those with each card in each place, and the weight of each
envelope.

**The reduction** (:mod:`.prepared`): cards with one place left are fixed; cards that share a
category, the allowed places and the factors are interchangeable, so they form a *class*, and
only how many of each class go to a place matters (binomials count which ones). Every factor
concerns one place, so a counter that fills the places one at a time evaluates each factor at
once.

**The counters** all implement one interface, :class:`~.counter.Counter` (the count, each
class's weight in each place, each envelope mix's weight): the deal lister (:mod:`.listing`),
the sweep DP (:mod:`.sweep_dp`: fill the places one at a time, state = cards left per group of
classes no later place tells apart) and the capacity DP (:mod:`.capacity_dp`: place the
classes one at a time, state = room left per place and the observations still open), on the
memoised chain of steps of :mod:`.step_dp`. :func:`~.routes.solve` chooses among them (three
routes, each with its reason and figure) and gives a :class:`~.routes.Solution`. The envelope
distribution is read from the counter that counted the table, on first use: no count again per
envelope.

**The answers to a question** (:mod:`.answers`) walk the sweep DP with the envelope first and
then the answerers' hands in the order they are asked, following the named cards by their
chances: the joint weight of each answer and each envelope, for the question ranking.

Four cards of two categories, one each in Ann's and Bob's hands, one of each category in the
envelope; Ann is known to hold ``a``:

>>> from cluedo_lab.knowledge.counting import Place, Problem, solve
>>> cards = {"a": "s", "b": "s", "c": "w", "d": "w"}
>>> places = (Place("Ann", 1), Place("Bob", 1), Place("envelope", 2, {"s": 1, "w": 1}))
>>> anywhere = frozenset(p.name for p in places)
>>> solution = solve(Problem(cards, places, {**dict.fromkeys(cards, anywhere),
...                                          "a": frozenset({"Ann"})}))
>>> solution.total, solution.probability("c", "envelope")
(2, Fraction(1, 2))
>>> solution.envelope_weights()
{('b', 'c'): 1, ('b', 'd'): 1}
"""

from .counter import Counter
from .problem import Factor, Place, Problem, Weight
from .routes import ENGINES, MAX_STATES, Solution, solve

__all__ = ["ENGINES", "MAX_STATES", "Counter", "Factor", "Place", "Problem", "Solution",
           "Weight", "solve"]
