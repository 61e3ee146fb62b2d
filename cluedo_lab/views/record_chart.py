"""Pictures of a record: the deals that still fit (log scale) and the envelope's chances, event
by event, with a slider that steps through the record; and the information-gain ranking of the
questions as bars.

Pure functions give SVG text (the same on every run, so nbval can compare it); the numbers come
from :mod:`cluedo_lab.lab.record_steps` and the advisor's ranking, written in the kit's one
format (:mod:`cluedo_lab.rules.numbers`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from ..knowledge.advice import Option
from ..lab.record_steps import Step, record_steps
from ..records import Record
from ..rules import numbers
from ..rules.edition import Edition
from .base import InteractiveView, live_box
from .charts_svg import PALETTE

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["RecordChart", "GainBars", "record_chart_svg", "step_text", "gain_bars_svg"]

HEIGHT = 280
PANEL = 330
DASHES = ("", ' stroke-dasharray="7 4"', ' stroke-dasharray="2 3"')
"""Line styles by series, so lines differ in shape as well as colour (and lines that
coincide still show)."""


def _f(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12) -> str:
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{size}" text-anchor="{anchor}">'
            f'{escape(text)}</text>')


def _svg(width: int, height: int, title: str, desc: str, parts: list[str]) -> str:
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img">\n'
            f'<title>{escape(title)}</title>\n<desc>{escape(desc)}</desc>\n'
            f'<rect width="{width}" height="{height}" fill="white"/>\n{body}\n</svg>')


def log_deals(deals: int | Fraction) -> float:
    """Where a count of deals sits on the log scale: its power of ten."""
    return math.log10(float(deals)) if deals > 0 else 0.0


def step_text(step: Step, total: int) -> str:
    """The step in words: which event, what it was, how many deals fit, the chances."""
    what = step.said.removeprefix(f"event {step.event}: ")
    where = (f"At the deal, before any of the {total} events" if step.event == 0
             else f"After event {step.event} of {total} ({what})")
    chances = ", ".join(f"{card} {numbers.chance(p)}" for card, p in step.chances)
    return f"{where}: {numbers.count(step.deals)} deals fit; in the envelope: {chances}."


def record_chart_svg(steps: Sequence[Step], current: int | None = None) -> str:
    """Two panels: the deals that fit after each event (log scale), and each followed card's
    chance of being in the envelope. ``current`` marks that event with a dashed line."""
    total = len(steps) - 1
    top = max(1, math.ceil(max(log_deals(s.deals) for s in steps)))
    parts = _panel(steps, 0, "deals that fit (log scale)", [log_deals(s.deals) for s in steps],
                   (0.0, float(top)), [(float(p), numbers.count(10 ** p)) for p in
                                      range(0, top + 1, max(1, math.ceil(top / 6)))],
                   current, 0)
    for k, (card, _) in enumerate(steps[0].chances):
        parts += _panel(steps, PANEL, "chance in the envelope",
                        [float(s.chances[k][1]) for s in steps], (0.0, 1.0),
                        [(t / 4, numbers.chance(Fraction(t, 4)))
                         for t in range(5)] if k == 0 else [], current, k, axes=k == 0)
        parts.append(f'<line x1="{PANEL * 2 + 4}" y1="{45 + 18 * k}" x2="{PANEL * 2 + 20}" '
                     f'y2="{45 + 18 * k}" stroke="{PALETTE[k % len(PALETTE)]}" '
                     f'stroke-width="3"{DASHES[k % len(DASHES)]}/>')
        parts.append(_text(PANEL * 2 + 24, 49 + 18 * k, card))
    now = steps[current if current is not None else total]
    desc = " ".join(step_text(s, total) for s in steps)
    return _svg(PANEL * 2 + 150, HEIGHT, f"The record, event by event (now: event {now.event})",
                desc, parts)


def _panel(steps: Sequence[Step], x0: int, title: str, values: list[float],
           span: tuple[float, float], ticks: list[tuple[float, str]], current: int | None,
           k: int, axes: bool = True) -> list[str]:
    """One panel: a line through one value per event, its y ticks, and the current event."""
    left, right, top, bottom = x0 + 78.0, x0 + PANEL - 12.0, 30.0, HEIGHT - 40.0
    last = max(1, len(values) - 1)

    def px(event: int) -> float:
        return left + event / last * (right - left)

    def py(value: float) -> float:
        return bottom - (value - span[0]) / (span[1] - span[0]) * (bottom - top)

    parts = []
    if axes:
        parts.append(_text((left + right) / 2, 18, title, anchor="middle", size=13))
        for value, label in ticks:
            parts.append(f'<line x1="{_f(left)}" y1="{_f(py(value))}" x2="{_f(right)}" '
                         f'y2="{_f(py(value))}" stroke="#e4e4e4"/>')
            parts.append(_text(left - 4, py(value) + 4, label, anchor="end", size=10))
        parts.append(f'<line x1="{_f(left)}" y1="{_f(bottom)}" x2="{_f(right)}" '
                     f'y2="{_f(bottom)}" stroke="#444"/>')
        parts.append(_text((left + right) / 2, bottom + 30, "events", anchor="middle"))
        for event in range(0, len(values), max(1, math.ceil(len(values) / 10))):
            parts.append(_text(px(event), bottom + 14, str(event), anchor="middle", size=10))
        if current is not None:
            parts.append(f'<line x1="{_f(px(current))}" y1="{_f(top)}" x2="{_f(px(current))}" '
                         f'y2="{_f(bottom)}" stroke="#333" stroke-dasharray="5 3" '
                         'class="current"/>')
    colour = PALETTE[k % len(PALETTE)]
    points = [(px(e), py(v)) for e, v in enumerate(values)]
    parts.append('<polyline points="' + " ".join(f"{_f(a)},{_f(b)}" for a, b in points)
                 + f'" fill="none" stroke="{colour}" stroke-width="{3 - k * 0.5}"'
                 f'{DASHES[k % len(DASHES)]}/>')
    parts += [f'<circle cx="{_f(a)}" cy="{_f(b)}" r="{4.5 - k}" fill="{colour}" '
              'class="point"/>' for a, b in points]
    return parts


def gain_bars_svg(ranking: Sequence[Option], edition: Edition, top: int = 8) -> str:
    """The advisor's ranking as horizontal bars, best question first, bits along the axis."""
    shown = list(ranking[:top])
    names = [", ".join(edition.card(c).name for c in o.named) for o in shown]
    width, row, left = 640, 26, 250.0
    height = 50 + row * len(shown)
    high = max([o.gain for o in shown] + [0.0]) or 1.0
    scale = (width - left - 70) / high
    parts = [_text(width / 2, 18, "Expected information gain (bits)", anchor="middle", size=13)]
    for i, (option, name) in enumerate(zip(shown, names, strict=True)):
        y = 30 + row * i
        parts.append(_text(left - 6, y + 15, name, anchor="end"))
        parts.append(f'<rect x="{_f(left)}" y="{_f(y + 3)}" width="{_f(option.gain * scale)}" '
                     f'height="{row - 8}" fill="{PALETTE[0]}" class="bar"/>')
        parts.append(_text(left + option.gain * scale + 4, y + 15, f"{option.gain:.3f} bits"))
    desc = "; ".join(f"{name}: {o.gain:.3f} bits" for name, o in zip(names, shown, strict=True))
    return _svg(width, height, "The best questions, by expected information gain", desc, parts)


