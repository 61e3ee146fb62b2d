"""Exercises a learner answers and the kit checks: the logic behind the exercise widgets.

An :class:`Exercise` is a question with one right answer worked out by the engine beforehand
(never by the widget): pick one option, pick several, or enter a number as a fraction or a
percentage. :meth:`Exercise.check` says whether a response is right and, when it is not, why in
a friendly sentence (a known trap gets its own message); :meth:`Exercise.hint` gives graded
hints (the events to look at, then the rules, then the first steps), never the answer;
:meth:`Exercise.reveal` gives the answer and the worked solution on request. The views
(``views/exercises.py``) only draw this, so a test or a later learner mode can use it without a
browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..rules import numbers

__all__ = ["Exercise", "Feedback", "parse_number", "percent"]

FORMS = ("pick", "pick-many", "number")


@dataclass(frozen=True)
class Feedback:
    """The verdict on one response, and a sentence for the learner."""

    correct: bool
    message: str


def percent(p: Fraction, places: int = 1) -> str:
    """A chance as the learner reads it: the kit's one format (``rules.numbers``), in percent."""
    return numbers.chance(p, "percent")


_NUMBER = re.compile(r"^\s*([+-]?\d+(?:\.(\d*))?|[+-]?\.(\d+))\s*(%?)\s*$")
_RATIO = re.compile(r"^\s*([+-]?\d+)\s*(?:/|in|of|out of)\s*(\d+)\s*$")


def parse_number(text: str) -> tuple[Fraction, Fraction]:
    """A typed chance as ``(value, tolerance)``: "1/3" and "1 in 3" are exact (tolerance 0);
    "33.3%" and "0.333" stand for anything that rounds to them (half a unit of the last
    digit typed), so a learner who rounds correctly is not marked wrong."""
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
    tolerance = Fraction(1, 2 * 10 ** digits)
    if match.group(4):
        value, tolerance = value / 100, tolerance / 100
    return value, tolerance


@dataclass
class Exercise:
    """One question with an engine-computed answer.

    ``form``: ``"pick"`` (``answer`` is one of ``options``), ``"pick-many"`` (``answer`` is a
    tuple of options, order free) or ``"number"`` (``answer`` is a Fraction). ``traps`` maps a
    wrong response (an option, a frozenset of options or a Fraction) to the message it earns.
    """

    prompt: str
    form: str
    answer: str | tuple[str, ...] | Fraction
    options: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()
    solution: str = ""
    traps: Mapping[object, str] = field(default_factory=dict)
    answer_text: str = ""

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ValueError(f"unknown form {self.form!r}; expected one of {FORMS}")
        if self.form == "pick" and self.answer not in self.options:
            raise ValueError("the answer of a pick exercise must be one of its options")
        if self.form == "pick-many" and not set(self.answer) <= set(self.options):
            raise ValueError("the answers of a pick-many exercise must be among its options")
        if not self.answer_text:
            self.answer_text = self._show(self.answer)

    def _show(self, value: object) -> str:
        if isinstance(value, Fraction):
            return f"{percent(value)} (exactly {value})"
        if isinstance(value, tuple | list | frozenset | set):
            chosen = [o for o in self.options if o in value]
            return ", ".join(chosen) if chosen else "none of them"
        return str(value)

    # -- the learner's side ------------------------------------------------------------------
    def check(self, response: str | Iterable[str] | Fraction | None) -> Feedback:
        """Is ``response`` right? A wrong one gets a sentence saying what to look at again."""
        if response is None or response == "" or response == ():
            return Feedback(False, "Choose or type an answer first.")
        if self.form == "number":
            return self._check_number(response)
        if self.form == "pick":
            choice = str(response)
            if choice not in self.options:
                return Feedback(False, f"{choice!r} is not one of the options.")
            if choice == self.answer:
                return Feedback(True, f"Right: {choice}.")
            return Feedback(False, self.traps.get(choice) or
                            f"Not {choice}: some event rules it out. Try a hint.")
        chosen = frozenset([response] if isinstance(response, str) else map(str, response))
        right = frozenset(self.answer)
        if chosen == right:
            return Feedback(True, f"Right: {self._show(right)}.")
        if chosen in self.traps:
            return Feedback(False, self.traps[chosen])
        extra, missing = sorted(chosen - right), sorted(right - chosen)
        parts = []
        if extra:
            parts.append(f"{', '.join(extra)} should not be there")
        if missing:
            parts.append(f"{len(missing)} more belong{'s' if len(missing) == 1 else ''} in "
                         "your answer")
        return Feedback(False, "Not quite: " + "; ".join(parts) + ".")

    def _check_number(self, response: str | Iterable[str] | Fraction) -> Feedback:
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
        traps = {str(k) if not isinstance(k, Fraction) else plain(k): v
                 for k, v in self.traps.items() if isinstance(k, str | Fraction)}
        return {"prompt": self.prompt, "form": self.form, "answer": plain(self.answer),
                "options": list(self.options), "hints": list(self.hints),
                "solution": self.solution, "traps": traps, "answer_text": self.answer_text}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Exercise:
        form = data["form"]
        answer = data["answer"]
        traps: dict[object, str] = dict(data.get("traps", {}))
        if form == "number":
            answer = Fraction(answer)
            traps = {Fraction(k): v for k, v in traps.items()}
        elif form == "pick-many":
            answer = tuple(answer)
        return cls(prompt=data["prompt"], form=form, answer=answer,
                   options=tuple(data.get("options", ())), hints=tuple(data.get("hints", ())),
                   solution=data.get("solution", ""), traps=traps,
                   answer_text=data.get("answer_text", ""))


def option_labels(values: Sequence[str]) -> tuple[str, ...]:
    """Options without repeats, in their first order."""
    return tuple(dict.fromkeys(values))
