"""Worked solutions a learner follows (issue 30): every step after the facts it rests on, every
proof by cases saying where its cases come from, runs of one rule said once.

The check reads the engine's own steps (their premises, the events they cite) and the record,
not the text the solution prints: a "Separate groups fill the hand" step is re-done from the
facts shown before it and the events it names alone."""

from __future__ import annotations

import itertools

import pytest

from cluedo_lab import Knowledge
from cluedo_lab.knowledge import constraints as cons
from cluedo_lab.knowledge.explain import Fact, explain
from cluedo_lab.lab.puzzle_kinds import generate, levels_of
from cluedo_lab.lab.puzzles import PuzzleError, worked_solution
from cluedo_lab.records import FACE_UP
from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import all_editions

EDITIONS = [e.id for e in all_editions()]
KINDS = ("who-holds", "envelope")


def at_a_glance(fact: Fact, record: Record) -> bool:
    """A fact the bookkeeping line covers: your hand and the face-up cards, and where their
    cards are not."""
    seen = {c.id for c in record.hand} | {c.id for c in record.face_up}
    return fact.place in (record.observer, FACE_UP) or (not fact.holds and fact.card in seen)


def hand_lock_follows(step, shown: set[Fact], record: Record) -> bool:
    """The step's card is outside ``need`` separate groups of the events it cites, each group
    the cards of one "showed one of them" left once the facts shown are taken out."""
    place, card = step.fact.place, step.fact.card
    known = {f for f in shown if f.place == place} | {
        Fact(c.id, place, False) for c in record.edition.cards
        if at_a_glance(Fact(c.id, place, False), record)}
    held = {f.card for f in known if f.holds}
    need = record.hand_size(place) - len(held)
    events = [e for e in record.events if e.position in step.events]
    groups = []
    for con in cons.all_constraints(record, "uniform", events):
        if con.kind == cons.HOLDS_ONE_OF and con.place == place and not held & set(con.cards):
            groups.append(frozenset(c for c in con.cards if Fact(c, place, False) not in known))
    return any(all(not a & b for a, b in itertools.combinations(chosen, 2))
               and not any(card in g for g in chosen)
               for chosen in itertools.combinations(groups, need))


def case_origin_shown(cases: list[Fact], shown: set[Fact], record: Record, line: str) -> bool:
    """The cases are every place the card can be, or every card of one "showed one of them"
    not ruled out, by the facts shown; and the line says which."""
    def out(fact: Fact) -> bool:
        return fact in shown or at_a_glance(fact, record)

    if len({c.card for c in cases}) == 1:
        card = cases[0].card
        others = [p for p in record.places if p not in {c.place for c in cases}]
        return "lies in exactly one place" in line and all(
            out(Fact(card, p, False)) for p in others)
    place, live = cases[0].place, {c.card for c in cases}
    for con in cons.all_constraints(record):
        if con.kind == cons.HOLDS_ONE_OF and con.place == place and live <= set(con.cards) \
                and f"event {con.source}" in line \
                and all(out(Fact(c, place, False)) for c in con.cards if c not in live):
            return True
    return False


def check_solution(puzzle) -> dict[str, int]:
    """Assert the worked solution of ``puzzle`` shows every premise first; count its lines."""
    from cluedo_lab.lab.puzzle_kinds import _you  # loaded by puzzles, which imports it last
    k = Knowledge(Record.from_dict(puzzle.record))
    record = k.record
    why = explain(k, puzzle.answer["card"], puzzle.answer["place"])
    lines = worked_solution(why, k.edition, record.observer, record)
    assert [_you(line.text, record.observer) for line in lines] == puzzle.solution
    common: set[Fact] = set()
    shown = common
    cases = [c for c, _ in why.cases]
    counts = {"hand-lock": 0, "cases": 0, "one-place lines": 0}
    for number, line in enumerate(lines):
        if line.case and line.assumes:          # a case begins: the common facts and it
            if line.case == 1:
                assert case_origin_shown(cases, common, record, lines[number - 1].text)
                counts["cases"] += 1
            shown = set(common)
        shown |= set(line.assumes)
        for step in line.steps:
            for premise in step.premises:
                assert premise in shown or at_a_glance(premise, record), (line.text, premise)
            if step.rule == "hand-lock":
                assert hand_lock_follows(step, shown, record), line.text
                counts["hand-lock"] += 1
        shown |= {s.fact for s in line.steps if s.fact is not None}
        counts["one-place lines"] += any(s.rule == "one-place" for s in line.steps)
    one_place = [i for i, line in enumerate(lines)
                 if line.steps and line.steps[0].rule == "one-place"]
    assert all(b != a + 1 or lines[a].case != lines[b].case
               for a, b in zip(one_place, one_place[1:], strict=False)), "a run not folded"
    return counts


GRID = [(edition, kind, level) for edition in EDITIONS for kind in KINDS
        for level in levels_of(kind, edition)[0]]


@pytest.mark.parametrize("edition, kind, level, seed, shows", [
    ("cluedo-classic-1949", "who-holds", 5, 1, "one-place lines"),  # by contradiction
    ("clue-mansion-2014", "envelope", 5, 0, "one-place lines"),
    ("cluedo-classic-1949", "who-holds", 4, 0, "hand-lock"),
    ("cluedo-the-card-game-2002", "envelope", 5, 0, "cases"),
])
def test_every_step_of_a_worked_solution_follows_from_what_is_shown(edition, kind, level,
                                                                    seed, shows):
    assert check_solution(generate(edition, kind, level, seed))[shows]


@pytest.mark.slow
@pytest.mark.parametrize("edition, kind, level", GRID)
def test_every_generated_solution_shows_its_premises_and_its_cases(edition, kind, level):
    for seed in range(3):
        try:
            puzzle = generate(edition, kind, level, seed)
        except PuzzleError:
            continue
        check_solution(puzzle)


def test_a_run_of_one_place_per_card_is_one_line():
    puzzle = generate("clue-classic-2023", "who-holds", 5, 2)
    lines = [line for line in puzzle.solution if "One place per card" in line]
    assert any(" are in P" in line and "do not hold them" in line or
               "do not hold it" in line for line in lines)
    numbered = [line for line in puzzle.solution if line[:1].isdigit()]
    assert len(lines) <= len(numbered) // 3
