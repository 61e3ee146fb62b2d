"""The record chart and the information-gain bars: one point per event, the log scale, the
ranking's order and numbers, and the slider's words."""

from __future__ import annotations

import math
import re

import pytest

from cluedo_lab.knowledge.advice import rank_questions
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.record_steps import record_steps
from cluedo_lab.rules import numbers
from cluedo_lab.views.record_chart import (
    HEIGHT,
    GainBars,
    RecordChart,
    gain_bars_svg,
    log_deals,
    record_chart_svg,
)

SETUP = {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"], "observer": "Ann",
         "hand": ["Plum", "Dagger", "Rope", "Kitchen", "Hall", "Study"],
         "events": [{"suggest": ["Peacock", "Spanner", "Kitchen"], "by": "Bob",
                     "passed": ["Cy"], "shown_by": "Ann", "card": "Kitchen"},
                    {"suggest": ["Scarlett", "Candlestick", "Lounge"], "by": "Ann",
                     "shown_by": "Bob", "card": "Scarlett"},
                    {"suggest": ["White", "Rope", "Hall"], "by": "Bob", "shown_by": "Cy"}]}


@pytest.fixture(scope="module")
def knowledge() -> Knowledge:
    return Knowledge.from_dict(SETUP)


def test_one_point_per_event_and_per_line(knowledge: Knowledge) -> None:
    steps = record_steps(knowledge.record)
    svg = record_chart_svg(steps)
    lines = 1 + len(steps[0].chances)
    assert len(steps) == 4
    assert svg.count('class="point"') == 4 * lines
    assert "<title>" in svg and "<desc>" in svg


def test_deals_match_the_engine_and_the_log_scale(knowledge: Knowledge) -> None:
    steps = record_steps(knowledge.record)
    raw = SETUP["events"]
    for step in steps:
        prefix = Knowledge.from_dict({**SETUP, "events": raw[:step.event]})
        assert step.deals == prefix.consistent_deals
    # 110,880 deals at the start: between 10^5 and 10^6, so the deal's point sits at
    # log10(110880) of the way up a 0..6 axis.
    assert steps[0].deals == 5 * 4 * 6 * math.comb(12, 6)
    top = math.ceil(max(log_deals(s.deals) for s in steps))
    assert top == 6
    svg = record_chart_svg(steps)
    first = re.search(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)
    assert first is not None
    bottom, high = HEIGHT - 40.0, 30.0
    assert float(first.group(1)) == pytest.approx(
        bottom - math.log10(110880) / top * (bottom - high), abs=0.06)
    assert "1,000,000" in svg and "e+" not in svg


def test_bars_in_order_of_gain_with_the_advisors_numbers(knowledge: Knowledge) -> None:
    ranking = rank_questions(knowledge, fixed=["Ballroom"])
    svg = gain_bars_svg(ranking, knowledge.edition, top=5)
    widths = [float(w) for w in re.findall(r'width="([\d.]+)" height="\d+" fill="[^"]+" '
                                           r'class="bar"', svg)]
    assert len(widths) == 5 and widths == sorted(widths, reverse=True)
    for option in ranking[:5]:
        name = ", ".join(knowledge.edition.card(c).name for c in option.named)
        assert f"{name}: {option.gain:.3f} bits" in svg


def test_the_slider_says_what_the_event_was(knowledge: Knowledge) -> None:
    pytest.importorskip("ipywidgets")
    chart = RecordChart(knowledge.record)
    chart.widget()
    chart.part("event").value = 0
    at_deal = chart.part("words").value
    assert "At the deal" in at_deal and numbers.count(110880) in at_deal
    chart.part("event").value = 2
    assert "After event 2 of 3 (Ann asked about Miss Scarlett" in chart.part("words").value
    assert 'class="current"' in chart.part("picture").value
    assert chart.part("event").description == "Event"


def test_gain_bars_show_as_svg(knowledge: Knowledge) -> None:
    ranking = rank_questions(knowledge, fixed=["Ballroom"])
    bars = GainBars(ranking, knowledge.edition, top=3)
    assert bars._repr_svg_() == gain_bars_svg(ranking, knowledge.edition, top=3)
    assert bars._repr_svg_().count('class="bar"') == 3
