"""A class report (:class:`~cluedo_lab.lab.grading.ClassReport`) as one HTML page.

The page a teacher opens after ``cluedo-lab grade``: a chart of the share right per exercise,
the table of students by exercises (each cell an outcome, coloured and lettered so it reads
in black and white too), per exercise the most common wrong answers with what each was told,
and the files that were left out and why. Everything a student typed is escaped.
"""

from __future__ import annotations

from html import escape

from ..lab.attempts import AFTER_HELP, FIRST_TRY, NOT_TRIED, OUTCOMES, REVEALED, WRONG
from ..lab.charts import bar_chart
from ..lab.grading import ClassReport
from .charts_svg import chart_svg

__all__ = ["report_html", "OUTCOME_LOOKS"]

OUTCOME_LOOKS = {FIRST_TRY: ("✓", "#c8e6c9"), AFTER_HELP: ("✓+", "#fff59d"),
                 REVEALED: ("R", "#ffccbc"), WRONG: ("✗", "#ef9a9a"), NOT_TRIED: ("–", "#eeeeee")}
"""Each outcome's mark and background in the table."""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; line-height: 1.4; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #bbb; padding: .25rem .5rem; text-align: left; vertical-align: top; }
td.outcome { text-align: center; font-weight: bold; min-width: 2.2rem; }
.problems li { color: #b71c1c; }
.small { color: #555; font-size: .9rem; }
"""


def report_html(report: ClassReport) -> str:
    """The whole report as a standalone HTML page."""
    students, exercises = len(report.students), len(report.exercises)
    parts = [f"<h1>Class report: {students} student{'s' if students != 1 else ''}, "
             f"{exercises} exercise{'s' if exercises != 1 else ''}</h1>",
             f"<p class='small'>Handed-in notebooks in {escape(report.folder)}.</p>"]
    if report.exercises:
        parts += [_chart(report), _grid(report), _traps(report)]
    else:
        parts.append("<p>No attempts at any exercise were found: were the notebooks saved "
                     "with their widget state?</p>")
    parts.append(_problems(report))
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>Class report</title><style>{STYLE}</style></head><body>"
            + "".join(parts) + "</body></html>\n")


def _label(number: int) -> str:
    return f"Ex {number}"


def _chart(report: ClassReport) -> str:
    summaries = report.summaries()
    labels = [_label(i) for i in range(1, len(summaries) + 1)]
    total = max(1, len(report.students))
    values = {FIRST_TRY: [s.outcomes[FIRST_TRY] / total for s in summaries],
              AFTER_HELP: [s.outcomes[AFTER_HELP] / total for s in summaries]}
    chart = bar_chart(labels, values, title="Share of the class right, by exercise",
                      ylabel="students", ymin=0, ymax=1, percent=True,
                      width=max(420, 70 * len(labels) + 160))
    return f"<figure class='cluedo-grade-chart'>{chart_svg(chart)}</figure>"


def _grid(report: ClassReport) -> str:
    head = "".join(f"<th title='{escape(prompt)}'>{_label(i)}</th>"
                   for i, (_key, prompt) in enumerate(report.exercises, start=1))
    rows = []
    for student in report.students:
        cells = []
        for key, _prompt in report.exercises:
            outcome = report.outcome(student, key)
            mark, colour = OUTCOME_LOOKS[outcome]
            log = report.logs.get((student, key))
            detail = outcome if log is None else (
                f"{outcome}: {len(log.answers)} answers, {log.hints} hints")
            cells.append(f"<td class='outcome' style='background:{colour}' "
                         f"title='{escape(detail)}' data-outcome='{escape(outcome)}'>"
                         f"{mark}</td>")
        rows.append(f"<tr><th>{escape(student)}</th>{''.join(cells)}</tr>")
    legend = " · ".join(f"<span style='background:{colour};padding:0 .3em'>{mark}</span> "
                        f"{escape(outcome)}" for outcome in OUTCOMES
                        for mark, colour in [OUTCOME_LOOKS[outcome]])
    return (f"<h2>Students by exercise</h2><table class='cluedo-grade-grid'>"
            f"<tr><th>student</th>{head}</tr>{''.join(rows)}</table><p class='small'>{legend}"
            "</p>")


def _traps(report: ClassReport) -> str:
    rows = []
    for i, s in enumerate(report.summaries(), start=1):
        wrong = "".join(f"<li><b>{escape(answer)}</b> ({n} student{'s' if n != 1 else ''}): "
                        f"{escape(said)}</li>" for answer, n, said in s.wrong)
        counts = ", ".join(f"{s.outcomes[o]} {o}" for o in OUTCOMES if s.outcomes[o])
        rows.append(f"<tr><th>{_label(i)}</th><td>{escape(s.prompt)}<br>"
                    f"<span class='small'>{escape(s.key)}</span></td>"
                    f"<td>{s.share_right:.0%}<br><span class='small'>{escape(counts)}</span></td>"
                    f"<td>{f'<ul>{wrong}</ul>' if wrong else 'none'}</td></tr>")
    return ("<h2>Exercises</h2><table class='cluedo-grade-exercises'><tr><th></th>"
            "<th>question</th><th>right</th><th>most common wrong answers, and the trap each "
            f"fell into</th></tr>{''.join(rows)}</table>")


def _problems(report: ClassReport) -> str:
    if not report.problems:
        return "<p class='small'>Every file was counted.</p>"
    items = "".join(f"<li><b>{escape(p.file)}</b>: {escape(p.reason)}</li>"
                    for p in report.problems)
    return f"<h2>Files not counted</h2><ul class='problems'>{items}</ul>"
