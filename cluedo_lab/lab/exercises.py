"""Exercises a learner answers and the kit checks: the logic behind the exercise widgets.

An :class:`Exercise` is a question with one right answer worked out by the engine beforehand
(never by the widget): pick one option (a card, a place, a rule), pick several, enter a chance as
a fraction or a percentage, enter a whole number, or put shuffled steps in order.
:meth:`Exercise.check` says whether a response is right and, when it is not, why in
a friendly sentence (a known trap gets its own message); :meth:`Exercise.hint` gives graded
hints (the events to look at, then the rules, then the first steps), never the answer;
:meth:`Exercise.reveal` gives the answer and the worked solution on request. The views
(``views/exercises.py``) only draw this, so a test or a later learner mode can use it without a
browser.

The builders at the end (:func:`where_is`, :func:`which_cards`, :func:`which_rule`,
:func:`proof_order`, :func:`chance`) make an exercise straight from a :class:`Knowledge`, with
the answer counted by the engine and the hints graded from its explanation of the fact.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..knowledge.explain import RULES, Explanation, Step
from ..records import ENVELOPE
from ..rules import numbers
from .proofs import fact_hints, solution_lines

if TYPE_CHECKING:
    from ..knowledge.engine import Knowledge

__all__ = ["Exercise", "Feedback", "exercise_key", "parse_number", "percent", "where_is",
           "which_cards", "which_rule", "proof_order", "chance", "deduction_hints", "option_labels",
           "RULE_NAMES", "seal", "unseal"]

FORMS = ("pick", "pick-many", "number", "count", "order")

RULE_NAMES = tuple(name for rule, name in RULES.items()
                   if rule not in ("observed", "assume", "contradiction"))
"""The named rules a learner chooses from in a "which rule?" exercise."""

RULE_NEEDS = {
    "one-place": "needs the card placed somewhere else already",
    "last-place": "needs every other place ruled out for that card",
    "full-hand": "needs every card of that hand known already",
    "needs-all": "needs the hand to have exactly as many candidates left as empty slots",
    "envelope-one": "needs another card of the same kind known to be in the envelope",
    "showed-one": "needs a player who showed a card, with the other named cards ruled out",
    "wrong-accusation": "needs a wrong accusation with the other accused cards known",
    "hand-lock": "needs groups with no card in common, one card owed from each, filling the "
                 "hand",
}
"""What each rule needs before it applies: the message for choosing the wrong rule."""


@dataclass(frozen=True, repr=False)
class Feedback:
    """The verdict on one response, and a sentence for the learner. Its repr is the sentence
    with ✓ or ✗, so ``exercise.check(answer)`` in a notebook shows what the widget would."""

    correct: bool
    message: str

    def __str__(self) -> str:
        return ("✓ " if self.correct else "✗ ") + self.message

    __repr__ = __str__


def percent(p: Fraction, places: int = 1) -> str:
    """A chance as the learner reads it: the kit's one format (``rules.numbers``), in percent."""
    return numbers.chance(p, "percent")


_NUMBER = re.compile(r"^\s*([+-]?\d+(?:\.(\d*))?|[+-]?\.(\d+))\s*(%?)\s*$")
_RATIO = re.compile(r"^\s*([+-]?\d+)\s*(?:/|in|of|out of)\s*(\d+)\s*$")
_WHOLE = re.compile(r"^\s*([+-]?\d+)\s*$")


def parse_number(text: str) -> tuple[Fraction, Fraction]:
    """A typed chance as ``(value, tolerance)``: "1/3" and "1 in 3" are exact (tolerance 0);
    "33.3%" and "0.333" stand for anything that rounds to them (half a unit of the last
    digit typed), so a learner who rounds correctly is not marked wrong; a whole "0" or "1" is
    exact."""
    ratio = _RATIO.match(text)
    if ratio:
        num, den = int(ratio.group(1)), int(ratio.group(2))
        if den == 0:
            raise ValueError("a fraction cannot have 0 below the line")
        return Fraction(num, den), Fraction(0)
    match = _NUMBER.match(text.replace(",", "."))
    if not match:
        raise ValueError(f"{text!r} is not a number: type a fraction (1/3), a percentage "
                         "(33.3%) or a decimal (0.333)")
    digits = len(match.group(2) or match.group(3) or "")
    value = Fraction(match.group(1))
    whole = "." not in match.group(1)
    # "0" and "1" are exact chances; "40%" and "0.4" stand for what rounds to them
    tolerance = Fraction(0) if whole and not match.group(4) else Fraction(1, 2 * 10 ** digits)
    if match.group(4):
        value, tolerance = value / 100, tolerance / 100
    return value, tolerance