class RecordChart(InteractiveView):
    """The record chart with a slider: move it to an event to mark it and read what it was."""

    def __init__(self, record: Record, cards: tuple[str, ...] | None = None):
        self.steps = record_steps(record, cards)
        self.current = len(self.steps) - 1

    def __repr__(self) -> str:
        return f"RecordChart(<{len(self.steps) - 1} events>)"

    def text(self) -> str:
        return step_text(self.steps[self.current], len(self.steps) - 1)

    def svg(self) -> str:
        return record_chart_svg(self.steps, self.current)

    def _repr_html_(self) -> str:
        return f"<div>{self.svg()}<p>{escape(self.text())}</p></div>"

    def show(self, event: int) -> None:
        """Mark ``event`` (0: the deal)."""
        self.current = max(0, min(event, len(self.steps) - 1))
        self._update()

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets

        self._slider = ipywidgets.IntSlider(
            value=self.current, min=0, max=len(self.steps) - 1, description="Event",
            description_allow_html=False)
        self._slider.observe(lambda change: self.show(int(change["new"])), names="value")
        self._picture = ipywidgets.HTML()
        self._words = ipywidgets.HTML()
        self._parts = {"event": self._slider, "picture": self._picture, "words": self._words}
        return live_box(self, [self._slider, self._picture, self._words])

    def _refresh(self) -> None:
        self._picture.value = self.svg()
        self._words.value = f'<p aria-live="polite">{escape(self.text())}</p>'


class GainBars:
    """The ranking's bar chart as an object a notebook shows (its SVG)."""

    def __init__(self, ranking: Sequence[Option], edition: Edition, top: int = 8):
        self.ranking, self.edition, self.top = list(ranking), edition, top

    def __repr__(self) -> str:
        return f"GainBars(<{len(self.ranking)} questions>, top={self.top})"

    def _repr_svg_(self) -> str:
        return gain_bars_svg(self.ranking, self.edition, self.top)
