"""Exercises: every form checks a response against the engine's answer, with a friendly word."""

from fractions import Fraction
from itertools import permutations

import pytest
from lesson01 import ann_record

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.exercises import (
    RULE_NAMES,
    Exercise,
    chance,
    proof_order,
    where_is,
    which_cards,
    which_rule,
)
from cluedo_lab.views.exercises import ExerciseWidget


@pytest.fixture(scope="module")
def ann() -> Knowledge:
    """Lesson 01's game: Ann's view after eight events."""
    return Knowledge.from_dict(ann_record())


def test_pick_right_wrong_and_trap():
    ex = Exercise("Who?", "pick", "Cy", options=("Ann", "Bob", "Cy"),
                  traps={"Bob": "Bob passed."})
    assert ex.check("Cy").correct
    assert ex.check("Bob") == ex.check("Bob") and ex.check("Bob").message == "Bob passed."
    assert not ex.check("Ann").correct and "hint" in ex.check("Ann").message
    assert "not one of the options" in ex.check("Dee").message
    assert str(ex.check("Cy")).startswith("✓") and str(ex.check("Ann")).startswith("✗")


def test_count_form():
    ex = Exercise("How many?", "count", 18, traps={21: "Three cards go in the envelope."})
    assert ex.check(18).correct and ex.check(" 18 ").correct and ex.check("18").correct
    assert ex.check("21").message == "Three cards go in the envelope."
    assert "too many" in ex.check(19).message and "too few" in ex.check("17").message
    assert "whole number" in ex.check("eighteen").message
    assert not ex.check(True).correct
    with pytest.raises(ValueError):
        Exercise("How many?", "count", Fraction(1, 2))


def test_number_form_accepts_correct_rounding_only():
    ex = Exercise("Chance?", "number", Fraction(3, 7))
    assert ex.check("3/7").correct and ex.check("42.9%").correct and ex.check("0.43").correct
    assert ex.check("43%").correct  # 42.86% rounds to 43%
    assert not ex.check("42.8%").correct and "low" in ex.check("42.8%").message
    assert "between 0 and 1" in ex.check("7/3").message


STEPS = ("a: given", "b: given", "c: from a", "d: from b and c")
NEEDS = {"c: from a": ("a: given",), "d: from b and c": ("b: given", "c: from a")}


def test_order_accepts_every_order_a_proof_could_take():
    ex = Exercise("Order", "order", STEPS, options=tuple(reversed(STEPS)), needs=NEEDS)
    valid = {p for p in permutations(STEPS)
             if p.index("a: given") < p.index("c: from a")
             and p.index("c: from a") < p.index("d: from b and c")
             and p.index("b: given") < p.index("d: from b and c")}
    for order in permutations(STEPS):
        assert ex.check(list(order)).correct == (order in valid)
    assert len(valid) == 3
    # options are reversed, so A is the last step: "D C B A" is the engine's order
    assert ex.letter("a: given") == "D" and ex.check("D C B A").correct
    assert ex.check("d,c,b,a").correct


def test_order_counts_misplaced_steps_without_naming_them():
    ex = Exercise("Order", "order", STEPS, options=STEPS, needs=NEEDS)
    assert ex.check(list(reversed(STEPS))).message.startswith("2 of 4 steps are out of place")
    assert ex.check(["c: from a", "a: given", "b: given", "d: from b and c"]).message \
        .startswith("1 of 4 steps is out of place")
    assert "once" in ex.check("A A B C").message
    assert "still missing" in ex.check("A B").message
    assert "letters A to D" in ex.check("A B C Z").message
    without_needs = Exercise("Order", "order", STEPS, options=tuple(reversed(STEPS)))
    assert without_needs.check("D C B A").correct
    assert without_needs.check("C D B A").message.startswith("2 of 4")
    with pytest.raises(ValueError):
        Exercise("Order", "order", tuple(reversed(STEPS)), options=STEPS, needs=NEEDS)
    with pytest.raises(ValueError):
        Exercise("Order", "order", STEPS, options=STEPS[:3])


def test_round_trip_of_every_form():
    exercises = [
        Exercise("n", "count", 7, traps={6: "one short"}, hints=("h",)),
        Exercise("o", "order", STEPS, options=tuple(reversed(STEPS)), needs=NEEDS),
        Exercise("p", "number", Fraction(2, 5), traps={Fraction(1, 2): "even split"}),
    ]
    for ex in exercises:
        again = Exercise.from_dict(ex.to_dict())
        assert again == ex


def test_where_is_answer_and_hints_come_from_the_engine(ann):
    ex = where_is(ann, "White")
    assert ex.answer == "Cy" and ann.status("White", "Cy") is True
    assert ex.options == ("Ann", "Bob", "Cy", "the envelope")
    assert ex.check("Cy").correct and "White" in ex.check("Bob").message
    assert ex.hints[0] == "Look at event 3; the others do not matter."
    assert any("Showed one of them" in h for h in ex.hints)
    assert not any(h.endswith("Cy holds Mrs. White.") for h in ex.hints)
    assert "Showed one of them" in ex.reveal()
    with pytest.raises(ValueError, match="not certain"):
        where_is(ann, "Ballroom")


