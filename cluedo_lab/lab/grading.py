"""A class report from a folder of handed-in notebooks: who got what right, and which traps.

Each exercise widget keeps its learner's attempts in the notebook's saved widget state
(:mod:`cluedo_lab.lab.attempts`). :func:`grade_folder` reads every notebook in a folder (a
student is a notebook's file name, or the first folder under the submissions folder when
notebooks sit in one folder per student, as nbgrader collects them) and makes a
:class:`ClassReport`: per student and exercise the outcome (right at first try, after hints
or tries, revealed, not right yet, not tried), per exercise the share right and the most
common wrong answers with the sentence each got (the trap it fell into).

Nothing a file holds can stop the report: a file that is not a notebook, a notebook of
another lesson, a copy handed in twice, or attempt data edited by hand is named among the
report's problems and left out, and every other file still counts. The files are read as
JSON data, sizes capped; nothing is evaluated or unpickled.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .attempts import AFTER_HELP, FIRST_TRY, NOT_TRIED, AttemptLog, LogError

__all__ = ["ClassReport", "Submission", "Problem", "ExerciseSummary", "grade_folder",
           "read_submission", "attempt_logs", "widget_values", "ATTEMPTS_CLASS", "WIDGET_STATE",
           "MAX_NOTEBOOK_BYTES", "MAX_NOTEBOOKS"]

ATTEMPTS_CLASS = "cluedo-exercise-attempts"
"""The CSS class of the widget that holds an exercise's attempts (views/exercises.py)."""
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MAX_NOTEBOOK_BYTES = 30_000_000
"""A notebook with its widget state is a few MB at most; a larger file is refused unread."""
MAX_NOTEBOOKS = 2_000
MAX_MODELS = 100_000

RIGHT = (FIRST_TRY, AFTER_HELP)


@dataclass(frozen=True)
class Problem:
    """A file the report could not count (or counted with a warning), and why."""

    file: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


@dataclass
class Submission:
    """One handed-in notebook: its student, and its attempt logs by exercise key."""

    file: str
    student: str
    logs: dict[str, AttemptLog]

    def fingerprint(self) -> tuple[Any, ...]:
        """What two copies of the same work share: every event, to the second."""
        return tuple(sorted((k, tuple((e.kind, e.at, e.answer) for e in log.events))
                            for k, log in self.logs.items()))


@dataclass
class ExerciseSummary:
    """One exercise across the class."""

    key: str
    prompt: str
    outcomes: Counter[str]
    wrong: list[tuple[str, int, str]]
    """The most common wrong answers: (answer, how many students gave it, what it was told)."""

    @property
    def tried(self) -> int:
        return sum(n for o, n in self.outcomes.items() if o != NOT_TRIED)

    @property
    def share_right(self) -> float:
        """Right (by themselves, at first or after hints), over every student counted."""
        total = sum(self.outcomes.values())
        return sum(self.outcomes[o] for o in RIGHT) / total if total else 0.0


