"""The game review drawn: its curve as SVG in the kit's chart style, the review as HTML (a
notebook's output, or a page of its own), and the :class:`Review` widget.

The review itself is computed in :mod:`cluedo_lab.lab.review`; this module only lays it out.
A game's end screen hooks it in with one call: ``Review.from_game(game, seat).widget()``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..games.game import Game
from ..lab.review import (
    NOTHING_NEW,
    Cell,
    GameReview,
    SeatCurve,
    TurnReview,
    learner_lines,
    load_review,
    moment_lines,
    review_game,
)
from ..rules import numbers
from .base import InteractiveView, live_box, pre
from .charts_svg import PALETTE, REFERENCE_COLOUR

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["Review", "curve_svg", "review_html", "review_page"]

GRADE_COLOURS = {"best": "#55A868", "good": "#8ab17d", "inaccuracy": "#e9c46a",
                 "mistake": "#DD8452", "blunder": "#C44E52", NOTHING_NEW: "#8C8C8C"}


# -- the curve -------------------------------------------------------------------------------
# Drawn as the kit's charts are (views/charts_svg.py): its palette, 12 px sans-serif labels,
# light grid lines and coordinates to one decimal, so the SVG text is the same on every run.

def _f(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12,
          weight: str = "normal") -> str:
    bold = ' font-weight="bold"' if weight != "normal" else ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{size}" text-anchor="{anchor}"'
            f'{bold}>{escape(str(text))}</text>')


def _svg(width: int, height: int, parts: list[str]) -> str:
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img">\n'
            f'<rect width="{width}" height="{height}" fill="white"/>\n{body}\n</svg>')


def _ticks(high: float, count: int) -> list[float]:
    """Round ticks from 0 up to the first at or above ``high``."""
    raw = high / count if high > 0 else 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    ticks = [0.0]
    while ticks[-1] < high - step * 1e-9:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def curve_svg(review: GameReview, width: int = 640, height: int = 300) -> str:
    """Two panels side by side: consistent deals (log scale) and the envelope's entropy in
    bits, after every event, for the reviewed seat (thick) and each other seat (from their
    own records); the events that lowered the reviewed seat's entropy most are marked with
    dashed lines, and on every curve a dot marks that seat's biggest steps."""
    curves = review.curves()
    half = width // 2
    left = _panel(curves, lambda p: math.log10(p.deals) if p.deals > 0 else 0.0,
                  "consistent deals (log scale)", 0, half, height, review, log=True)
    right = _panel(curves, lambda p: p.entropy, "bits left in the envelope", half, half,
                   height, review)
    legend = []
    for k, curve in enumerate(curves):
        x = 70 + 120 * k
        colour = PALETTE[k % len(PALETTE)]
        legend.append(f'<rect x="{_f(x)}" y="{_f(height - 15)}" width="10" height="10" '
                      f'fill="{colour}"/>')
        label = f"{curve.seat} (you)" if k == 0 else curve.seat
        legend.append(_text(x + 14, height - 6, label))
    title = (f"<title>How much {review.seat} and the others still did not know, event by "
             "event</title>")
    return _svg(width, height, [title, *left, *right, *legend])


def _panel(curves: list[SeatCurve], value: Any, title: str, x0: int, width: int, height: int,
           review: GameReview, log: bool = False) -> list[str]:
    left, right, top, bottom = x0 + 52.0, x0 + width - 12.0, 30.0, height - 52.0
    events = max((p.event for c in curves for p in c.points), default=0) or 1
    values = [value(p) for c in curves for p in c.points] or [0.0]
    high = max(values) or 1.0
    ticks = _ticks(high, 4)
    high = max(high, ticks[-1])

    def px(event: int) -> float:
        return left + event / events * (right - left)

    def py(v: float) -> float:
        return bottom - v / high * (bottom - top)

    parts = [_text((left + right) / 2, 18, title, anchor="middle", size=13, weight="bold")]
    for tick in ticks:
        parts.append(f'<line x1="{_f(left)}" y1="{_f(py(tick))}" x2="{_f(right)}" '
                     f'y2="{_f(py(tick))}" stroke="#e4e4e4"/>')
        label = _log_label(tick) if log else f"{tick:g}"
        parts.append(_text(left - 5, py(tick) + 4, label, anchor="end", size=11))
    parts.append(f'<line x1="{_f(left)}" y1="{_f(top)}" x2="{_f(left)}" y2="{_f(bottom)}" '
                 'stroke="#444"/>')
    parts.append(f'<line x1="{_f(left)}" y1="{_f(bottom)}" x2="{_f(right)}" '
                 f'y2="{_f(bottom)}" stroke="#444"/>')
    for tick in _ticks(float(events), 5):
        if tick <= events:
            parts.append(_text(px(int(tick)), bottom + 14, f"{tick:g}", anchor="middle",
                               size=11))
    parts.append(_text((left + right) / 2, bottom + 28, "event", anchor="middle", size=11))
    for event, bits in review.curve.swings():
        x = px(event)
        parts.append(f'<line x1="{_f(x)}" y1="{_f(top)}" x2="{_f(x)}" y2="{_f(bottom)}" '
                     f'stroke="{REFERENCE_COLOUR}" stroke-width="1" stroke-dasharray="4 3">'
                     f'<title>event {event}: {bits:.2f} bits fewer</title></line>')
    for k, curve in reversed(list(enumerate(curves))):
        colour = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{_f(px(p.event))},{_f(py(value(p)))}" for p in curve.points)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="{3 if k == 0 else 1.5}"><title>{escape(curve.seat)}'
                     '</title></polyline>')
    for k, curve in enumerate(curves):
        parts += _swing_marks(curve, PALETTE[k % len(PALETTE)], px, lambda p: py(value(p)))
    return parts


