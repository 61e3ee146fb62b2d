"""Reprs above the rules layer are evaluable or clearly bracketed: a bot's repr builds the
same bot; a question's worth, a sampling estimate, a chart and a simulation are bracketed."""

import pytest

from cluedo_lab.bots import explorer, quick_detectives, strategies
from cluedo_lab.bots.registry import bot_names, make_bot
from cluedo_lab.knowledge.advice import rank_questions
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.knowledge.sampling import sample_marginals
from cluedo_lab.lab.charts import bar_chart
from cluedo_lab.lab.variant_figures import simulate
from cluedo_lab.records import Record

NAMESPACE = {**vars(strategies), **vars(quick_detectives), **vars(explorer)}
DECK = {"s": ["a", "b", "c"], "w": ["d", "e", "f"], "r": ["g", "h", "i"]}
RECORD = {"deck": DECK, "players": [{"name": n, "hand_size": 2} for n in "ABC"],
          "observer": "A", "hand": ["a", "d"],
          "events": [{"suggest": ["b", "e", "g"], "by": "C", "passed": ["A"], "shown_by": "B"}]}


def bracketed(x: object) -> bool:
    text = repr(x)
    name = f"<{type(x).__name__}"
    return text.startswith(name) and text[len(name)] in " :" and text.endswith(">")


@pytest.mark.parametrize("spec", [*bot_names(), "detective@0.8"])
def test_a_bot_repr_builds_the_same_bot(spec: str) -> None:
    bot = make_bot(spec, seed=7)
    again = eval(repr(bot), dict(NAMESPACE))
    assert type(again) is type(bot)
    assert repr(again) == repr(bot)
    assert vars(again).get("threshold") == vars(bot).get("threshold")


def test_question_values_estimates_charts_and_simulations_are_bracketed() -> None:
    record = Record.from_dict(RECORD)
    best = rank_questions(Knowledge(record), "A")[0]
    estimate = sample_marginals(record, 200, seed=1)
    chart = bar_chart(["x", "y"], [0.25, 0.75], title="two bars")
    sim = simulate("cluedo-card-game-2018", games=2, seed=1, players=3)
    assert repr(chart) == "<Chart 'two bars'>"
    for x in (best, estimate, chart, sim):
        assert bracketed(x), repr(x)