@dataclass
class ClassReport:
    """Every counted submission's outcomes, the exercises' summaries and the problems."""

    folder: str
    exercises: list[tuple[str, str]]           # (key, prompt) in the order first met
    students: list[str]
    outcomes: dict[tuple[str, str], str]       # (student, key) -> outcome
    logs: dict[tuple[str, str], AttemptLog]
    problems: list[Problem] = field(default_factory=list)

    def outcome(self, student: str, key: str) -> str:
        return self.outcomes.get((student, key), NOT_TRIED)

    def summaries(self, top: int = 3) -> list[ExerciseSummary]:
        result = []
        for key, prompt in self.exercises:
            outcomes = Counter(self.outcome(s, key) for s in self.students)
            wrong: Counter[str] = Counter()
            said: dict[str, str] = {}
            for s in self.students:
                log = self.logs.get((s, key))
                if log is None:
                    continue
                for answer in dict.fromkeys(a.answer for a in log.answers if not a.right):
                    wrong[answer] += 1
                    said.setdefault(answer, next(a.said for a in log.answers
                                                 if a.answer == answer))
            common = [(a, n, said[a]) for a, n in wrong.most_common(top)]
            result.append(ExerciseSummary(key, prompt, outcomes, common))
        return result

    def rows(self) -> Iterator[dict[str, str]]:
        """One row per student and exercise (the CSV): outcome, answers, hints, seconds."""
        for student in self.students:
            for key, prompt in self.exercises:
                log = self.logs.get((student, key))
                seconds = log.seconds_to_right() if log else None
                yield {"student": student, "exercise": key, "question": prompt,
                       "outcome": self.outcome(student, key),
                       "answers": str(len(log.answers)) if log else "0",
                       "wrong": str(sum(not a.right for a in log.answers)) if log else "0",
                       "hints": str(log.hints) if log else "0",
                       "seconds_to_right": "" if seconds is None else str(seconds)}


    def to_csv(self) -> str:
        """:meth:`rows` as CSV text, with a header."""
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows())
        return out.getvalue()


CSV_FIELDS = ("student", "exercise", "question", "outcome", "answers", "wrong", "hints",
              "seconds_to_right")


# -- reading one notebook ---------------------------------------------------------------------

class NotANotebook(ValueError):
    """The file is not a Jupyter notebook the report can read."""


def attempt_logs(notebook: object) -> tuple[dict[str, AttemptLog], list[str]]:
    """The attempt logs a notebook's saved widget state holds, by exercise key (logs of one
    exercise shown twice are merged), and the reasons of logs that could not be trusted."""
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list) or \
            notebook.get("nbformat") != 4:
        raise NotANotebook("not a Jupyter notebook (nbformat 4)")
    logs: dict[str, AttemptLog] = {}
    bad: list[str] = []
    for text in widget_values(notebook, ATTEMPTS_CLASS):
        try:
            log = AttemptLog.from_json(text)
        except LogError as error:
            bad.append(str(error))
            continue
        logs[log.key] = logs[log.key].merged(log) if log.key in logs else log
    return logs, bad


def widget_values(notebook: object, css_class: str) -> list[object]:
    """The saved values of a notebook's widgets of CSS class ``css_class``, in the order the
    widget state holds them (of its first :data:`MAX_MODELS` models): where the kit keeps what
    a learner did (exercise attempts, notepad marks) in a notebook."""
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    widgets = metadata.get("widgets") if isinstance(metadata, dict) else None
    saved = widgets.get(WIDGET_STATE) if isinstance(widgets, dict) else None
    models = saved.get("state") if isinstance(saved, dict) else None
    values = []
    for model in list(models.values())[:MAX_MODELS] if isinstance(models, dict) else ():
        state = model.get("state") if isinstance(model, dict) else None
        if not isinstance(state, dict):
            continue
        classes = state.get("_dom_classes")
        if isinstance(classes, list) and css_class in classes:
            values.append(state.get("value"))
    return values


def read_submission(path: Path, root: Path) -> Submission:
    """One notebook as a submission; :class:`NotANotebook` or :class:`LogError` if it cannot
    be counted."""
    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise NotANotebook(f"{size:,} bytes, over the {MAX_NOTEBOOK_BYTES:,} a notebook can "
                           "need")
    try:
        notebook = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise NotANotebook("not UTF-8 text") from None
    except ValueError as error:
        raise NotANotebook(f"not JSON ({getattr(error, 'msg', error)})") from None
    except RecursionError:
        raise NotANotebook("nested too deeply") from None
    logs, bad = attempt_logs(notebook)
    if bad:
        raise LogError(bad[0] + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""))
    relative = path.relative_to(root)
    student = relative.parts[0] if len(relative.parts) > 1 else path.stem
    return Submission(relative.as_posix(), student, logs)


# -- a whole folder ---------------------------------------------------------------------------