def _swing_marks(curve: SeatCurve, colour: str, px: Any, py: Any) -> list[str]:
    """A dot on ``curve`` at each of the events that lowered its entropy most."""
    at = {p.event: p for p in curve.points}
    return [f'<circle cx="{_f(px(event))}" cy="{_f(py(at[event]))}" r="4" fill="{colour}" '
            f'stroke="white" class="swing"><title>{escape(curve.seat)}, event {event}: '
            f'{bits:.2f} bits fewer</title></circle>'
            for event, bits in curve.swings()]


# -- HTML ------------------------------------------------------------------------------------

def review_html(review: GameReview) -> str:
    """The review as an HTML fragment: turns, key moments, the others, the curve."""
    r = review
    parts = [f"<div class='cluedo-review'><h3>Game review: {escape(r.seat)}, "
             f"{escape(r.edition.name)}</h3>"]
    parts += [f"<p><i>{escape(note)}</i></p>" for note in r.notes]
    parts.append("<h4>Your turns</h4>" + _turns_table(r))
    parts.append("<h4>Key moments</h4><ul>" + "".join(
        f"<li>{escape(line)}</li>" for line in moment_lines(r)) + "</ul>")
    if r.others:
        parts.append("<h4>When each player could have known (from their own record)</h4><ul>"
                     + "".join(f"<li>{escape(c.seat)}: {_when(c.certain_from)}"
                               f"{' (' + escape(c.how) + ')' if c.how else ''}</li>"
                               for c in r.others) + "</ul>")
    parts.append("<h4>The curve</h4>" + curve_svg(r))
    if r.learner:
        parts.append("<h4>Your notes</h4><ul>" + "".join(
            f"<li>{escape(line)}</li>" for line in learner_lines(r)) + "</ul>")
    return "".join(parts) + "</div>"


