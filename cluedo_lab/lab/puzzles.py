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

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..knowledge import constraints as cons
from ..knowledge.explain import Deduction, Explanation, Fact, Step
from ..records import ENVELOPE, FACE_UP, Record
from ..rules.edition import Edition
from ..rules.errors import CluedoLabError
from .exercises import Exercise

__all__ = ["KINDS", "Puzzle", "PuzzleError", "grade", "fact_features", "solution_lines",
           "worked_solution", "ProofLine", "BEST_MARGIN", "bits"]

KINDS = ("who-holds", "envelope", "key-event", "chance", "best-question", "contradiction",
         "reach")
LEVELS = (1, 2, 3, 4, 5)

COUNTING_RULES = frozenset({"full-hand", "needs-all", "hand-lock"})
"""Rules that count the cards of a hand: the learner must use hand sizes, not just events."""

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


@dataclass(frozen=True)
class ProofLine:
    """One line of a worked solution, with what it rests on: the engine's ``steps`` it states
    (several when a run of "One place per card" folds into one line) and the facts it
    ``assumes`` (the opposite supposed, a case). ``case``: 0 for the lines every case shares,
    else the case's number."""

    text: str
    steps: tuple[Step, ...] = ()
    assumes: tuple[Fact, ...] = ()
    case: int = 0


def solution_lines(explanation: Explanation, edition: Edition, observer: str | None = None,
                   record: Record | None = None) -> list[str]:
    """The worked solution as text (:func:`worked_solution`)."""
    return [line.text for line in worked_solution(explanation, edition, observer, record)]


def worked_solution(explanation: Explanation, edition: Edition, observer: str | None = None,
                    record: Record | None = None) -> list[ProofLine]:
    """The explanation chain as the learner would say it: which events matter, then each step
    with its rule, every step after the facts it rests on; a proof by contradiction or cases
    says what it supposes, and a proof by cases says where its cases come from (``record``:
    the record explained, to find them). With ``observer``, the steps that only read your
    hand and the face-up cards fold into one line (:data:`BOOKKEEPING`), and a run of "One
    place per card" from one fact into one line."""
    fact = explanation.fact
    lines = []
    if explanation.events:
        verb = "matters" if len(explanation.events) == 1 else "matter"
        lines.append(ProofLine(f"Only {_event_list(explanation.events)} {verb}; the others "
                               "are distractions."))
    else:
        lines.append(ProofLine("Your own hand and the set-up are enough; no event is needed."))
    if observer is not None:
        lines.append(ProofLine(BOOKKEEPING))
    useful = (lambda s: not bookkeeping(s, observer)) if observer is not None else \
        (lambda s: True)

    def chain(steps: Sequence[Step], indent: str = "", case: int = 0, first: int = 1
              ) -> list[ProofLine]:
        shown = [s for s in steps if s.rule != "assume" and useful(s)]
        return [ProofLine(f"{indent}{i}. {text}", group, case=case)
                for i, (text, group) in enumerate(_folded(shown, edition), start=first)]

    if explanation.method == "rules":
        lines += chain(explanation.steps)
    elif explanation.method == "contradiction":
        lines.append(ProofLine(f"Suppose the opposite: {fact.negated().text(edition)}.",
                               assumes=(fact.negated(),)))
        lines += chain(explanation.steps)
        lines.append(ProofLine(f"That cannot be, so {fact.text(edition)}."))
    elif explanation.method == "cases":
        lines += _cases(explanation, edition, record, chain)
    else:
        lines.append(ProofLine("No short chain of rules reaches it: it holds in every deal "
                               "that fits."))
    return lines


def _folded(steps: Sequence[Step], edition: Edition) -> list[tuple[str, tuple[Step, ...]]]:
    """Each step's line, runs said once: every "One place per card" step from one fact moves
    up to the first (its fact is shown by then), then neighbouring steps of one rule and
    one reason (one event's passes, a hand's count, cards lying in one place only) share a
    line."""
    first: dict[Fact, list[Step]] = {}
    for step in steps:
        if step.rule == "one-place":
            first.setdefault(step.premises[0], []).append(step)
    ordered = []
    for step in steps:
        if step.rule != "one-place":
            ordered.append(step)
        elif first[step.premises[0]][0] is step:
            ordered += first[step.premises[0]]
    out: list[tuple[str, tuple[Step, ...]]] = []
    for _, run in itertools.groupby(ordered, key=lambda s: _run_key(s, edition)):
        group = tuple(run)
        out.append((f"({group[0].rule_name}) {_run_text(group, edition)}", group))
    return out


def _run_key(step: Step, edition: Edition) -> Any:
    """Steps with one key share a line: the rule and the reason, the same for each card."""
    fact = step.fact
    if fact is None or fact.place == FACE_UP:
        return step.number
    if step.rule == "one-place":
        return "one-place"
    if step.rule == "observed":
        return ("observed", fact.place, fact.holds, _reason(step, edition))
    if step.rule == "last-place":
        return ("last-place", fact.place)
    if step.rule in ("full-hand", "needs-all", "hand-lock", "envelope-one"):
        return (step.rule, fact.place, fact.holds, step.text[:step.text.rindex(", so ")])
    return step.number


def _reason(step: Step, edition: Edition) -> str:
    assert step.fact is not None
    return step.text[len(step.fact.text(edition)) + 2:]


