"""Draw a :class:`~cluedo_lab.lab.charts.Chart` as small deterministic SVG.

The kit draws its own figures so that a notebook's stored output is the same byte for byte on
every run (nbval compares SVG text): coordinates are rounded to one decimal, there are no dates,
no random ids and no fonts to embed.
"""

from __future__ import annotations

import math
from html import escape
from pathlib import Path

from ..lab.charts import Chart, Number

__all__ = ["chart_svg", "save_chart", "PALETTE"]

PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3",
           "#8C8C8C")
"""Series colours, in order (colour-blind friendly, after seaborn's "deep")."""

REFERENCE_COLOUR = "#333333"
CHAR_WIDTH = 6.6
"""Rough width of a character of 12 px sans-serif text, for laying out labels."""


def chart_svg(chart: Chart) -> str:
    """The chart as SVG text."""
    return _bar_svg(chart) if chart.kind == "bar" else _line_svg(chart)


def save_chart(chart: Chart, path: str | Path) -> None:
    """Write the chart's SVG to ``path``."""
    Path(path).write_text(chart_svg(chart), encoding="utf-8")


def _bar_svg(chart: Chart) -> str:
    labels = [str(label) for label in chart.x]
    series, whiskers, marks = chart.series, chart.whiskers, chart.marks
    reference_label, percent = chart.reference_label, chart.percent
    names = list(series) if len(series) > 1 else []
    frame = _Frame(chart.width, chart.height, _range(chart, zero=True),
                   names + ([reference_label] if reference_label and marks else []))
    parts = frame.axes(chart.title, chart.ylabel, percent)
    slot = frame.plot_width / max(1, len(labels))
    bar = slot * 0.8 / len(series)
    for i, label in enumerate(labels):
        x0 = frame.left + i * slot + slot * 0.1
        parts += _label(frame.left + (i + 0.5) * slot, frame.bottom + 16, label, slot)
        for k, (name, vals) in enumerate(series.items()):
            colour = PALETTE[k % len(PALETTE)]
            x = x0 + k * bar
            y_value, y_zero = frame.y(vals[i]), frame.y(max(frame.low, 0.0))
            y, h = min(y_value, y_zero), abs(y_zero - y_value)
            parts.append(f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(bar * 0.92)}" '
                         f'height="{_f(h)}" fill="{colour}"><title>{escape(label)}'
                         f'{" / " + escape(name) if len(series) > 1 else ""}: '
                         f'{_value(vals[i], percent)}</title></rect>')
            lo, hi = whiskers[name][i]
            if lo is not None and hi is not None:
                parts += _whisker(x + bar * 0.46, frame.y(lo), frame.y(hi), bar * 0.25)
        if marks:
            y = frame.y(marks[i])
            parts.append(_dashed(x0 - slot * 0.04, y, x0 + slot * 0.84, y))
    parts += frame.legend(names, reference_label if marks else "")
    return _svg(chart.width, chart.height, parts)


def _line_svg(chart: Chart) -> str:
    x: list[Number] = [v for v in chart.x if not isinstance(v, str)]
    series, whiskers, marks = chart.series, chart.whiskers, chart.marks
    reference_label, percent, xlabel = chart.reference_label, chart.percent, chart.xlabel
    names = list(series) if len(series) > 1 else []
    frame = _Frame(chart.width, chart.height, _range(chart, zero=False),
                   names + ([reference_label] if reference_label and marks else []))
    parts = frame.axes(chart.title, chart.ylabel, percent)
    x_lo, x_hi = min(x), max(x)
    span = (x_hi - x_lo) or 1.0

    def px(value: Number) -> float:
        return frame.left + 16 + (value - x_lo) / span * (frame.plot_width - 32)

    shown = sorted(set(x)) if len(set(x)) <= 12 else _ticks(x_lo, x_hi)
    for value in shown:
        parts.append(_text(px(value), frame.bottom + 16, _tick_label(value), anchor="middle"))
    if xlabel:
        parts.append(_text(frame.left + frame.plot_width / 2, frame.bottom + 34, xlabel,
                           anchor="middle"))
    if marks:
        parts.append(_dashed(frame.left, frame.y(marks[0]), frame.right, frame.y(marks[0])))
    drawn = [n for n in series if any(lo is not None for lo, _ in whiskers[n])]
    for k, (name, vals) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        nudge = (drawn.index(name) - (len(drawn) - 1) / 2) * 5 if name in drawn else 0.0
        points = [(px(a) + nudge, frame.y(b)) for a, b in zip(x, vals, strict=True)]
        if chart.lines and len(points) > 1:
            path = " ".join(f"{_f(a)},{_f(b)}" for a, b in points)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                         'stroke-width="2"/>')
        for (a, b), (lo, hi), raw_x, raw_y in zip(points, whiskers[name], x, vals, strict=True):
            if lo is not None and hi is not None:
                parts += _whisker(a, frame.y(lo), frame.y(hi), 4, colour)
            parts.append(f'<circle cx="{_f(a)}" cy="{_f(b)}" r="3.5" fill="{colour}">'
                         f'<title>{escape(name) + ": " if len(series) > 1 else ""}'
                         f'{_tick_label(raw_x)} → {_value(raw_y, percent)}</title></circle>')
    parts += frame.legend(names, reference_label if marks else "")
    return _svg(chart.width, chart.height, parts)