def review_page(review: GameReview) -> str:
    """A whole HTML page (``cluedo-lab review --html``)."""
    title = escape(f"Game review: {review.seat}, {review.edition.name}")
    return ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{title}</title><style>body{{font-family:sans-serif;max-width:60em;"
            "margin:2em auto}table{border-collapse:collapse}td,th{padding:2px 8px;"
            "border-bottom:1px solid #ddd;text-align:left}</style></head><body>"
            f"{review_html(review)}</body></html>\n")


def _turns_table(r: GameReview) -> str:
    if not r.turns:
        return "<p>No turns of yours were played.</p>"
    head = ("<table class='cluedo-review-turns'><tr><th>turn</th><th>event</th>"
            "<th>you asked</th><th>bits</th><th>grade</th><th>best there</th><th>bits</th>"
            "<th>best within reach</th><th>action card played</th><th>bits</th><th>grade</th>"
            "<th>best play</th><th>bits</th></tr>")
    rows = [_turn_row(r, t) for t in r.turns]
    return head + "".join(rows) + "</table>"


def _turn_row(r: GameReview, t: TurnReview) -> str:
    asked = escape(r.names(t.question)) if t.question else \
        "<i>" + ("accused" if t.accused else f"played {escape(t.action)}" if t.action
                 else "asked nothing") + "</i>"
    grade = _graded(t.grade) if t.grade else ""
    reach = ""
    if t.reach_best and t.reach_room and t.reach_gain is not None:
        reach = (f"{escape(r.names(t.reach_best))} ({t.reach_gain:.3f})"
                 + (" ★" if t.reaches_further else ""))
    played = ["", "", "", "", ""]
    if t.action_grade:
        played = [escape(t.action or ""), _bits(t.action_gain), _graded(t.action_grade),
                  escape(t.best_action or "") if t.action_grade not in ("best", NOTHING_NEW)
                  else "", _bits(t.best_action_gain)]
    return (f"<tr><td>{t.turn}</td><td>{t.event}</td><td>{asked}</td><td>{_bits(t.gain)}</td>"
            f"<td>{grade}</td><td>{escape(r.names(t.best)) if t.best else ''}</td>"
            f"<td>{_bits(t.best_gain)}</td><td>{reach}</td>"
            + "".join(f"<td>{cell}</td>" for cell in played) + "</tr>")


def _graded(grade: str) -> str:
    return (f"<span style='background:{GRADE_COLOURS[grade]};padding:0 4px'>"
            f"{escape(grade)}</span>")


def _bits(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def _when(event: int | None) -> str:
    return f"after event {event}" if event is not None else "never"






# -- the widget ------------------------------------------------------------------------------

class Review(InteractiveView):
    """A game review to read and explore: pick one of your turns to see the question you
    asked, the best one there and the best within reach, with the curve and the key moments.

    ``Review.from_game(game, seat)`` is the one call a game's end screen needs."""

    def __init__(self, review: GameReview):
        self.review = review
        self.chosen = 0

    @classmethod
    def from_game(cls, game: Game, seat: str | int,
                  marks: Mapping[int, Mapping[Cell, str]] | None = None) -> Review:
        return cls(review_game(game, seat, marks))

    @classmethod
    def from_file(cls, path: str | Path, seat: str | None = None) -> Review:
        return cls(load_review(path, seat))

    def choose(self, index: int) -> Review:
        """Look at the ``index``-th of your turns (0 is the first)."""
        if not 0 <= index < len(self.review.turns):
            raise IndexError(f"choose 0..{len(self.review.turns) - 1}")
        self.chosen = index
        self._update()
        return self

    def turn_text(self, index: int | None = None) -> str:
        """One turn told in full."""
        if not self.review.turns:
            return "No turns of yours were played."
        r, t = self.review, self.review.turns[self.chosen if index is None else index]
        lines = [f"Turn {t.turn} (event {t.event})"]
        if t.question is None:
            if not t.action_grade:
                lines.append("You accused." if t.accused else f"You played {t.action}."
                             if t.action else "You asked nothing.")
        else:
            where = f" in the {r.name(t.room)}" if t.room else ""
            lines.append(f"You asked about {r.names(t.question)}{where}: {t.gain:.3f} bits "
                         f"expected. Grade: {t.grade}.")
            if t.best and t.grade not in ("best", NOTHING_NEW):
                lines.append(f"The best question there: {r.names(t.best)}, "
                             f"{t.best_gain:.3f} bits.")
            if t.bluff:
                lines.append(f"It named your own {r.names(t.bluff)} (a bluff).")
        if t.reach_best and t.reach_room and t.reach_gain is not None:
            lines.append(f"Within reach that turn: {r.names(t.reach_best)} in the "
                         f"{r.name(t.reach_room)}, {t.reach_gain:.3f} bits.")
        if t.action_grade and t.action_gain is not None and t.best_action_gain is not None:
            lines.append(f"You played {t.action}: {t.action_gain:.3f} bits expected. "
                         f"Grade: {t.action_grade}.")
            if t.action_grade not in ("best", NOTHING_NEW):
                lines.append(f"The best play then: {t.best_action}, "
                             f"{t.best_action_gain:.3f} bits.")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.review.text()

    def _repr_html_(self) -> str:
        return review_html(self.review)

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        options = [(f"turn {t.turn}, event {t.event}: "
                    f"{t.grade or t.action_grade or 'no question'}", i)
                   for i, t in enumerate(self.review.turns)]
        self._picker = w.Dropdown(options=options, value=0 if options else None,
                                  description="your turn", disabled=not options,
                                  layout=w.Layout(width="28em"))
        self._picker.add_class("cluedo-review-turn")
        self._detail = w.HTML()
        self._detail.add_class("cluedo-review-detail")
        self._picker.observe(lambda c: None if c["new"] is None else self.choose(c["new"]),
                             names="value")
        whole = w.HTML(review_html(self.review))
        box = live_box(self, [self._picker, self._detail, whole])
        box.add_class("cluedo-review")
        return box

    def _refresh(self) -> None:
        self._detail.value = pre(self.turn_text())


def _log_label(exponent: float) -> str:
    """A log-scale tick as the learner reads numbers (1,000,000, not 1e6)."""
    if float(exponent).is_integer():
        return numbers.count(10 ** int(exponent))
    return f"10^{exponent:g}"