def exercise_key(prompt: str, words: int = 8) -> str:
    """A stable name for an exercise, from the first ``words`` words of its prompt:
    "Where must Mrs. Peacock be?" -> "where-must-mrs-peacock-be"."""
    return "-".join(re.findall(r"[a-z0-9]+", prompt.lower())[:words]) or "exercise"


SEAL_KEY = b"cluedo-lab: not for reading"


def _keystream(nonce: bytes, length: int) -> bytes:
    blocks = (hashlib.sha256(SEAL_KEY + nonce + i.to_bytes(4, "big")).digest()
              for i in range(length // 32 + 1))
    return b"".join(blocks)[:length]


def seal(text: str) -> str:
    """``text`` made unreadable at a glance, for a student's copy of a lesson: the worked
    solutions and wrong-answer messages stay in the notebook for Reveal and Check, but nobody
    reads them off the page or finds them with a search. It hides, it does not protect: the
    engine computes every answer for a learner who runs code anyway."""
    data = text.encode("utf-8")
    nonce = hashlib.sha256(data).digest()[:8]   # the same text seals the same way
    mixed = bytes(a ^ b for a, b in zip(data, _keystream(nonce, len(data)), strict=True))
    return base64.urlsafe_b64encode(nonce + mixed).decode("ascii")


def unseal(token: str) -> str:
    """The text :func:`seal` hid."""
    raw = base64.urlsafe_b64decode(token.encode("ascii"))
    nonce, mixed = raw[:8], raw[8:]
    return bytes(a ^ b for a, b in zip(mixed, _keystream(nonce, len(mixed)),
                                       strict=True)).decode("utf-8")


def _letters(count: int) -> tuple[str, ...]:
    return tuple(chr(ord("A") + i) for i in range(count))


@dataclass
class Exercise:
    """One question with an engine-computed answer.

    ``form``: ``"pick"`` (``answer`` is one of ``options``), ``"pick-many"`` (``answer`` is a
    tuple of options, order free), ``"number"`` (a chance: ``answer`` is a Fraction),
    ``"count"`` (``answer`` is a whole number) or ``"order"`` (``answer`` is the steps in a
    right order, ``options`` the same steps shuffled). An order exercise may say which steps
    each step ``needs``; then any order that puts every step after the ones it needs is right,
    as in a proof, and not only the engine's. ``traps`` maps a wrong response (an option, a
    frozenset of options, a Fraction or an int) to the message it earns. ``key`` names the
    exercise for a learner's saved attempts and for grading: given, or made from the prompt's
    first words, so it stays the same in every copy of the lesson.
    """

    prompt: str
    form: str
    answer: str | tuple[str, ...] | Fraction | int
    options: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    solution: str = ""
    # Any: a mapping's key type is invariant, and each form has its own (str, frozenset, ...)
    traps: Mapping[Any, str] = field(default_factory=dict)
    answer_text: str = ""
    needs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    key: str = ""

    def __post_init__(self) -> None:
        if not self.key:
            self.key = exercise_key(self.prompt)
        if self.form not in FORMS:
            raise ValueError(f"unknown form {self.form!r}; expected one of {FORMS}")
        if self.form == "pick" and self.answer not in self.options:
            raise ValueError("the answer of a pick exercise must be one of its options")
        if self.form == "pick-many" and not set(self.answer) <= set(self.options):  # type: ignore[arg-type]
            raise ValueError("the answers of a pick-many exercise must be among its options")
        if self.form == "count" and not isinstance(self.answer, int):
            raise ValueError("the answer of a count exercise is a whole number")
        if self.form == "order":
            if sorted(self.answer) != sorted(self.options):  # type: ignore[arg-type]
                raise ValueError("an order exercise's options are its answer's steps, shuffled")
            if len(set(self.options)) != len(self.options):
                raise ValueError("the steps of an order exercise must differ")
            if self._misplaced(tuple(self.answer)):  # type: ignore[arg-type]
                raise ValueError("the answer of an order exercise puts a step before one it "
                                 "needs")
        if not self.answer_text:
            self.answer_text = self._show(self.answer)

    def _show(self, value: object) -> str:
        if isinstance(value, Fraction):
            return f"{percent(value)} (exactly {value})"
        if self.form == "order" and isinstance(value, tuple | list):
            return " ".join(self.letter(step) for step in value) + "\n" + "\n".join(
                f"{i}. {step}" for i, step in enumerate(value, start=1))
        if isinstance(value, tuple | list | frozenset | set):
            chosen = [o for o in self.options if o in value]
            return ", ".join(chosen) if chosen else "none of them"
        return str(value)

    def letter(self, step: str) -> str:
        """The letter an order exercise shows beside ``step`` (A for the first option)."""
        return _letters(len(self.options))[self.options.index(step)]

    # -- the learner's side ------------------------------------------------------------------
    def check(self, response: str | Iterable[str] | Fraction | int | None) -> Feedback:
        """Is ``response`` right? A wrong one gets a sentence saying what to look at again."""
        if response is None or response == "" or response == ():
            return Feedback(False, "Choose or type an answer first.")
        if self.form == "number":
            return self._check_number(response)  # type: ignore[arg-type]
        if self.form == "count":
            return self._check_count(response)
        if self.form == "order":
            return self._check_order(response)  # type: ignore[arg-type]
        if self.form == "pick":
            choice = str(response)
            if choice not in self.options:
                return Feedback(False, f"{choice!r} is not one of the options.")
            if choice == self.answer:
                return Feedback(True, f"Right: {choice}.")
            return Feedback(False, self.traps.get(choice) or
                            f"Not {choice}: something in the record rules it out. Try a hint.")
        chosen = frozenset([response] if isinstance(response, str)
                           else map(str, response))  # type: ignore[arg-type]
        right = frozenset(self.answer)  # type: ignore[arg-type]
        if chosen == right:
            return Feedback(True, f"Right: {self._show(right)}.")
        if chosen in self.traps:
            return Feedback(False, self.traps[chosen])
        unknown = sorted(chosen - set(self.options))
        if unknown:
            return Feedback(False, f"{', '.join(unknown)} is not one of the options.")
        extra, missing = sorted(chosen - right), sorted(right - chosen)
        parts = []
        if extra:
            parts.append(f"{', '.join(extra)} should not be there")
        if missing:
            parts.append(f"{len(missing)} more belong{'s' if len(missing) == 1 else ''} in "
                         "your answer")
        return Feedback(False, "Not quite: " + "; ".join(parts) + ".")

    def _check_number(self, response: str | Fraction | int) -> Feedback:
        if isinstance(response, Fraction | int):
            value, tolerance = Fraction(response), Fraction(0)
        else:
            try:
                value, tolerance = parse_number(str(response))
            except ValueError as error:
                return Feedback(False, str(error))
        assert isinstance(self.answer, Fraction)
        if abs(value - self.answer) <= tolerance:
            exact = "" if tolerance == 0 else f" (exactly {self.answer})"
            return Feedback(True, f"Right: {percent(self.answer)}{exact}.")
        for trap, message in self.traps.items():
            if isinstance(trap, Fraction) and abs(value - trap) <= tolerance:
                return Feedback(False, message)
        if not 0 <= value <= 1:
            return Feedback(False, "A chance lies between 0 and 1 (0% and 100%).")
        direction = "high" if value > self.answer else "low"
        return Feedback(False, f"Too {direction}. Count the deals that fit again, or take "
                        "a hint.")

    def _check_count(self, response: object) -> Feedback:
        if isinstance(response, int) and not isinstance(response, bool):
            value = response
        else:
            match = _WHOLE.match(str(response).replace(",", ""))
            if not match:
                return Feedback(False, f"{str(response)!r} is not a whole number: type digits "
                                "only, like 12.")
            value = int(match.group(1))
        if value == self.answer:
            return Feedback(True, f"Right: {value:,}.")
        trap = self.traps.get(value)
        if trap:
            return Feedback(False, trap)
        direction = "many" if value > self.answer else "few"  # type: ignore[operator]
        return Feedback(False, f"Not {value:,}: that is too {direction}. Count again, or "
                        "take a hint.")

    def _check_order(self, response: str | Iterable[str]) -> Feedback:
        steps = self._steps(response)
        if isinstance(steps, Feedback):
            return steps
        misplaced = self._misplaced(steps)
        if not misplaced:
            return Feedback(True, "Right: every step comes after the steps it uses.")
        many = len(misplaced)
        return Feedback(False, f"{many} of {len(steps)} steps "
                        f"{'are' if many > 1 else 'is'} out of place: "
                        f"{'they come' if many > 1 else 'it comes'} before a step "
                        f"{'they need' if many > 1 else 'it needs'}. Which facts does each "
                        "step use?")

    def _steps(self, response: str | Iterable[str]) -> tuple[str, ...] | Feedback:
        """The learner's order as steps: a list of steps, or letters typed as "B A C"."""
        if isinstance(response, str):
            letters = _letters(len(self.options))
            typed = [c for c in response.upper() if not c.isspace() and c not in ",;->"]
            bad = [c for c in typed if c not in letters]
            if bad:
                return Feedback(False, f"Use the letters {letters[0]} to {letters[-1]}, "
                                f"not {bad[0]}.")
            steps = tuple(self.options[letters.index(c)] for c in typed)
        else:
            steps = tuple(map(str, response))
        unknown = [s for s in steps if s not in self.options]
        if unknown:
            return Feedback(False, f"{unknown[0]!r} is not one of the steps.")
        twice = sorted({self.letter(s) for s in steps if steps.count(s) > 1})
        if twice:
            return Feedback(False, f"Use every step once: {', '.join(twice)} "
                            f"appear{'s' if len(twice) == 1 else ''} more than once.")
        if len(steps) < len(self.options):
            return Feedback(False, f"Use every step: {len(self.options) - len(steps)} "
                            "still missing.")
        return steps

    def _misplaced(self, steps: tuple[str, ...]) -> list[str]:
        """The steps that come before a step they need (with no ``needs``: the steps not in
        the answer's place)."""
        if not self.needs:
            return [s for s, right in zip(steps, self.answer, strict=True)  # type: ignore[arg-type]
                    if s != right]
        where = {s: i for i, s in enumerate(steps)}
        return [s for s in steps
                if any(where[n] > where[s] for n in self.needs.get(s, ()) if n in where)]

    def hint(self, number: int) -> str:
        """Hint ``number`` (from 1), each saying a little more; never the answer itself."""
        if not self.hints:
            return "No hint for this one: reveal the answer if you are stuck."
        if number < 1:
            raise ValueError("hints are numbered from 1")
        index = min(number, len(self.hints)) - 1
        more = "" if number < len(self.hints) else " (that was the last hint)"
        return f"Hint {index + 1} of {len(self.hints)}: {self.hints[index]}{more}"

    def reveal(self) -> str:
        """The answer and how to find it."""
        return f"Answer: {self.answer_text}\n{self.solution}".rstrip()

    # -- saving ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (a Fraction as "a/b"), so a generated notebook can carry the
        exercise without running the generator again. Traps keyed by sets are left out."""
        def plain(value: Any) -> Any:
            if isinstance(value, Fraction):
                return f"{value.numerator}/{value.denominator}"
            return list(value) if isinstance(value, tuple) else value
        traps = {plain(k) if isinstance(k, Fraction) else str(k): v
                 for k, v in self.traps.items() if isinstance(k, str | Fraction | int)}
        data = {"prompt": self.prompt, "form": self.form, "answer": plain(self.answer),
                "options": list(self.options), "hints": list(self.hints),
                "solution": self.solution, "traps": traps, "answer_text": self.answer_text,
                "key": self.key}
        if self.needs:
            data["needs"] = {k: list(v) for k, v in self.needs.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Exercise:
        form = data["form"]
        answer = data["answer"]
        traps: dict[Any, str] = dict(data.get("traps", {}))
        if form == "number":
            answer = Fraction(answer)
            traps = {Fraction(k): v for k, v in traps.items()}
        elif form == "count":
            traps = {int(k): v for k, v in traps.items()}
        elif form in ("pick-many", "order"):
            answer = tuple(answer)
        return cls(prompt=data["prompt"], form=form, answer=answer,
                   options=tuple(data.get("options", ())), hints=tuple(data.get("hints", ())),
                   solution=data.get("solution", ""), traps=traps,
                   answer_text=data.get("answer_text", ""), key=data.get("key", ""),
                   needs={k: tuple(v) for k, v in data.get("needs", {}).items()})


def option_labels(values: Sequence[str]) -> tuple[str, ...]:
    """Options without repeats, in their first order."""
    return tuple(dict.fromkeys(values))


# -- exercises made from the engine's knowledge ------------------------------------------------

def _place_name(place: str) -> str:
    return "the envelope" if place == ENVELOPE else place


def deduction_hints(knowledge: Knowledge, card: str, place: str) -> tuple[tuple[str, ...], str]:
    """Graded hints (the events, the rules, the first step) and a worked solution for one
    certain cell, from the explanation engine: for exercises a lesson writes itself."""
    why = knowledge.explain(card, place)
    return fact_hints(why), "\n".join(solution_lines(why, knowledge.edition,
                                                    record=knowledge.record))


def where_is(knowledge: Knowledge, card: str, prompt: str = "") -> Exercise:
    """Pick a place: where must ``card`` be? (It must be certain: the engine checks.)"""
    name = knowledge.card(card).name
    places = [p for p in knowledge.places if knowledge.status(card, p)]
    if not places:
        raise ValueError(f"where {name} lies is not certain yet, so it makes no exercise")
    hints, solution = deduction_hints(knowledge, card, places[0])
    options = tuple(_place_name(p) for p in knowledge.places)
    traps: dict[object, str] = {
        o: f"Not {o}: the record rules {o} out for {name}. Which events name {name}, and who "
        "could not have it?" for o in options if o != _place_name(places[0])}
    return Exercise(prompt or f"Where must {name} be?", "pick", _place_name(places[0]),
                    options=options, hints=hints, solution=solution, traps=traps)


def which_cards(knowledge: Knowledge, place: str, *, certain: bool = True,
                category: str | None = None, prompt: str = "") -> Exercise:
    """Pick many cards: those ``place`` certainly holds (``certain``), or those it may still
    hold (not ``certain``); among one ``category`` if given. The hints come from the
    explanation of the first card in the answer (or of the first card ruled out)."""
    cards = [c for c in knowledge.edition.cards
             if category is None or c.category == category]
    status = {c.name: knowledge.status(c, place) for c in cards}
    answer = tuple(n for n, s in status.items() if (s is True if certain else s is not False))
    example = next((n for n, s in status.items() if s is (True if certain else False)), None)
    hints: tuple[str, ...] = ()
    solution = ""
    if example is not None:
        fact_card = next(c for c in cards if c.name == example)
        hints, solution = deduction_hints(knowledge, fact_card.id, place)
        verb = "holds" if certain else "cannot hold"
        hints = (f"Start with one card: why {_place_name(place)} {verb} {example}.", *hints)
        solution = f"For example, {example}:\n{solution}"
    if place == ENVELOPE:
        default = f"Which cards {'must' if certain else 'could still'} be in the envelope?"
    else:
        default = (f"Which cards must {place} hold?" if certain else
                   f"Which cards could {place} still hold?")
    return Exercise(prompt or default, "pick-many",
                    answer, options=tuple(status), hints=hints, solution=solution)


def which_rule(knowledge: Knowledge, step: Step, prompt: str = "") -> Exercise:
    """Choose the named rule behind one step of a deduction, shown by its premises and its
    conclusion (not by the step's own text, which names the reasoning)."""
    edition = knowledge.edition
    if step.fact is None or step.rule_name not in RULE_NAMES:
        raise ValueError("only a step that concludes a fact by a named rule makes a "
                         "\"which rule?\" exercise")
    uses = "; ".join(p.text(edition) for p in step.premises) or "the events alone"
    events = ("event " if len(step.events) == 1 else "events ") + ", ".join(map(str, step.events))
    prompt = prompt or (f"Which rule concludes that {step.fact.text(edition)}, from: {uses}"
                        f"{f' (and {events})' if step.events else ''}?")
    traps: dict[object, str] = {
        name: f"Not {name}: that rule {RULE_NEEDS[rule]}. Look again at what this step uses."
        for rule, name in RULES.items() if rule in RULE_NEEDS}
    hints = (f"It uses {len(step.premises)} earlier fact{'s' if len(step.premises) != 1 else ''}"
             f"{f' and {events}' if step.events else ' and no event'}.",
             "Ask what the rule counts: places of one card, cards of one hand, or cards of one "
             "question?")
    return Exercise(prompt, "pick", step.rule_name, options=RULE_NAMES, hints=hints,
                    solution=step.text, traps=traps)


def proof_order(knowledge: Knowledge, card: str, place: str, *, seed: int = 0,
                prompt: str = "") -> Exercise:
    """Put the steps of the engine's proof of one certain cell in order. What the events say
    is one step per event (your hand is event 0); a step needs the steps whose facts it uses,
    so any order a proof could be written in is right."""
    why: Explanation = knowledge.explain(card, place)
    if why.method not in ("rules", "contradiction"):
        raise ValueError("only a chain of rule steps can be put in order")
    edition = knowledge.edition
    lines: dict[str, list[str]] = {}   # a line of the proof -> the facts it states
    line_of: dict[tuple[str, str, bool], str] = {}
    needs: dict[str, set[str]] = {}
    grouped: dict[int, list[Step]] = {}
    for step in why.steps:
        if step.rule == "observed" and step.fact is not None:
            grouped.setdefault(step.events[0] if step.events else 0, []).append(step)
    for event, steps in grouped.items():
        facts = ", ".join(s.fact.text(edition) for s in steps if s.fact is not None)
        text = (f"Your hand: {facts}." if event == 0 else
                f"Event {event} says: {facts}.")
        lines[text] = []
        needs[text] = set()
        for s in steps:
            assert s.fact is not None
            line_of[(s.fact.card, s.fact.place, s.fact.holds)] = text
    for step in why.steps:
        if step.rule == "observed":
            continue
        text = f"({step.rule_name}) {step.text}"
        needs[text] = {line_of[(p.card, p.place, p.holds)] for p in step.premises
                       if (p.card, p.place, p.holds) in line_of}
        if step.fact is not None:
            line_of[(step.fact.card, step.fact.place, step.fact.holds)] = text
        lines[text] = []
    answer = tuple(lines)
    shuffled = list(answer)
    rng = random.Random(seed)
    while len(shuffled) > 1 and shuffled == list(answer):
        rng.shuffle(shuffled)
    fact = why.fact.text(edition)
    hints, solution = deduction_hints(knowledge, card, place)
    rules = [s for s in answer if s.startswith("(")]
    hints = ("The facts the events state come first: nothing comes before them.",
             f"The last step is the one that concludes {fact}.",
             *(h for h in hints if h.startswith("Rules")),
             *([f"After the events, start with: {rules[0]}"] if len(rules) > 1 else []))
    return Exercise(prompt or f"Put the steps of the proof that {fact} in order.", "order",
                    answer, options=tuple(shuffled), hints=hints, solution=solution,
                    needs={k: tuple(sorted(v)) for k, v in needs.items() if v})


def chance(knowledge: Knowledge, card: str, place: str, prompt: str = "",
           traps: Mapping[Fraction, str] | None = None, hints: Sequence[str] = ()) -> Exercise:
    """Enter a chance: that ``card`` is in ``place``, counted over the consistent deals."""
    name = knowledge.card(card).name
    answer = knowledge.probability(card, place)
    return Exercise(prompt or f"What is the chance that {_place_name(place)} holds {name}?",
                    "number", answer, hints=tuple(hints) or (
                        "Which places could the card still be in?",
                        "Count the deals that fit in which it is there, over all the deals "
                        "that fit."),
                    traps={k: v for k, v in (traps or {}).items()})
