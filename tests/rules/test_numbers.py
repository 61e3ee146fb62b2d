"""Chances as a learner reads them: one style everywhere, never misleading at the ends."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from cluedo_lab.rules import numbers

OPEN = sorted({Fraction(n, d) for d in range(2, 60) for n in range(1, d)}
              | {Fraction(1, 10**6), Fraction(10**6 - 1, 10**6), Fraction(1, 3001)})


def percent_value(text: str) -> float:
    return float(text.split()[-1].rstrip("%"))


def test_percent_has_one_decimal_and_keeps_order() -> None:
    shown = [numbers.chance(p, "percent") for p in OPEN]
    for p, text in zip(OPEN, shown, strict=True):
        assert text not in ("0.0%", "100.0%")  # an open chance never reads as 0 or certain
        if text.startswith(("under", "over")):
            continue
        assert abs(percent_value(text) - float(p) * 100) <= 0.05 + 1e-9
        assert text.split(".")[1] in {f"{d}%" for d in range(10)}
    values = [percent_value(t) for t in shown if not t.startswith(("under", "over"))]
    assert values == sorted(values)


def test_frequency_is_n_of_a_power_of_ten_and_never_all_or_nothing() -> None:
    for p in OPEN:
        text = numbers.chance(p, "frequency")
        match = re.fullmatch(r"(under )?([\d,]+) of ([\d,]+) deals", text)
        assert match, text
        n, base = (int(match[i].replace(",", "")) for i in (2, 3))
        assert str(base).strip("0") == "1"
        if match[1]:
            assert n == 1 and float(p) < 0.5 / base
        else:
            assert 0 < n < base
            assert abs(n / base - float(p)) <= 0.5 / base + 1e-12


def test_cells_mark_certainty_and_exact_gives_the_fraction() -> None:
    assert numbers.cell(Fraction(1)) == "✓" and numbers.cell(Fraction(0)) == "·"
    assert numbers.cell(Fraction(3, 8), "frequency") == "38 of 100"
    assert numbers.exact(Fraction(3, 8)) == "3/8 (37.5%)"
    assert numbers.count(250_118_000_000) == "250,118,000,000"
    assert "e+" not in numbers.count(10**40)


def test_one_setting_changes_every_chance_and_is_checked() -> None:
    assert numbers.chance_style() == "percent"
    with numbers.chance_style_used("fraction"):
        assert numbers.cell(Fraction(3, 8)) == "3/8"
        assert numbers.chance(Fraction(3, 8)) == "3/8"
    assert numbers.cell(Fraction(3, 8)) == "37.5%"
    with pytest.raises(ValueError, match="percent, frequency, fraction"):
        numbers.set_chance_style("decimal")
    assert numbers.chance_style() == "percent"
