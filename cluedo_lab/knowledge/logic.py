"""The record as propositional logic, for teaching: sympy formulas, CNF and DIMACS.

One Boolean variable per cell, ``x[card, place]``: "the card is in the place". The rules of the
deal and every observation become clauses over them, so a learner can hand the problem to
sympy's ``satisfiable`` or to any SAT solver (DIMACS is their common text format) and check
that a fact is entailed: the record plus the fact's negation must be unsatisfiable.

"Exactly k of these cells are true" (hand sizes) is written either naively (forbid every k+1
of them together, require one of every n-k+1) — readable, but it grows fast — or with a
*sequential counter* (Sinz, 2005), which adds helper variables and stays small.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy

from ..records import Event, Record
from . import constraints as cons


@dataclass
class CNF:
    """Clauses as lists of non-zero ints (DIMACS style); variable i is ``cells[i - 1]`` for
    i up to ``len(cells)``, higher numbers are helper variables."""

    cells: list[tuple[str, str]]
    clauses: list[list[int]] = field(default_factory=list)
    variables: int = 0
    comments: list[str] = field(default_factory=list)

    def var(self, card: str, place: str) -> int:
        return self.cells.index((card, place)) + 1

    def fresh(self) -> int:
        self.variables += 1
        return self.variables

    def literal_text(self, literal: int) -> str:
        """A literal in words: "Bob holds rope", "not: envelope holds hall", "aux 40"."""
        index = abs(literal)
        if index > len(self.cells):
            text = f"aux {index}"
        else:
            card, place = self.cells[index - 1]
            text = f"{place} holds {card}"
        return text if literal > 0 else f"not: {text}"

    def clause_text(self, clause: Sequence[int]) -> str:
        """A clause in words, its literals joined by "or"."""
        return " or ".join(self.literal_text(lit) for lit in clause)

    def deal_of(self, model: dict[Any, bool]) -> dict[str, str]:
        """Where each card lies in a model from sympy's ``satisfiable`` (card id → place)."""
        truth = {str(symbol): value for symbol, value in model.items()}
        names = [str(s) for s in self.symbols()]
        return {card: place for (card, place), name in zip(self.cells, names, strict=False)
                if truth.get(name)}

    def to_dimacs(self) -> str:
        lines = [f"c {c}" for c in self.comments]
        lines += [f"c {i} = {card} in {place}" for i, (card, place) in
                  enumerate(self.cells, start=1)]
        lines.append(f"p cnf {self.variables} {len(self.clauses)}")
        lines += [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(lines) + "\n"

    def symbols(self) -> list[sympy.Symbol]:
        names = [f"{_safe(card)}__{_safe(place)}" for card, place in self.cells]
        names += [f"aux{i}" for i in range(len(self.cells) + 1, self.variables + 1)]
        return [sympy.Symbol(n) for n in names]

    def to_sympy(self) -> sympy.Basic:
        """The CNF as a sympy ``And`` of ``Or``s."""
        syms = self.symbols()

        def literal(i: int) -> sympy.Basic:
            return syms[abs(i) - 1] if i > 0 else sympy.Not(syms[abs(i) - 1])

        return sympy.And(*(sympy.Or(*(literal(i) for i in clause)) for clause in self.clauses))

    def literal(self, card: str, place: str, holds: bool = True) -> sympy.Basic:
        symbol = self.symbols()[self.var(card, place) - 1]
        return symbol if holds else sympy.Not(symbol)


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name)


def to_cnf(record: Record, events: Iterable[Event] | None = None, encoding: str = "auto") -> CNF:
    """The deal's rules and the record's observations as CNF."""
    edition = record.edition
    places = cons.places(record)
    cells = [(c.id, p.name) for c in edition.cards for p in places]
    cnf = CNF(cells, variables=len(cells),
              comments=[f"cluedo-lab: {edition.name}, {len(record.events)} events",
                        f"players: {', '.join(record.player_names)}"])
    x = cnf.var
    for card in edition.cards:
        _exactly(cnf, [x(card.id, p.name) for p in places], 1, encoding)
    for place in places:
        if place.per_category:
            for category, count in place.per_category.items():
                lits = [x(c.id, place.name) for c in edition.category(category).cards]
                _exactly(cnf, lits, count, encoding)
        else:
            _exactly(cnf, [x(c.id, place.name) for c in edition.cards], place.size, encoding)
    for con in cons.all_constraints(record, "uniform", events):
        if con.kind == cons.HOLDS:
            cnf.clauses.append([x(con.card, con.place)])
        elif con.kind == cons.LACKS:
            cnf.clauses.append([-x(con.card, con.place)])
        elif con.kind == cons.HOLDS_ONE_OF:
            cnf.clauses.append([x(c, con.place) for c in con.cards])
        elif con.kind == cons.NOT_ALL:
            cnf.clauses.append([-x(c, con.place) for c in con.cards])
    return cnf


def _exactly(cnf: CNF, lits: Sequence[int], k: int, encoding: str) -> None:
    n = len(lits)
    naive_size = math.comb(n, k + 1) + math.comb(n, n - k + 1) if k < n else 1
    if encoding == "naive" or (encoding == "auto" and naive_size <= 200):
        if k < n:
            cnf.clauses += [[-v for v in group] for group in itertools.combinations(lits, k + 1)]
        if k > 0:
            cnf.clauses += [list(group) for group in itertools.combinations(lits, n - k + 1)]
        return
    _at_most(cnf, lits, k)
    _at_most(cnf, [-v for v in lits], n - k)  # at least k true = at most n-k false


def _at_most(cnf: CNF, lits: Sequence[int], k: int) -> None:
    """Sinz's sequential counter: s[i][j] means "at least j+1 of the first i+1 are true"."""
    n = len(lits)
    if k >= n:
        return
    if k == 0:
        cnf.clauses += [[-v] for v in lits]
        return
    s = [[cnf.fresh() for _ in range(k)] for _ in range(n - 1)]
    cnf.clauses.append([-lits[0], s[0][0]])
    cnf.clauses += [[-s[0][j]] for j in range(1, k)]
    for i in range(1, n - 1):
        cnf.clauses.append([-lits[i], s[i][0]])
        cnf.clauses.append([-s[i - 1][0], s[i][0]])
        for j in range(1, k):
            cnf.clauses.append([-lits[i], -s[i - 1][j - 1], s[i][j]])
            cnf.clauses.append([-s[i - 1][j], s[i][j]])
        cnf.clauses.append([-lits[i], -s[i - 1][k - 1]])
    cnf.clauses.append([-lits[n - 1], -s[n - 2][k - 1]])


def entailed_by_sympy(record: Record, card: str, place: str, holds: bool = True) -> bool:
    """Is the fact entailed? Ask sympy whether the record plus its negation is satisfiable."""
    cnf = to_cnf(record)
    card_id = record.edition.card(card).id
    formula = sympy.And(cnf.to_sympy(), cnf.literal(card_id, place, not holds))
    return sympy.satisfiable(formula) is False
