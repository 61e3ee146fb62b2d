"""An exercise as a widget: the learner answers, the engine's answer checks it.

A thin skin over :class:`~cluedo_lab.lab.exercises.Exercise`: a choice (one option, or
several), a box for a chance or a whole number, or lettered steps to put in order (typed as
"C A B"), then **Check** (a friendly sentence, right or wrong), **Hint** (each press says a
little more, never the answer) and **Reveal** (the answer and how to find it). The buttons call
:meth:`ExerciseWidget.answer`, :meth:`hint` and :meth:`reveal`, so tests and notebooks can
drive it without a browser; saved, it shows the question as HTML.

Each widget keeps the learner's attempts (:class:`~cluedo_lab.lab.attempts.AttemptLog`) in a
hidden text widget of class ``cluedo-exercise-attempts``, and a line under the buttons says what
is saved. With widget state saved in the notebook (the kit's default), the notebook carries
the attempts: ``cluedo-lab grade`` reads them from a folder of handed-in notebooks.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..lab.attempts import AttemptLog, keep_spare, with_spare
from ..lab.class_settings import class_settings
from ..lab.exercises import Exercise, Feedback
from .base import InteractiveView, live_box, pre

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["ExerciseWidget", "ATTEMPTS_CLASS"]

ATTEMPTS_CLASS = "cluedo-exercise-attempts"
"""The CSS class of the hidden widget that holds an exercise's attempts (the grader finds the
attempts in a notebook's saved widget state by it)."""

HOW = {"pick": "Choose one.", "pick-many": "Choose every one that applies.",
       "number": "Type the chance as a percentage, like 33.3% (a fraction or a decimal is "
                 "understood too).",
       "count": "Type a whole number.",
       "order": "Type the letters of the steps in the order a proof would take them, "
                "like C A B."}


def _notebook_folder() -> Path | None:
    """The working folder when running in a notebook's kernel (where the lesson is), else
    None: a script or a test leaves no file behind."""
    from IPython import get_ipython

    return Path.cwd() if get_ipython() is not None else None


