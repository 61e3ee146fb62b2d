"""Chart data: bars with error bars, and lines with points, ready to draw.

A :class:`Chart` holds what a figure shows (labels or x values, each series' values, whisker
ends, reference marks, titles and size) and nothing of how it is drawn: the SVG writer is
:mod:`cluedo_lab.views.charts_svg`, and a notebook shows a Chart through
:mod:`cluedo_lab.views.display`. The data are checked here, when the chart is made, so a
mistake shows where it was made.

Uncertainty is drawn as whiskers, given either as ``errors`` (a half-width, drawn as ± that
much) or as ``intervals`` (the ``(low, high)`` ends themselves, for asymmetric intervals such
as Wilson's). Several series share one chart when ``values`` is a mapping of series name to
values; they are told apart by colour and named in a legend. A ``reference`` (say, the fair
share of wins) is drawn as a dashed line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Chart", "bar_chart", "line_chart", "Number", "Whisker"]

Number = float | int
Interval = tuple[Number, Number]
Whisker = tuple[float | None, float | None]
"""A point's whisker ends, (None, None) for no whisker."""
T = TypeVar("T")


@dataclass(frozen=True)
class Chart:
    """A finished chart's data: ``kind`` is ``"bar"`` (one group per label in ``x``) or
    ``"line"`` (points at the numbers in ``x``)."""

    kind: str
    x: tuple[str, ...] | tuple[Number, ...]
    series: dict[str, list[float]]
    whiskers: dict[str, list[Whisker]]
    marks: list[float]
    reference_label: str = ""
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    ymin: float | None = None
    ymax: float | None = None
    percent: bool = False
    lines: bool = True
    width: int = 560
    height: int = 320

    def __repr__(self) -> str:
        return f"<Chart {self.title!r}>"


def bar_chart(labels: Sequence[str], values: Sequence[Number] | Mapping[str, Sequence[Number]],
              errors: Sequence[Number] | Mapping[str, Sequence[Number]] | None = None, *,
              intervals: Sequence[Interval] | Mapping[str, Sequence[Interval]] | None = None,
              reference: Number | Sequence[Number] | None = None, reference_label: str = "",
              title: str = "", ylabel: str = "", ymin: float | None = None,
              ymax: float | None = None, percent: bool = False, width: int = 560,
              height: int = 320) -> Chart:
    """Vertical bars, one group per label, one bar per series, with optional whiskers.

    ``reference`` draws a dashed line across every group at that value (one number for all
    groups, or one per group); ``reference_label`` names it in the legend. ``percent=True``
    labels the y axis as percentages of values between 0 and 1.
    """
    series = _series(values, len(labels))
    return Chart("bar", tuple(labels), series, _whiskers(series, errors, intervals),
                 _references(reference, len(labels)), reference_label, title, "", ylabel,
                 ymin, ymax, percent, True, width, height)


def line_chart(x: Sequence[Number], values: Sequence[Number] | Mapping[str, Sequence[Number]],
               errors: Sequence[Number] | Mapping[str, Sequence[Number]] | None = None, *,
               intervals: Sequence[Interval] | Mapping[str, Sequence[Interval]] | None = None,
               reference: Number | None = None, reference_label: str = "",
               title: str = "", xlabel: str = "", ylabel: str = "", ymin: float | None = None,
               ymax: float | None = None, percent: bool = False, lines: bool = True,
               width: int = 560, height: int = 320) -> Chart:
    """Points at ``(x, value)`` for each series, joined by lines unless ``lines=False``, with
    optional whiskers (nudged apart when several series share an x) and an optional dashed
    horizontal ``reference`` line. With a dozen x values or fewer, each is labelled."""
    series = _series(values, len(x))
    return Chart("line", tuple(x), series, _whiskers(series, errors, intervals),
                 _references(reference, len(x)), reference_label, title, xlabel, ylabel,
                 ymin, ymax, percent, lines, width, height)


def _series(values: Sequence[Number] | Mapping[str, Sequence[Number]], count: int
            ) -> dict[str, list[float]]:
    series = dict(values) if isinstance(values, Mapping) else {"": values}
    if not series:
        raise ValueError("nothing to draw: no series")
    out = {}
    for name, vals in series.items():
        vals = [float(v) for v in vals]
        if len(vals) != count:
            raise ValueError(f"series {name!r} has {len(vals)} values for {count} labels")
        if not all(math.isfinite(v) for v in vals):
            raise ValueError(f"series {name!r} has a value that is not a finite number")
        out[str(name)] = vals
    return out


def _whiskers(series: Mapping[str, list[float]],
              errors: Sequence[Number] | Mapping[str, Sequence[Number]] | None,
              intervals: Sequence[Interval] | Mapping[str, Sequence[Interval]] | None
              ) -> dict[str, list[Whisker]]:
    """Each point's (low, high) whisker ends, or (None, None) for no whisker. With a mapping,
    a series it does not name has no whiskers."""
    if errors is not None and intervals is not None:
        raise ValueError("give errors (± half-widths) or intervals (low, high), not both")
    out: dict[str, list[Whisker]] = {}
    for name, vals in series.items():
        own_errors, own_intervals = _own(errors, name), _own(intervals, name)
        mine = own_errors if own_errors is not None else own_intervals
        if mine is None:
            out[name] = [(None, None)] * len(vals)
            continue
        if len(mine) != len(vals):
            raise ValueError(f"series {name!r}: {len(mine)} whiskers for {len(vals)} values")
        if own_errors is not None:
            out[name] = [(v - float(e), v + float(e))
                         for v, e in zip(vals, own_errors, strict=True)]
        else:
            out[name] = [(float(lo), float(hi)) for lo, hi in own_intervals or ()]
        if not all(v is not None and math.isfinite(v) for pair in out[name] for v in pair):
            raise ValueError(f"series {name!r} has a whisker that is not a finite number")
    return out


def _own(given: Sequence[T] | Mapping[str, Sequence[T]] | None, name: str
         ) -> Sequence[T] | None:
    """Series ``name``'s whiskers in ``given``: one sequence for every series, or a mapping's
    entry for that series (None when it has none)."""
    if isinstance(given, Mapping):
        return given.get(name)
    return given


def _references(reference: Number | Sequence[Number] | None, count: int) -> list[float]:
    if reference is None:
        return []
    marks = [float(reference)] * count if isinstance(reference, int | float) \
        else [float(r) for r in reference]
    if len(marks) != count or not all(math.isfinite(m) for m in marks):
        raise ValueError(f"reference: give one finite number, or one for each of {count} "
                         "labels")
    return marks
