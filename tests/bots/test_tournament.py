"""Tournaments: reproducible from the seed whatever the number of workers, seats rotated
fairly, tables that add up, turns counted as the rule books count them; and the charts."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from cluedo_lab.bots import make_bot
from cluedo_lab.cli import main
from cluedo_lab.games import new_game
from cluedo_lab.lab.charts import bar_chart, line_chart
from cluedo_lab.lab.cluster import tournament_executor
from cluedo_lab.lab.tournament import (
    InProcess,
    TournamentResult,
    load_results,
    play,
    run_tournament,
    wilson,
)
from cluedo_lab.rules.data import data_dir
from cluedo_lab.rules.edition import load_edition
from cluedo_lab.views.charts_svg import chart_svg
from cluedo_lab.views.display import to_html, to_svg

E18 = "cluedo-card-game-2018"


# ---------------------------------------------------------------------------------------------
# Wilson intervals
# ---------------------------------------------------------------------------------------------

def test_wilson_interval_matches_published_values():
    # Newcombe (1998), Statistics in Medicine 17:857, table I: 0/10 -> 0 to 0.2775 and
    # 5/10 (p = 0.5) -> 0.2366 to 0.7634 for the score method without continuity correction.
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=5e-5)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-5)


def test_wilson_interval_contains_the_rate_and_narrows_with_more_games():
    for wins, games in [(1, 3), (30, 100), (99, 100)]:
        low, high = wilson(wins, games)
        assert 0 <= low <= wins / games <= high <= 1
    assert wilson(300, 1000)[1] - wilson(300, 1000)[0] < wilson(30, 100)[1] - wilson(30, 100)[0]
    assert wilson(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------------------------------------
# Reproducibility and fairness
# ---------------------------------------------------------------------------------------------

def test_same_seed_same_result_and_another_seed_other_games():
    bots = ["detective", "eliminator", "bluffer"]
    first = run_tournament(E18, bots, 12, seed=4)
    again = run_tournament(E18, bots, 12, seed=4)
    other = run_tournament(E18, bots, 12, seed=5)
    assert first.to_json() == again.to_json()
    assert [g["seed"] for g in first.games] != [g["seed"] for g in other.games]


def test_the_result_does_not_depend_on_the_number_of_workers():
    bots = ["detective", "random", "infogain@0.9"]
    alone = run_tournament("cluedo-the-card-game-2002", bots, 9, seed=2, workers=1)
    shared = run_tournament("cluedo-the-card-game-2002", bots, 9, seed=2, workers=2)
    assert alone.to_json() == shared.to_json()


def test_any_executor_plays_the_same_games():
    bots = ["detective", "random", "eliminator"]
    alone = run_tournament(E18, bots, 10, seed=6)
    with ThreadPoolExecutor(3) as threads:
        shared = run_tournament(E18, bots, 10, seed=6, workers=3, executor=threads)
    assert alone.to_json() == shared.to_json()
    assert alone.to_json() == run_tournament(E18, bots, 10, seed=6, executor=InProcess()).to_json()


def test_a_dask_cluster_plays_the_same_tournament_as_this_process():
    bots = ["detective", "eliminator", "random"]
    alone = run_tournament(E18, bots, 12, seed=3)
    with tournament_executor("local", 2) as (executor, workers):
        assert workers == 2
        spread = run_tournament(E18, bots, 12, seed=3, workers=workers, executor=executor)
    assert spread.to_json() == alone.to_json()


def test_cli_simulate_names_a_scheduler_that_is_not_there(capsys):
    assert main(["simulate", "--edition", E18, "--bots", "detective,random", "--games", "2",
                 "--scheduler", "nowhere://x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cluedo-lab: no Dask scheduler at 'nowhere://x'") and err.count("\n") == 1


def test_simulate_is_a_tournament_between_copies_of_one_bot():
    from cluedo_lab.lab.variant_figures import simulate
    from cluedo_lab.rules.variant import variant

    sim = simulate(E18, games=4, seed=8, players=3, bot="eliminator")
    tour = run_tournament(E18, ["eliminator"], 4, seed=8, players=3)
    assert sim.result.to_json() == tour.to_json()
    four = variant(E18, players=4)
    sim = simulate(four, games=4, seed=8, bot="eliminator")
    assert sim.result.edition_name == four.name and sim.players == 4
    assert sim.result.games == run_tournament(four, ["eliminator"], 4, seed=8, players=4).games


def test_every_bot_plays_every_seat_equally_often_on_its_own_deals():
    bots = ["detective", "eliminator", "random", "bluffer"]
    result = run_tournament("cluedo-card-game-2018-advanced", bots, 16, seed=1)
    seats = Counter((seat, name) for g in result.games for seat, name in enumerate(g["lineup"]))
    assert set(seats.values()) == {4} and len(seats) == 16
    assert len({g["seed"] for g in result.games}) == 16
    assert result.balanced and "not equally shared" not in result.table()
    short = run_tournament("cluedo-card-game-2018-advanced", bots, 6, seed=1)
    assert not short.balanced and "not equally shared" in short.table()
    assert short.games == result.games[:6]


def test_players_beyond_the_list_repeat_it_and_too_many_bots_are_refused():
    result = run_tournament("cluedo-classic-1949", ["detective", "random"], 4, players=4,
                            seed=3, max_actions=40)
    assert result.bots == ("detective", "random", "detective", "random")
    rows = {r.label: r for r in result.by_bot()}
    assert rows["detective"].played == 8 and rows["random"].played == 8
    with pytest.raises(ValueError, match="at most one bot per seat"):
        run_tournament(E18, ["detective"] * 3, 3, players=2)


@pytest.mark.parametrize("bots, games, players, message", [
    (["sherlock"], 3, 3, "no bot 'sherlock'"), ([], 3, 3, "at least one bot"),
    (["detective"], 0, 3, "at least one game"), (["detective"], 3, 7, "2-4 players")])
def test_bad_tournaments_are_refused_before_playing(bots, games, players, message):
    with pytest.raises(ValueError, match=message):
        run_tournament(E18, bots, games, players=players)


def test_an_edition_object_is_played_as_it_is():
    edition = load_edition(E18)
    by_object = run_tournament(edition, ["detective", "eliminator"], 4, seed=9)
    by_id = run_tournament(E18, ["detective", "eliminator"], 4, seed=9)
    assert by_object.to_json() == by_id.to_json()


# ---------------------------------------------------------------------------------------------
# What the tables say
# ---------------------------------------------------------------------------------------------

def test_the_tables_add_up_to_the_games():
    bots = ["detective", "eliminator", "random"]
    result = run_tournament(E18, bots, 30, seed=6)
    rows = result.by_bot()
    assert sum(r.wins for r in rows) + result.nobody == 30
    assert sum(r.wins for r in result.by_seat()) == sum(r.wins for r in result.by_order())
    assert all(r.played == 30 for r in rows)
    wrong = sum(sum(g["wrong"]) for g in result.games)
    assert sum(r.wrong * r.played for r in rows) == pytest.approx(wrong)
    detective = rows[0]
    won = [g for g in result.games if g["winner"] is not None
           and g["lineup"][g["winner"]] == "detective"]
    assert detective.wins == len(won)
    assert detective.turns_to_win == pytest.approx(
        sum(g["turns"][g["winner"]] for g in won) / len(won))
    # Complete deduction against a notepad and a random player wins most games.
    assert detective.interval[0] > 0.5


def test_a_fugitive_escape_counts_as_a_win_but_not_as_turns_to_solve():
    result = run_tournament("cluedo-the-card-game-2002-one-against-all",
                            ["detective", "random", "random"], 6, seed=0)
    escapes = [g for g in result.games if g["winner"] is not None
               and g["winner"] == g["fugitive"]]
    assert all(g["fugitive"] == 2 for g in result.games)
    assert escapes, "random detectives should let the fugitive escape sometimes"
    assert sum(r.wins for r in result.by_bot()) + result.nobody == 6


@pytest.mark.parametrize("edition_id, players", [
    (E18, 3), ("cluedo-the-card-game-2002", 3), ("cluedo-classic-1949", 3)])
def test_turns_are_counted_as_the_game_counts_them(edition_id, players):
    game = new_game(edition_id, players, 2)
    summary = play(game, [make_bot("detective", s) for s in range(players)])
    if game.edition.family == "board":
        expected = game.turn_number
    elif game.edition.actions:
        expected = sum(1 for line in game.log if "'s turn: holds" in line)
    else:
        expected = sum(1 for a in game.history if a.kind == "ask") + \
            sum(1 for line in game.log if "is ready to accuse" in line)
    assert sum(summary["turns"]) == expected
    assert summary["finished"] and summary["winner"] == game.winner
    assert summary["first"] == game.history[0].seat


def test_an_unfinished_game_is_won_by_nobody():
    game = new_game("cluedo-classic-1949", 3, 1)
    summary = play(game, [make_bot("detective", s) for s in range(3)], max_actions=5)
    assert not summary["finished"] and summary["winner"] is None


def test_a_result_saves_and_loads_as_json(tmp_path):
    result = run_tournament(E18, ["detective", "bluffer"], 4, seed=1)
    result.command = "cluedo-lab simulate --edition cluedo-card-game-2018 ..."
    path = tmp_path / "r.json"
    result.save(path)
    back = TournamentResult.load(path)
    assert back.table() == result.table() and back.command == result.command
    assert back.games == result.games
    assert json.loads(result.to_json()) == json.loads(result.to_json(indent=None))
    with pytest.raises(ValueError, match="not a saved tournament"):
        TournamentResult.from_dict({"format": 1, "edition": "x"})


def test_a_result_shows_as_text_html_and_a_deterministic_chart():
    result = run_tournament(E18, ["detective", "eliminator", "random"], 6, seed=2)
    text = repr(result)
    assert "95% interval" in text and "1st to move" in text and "detective" in text
    html = to_html(result)
    assert html.count("<tr>") == 1 + 3 + 1 + 6
    svg = to_svg(result.chart())
    assert svg == to_svg(run_tournament(E18, ["detective", "eliminator", "random"], 6,
                                        seed=2).chart())
    assert all(f">{name}</text>" in svg for name in ("detective", "eliminator", "random"))
    assert to_svg(result.chart("order")).count("<rect") == 1 + 3
    with pytest.raises(ValueError, match="chart by"):
        result.chart("colour")


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------

def test_cli_simulate_prints_json_with_the_command(capsys):
    code = main(["simulate", "--edition", E18, "--bots", "detective,random", "--games", "4",
                 "--seed", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["games_played"] == 4 and len(data["games"]) == 4
    assert data["command"] == ("cluedo-lab simulate --edition cluedo-card-game-2018 --bots "
                               "detective,random --games 4 --seed 3")
    assert [r["label"] for r in data["by_bot"]] == ["detective", "random"]


def test_cli_simulate_table_and_errors(capsys):
    assert main(["simulate", "--edition", E18, "--bots", "detective,eliminator,random",
                 "--games", "3"]) == 0
    assert "win rate" in capsys.readouterr().out
    assert main(["simulate", "--edition", E18, "--bots", "detective,holmes",
                 "--games", "3"]) == 2
    assert "no bot 'holmes'" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------
# Charts
# ---------------------------------------------------------------------------------------------

def test_bar_chart_is_deterministic_svg_with_whiskers():
    chart = bar_chart(["a", "b"], [0.2, 0.5], intervals=[(0.1, 0.3), (0.4, 0.6)],
                      title="T", ylabel="rate", percent=True)
    assert to_svg(chart) == to_svg(bar_chart(["a", "b"], [0.2, 0.5],
                                             intervals=[(0.1, 0.3), (0.4, 0.6)],
                                             title="T", ylabel="rate", percent=True))
    assert to_svg(chart).startswith("<svg") and chart_svg(chart) == to_svg(chart)
    assert to_svg(chart).count("<rect") == 1 + 2 and to_svg(chart).count("<line") >= 6
    assert not re.search(r"\d\.\d{2,}", to_svg(chart)), "coordinates are rounded to one decimal"
    two = bar_chart(["x"], {"s1": [1.0], "s2": [2.0]}, errors={"s1": [0.5], "s2": [0.1]})
    assert ">s1</text>" in to_svg(two) and ">s2</text>" in to_svg(two)


def test_line_chart_draws_each_series_as_a_line_with_points():
    chart = line_chart([0.5, 0.7, 1.0], {"win": [0.3, 0.4, 0.35], "wrong": [0.2, 0.1, 0.0]},
                       xlabel="threshold", ylabel="rate")
    assert to_svg(chart).count("<polyline") == 2 and to_svg(chart).count("<circle") == 6
    assert ">threshold</text>" in to_svg(chart)


@pytest.mark.parametrize("call, message", [
    (lambda: bar_chart(["a", "b"], [1.0]), "1 values for 2 labels"),
    (lambda: bar_chart(["a"], [math.nan]), "not a finite number"),
    (lambda: bar_chart(["a"], [1.0], [0.1], intervals=[(0, 1)]), "not both"),
    (lambda: line_chart([1, 2], [1.0, 2.0], intervals=[(0, 1)]), "1 whiskers for 2 values")])
def test_charts_refuse_inconsistent_data(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------------------------------------
# The precomputed results of the strategy notebook
# ---------------------------------------------------------------------------------------------

SAVED = sorted((data_dir() / "results" / "strategy").glob("*.json"))


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.stem)
def test_saved_results_still_replay_from_their_commands(path):
    """Each saved tournament's first round of games (one game per seat) comes out the same
    when played again, so the notebook's figures are what the stored commands produce. If
    this fails after a change to the bots or the games, regenerate the file with
    ``python benchmarks/strategy_results.py --only <name>``."""
    notes = json.loads(path.read_text())
    assert notes["made_by"] == f"python benchmarks/strategy_results.py --only {path.stem}"
    for result in load_results(path):
        assert result.command == result.cli_command()
        seats = len(result.bots)
        again = run_tournament(result.edition, list(result.bots), seats, seed=result.seed)
        assert again.games == result.games[:seats], (
            f"{path.name}: {result.command} no longer plays the saved games; regenerate with "
            f"python benchmarks/strategy_results.py --only {path.stem}")


def test_the_strategy_notebook_has_its_saved_results():
    assert {p.stem for p in SAVED} >= {"first-seat", "thresholds", "bluffing", "versus-weaker"}
