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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..knowledge.explain import Explanation
from ..records import FACE_UP
from ..rules.edition import Edition
from ..rules.errors import CluedoLabError
from .exercises import Exercise

__all__ = ["KINDS", "Puzzle", "PuzzleError", "grade", "fact_features", "solution_lines"]

KINDS = ("who-holds", "envelope", "key-event", "chance", "best-question", "contradiction",
         "reach")
LEVELS = (1, 2, 3, 4, 5)

COUNTING_RULES = frozenset({"full-hand", "needs-all", "hand-lock"})
"""Rules that count the cards of a hand: the learner must use hand sizes, not just events."""

CHANCE_DENOMINATOR = {3: 12, 4: 200}
"""The largest denominator of a level-3 and a level-4 chance (past the shortcuts)."""


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


# -- measuring a proof ---------------------------------------------------------------------------

def fact_features(explanation: Explanation, observer: str | None = None,
                  glance: tuple[str, ...] = (FACE_UP,)) -> dict[str, Any]:
    """What a proof takes: its steps (every case's counted), the named rules, the events it
    rests on, and whether it counts hand sizes or argues by contradiction or cases.

    Reading your own hand or the face-up cards is not a step, and your own full hand or the
    full face-up row is not counting (``glance``: the places besides the observer's hand read
    at a glance): a learner sees both at once, so they would make a puzzle look harder than it
    is."""
    if explanation.method == "cases":
        steps = [s for _, chain in explanation.cases for s in chain]
        extra = 1
    else:
        steps = list(explanation.steps)
        extra = 0
    steps = [s for s in steps if not _at_a_glance(s, (observer, *glance))]
    rules = sorted({s.rule for s in steps} - {"observed", "assume", "contradiction"})
    return {
        "steps": len(steps) + extra,
        "rules": rules,
        "rule_count": len(rules),
        "events": len(explanation.events),
        "counting": any(s.rule in COUNTING_RULES for s in steps),
        "cases": explanation.method in ("cases", "contradiction"),
        "method": explanation.method,
    }


def _at_a_glance(step: Any, places: tuple[str | None, ...]) -> bool:
    """A step the learner needs no thought for: the set-up read (their own hand, the face-up
    cards), or a hand among ``places`` full."""
    if step.rule == "observed" and step.events == (0,):
        return True
    return step.rule == "full-hand" and step.fact is not None and step.fact.place in places


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
        if features["naive_right"] or features["weighted_right"]:
            return 2
        if features["denominator"] <= CHANCE_DENOMINATOR[3]:
            return 3
        return 4 if features["denominator"] <= CHANCE_DENOMINATOR[4] else 5
    if kind == "best-question":
        margin = features["margin_bits"]
        return 1 if margin >= 0.5 else 2 if margin >= 0.2 else 3 if margin >= 0.08 else \
            4 if margin >= 0.02 else 5
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


# -- worked solutions ----------------------------------------------------------------------------

BOOKKEEPING = "Cards you hold or see face up are in no other place, and no other card is."
"""The one line that stands for every step that only reads your hand and the face-up cards."""


def bookkeeping(step: Any, observer: str | None) -> bool:
    """A step that only reads the set-up: a card of your hand or face up, that card in no
    other place, or your hand or the face-up row full."""
    seen = (observer, FACE_UP)
    if _at_a_glance(step, seen):
        return True
    return step.rule == "one-place" and len(step.premises) == 1 and \
        step.premises[0].holds and step.premises[0].place in seen


def solution_lines(explanation: Explanation, edition: Edition, observer: str | None = None
                   ) -> list[str]:
    """The explanation chain as the learner would say it: which events matter, then each step
    with its rule; a proof by contradiction or cases says what it supposes. With
    ``observer``, the steps that only read your hand and the face-up cards fold into one
    line (:data:`BOOKKEEPING`)."""
    fact = explanation.fact
    lines = []
    if explanation.events:
        verb = "matters" if len(explanation.events) == 1 else "matter"
        lines.append(f"Only {_event_list(explanation.events)} {verb}; the others are "
                     "distractions.")
    else:
        lines.append("Your own hand and the set-up are enough; no event is needed.")
    if observer is not None:
        lines.append(BOOKKEEPING)

    def chain(steps: Sequence[Any], indent: str = "") -> list[str]:
        if observer is not None:
            steps = [s for s in steps if not bookkeeping(s, observer)]
        return [f"{indent}{i}. ({s.rule_name}) {s.text}" for i, s in enumerate(steps, start=1)]

    if explanation.method == "rules":
        lines += chain(explanation.steps)
    elif explanation.method == "contradiction":
        lines.append(f"Suppose the opposite: {fact.negated().text(edition)}.")
        lines += chain([s for s in explanation.steps if s.rule != "assume"])
        lines.append(f"That cannot be, so {fact.text(edition)}.")
    elif explanation.method == "cases":
        lines.append(f"Suppose the opposite: {fact.negated().text(edition)}. Then one of "
                     f"{len(explanation.cases)} cases must hold, and each breaks a rule:")
        for number, (case, steps) in enumerate(explanation.cases, start=1):
            lines.append(f"Case {number}: {case.text(edition)}.")
            lines += chain([s for s in steps if s.rule != "assume"], "   ")
        lines.append(f"Every case is impossible, so {fact.text(edition)}.")
    else:
        lines.append("No short chain of rules reaches it: it holds in every deal that fits.")
    return lines


def _event_list(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"event {numbers[0]}"
    return "events " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def fact_hints(explanation: Explanation, observer: str | None = None) -> tuple[str, ...]:
    """Graded hints: the events, then the rules, then the first steps — not the answer."""
    hints = []
    if explanation.events:
        hints.append(f"Look at {_event_list(explanation.events)}; the others do not matter.")
    features = fact_features(explanation, observer)
    names = sorted({s.rule_name for _, c in explanation.cases for s in c}
                   | {s.rule_name for s in explanation.steps}
                   - {"Observed", "Suppose", "Contradiction"})
    if names:
        hints.append("Rules you will need: " + ", ".join(names) + ".")
    if features["counting"]:
        hints.append("Count: how many cards does each hand hold, and how many are already "
                     "known?")
    if features["cases"]:
        hints.append("Suppose the opposite and follow where it leads.")
    steps = explanation.steps if explanation.method != "cases" else explanation.cases[0][1]
    useful = [s for s in steps if s.rule not in ("assume", "contradiction")
              and not bookkeeping(s, observer)]
    if len(useful) > 1:
        hints.append("Start like this: " + useful[0].text)
    return tuple(hints)