def _run_text(group: Sequence[Step], edition: Edition) -> str:
    step = group[0]
    if len(group) == 1 or step.fact is None:
        return step.text
    facts = [s.fact for s in group if s.fact is not None]
    if step.rule == "observed":
        return f"{_facts_text(facts, edition)}: {_reason(step, edition)}"
    if step.rule == "last-place":
        return (f"Every other place lacks {_and([edition.card(f.card).name for f in facts])}, "
                f"so they are in {_place_text(step.fact.place)}.")
    if step.rule != "one-place":
        return f"{step.text[:step.text.rindex(', so ')]}, so {_facts_text(facts, edition)}."
    # One place per card: the cards in each place, and the places that lose them.
    by_fact: dict[Fact, list[str]] = {}
    for s in group:
        if s.fact is not None:
            by_fact.setdefault(s.premises[0], []).append(_place_text(s.fact.place))
    parts: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for held, losing in by_fact.items():
        parts.setdefault((held.place, tuple(losing)), []).append(edition.card(held.card).name)
    said = []
    for (place, others), cards in parts.items():
        one = len(cards) == 1
        said.append(f"{_and(cards)} {'is' if one else 'are'} in {_place_text(place)}, so "
                    f"{_and(list(others))} {'does' if len(others) == 1 else 'do'} not hold "
                    f"{'it' if one else 'them'}")
    return "A card lies in one place only: " + "; ".join(said) + "."


def _facts_text(facts: Sequence[Fact], edition: Edition) -> str:
    """"P2 does not hold Plum, Bat or Theater", "P3 holds Kitchen and Hall"."""
    names = [edition.card(f.card).name for f in facts]
    place = _place_text(facts[0].place)
    if facts[0].holds:
        return f"{place} holds {_and(names)}"
    return f"{place} does not hold {_or(names)}"


def _cases(explanation: Explanation, edition: Edition, record: Record | None,
           chain: Any) -> list[ProofLine]:
    """A proof by cases: the steps no case needs to suppose (what the events say, and what
    follows from it alone), the opposite supposed, where the cases come from (with the steps
    that leave only them), then each case to its contradiction, without the steps already
    shown."""
    fact = explanation.fact
    cases = [case for case, _ in explanation.cases]
    origin, common = _case_origin(explanation, cases, record)
    shared = _unsupposed([common, *(steps for _, steps in explanation.cases)])
    lines = chain(shared)
    lines.append(ProofLine(f"Suppose the opposite: {fact.negated().text(edition)}.",
                           assumes=(fact.negated(),)))
    known = {s.fact for s in shared}
    common = [s for s in common if s.fact not in known]
    lines += chain(common, first=len(lines))
    lines.append(ProofLine(origin + f" Each of these {len(cases)} cases breaks a rule:"))
    known |= {s.fact for s in common}
    for number, (case, steps) in enumerate(explanation.cases, start=1):
        lines.append(ProofLine(f"Case {number}: {case.text(edition)}.", assumes=(case,),
                               case=number))
        lines += chain([s for s in steps if s.fact is None or s.fact not in known], "   ",
                       number)
    lines.append(ProofLine(f"Every case is impossible, so {fact.text(edition)}."))
    return lines


def _unsupposed(branches: Sequence[Sequence[Step]]) -> list[Step]:
    """The steps of the ``branches`` that rest on nothing supposed (each fact once, every
    step after its premises): they hold in every case, so they are said once, before."""
    out: dict[Fact, Step] = {}
    for steps in branches:
        supposed: set[Fact] = set()
        for step in steps:
            if step.fact is None:
                continue
            if step.rule == "assume" or any(p in supposed for p in step.premises):
                supposed.add(step.fact)
            else:
                out.setdefault(step.fact, step)
    return list(out.values())


def _case_origin(explanation: Explanation, cases: Sequence[Fact], record: Record | None
                 ) -> tuple[str, list[Step]]:
    """Why the cases are the only ones, and the steps (under the opposite supposed) that
    rule out the rest: one card in one of a few places (every other place lacks it), or a
    player holding one of a few cards they showed from (the others of the event ruled
    out)."""
    ed = explanation.edition
    if record is None:
        raise ValueError("a proof by cases needs its record to say where its cases come from")
    events = [e for e in record.events if e.position in explanation.events]
    supposed = Deduction(record, events, assume=[explanation.fact.negated()])
    places = {c.place for c in cases}
    if len({c.card for c in cases}) == 1:
        card = cases[0].card
        ruled = [Fact(card, p, False) for p in record.places if p not in places]
        text = (f"{ed.card(card).name} lies in exactly one place, and "
                f"{_and([_place_text(f.place) for f in ruled])} "
                f"{'does' if len(ruled) == 1 else 'do'} not hold it, so it is in "
                f"{_or([_place_text(c.place) for c in cases])}.")
    else:
        place = cases[0].place
        live = {c.card for c in cases}
        clause = next(c for c in supposed.clauses if c.kind == cons.HOLDS_ONE_OF
                      and c.place == place and live <= set(c.cards)
                      and all(supposed.value(x, place) is False for x in c.cards
                              if x not in live))
        ruled = [Fact(c, place, False) for c in clause.cards if c not in live]
        shown = _and([ed.card(c).name for c in clause.cards])
        text = (f"In event {clause.source} {_place_text(place)} showed one of {shown}"
                + (f"; {_place_text(place)} does not hold "
                   f"{_and([ed.card(f.card).name for f in ruled])}" if ruled else "")
                + f", so {_place_text(place)} holds "
                f"{_or([ed.card(c.card).name for c in cases])}.")
    steps = {s.number: s for f in ruled for s in supposed.chain(f)}
    return text, [steps[n] for n in sorted(steps)]


def _place_text(place: str) -> str:
    return "the envelope" if place == ENVELOPE else place


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" or {words[-1]}"


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