def test_which_cards_match_the_notepad(ann):
    open_for_bob = which_cards(ann, "Bob", certain=False)
    assert set(open_for_bob.answer) == {c.name for c in ann.edition.cards
                                        if ann.status(c, "Bob") is not False}
    assert open_for_bob.check(list(open_for_bob.answer)).correct
    envelope = which_cards(ann, "envelope")
    assert set(envelope.answer) == {"Mrs. Peacock", "Spanner"}
    assert envelope.prompt == "Which cards must be in the envelope?"
    assert "1 more belongs" in envelope.check(["Spanner"]).message


def test_which_rule_names_the_step_rule(ann):
    step = next(s for s in ann.deduction().steps if s.rule == "hand-lock")
    ex = which_rule(ann, step)
    assert ex.answer == "Separate groups fill the hand" and set(ex.options) == set(RULE_NAMES)
    assert ex.check("Separate groups fill the hand").correct
    assert "every card of that hand known" in ex.check("Hand is full").message
    assert step.text not in ex.prompt


def test_proof_order_from_an_explanation(ann):
    ex = proof_order(ann, "Spanner", "envelope", seed=3)
    why = ann.explain("Spanner", "envelope")
    assert len(ex.options) == len({s.events[0] for s in why.steps if s.rule == "observed"}) \
        + sum(1 for s in why.steps if s.rule != "observed")
    assert ex.check(list(ex.answer)).correct
    assert ex.options != ex.answer
    assert ex.answer[-1].startswith("(Last place left)")
    backwards = [ex.answer[-1], *ex.answer[:-1]]
    assert ex.check(backwards).message.startswith("1 of 9 steps is out of place")


def test_chance_counts_deals(ann):
    ex = chance(ann, "Ballroom", "envelope", traps={Fraction(1, 2): "Not an even split."})
    assert ex.answer == ann.probability("Ballroom", "envelope")
    assert ex.check(str(ex.answer)).correct
    assert ex.check("1/2").message == "Not an even split."


def test_widget_drives_every_form():
    order = ExerciseWidget(Exercise("Order", "order", STEPS, options=tuple(reversed(STEPS)),
                                    needs=NEEDS))
    html = order._repr_html_()
    assert "<b>A.</b> d: from b and c" in html and "letters" in html
    assert not order.answer("A B C D").correct and order.message.startswith("✗ 2 of 4")
    assert order.answer("D C B A").correct and order.solved
    count = ExerciseWidget(Exercise("How many?", "count", 3))
    count.part("answer").value = "4"
    count.part("check").click()
    assert "too many" in count.part("message").value
    count.part("answer").value = "3"
    count.part("check").click()
    assert count.solved and "Right" in count.part("message").value


def test_a_whole_number_typed_as_a_chance_is_exact():
    ex = Exercise("Chance?", "number", Fraction(3, 5))
    assert not ex.check("1").correct and not ex.check("0").correct
    assert Exercise("Chance?", "number", Fraction(0)).check("0").correct
    assert ex.check("60%").correct and ex.check("0.6").correct


# -- the lessons' exercises ---------------------------------------------------------------------

def _lessons():
    import json

    from cluedo_lab.lab.lessons import lesson_paths
    from cluedo_lab.rules.data import lessons_dir

    return {path.name: json.loads((lessons_dir() / path).read_text(encoding="utf-8"))
            for path in lesson_paths() if path.name[:1] in "0123" and len(path.parts) == 1}


def _text(cell):
    return "".join(cell["source"])


def test_every_lesson_ends_with_tagged_exercises_checked_by_the_kit():
    from cluedo_lab.lab.lessons import student_copy

    lessons = _lessons()
    assert len(lessons) >= 16
    total = 0
    for name, notebook in lessons.items():
        cells = notebook["cells"]
        tags = [c["metadata"].get("tags", []) for c in cells]
        widgets = [c for c, t in zip(cells, tags, strict=True)
                   if "exercise" in t and "ExerciseWidget(" in _text(c)]
        assert len(widgets) >= 3, name
        total += len(widgets)
        assert not any("my_answer" in _text(c) for c in cells), name
        # the worked answers the teacher's copy stores all pass the check
        for cell, t in zip(cells, tags, strict=True):
            if "solution" in t and ".check(" in _text(cell):
                shown = "".join("".join(o.get("text", "")) +
                                "".join(o.get("data", {}).get("text/plain", ""))
                                for o in cell["outputs"])
                assert "✓" in shown and "✗" not in shown, (name, _text(cell))
        student = student_copy(notebook)
        assert not any("solution" in c["metadata"].get("tags", []) for c in student["cells"])
        assert all(c["outputs"] == [] for c in student["cells"]
                   if "exercise" in c["metadata"].get("tags", []))
    assert total >= 30