def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()
                  and ".ipynb_checkpoints" not in p.parts
                  and not any(part.startswith(".") for part in p.relative_to(root).parts))


def grade_folder(folder: str | Path, lesson: Iterable[str] | None = None) -> ClassReport:
    """The class report of every notebook under ``folder``.

    The lesson being graded is known by its exercises: ``lesson`` (their keys), or else the
    exercises most submissions answered. A submission none of whose exercises belong to it
    is of another lesson. Two submissions with the very same attempts, to the second, are
    one piece of work handed in twice: the first (by file name) counts.
    """
    root = Path(folder)
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: not a folder of submissions")
    problems: list[Problem] = []
    submissions: list[Submission] = []
    files = _files(root)
    if len(files) > MAX_NOTEBOOKS:
        problems.append(Problem(str(root), f"{len(files):,} files; only the first "
                                f"{MAX_NOTEBOOKS:,} were read"))
    for path in files[:MAX_NOTEBOOKS]:
        name = path.relative_to(root).as_posix()
        if path.suffix != ".ipynb":
            problems.append(Problem(name, "not a notebook (.ipynb): left out"))
            continue
        try:
            submissions.append(read_submission(path, root))
        except NotANotebook as error:
            problems.append(Problem(name, f"{error}: left out"))
        except LogError as error:
            problems.append(Problem(name, f"tampered attempt data: {error}; left out"))
        except OSError as error:
            problems.append(Problem(name, f"cannot be read ({error.strerror}): left out"))
    keys = set(lesson) if lesson is not None else _lesson_keys(submissions)
    counted: list[Submission] = []
    for sub in submissions:
        problem = _why_not_counted(sub, counted, keys)
        if problem:
            problems.append(Problem(sub.file, problem))
        else:
            counted.append(sub)
    exercises: dict[str, str] = {}
    for sub in counted:
        for key, log in sub.logs.items():
            if key in keys:
                exercises.setdefault(key, log.prompt)
    logs = {(s.student, k): log for s in counted for k, log in s.logs.items() if k in keys}
    outcomes = {pair: log.outcome() for pair, log in logs.items()}
    order = _order(counted)
    return ClassReport(str(root), sorted(exercises.items(), key=lambda kv: order[kv[0]]),
                       sorted(s.student for s in counted), outcomes, logs, problems)


def _why_not_counted(sub: Submission, counted: list[Submission], keys: set[str]) -> str:
    """Why ``sub`` is left out ("" when it counts), given the submissions counted so far."""
    if sub.logs and not set(sub.logs) & keys:
        return "a notebook of another lesson (none of its exercises are this lesson's): left out"
    twin = next((c for c in counted if sub.logs and c.fingerprint() == sub.fingerprint()),
                None)
    if twin is not None:
        return f"the same attempts, to the second, as {twin.file}: handed in twice, counted once"
    earlier = next((c for c in counted if c.student == sub.student), None)
    if earlier is not None:
        return (f"a second notebook of student {sub.student!r} (after {earlier.file}): "
                "left out")
    return ""


def _lesson_keys(submissions: list[Submission]) -> set[str]:
    """The exercises of the lesson most submissions are of: a submission votes for the
    exercises it has; the lesson is every exercise met in a submission that shares one with
    the most voted exercise."""
    votes = Counter(k for s in submissions for k in s.logs)
    if not votes:
        return set()
    top = votes.most_common(1)[0][0]
    return {k for s in submissions if top in s.logs for k in s.logs}


def _order(submissions: list[Submission]) -> dict[str, tuple[int, str]]:
    """Exercises in the order learners met them: by the earliest place each takes among a
    notebook's exercises (widget state lists its widgets in the order they were made)."""
    order: dict[str, tuple[int, str]] = {}
    for sub in submissions:
        for rank, key in enumerate(sub.logs):
            order[key] = min(order.get(key, (rank, key)), (rank, key))
    return order
