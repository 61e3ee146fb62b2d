"""An exercise as a widget: the learner answers, the engine's answer checks it.

A thin skin over :class:`~cluedo_lab.lab.exercises.Exercise`: a choice (one option, or
several), a box for a chance or a whole number, or lettered steps to put in order (typed as
"C A B"), then **Check** (a friendly sentence, right or wrong), **Hint** (each press says a
little more, never the answer) and **Reveal** (the answer and how to find it). The buttons call
:meth:`ExerciseWidget.answer`, :meth:`hint` and :meth:`reveal`, so tests and notebooks can
drive it without a browser; saved, it shows the question as HTML.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..lab.exercises import Exercise, Feedback
from .base import InteractiveView, live_box, pre

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["ExerciseWidget"]

HOW = {"pick": "Choose one.", "pick-many": "Choose every one that applies.",
       "number": "Type a fraction (1/3), a percentage (33.3%) or a decimal.",
       "count": "Type a whole number.",
       "order": "Type the letters of the steps in the order a proof would take them, "
                "like C A B."}


class ExerciseWidget(InteractiveView):
    """One exercise, answered in the notebook."""

    def __init__(self, exercise: Exercise):
        self.exercise = exercise
        self.message = ""
        self.hints_given = 0
        self.solved = False

    # -- what the buttons do -----------------------------------------------------------------
    def answer(self, response: Any) -> Feedback:
        """Check ``response`` (an option, a list of options, or a typed number)."""
        feedback = self.exercise.check(response)
        self.solved = self.solved or feedback.correct
        self.message = str(feedback)
        self._update()
        return feedback

    def hint(self) -> str:
        self.hints_given += 1
        self.message = self.exercise.hint(self.hints_given)
        self._update()
        return self.message

    def reveal(self) -> str:
        self.message = self.exercise.reveal()
        self._update()
        return self.message

    # -- drawing -----------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        ex = self.exercise
        return (f"<div class='cluedo-exercise'><p><b>{escape(ex.prompt)}</b></p>"
                f"{self._options_html()}<p><i>{HOW[ex.form]}</i></p>"
                f"{pre(self.message) if self.message else ''}</div>")

    def _options_html(self) -> str:
        ex = self.exercise
        if ex.form == "order":
            items = "".join(f"<li><b>{ex.letter(o)}.</b> {escape(o)}</li>" for o in ex.options)
            return f"<ul style='list-style:none;padding-left:0.5em'>{items}</ul>"
        if ex.form in ("pick", "pick-many"):
            return "<ul>" + "".join(f"<li>{escape(o)}</li>" for o in ex.options) + "</ul>"
        return ""

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        ex = self.exercise
        if ex.form == "pick":
            self._input: Any = w.RadioButtons(options=list(ex.options), value=None,
                                              layout=w.Layout(width="auto"))
        elif ex.form == "pick-many":
            self._input = w.SelectMultiple(options=list(ex.options),
                                           rows=min(8, len(ex.options)))
        elif ex.form == "count":
            self._input = w.Text(placeholder="a whole number, e.g. 12")
        elif ex.form == "order":
            self._input = w.Text(placeholder=f"the letters in order, e.g. "
                                 f"{' '.join(sorted(ex.letter(o) for o in ex.options[:3]))}",
                                 layout=w.Layout(width="24em"))
        else:
            self._input = w.Text(placeholder="e.g. 1/3 or 33.3%")
        buttons = []
        for label, act in (("Check", lambda: self.answer(self._response())),
                           ("Hint", self.hint), ("Reveal", self.reveal)):
            button = w.Button(description=label)
            button.add_class(f"cluedo-exercise-{label.lower()}")
            button.on_click(lambda _b, act=act: act())
            buttons.append(button)
        self._message = w.HTML()
        self._message.add_class("cluedo-exercise-message")
        top = [w.HTML(f"<b>{escape(ex.prompt)}</b>")]
        if ex.form == "order":
            top.append(w.HTML(self._options_html()))
        box = live_box(self, [*top, self._input, w.HBox(buttons), self._message])
        box.add_class("cluedo-exercise")
        return box

    def _response(self) -> Any:
        value = self._input.value
        return list(value) if isinstance(value, tuple) else value

    def _refresh(self) -> None:
        self._message.value = pre(self.message) if self.message else ""

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget())
