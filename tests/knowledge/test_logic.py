"""The logic export agrees with the engine: sympy's satisfiable, CNF and DIMACS."""

from __future__ import annotations

import sympy

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.knowledge.logic import entailed_by_sympy, to_cnf
from cluedo_lab.records import Record

RECORD = {"deck": {"s": ["a", "b", "c"], "w": ["d", "e", "f"], "r": ["g", "h", "i"]},
          "players": [{"name": "A", "hand_size": 2}, {"name": "B", "hand_size": 2},
                      {"name": "C", "hand_size": 2}],
          "observer": "A", "hand": ["a", "d"],
          "events": [{"suggest": ["b", "e", "g"], "by": "A", "passed": ["B"], "shown_by": "C",
                      "card": "g"},
                     {"suggest": ["c", "d", "h"], "by": "B", "passed": ["C"], "shown_by": "A",
                      "card": "d"},
                     {"accuse": ["b", "e", "h"], "by": "C", "correct": False}]}


def test_sympy_satisfiable_agrees_with_the_engine_on_every_cell():
    record = Record.from_dict(RECORD)
    k = Knowledge(record)
    for card in record.edition.cards:
        for place in record.places:
            for value in (True, False):
                assert entailed_by_sympy(record, card.id, place, value) == (
                    k.status(card.id, place) is value), (card.id, place, value)


def test_models_of_the_naive_cnf_are_the_consistent_deals():
    record = Record.from_dict(RECORD)
    cnf = to_cnf(record, encoding="naive")
    assert cnf.variables == len(cnf.cells)  # no helper variables
    models = list(sympy.satisfiable(cnf.to_sympy(), all_models=True))
    assert len(models) == Knowledge(record).consistent_deals


def test_sequential_counter_encoding_is_equisatisfiable():
    record = Record.from_dict(RECORD)
    naive, counter = to_cnf(record, encoding="naive"), to_cnf(record, encoding="sequential")
    assert counter.variables > len(counter.cells)
    for card, place, value in [("b", "envelope", True), ("h", "envelope", False),
                               ("e", "C", True), ("c", "B", True)]:
        for cnf in (naive, counter):
            formula = sympy.And(cnf.to_sympy(), cnf.literal(card, place, value))
            assert bool(sympy.satisfiable(formula)) == (
                Knowledge(record).status(card, place) is not (not value)), (card, place, value)


def test_dimacs_header_matches_the_clauses():
    text = to_cnf(Record.from_dict(RECORD)).to_dimacs()
    lines = [line for line in text.splitlines() if not line.startswith("c ")]
    header = lines[0].split()
    assert header[:2] == ["p", "cnf"]
    clauses = lines[1:]
    assert int(header[3]) == len(clauses)
    assert all(line.endswith(" 0") for line in clauses)
    biggest = max(abs(int(x)) for line in clauses for x in line.split()[:-1])
    assert biggest <= int(header[2])
    assert "c 1 = a in A" in text


def test_clauses_and_models_read_in_words():
    record = Record.from_dict(RECORD)
    cnf = to_cnf(record, encoding="naive")
    assert cnf.clause_text([cnf.var("g", "C")]) == "C holds g"
    assert cnf.clause_text([-cnf.var("b", "A"), cnf.var("c", "B")]) == (
        "not: A holds b or B holds c")
    deals = [cnf.deal_of(m) for m in sympy.satisfiable(cnf.to_sympy(), all_models=True)]
    assert len(deals) == Knowledge(record).consistent_deals
    for where in deals:
        assert sorted(where) == sorted(c.id for c in record.edition.cards)
        assert where["g"] == "C" and where["a"] == "A"
