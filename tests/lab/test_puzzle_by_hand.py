"""Chance and best-question puzzles a learner works on paper (issue 30): the by-hand method
before the exact count, denominators a learner divides, best questions decided by a margin
seen to two decimals. Checked against brute force on the small deck and the engine's own
gains elsewhere."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from oracle import brute_force

from cluedo_lab import Knowledge
from cluedo_lab.knowledge.advice import information_gain
from cluedo_lab.lab.puzzle_kinds import generate, levels_of
from cluedo_lab.lab.puzzles import BEST_MARGIN, CHANCE_DENOMINATOR
from cluedo_lab.records import ENVELOPE
from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import all_editions

SMALL = "cluedo-card-game-2018"     # 12 cards: every deal can be listed
EDITIONS = [e.id for e in all_editions()]


def place_of(text: str) -> str:
    return ENVELOPE if text == "the envelope" else text


def by_hand_chances(puzzle) -> dict[str, Fraction]:
    """The chance of each place the by-hand line gives (a Bayes table gives every place)."""
    line = puzzle.solution[0]
    place = puzzle.answer["place"]
    if line.startswith("By symmetry") or line.startswith("By free room"):
        said = re.search(r"(\d+)/(\d+)\.$", line)
        assert said, line
        return {place: Fraction(int(said[1]), int(said[2]))}
    table = re.search(r"proportions: (.*) \(out of (\d+)\)\.$", line)
    assert line.startswith("No symmetry here") and table, line
    total = int(table[2])
    weights = dict(part.rsplit(" ", 1) for part in table[1].split(", "))
    assert sum(map(int, weights.values())) == total
    return {place_of(p): Fraction(int(w), total) for p, w in weights.items()}


@pytest.mark.parametrize("level, seed", [(lv, s) for lv in (2, 3, 4, 5) for s in (0, 1)])
def test_a_chance_s_by_hand_method_is_the_brute_force_answer(level, seed):
    puzzle = generate(SMALL, "chance", level, seed)
    truth = brute_force(puzzle.record)
    for place, chance in by_hand_chances(puzzle).items():
        assert truth.probability(puzzle.answer["card"], place) == chance
    exact = next(i for i, line in enumerate(puzzle.solution) if "exact count" in line)
    assert exact > 0      # the method on paper comes first
    assert puzzle.answer["probability"] == truth.probability(puzzle.answer["card"],
                                                             puzzle.answer["place"])


@pytest.mark.parametrize("edition", [e for e in EDITIONS
                                     if 5 in levels_of("chance", e)[0]])
def test_a_hard_chance_keeps_a_denominator_a_learner_divides(edition):
    puzzle = generate(edition, "chance", 5, 0)
    p = puzzle.answer["probability"]
    assert CHANCE_DENOMINATOR[4] < p.denominator <= CHANCE_DENOMINATOR[5]
    k = Knowledge(Record.from_dict(puzzle.record))
    for place, chance in by_hand_chances(puzzle).items():
        assert k.probability(puzzle.answer["card"], place) == chance


def check_best_question(puzzle) -> float:
    """The worked solution's arithmetic adds up to two decimals, the engine agrees with
    every number, and the best wins by a margin seen to two decimals; the margin."""
    text = "\n".join(puzzle.solution)
    assert "-0.0" not in text
    for a, b, c in re.findall(r"worth (\d+\.\d\d) - (\d+\.\d\d) = (\d+\.\d\d) bits", text):
        assert round(float(a) - float(b), 2) == float(c)
    every = re.search(r"Every option, worked the same way: (.*)\.$", text, re.M)
    assert every
    worth = {label: float(v) for label, v in
             re.findall(r"([^;]+?) (\d+\.\d\d) bits", every[1])}
    worth = {label.strip(): v for label, v in worth.items()}
    assert set(worth) == set(puzzle.exercise.options)
    ranked = sorted(worth.values(), reverse=True)
    margin = round(ranked[0] - ranked[1], 2)
    assert worth[puzzle.exercise.answer] == ranked[0] and margin >= BEST_MARGIN[-1]
    assert f"by {margin:.2f} bits" in text
    k = Knowledge(Record.from_dict(puzzle.record))
    names = {c.name: c.id for c in k.edition.cards}
    now = None
    for label, value in worth.items():
        option = information_gain(k, [names[n] for n in label.split(" + ")])
        now = option.gain + option.expected_entropy
        assert round(round(now, 2) - round(option.expected_entropy, 2), 2) == value
    assert f"now ({now:.2f})" in text
    return margin


@pytest.mark.parametrize("edition, level", [("cluedo-classic-1949", 1),
                                            ("cluedo-classic-1949", 5), (SMALL, 5)])
def test_a_best_question_is_decided_by_a_margin_a_learner_sees(edition, level):
    margin = check_best_question(generate(edition, "best-question", level, 0))
    assert (margin >= BEST_MARGIN[0]) == (level == 1)
    assert (margin < BEST_MARGIN[3]) == (level == 5)


@pytest.mark.slow
@pytest.mark.parametrize("edition, level", [(e, lv) for e in EDITIONS for lv in (4, 5)])
def test_every_hard_best_question_is_decided_by_a_margin_a_learner_sees(edition, level):
    check_best_question(generate(edition, "best-question", level, 0))