class ExerciseWidget(InteractiveView):
    """One exercise, answered in the notebook; :attr:`log` keeps every attempt."""

    def __init__(self, exercise: Exercise, spare: str | Path | None = None):
        self.exercise = exercise
        self.message = ""
        self.hints_given = 0
        self.solved = False
        self.spare = Path(spare) if spare is not None else _notebook_folder()
        """Where the spare copy of the log is kept (None: nowhere; by default the working
        folder when running in a notebook, see :mod:`cluedo_lab.lab.attempts`)."""
        self.log = AttemptLog(exercise.key, exercise.prompt)
        if self.spare is not None:
            self.log = with_spare(self.log, self.spare)
        self.can_reveal = class_settings().reveal
        """False when the class's settings turn Reveal off (no button; :meth:`reveal`
        refuses)."""

    # -- what the buttons do -----------------------------------------------------------------
    def answer(self, response: Any) -> Feedback:
        """Check ``response`` (an option, a list of options, or a typed number)."""
        feedback = self.exercise.check(response)
        if response not in (None, "", (), []):
            self.log.answered(response, feedback.correct, feedback.message)
            self._record()
        self.solved = self.solved or feedback.correct
        self.message = str(feedback)
        self._update()
        return feedback

    def hint(self) -> str:
        self.hints_given += 1
        self.log.hinted()
        self._record()
        self.message = self.exercise.hint(self.hints_given)
        self._update()
        return self.message

    def reveal(self) -> str:
        if not self.can_reveal:
            self.message = "Reveal is turned off for this class: the hints still help."
            self._update()
            return self.message
        self.log.revealed()
        self._record()
        self.message = self.exercise.reveal()
        self._update()
        return self.message

    def _record(self) -> None:
        if self.spare is not None:
            keep_spare(self.log, self.spare)

    def saved_note(self) -> str:
        """The line under the buttons: what the notebook keeps of the learner's work."""
        answers, hints = self.log.answers, self.log.hints
        if not answers and not hints and not any(e.kind == "reveal" for e in self.log.events):
            return ""
        wrong = sum(not a.right for a in answers)
        parts = [f"{len(answers)} answer{'s' if len(answers) != 1 else ''} "
                 f"({wrong} wrong)", f"{hints} hint{'s' if hints != 1 else ''}"]
        if any(e.kind == "reveal" for e in self.log.events):
            parts.append("revealed")
        return f"Saved with this notebook: {', '.join(parts)}; {self.log.outcome()}."

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
            self._input = _PickMany(ex.options)
        elif ex.form == "count":
            self._input = w.Text(placeholder="a whole number, e.g. 12")
        elif ex.form == "order":
            self._input = w.Text(placeholder=f"the letters in order, e.g. "
                                 f"{' '.join(sorted(ex.letter(o) for o in ex.options[:3]))}",
                                 layout=w.Layout(width="24em"))
        else:
            self._input = w.Text(placeholder="e.g. 33.3%")
        buttons = {}
        actions = [("Check", lambda: self.answer(self._response())), ("Hint", self.hint)]
        if self.can_reveal:
            actions.append(("Reveal", self.reveal))
        for label, act in actions:
            button = w.Button(description=label)
            button.add_class(f"cluedo-exercise-{label.lower()}")
            button.on_click(lambda _b, act=act: act())
            buttons[label.lower()] = button
        self._message = w.HTML()
        self._message.add_class("cluedo-exercise-message")
        self._saved = w.HTML()
        self._saved.add_class("cluedo-exercise-saved")
        # The attempts as JSON, saved with the notebook's widget state; never shown.
        self._attempts = w.Text(disabled=True, layout=w.Layout(display="none"))
        self._attempts.add_class(ATTEMPTS_CLASS)
        top = [w.HTML(f"<b>{escape(ex.prompt)}</b>")]
        if ex.form == "order":
            top.append(w.HTML(self._options_html()))
        if ex.form in ("pick-many", "order"):
            top.append(w.HTML(f"<i>{HOW[ex.form]}</i>"))
        answer = self._input.widget if isinstance(self._input, _PickMany) else self._input
        box = live_box(self, [*top, answer, w.HBox(list(buttons.values())), self._message,
                              self._saved, self._attempts])
        box.add_class("cluedo-exercise")
        self._parts = {"answer": self._input, **buttons, "message": self._message,
                       "saved": self._saved, "attempts": self._attempts}
        return box

    def _response(self) -> Any:
        value = self._input.value
        return list(value) if isinstance(value, tuple) else value

    def _refresh(self) -> None:
        self._message.value = pre(self.message) if self.message else ""
        note = self.saved_note()
        self._saved.value = (f"<small style='color:#555'>{escape(note)}</small>" if note
                             else "")
        self._attempts.value = self.log.to_json()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget())  # type: ignore[no-untyped-call]


class _PickMany:
    """Pick-many as one checkbox per option, in columns (a list box that needs Ctrl-click to
    choose more than one is neither obvious nor kind to a keyboard); ``value`` is the options
    ticked, in the order shown, as a ``SelectMultiple``'s would be."""

    def __init__(self, options: tuple[str, ...]):
        import ipywidgets as w

        self.boxes = [w.Checkbox(value=False, description=o, indent=False,
                                 layout=w.Layout(width="auto")) for o in options]
        for box in self.boxes:
            box.add_class("cluedo-pick-many-option")
        columns = 3 if len(options) > 8 else 1
        self.widget = w.GridBox(self.boxes, layout=w.Layout(
            grid_template_columns=f"repeat({columns}, max-content)", grid_gap="0 1.5em"))
        self.widget.add_class("cluedo-pick-many")

    @property
    def value(self) -> tuple[str, ...]:
        return tuple(b.description for b in self.boxes if b.value)

    @value.setter
    def value(self, chosen: tuple[str, ...] | list[str]) -> None:
        for box in self.boxes:
            box.value = box.description in chosen