class _Frame:
    """The plotting area, the y scale (from the lowest to the first round tick at or above
    the highest value) and the legend's room on the right."""

    def __init__(self, width: int, height: int, span: tuple[float, float],
                 legend: list[str]):
        low, high = span
        if not (math.isfinite(low) and math.isfinite(high)):
            raise ValueError("chart values must be finite numbers")
        if high <= low:
            high = low + 1.0
        ticks = _ticks(low, high)
        self.ticks = ticks
        self.low, self.high = low, max(high, ticks[-1])
        self.left, self.top = 62.0, 34.0
        room = 30 + CHAR_WIDTH * max((len(n) for n in legend), default=0) if legend else 0
        self.right = width - max(16.0, room)
        self.bottom = height - 44.0
        self.plot_width = self.right - self.left
        self.width = width

    def y(self, value: Number) -> float:
        share = (value - self.low) / (self.high - self.low)
        return self.bottom - share * (self.bottom - self.top)

    def axes(self, title: str, ylabel: str, percent: bool) -> list[str]:
        parts = []
        if title:
            parts.append(_text(self.width / 2, 20, title, anchor="middle", size=14,
                               weight="bold"))
        for tick in self.ticks:
            y = self.y(tick)
            parts.append(f'<line x1="{_f(self.left)}" y1="{_f(y)}" x2="{_f(self.right)}" '
                         f'y2="{_f(y)}" stroke="#e4e4e4"/>')
            parts.append(_text(self.left - 6, y + 4, _value(tick, percent, axis=True),
                               anchor="end"))
        parts.append(f'<line x1="{_f(self.left)}" y1="{_f(self.top)}" x2="{_f(self.left)}" '
                     f'y2="{_f(self.bottom)}" stroke="#444"/>')
        parts.append(f'<line x1="{_f(self.left)}" y1="{_f(self.bottom)}" '
                     f'x2="{_f(self.right)}" y2="{_f(self.bottom)}" stroke="#444"/>')
        if ylabel:
            middle = (self.top + self.bottom) / 2
            parts.append(f'<text x="14" y="{_f(middle)}" font-size="12" text-anchor="middle" '
                         f'transform="rotate(-90 14 {_f(middle)})">{escape(ylabel)}</text>')
        return parts

    def legend(self, names: list[str], reference: str = "") -> list[str]:
        parts = []
        x = self.right + 14
        for k, name in enumerate(names):
            y = self.top + 6 + 18 * k
            parts.append(f'<rect x="{_f(x)}" y="{_f(y - 9)}" width="10" height="10" '
                         f'fill="{PALETTE[k % len(PALETTE)]}"/>')
            parts.append(_text(x + 16, y, name))
        if reference:
            y = self.top + 6 + 18 * len(names)
            parts.append(_dashed(x - 2, y - 4, x + 12, y - 4))
            parts.append(_text(x + 16, y, reference))
        return parts


def _range(chart: Chart, zero: bool) -> tuple[float, float]:
    """The y range: every value, whisker end and reference mark (and 0 for bars)."""
    everything = [v for vs in chart.series.values() for v in vs] + list(chart.marks)
    everything += [v for w in chart.whiskers.values() for pair in w for v in pair
                   if v is not None]
    top = chart.ymax if chart.ymax is not None else max(everything + ([0.0] if zero else []))
    bottom = chart.ymin if chart.ymin is not None else min(everything + [0.0])
    return bottom, top


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values from ``low`` up to the first at or above ``high``."""
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    value = math.ceil(low / step - 1e-9) * step
    ticks = []
    while True:
        ticks.append(round(value, 10))
        if value >= high - step * 1e-9:
            return ticks
        value += step


def _tick_label(value: Number) -> str:
    return f"{value:g}"


def _value(value: Number, percent: bool, axis: bool = False) -> str:
    if percent:
        return f"{value * 100:.0f}%" if axis else f"{value * 100:.1f}%"
    return f"{value:g}" if axis else f"{value:.3g}"


def _label(x: float, y: float, text: str, room: float) -> list[str]:
    """A category label under its group, broken into lines at spaces to fit ``room``."""
    words, lines = str(text).split(), list[str]()
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= room / CHAR_WIDTH:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return [_text(x, y + 14 * k, line, anchor="middle") for k, line in enumerate(lines or [""])]


def _whisker(x: float, y_low: float, y_high: float, half: float,
             colour: str = "#222") -> list[str]:
    return [f'<line x1="{_f(x)}" y1="{_f(y_low)}" x2="{_f(x)}" y2="{_f(y_high)}" '
            f'stroke="{colour}" stroke-width="1.5"/>',
            f'<line x1="{_f(x - half)}" y1="{_f(y_low)}" x2="{_f(x + half)}" y2="{_f(y_low)}" '
            f'stroke="{colour}" stroke-width="1.5"/>',
            f'<line x1="{_f(x - half)}" y1="{_f(y_high)}" x2="{_f(x + half)}" '
            f'y2="{_f(y_high)}" stroke="{colour}" stroke-width="1.5"/>']


def _dashed(x1: float, y1: float, x2: float, y2: float) -> str:
    return (f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
            f'stroke="{REFERENCE_COLOUR}" stroke-width="1.5" stroke-dasharray="5 3"/>')


def _text(x: float, y: float, text: str, anchor: str = "start", size: int = 12,
          weight: str = "normal") -> str:
    bold = ' font-weight="bold"' if weight != "normal" else ""
    return (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{size}" text-anchor="{anchor}"'
            f'{bold}>{escape(str(text))}</text>')


def _f(value: float) -> str:
    """Coordinates to one decimal, so the SVG text is the same on every machine."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _svg(width: int, height: int, parts: list[str]) -> str:
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">\n'
            f'<rect width="{width}" height="{height}" fill="white"/>\n{body}\n</svg>')
