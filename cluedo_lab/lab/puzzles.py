"""A puzzle book: graded Clue puzzles made from seeded bot games, each answer checked by the
engine.

A puzzle is a short record (one player's view of a real, seeded bot game, cut down to the
events a proof needs plus a few distractors) and one question about it. Seven kinds:

``who-holds``      where is this card? (a fact known in every consistent deal)
``envelope``       which card of this kind is in the envelope?
``key-event``      which single event proves this fact?
``chance``         what is the chance that ...? (an exact fraction)
``best-question``  which of these questions would you ask? (expected information gain)
``contradiction``  which events cannot all be true?
``reach``          which rooms can you enter with this roll? (board games)

The answer is always computed and its uniqueness checked by the engine, never assumed. The
difficulty (1-5) is graded from measured features of the proof — steps, rules, events needed,
hand-size counting, case analysis — by :func:`grade`, whose thresholds were set from the feature
distributions ``benchmarks/puzzles.py`` prints, so the levels really differ. The generators live
in :mod:`.puzzle_kinds`; this module holds the puzzle, its grading and its worked solution.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..rules.errors import CluedoLabError
from .exercises import Exercise
from .proofs import (
    ProofLine,
    fact_features,
    solution_lines,
    worked_solution,
)

__all__ = ["KINDS", "Puzzle", "PuzzleError", "grade", "fact_features", "solution_lines",
           "worked_solution", "ProofLine", "BEST_MARGIN", "bits"]

KINDS = ("who-holds", "envelope", "key-event", "chance", "best-question", "contradiction",
         "reach")
LEVELS = (1, 2, 3, 4, 5)

CHANCE_DENOMINATOR = {3: 12, 4: 100, 5: 1000}
"""The largest denominator of a level-3, 4 and 5 chance (past the shortcuts). Past 1,000 a
learner cannot check the last division of the Bayes table by hand: the generator refuses
the candidate."""


BEST_MARGIN = (0.5, 0.3, 0.2, 0.1, 0.05)
"""The least margin, in bits to two decimals as the solution prints them, between the best
question offered and the runner-up at levels 1-5. The learner checks it with the kit's
formula (bits now minus the bits each answer leaves, weighted by its chance) worked to two
decimals; a smaller margin rests on a third decimal, and the generator refuses it."""


def bits(value: float) -> str:
    """Bits to two decimals, as a learner works them (never "-0.00")."""
    return f"{round(value, 2) + 0.0:.2f}"


class PuzzleError(CluedoLabError, ValueError):
    """No puzzle of that kind and level could be made (say which, and what to try)."""


@dataclass
class Puzzle:
    """One puzzle: the record the learner reads, the question, the engine's answer, the worked
    solution and the measured features that set its level."""

    kind: str
    level: int
    edition: str
    seed: int
    question: str
    record: dict[str, Any]
    answer: dict[str, Any]
    solution: list[str]
    features: dict[str, Any]
    exercise: Exercise
    setup: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``cluedo-lab puzzle --json``): ``record`` is ready for ``solve``."""
        return {
            "kind": self.kind, "level": self.level, "edition": self.edition,
            "seed": self.seed, "question": self.question, "setup": self.setup,
            "events": self.events, "record": self.record, "answer": _jsonable(self.answer),
            "options": list(self.exercise.options), "hints": list(self.exercise.hints),
            "solution": self.solution, "features": _jsonable(self.features),
            **({"board": self.board} if self.board else {}),
        }

    def command(self) -> str:
        """The command that makes this puzzle again."""
        return (f"cluedo-lab puzzle --edition {self.edition} --kind {self.kind} "
                f"--level {self.level} --seed {self.seed}")

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def text(self, answer: bool = False) -> str:
        """The puzzle as plain text (``cluedo-lab puzzle``); with ``answer``, the solution."""
        lines = [f"Puzzle ({self.kind}, level {self.level}) — {self.edition}, seed {self.seed}",
                 *self.setup]
        if self.events:
            lines.append("What happened:")
            lines += [f"  {e}" for e in self.events]
        if self.board and self.board.get("squares"):
            lines.append("The board (rows top to bottom):")
            lines += [f"  {row}" for row in self.board["squares"]]
        lines += ["", self.question]
        if self.exercise.options and self.exercise.form != "number":
            lines.append("Options: " + "; ".join(self.exercise.options))
        if answer:
            lines += ["", f"Answer: {self.exercise.answer_text}", *self.solution]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        return [_jsonable(v) for v in value]
    return value


def grade(kind: str, features: Mapping[str, Any]) -> int:
    """The level (1-5) of a puzzle from its measured features.

    Deduction kinds: 1 is one or two steps from one event; 2 a short chain; 3 a longer chain or
    several events; 4 needs hand-size counting or a proof by contradiction; 5 needs case
    analysis, or counting together with contradiction, or a long counted chain. The other kinds
    grade what makes them hard: how far a chance is from the shortcuts, how close the best
    question's runner-up among the options is, how many rooms and blocking pieces a roll
    involves.
    """
    if kind == "chance":
        if features["events"] == 0 and features["naive_right"]:
            return 1
        if features["naive_right"] or features["weighted_right"] or \
                features.get("envelope_right"):
            return 2
        if features["denominator"] <= CHANCE_DENOMINATOR[3]:
            return 3
        return 4 if features["denominator"] <= CHANCE_DENOMINATOR[4] else 5
    if kind == "best-question":
        margin = features["margin_bits"]
        return next((lv for lv, least in enumerate(BEST_MARGIN, start=1) if margin >= least), 5)
    if kind == "reach":
        score = features["rooms"] + 2 * features["blocked_matters"] + features["near_misses"]
        return 1 if score <= 1 else 2 if score <= 3 else 3 if score <= 5 else \
            4 if score == 6 else 5
    steps, counting = features["steps"], features["counting"]
    if features["method"] == "cases" or (counting and features["method"] == "contradiction") \
            or (counting and steps >= 20):
        return 5
    if counting or features["method"] == "contradiction":
        return 4
    if steps >= 6 or features["events"] >= 3:
        return 3
    if steps >= 3 or features["events"] == 2:
        return 2
    return 1
