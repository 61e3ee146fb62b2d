"""Numbers as a learner reads them: one format for every chance the kit shows, set in one place.

The engine's chances are exact fractions, and a grid that mixes ``11/598``, ``0.093`` and
``407/736`` is hard to compare. Every view and printout of the kit formats a chance through
:func:`chance` (or :func:`cell` in a notepad grid), in the style chosen by
:func:`set_chance_style`:

* ``"percent"`` (the default): ``37.5%``, to one decimal; never ``0.0%`` or ``100.0%`` for a
  chance that is neither impossible nor certain;
* ``"frequency"``: natural frequencies, ``38 of 100 deals`` (a finer base for rare events:
  ``4 of 10,000 deals``);
* ``"fraction"``: the exact fraction, ``3/8``.

:func:`exact` gives the fraction beside the readable form, for tooltips and "on request".
Counts of deals are written out in full with thousands separators, never in scientific notation.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

__all__ = ["STYLES", "MEANINGS", "chance", "cell", "exact", "count", "chance_style",
           "set_chance_style",
           "chance_style_used"]

STYLES = ("percent", "frequency", "fraction")
_style = ["percent"]


MEANINGS = {"percent": "the chance in percent", "frequency": "in how many of 100 deals",
            "fraction": "the exact chance"}
"""What a chance in each style says, for legends."""


def chance_style() -> str:
    """The style every chance is shown in now."""
    return _style[0]


def set_chance_style(style: str) -> str:
    """Show every chance in ``style`` from now on (one of :data:`STYLES`); returns the old one."""
    if style not in STYLES:
        raise ValueError(f"a chance style is one of {', '.join(STYLES)}, not {style!r}")
    old, _style[0] = _style[0], style
    return old


@contextmanager
def chance_style_used(style: str) -> Iterator[None]:
    """``with chance_style_used("fraction"): ...`` shows chances in ``style`` inside the block."""
    old = set_chance_style(style)
    try:
        yield
    finally:
        set_chance_style(old)


def _percent(p: Fraction) -> str:
    if 0 < p < Fraction(1, 1000):
        return "under 0.1%"
    if Fraction(999, 1000) < p < 1:
        return "over 99.9%"
    tenths = round(p * 1000)
    return f"{tenths // 10}.{tenths % 10}%"


def _frequency(p: Fraction, unit: str) -> str:
    base = 100
    half = Fraction(1, 2)
    while base < 10**6 and (0 < p * base < half or 0 < (1 - p) * base < half):
        base *= 10  # rare (or nearly sure) events get a finer base: 4 of 10,000
    n = round(p * base)
    if p < 1 and n == base:
        n = base - 1  # never "100 of 100" for a chance short of certain
    if p > 0 and n == 0:
        return f"under 1 of {base:,}{unit}"
    return f"{n:,} of {base:,}{unit}"


def chance(p: Fraction | int, style: str | None = None) -> str:
    """A chance in the chosen style: ``37.5%``, ``38 of 100 deals`` or ``3/8``."""
    p = Fraction(p)
    style = style or _style[0]
    if style == "fraction":
        return str(p)
    if style == "frequency":
        return _frequency(p, " deals")
    return _percent(p)


def cell(p: Fraction | int, style: str | None = None) -> str:
    """A notepad cell: ✓ certainly there, · certainly not, else the chance in short form."""
    p = Fraction(p)
    if p == 1:
        return "✓"
    if p == 0:
        return "·"
    style = style or _style[0]
    if style == "frequency":
        return _frequency(p, "")
    return chance(p, style)


def exact(p: Fraction | int) -> str:
    """The exact fraction beside the readable form: ``3/8 (37.5%)``."""
    p = Fraction(p)
    readable = chance(p, "percent")
    return str(p) if str(p) == readable else f"{p} ({readable})"


def count(n: int | Fraction) -> str:
    """A count in full with thousands separators (a weighted total as its fraction)."""
    if isinstance(n, int) or Fraction(n).denominator == 1:
        return f"{int(n):,}"
    return f"{Fraction(n)} (weighted)"
