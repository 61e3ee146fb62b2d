"""The ``cluedo-lab`` command on the sample records in ``tests/data/records``.

The samples double as documentation examples:

- ``classic-3p-ann.json``: Cluedo 1949, three players, from Ann's seat;
- ``public-deck.json``: public knowledge on a 9-card deck (342 deals, worked out in
  ``test_events.py::test_public_view``);
- ``contradictory.json``: events 1 and 3 cannot both be true, event 2 is irrelevant;
- ``two-item-deck.json``: a two-category deck, so questions name two items.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from cluedo_lab.cli import main

RECORDS = Path(__file__).parents[1] / "data" / "records"
CLASSIC = str(RECORDS / "classic-3p-ann.json")
PUBLIC = str(RECORDS / "public-deck.json")
CONTRADICTORY = str(RECORDS / "contradictory.json")
TWO_ITEM = str(RECORDS / "two-item-deck.json")

DECK3 = {"suspect": ["Plum", "White", "Green"], "weapon": ["Rope", "Knife", "Pipe"],
         "room": ["Hall", "Study", "Den"]}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, data, name="record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def notepad_row(out: str, card: str, places: int) -> list[str]:
    """The last ``places`` cells of the notepad line for ``card``."""
    line = next(line for line in out.splitlines() if line.startswith(card + " "))
    return line.split()[-places:]


@pytest.mark.parametrize("path", [CLASSIC, PUBLIC, TWO_ITEM])
def test_sample_records_solve(capsys, path):
    code, out, err = run(capsys, "solve", path)
    assert code == 0 and err == ""


# -- solve -------------------------------------------------------------------------------------
def test_solve_text_from_an_observer(capsys):
    code, out, _ = run(capsys, "solve", CLASSIC)
    assert code == 0
    assert out.startswith("Cluedo: Ann's view, 4 events\n")
    assert re.search(r"^Consistent deals: [\d,]+$", out, re.M)
    # Places: Ann, Bob, Cy, env. Bob asked White, Rope, Hall and Cy showed a card; Ann holds
    # Rope and Hall, so Cy holds White. Cy showed Ann the Lounge after Bob passed.
    assert notepad_row(out, "Mrs. White", 4) == ["·", "·", "✓", "·"]
    assert notepad_row(out, "Lounge", 4) == ["·", "·", "✓", "·"]
    assert notepad_row(out, "Rope", 4) == ["✓", "·", "·", "·"]
    assert notepad_row(out, "Miss Scarlett", 4)[:2] == ["·", "·"]
    assert "certain" not in out.split("\n\n")[0]


def test_solve_text_public(capsys):
    code, out, _ = run(capsys, "solve", "--numbers", "fraction", PUBLIC)
    assert code == 0
    assert "public knowledge, 1 events" in out.splitlines()[0]
    assert "Consistent deals: 342" in out
    # Each of Plum, Rope, Hall is Bob's or the envelope's: 6/19 and 13/19.
    assert notepad_row(out, "Plum", 4) == ["·", "6/19", "·", "13/19"]
    _, percent, _ = run(capsys, "solve", PUBLIC)  # a learner reads percentages by default
    assert notepad_row(percent, "Plum", 4) == ["·", "31.6%", "·", "68.4%"]
    _, frequency, _ = run(capsys, "solve", "--numbers", "frequency", PUBLIC)
    assert "32 of 100" in frequency and "68 of 100" in frequency
    assert notepad_row(out, "Hall", 4) == ["·", "6/19", "·", "13/19"]


def test_solve_text_certain_envelope(capsys, tmp_path):
    record = write(tmp_path, {"deck": DECK3, "players": ["Ann", "Bob", "Cy"],
                              "observer": "Ann", "hand": ["Plum", "Rope"],
                              "events": [{"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                          "passed": ["Bob", "Cy"]}]})
    code, out, _ = run(capsys, "solve", record)
    assert code == 0
    assert "Consistent deals: 6" in out
    assert "The envelope is certain: Green, Knife, Hall" in out


def check_probability_strings(report: dict) -> None:
    for card, row in report["probabilities"].items():
        for place, text in row.items():
            if text in ("0", "1"):
                continue
            match = re.fullmatch(r"(\d+)/(\d+)", text)
            assert match, (card, place, text)
            p, q = int(match[1]), int(match[2])
            assert 0 < p < q and math.gcd(p, q) == 1, (card, place, text)


def test_solve_json_public(capsys):
    code, out, _ = run(capsys, "solve", "--json", PUBLIC)
    assert code == 0
    report = json.loads(out)
    assert isinstance(report["consistent_deals"], int) and report["consistent_deals"] == 342
    assert report["observer"] is None and report["model"] == "uniform"
    places = ["Ann", "Bob", "Cy", "envelope"]
    assert report["places"] == places
    cards = ["plum", "white", "green", "rope", "knife", "pipe", "hall", "study", "den"]
    assert list(report["cards"]) == cards
    probabilities = report["probabilities"]
    assert set(probabilities) == set(cards)
    assert all(list(row) == places for row in probabilities.values())
    check_probability_strings(report)
    assert probabilities["hall"] == {"Ann": "0", "Bob": "6/19", "Cy": "0",
                                     "envelope": "13/19"}
    # Each row sums to 1 over the places; each place holds its number of cards.
    for row in probabilities.values():
        assert sum(Fraction(p) for p in row.values()) == 1
    for place, size in zip(places, (2, 2, 2, 3), strict=True):
        assert sum(Fraction(probabilities[c][place]) for c in cards) == size
    assert {"card": "hall", "place": "Cy", "holds": False} in report["known"]
    assert report["solution"] is None
    assert sum(Fraction(e["probability"]) for e in report["envelope"]) == 1


def test_solve_json_two_item_question(capsys):
    code, out, _ = run(capsys, "solve", "--json", TWO_ITEM)
    assert code == 0
    report = json.loads(out)
    # Worked out by hand: envelope (Green, Knife) with Cy taking Pipe, or (Peacock, Knife) with
    # Cy taking Green or Pipe: 3 deals.
    assert report["consistent_deals"] == 3
    assert report["probabilities"]["knife"]["envelope"] == "1"
    assert report["probabilities"]["green"] == {"Ann": "0", "Bob": "1/3", "Cy": "1/3",
                                                "envelope": "1/3"}
    assert report["envelope"] == [{"cards": ["peacock", "knife"], "probability": "2/3"},
                                  {"cards": ["green", "knife"], "probability": "1/3"}]
    assert report["solution"] is None
    check_probability_strings(report)


def test_solve_json_refuter_uniform(capsys, tmp_path):
    # See test_events.py::test_refuter_uniform_weighs_the_refuters_choice: weight 29/2.
    record = write(tmp_path, {"deck": DECK3, "players": ["Ann", "Bob", "Cy"],
                              "observer": "Ann", "hand": ["Plum", "Rope"],
                              "events": [{"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                          "shown_by": "Bob", "card": "Knife"}]})
    code, out, _ = run(capsys, "solve", "--json", "--model", "refuter-uniform", record)
    assert code == 0
    report = json.loads(out)
    assert report["model"] == "refuter-uniform"
    assert report["consistent_deals"] == "29/2"
    assert report["probabilities"]["green"]["envelope"] == "16/29"
    check_probability_strings(report)


# -- explain -----------------------------------------------------------------------------------
def test_explain_cites_the_events(capsys):
    code, out, err = run(capsys, "explain", CLASSIC, "White", "Cy")
    assert code == 0 and err == ""
    assert out.startswith("Why Cy holds Mrs. White:")
    cited = [line for line in out.splitlines() if line.startswith("  - ")]
    assert cited == ["  - event 2: Bob asked about Mrs. White, Rope, Hall; Cy showed a card"]
    steps = re.findall(r"^  (\d+)\. \[", out, re.M)
    assert steps and steps == [str(i) for i in range(1, len(steps) + 1)]
    assert "Cy holds Mrs. White" in out.splitlines()[-1]


def test_explain_two_events(capsys):
    code, out, _ = run(capsys, "explain", TWO_ITEM, "knife", "envelope")
    assert code == 0
    assert out.startswith("Why the envelope holds Knife:")
    cited = [line[4:11] for line in out.splitlines() if line.startswith("  - ")]
    assert cited == ["event 1", "event 2"]


def test_explain_a_lack(capsys):
    code, out, _ = run(capsys, "explain", CLASSIC, "Scarlett", "Bob")
    assert code == 0
    assert out.startswith("Why Bob does not hold Miss Scarlett:")
    assert "event 1" in out


def test_explain_from_the_set_up_alone(capsys):
    code, out, _ = run(capsys, "explain", CLASSIC, "Rope", "Bob")
    assert code == 0
    assert "It follows from the set-up alone." in out


def test_explain_an_unknown_cell(capsys):
    # Not a contradiction and not unreadable input; the command refuses with a message.
    code, out, err = run(capsys, "explain", TWO_ITEM, "Green", "envelope")
    assert code != 0 and out == ""
    assert "not known (probability 1/3)" in err


@pytest.mark.parametrize("card, place, says", [("Attic", "Bob", "Attic"),
                                               ("Knife", "Dan", "Dan")])
def test_explain_unknown_card_or_place(capsys, card, place, says):
    code, out, err = run(capsys, "explain", TWO_ITEM, card, place)
    assert code == 2 and out == ""
    assert says in err


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", [["solve"], ["solve", "--json"],
                                     ["explain", "@", "Knife", "Bob"]])
def test_contradictory_record_exits_1(capsys, command):
    argv = [CONTRADICTORY if a == "@" else a for a in command]
    if "@" not in command:
        argv.append(CONTRADICTORY)
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert "contradiction" in err
    assert "event 1" in err and "event 3" in err
    assert "event 2" not in err


def test_malformed_json_exits_2(capsys, tmp_path):
    code, out, err = run(capsys, "solve", write(tmp_path, "{ oops"))
    assert code == 2 and out == ""
    assert "not valid JSON" in err


def test_unknown_card_in_record_exits_2(capsys, tmp_path):
    record = write(tmp_path, {"deck": DECK3, "players": ["Ann", "Bob", "Cy"],
                              "events": [{"reveal": "Knife", "by": "Bob"},
                                         {"reveal": "Attic", "by": "Cy"}]})
    code, out, err = run(capsys, "solve", record)
    assert code == 2 and out == ""
    assert "event 2" in err and "field 'reveal'" in err and "Attic" in err


def test_missing_file_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "solve", str(tmp_path / "nothing.json"))
    assert code == 2
    assert "cannot be read" in err


def test_unknown_edition_exits_2(capsys, tmp_path):
    record = write(tmp_path, {"edition": "no-such-edition", "players": ["Ann", "Bob"]})
    code, _, err = run(capsys, "dimacs", record)
    assert code == 2
    assert "no-such-edition" in err


# -- dimacs ------------------------------------------------------------------------------------
def parse_dimacs(out: str) -> tuple[int, int, list[list[int]], dict[int, str]]:
    lines = out.splitlines()
    headers = [line for line in lines if line.startswith("p ")]
    assert len(headers) == 1
    match = re.fullmatch(r"p cnf (\d+) (\d+)", headers[0])
    assert match, headers[0]
    variables, count = int(match[1]), int(match[2])
    names = {}
    clauses = []
    seen_header = False
    for line in lines:
        if line.startswith("c "):
            assert not seen_header, "comments come before the header"
            named = re.fullmatch(r"c (\d+) = (\S+) in (\S+)", line)
            if named:
                names[int(named[1])] = f"{named[2]}@{named[3]}"
        elif line.startswith("p "):
            seen_header = True
        else:
            numbers = [int(x) for x in line.split()]
            assert numbers[-1] == 0 and 0 not in numbers[:-1], line
            assert all(1 <= abs(n) <= variables for n in numbers[:-1]), line
            clauses.append(numbers[:-1])
    assert len(clauses) == count
    return variables, count, clauses, names


@pytest.mark.parametrize("path", [CLASSIC, TWO_ITEM, PUBLIC])
def test_dimacs_header_matches_clauses(capsys, path):
    code, out, _ = run(capsys, "dimacs", path)
    assert code == 0
    variables, count, clauses, names = parse_dimacs(out)
    assert count > 0 and variables >= len(names) > 0


def test_dimacs_naive_encodes_the_record(capsys):
    code, out, _ = run(capsys, "dimacs", "--encoding", "naive", TWO_ITEM)
    assert code == 0
    variables, _, clauses, names = parse_dimacs(out)
    # 8 cards × (Ann, Bob, Cy, envelope), no helper variables.
    assert variables == len(names) == 32
    index = {name: i for i, name in names.items()}

    def satisfies(deal: dict[str, str]) -> bool:
        true = {index[f"{card}@{place}"] for card, place in deal.items()}
        return all(any((lit > 0) == (abs(lit) in true) for lit in clause)
                   for clause in clauses)

    # A deal that fits both events, and two that break one event or one hand size.
    good = {"plum": "Ann", "rope": "Ann", "green": "Bob", "wrench": "Bob", "white": "Cy",
            "pipe": "Cy", "peacock": "envelope", "knife": "envelope"}
    assert satisfies(good)
    # Knife with Cy: Cy then has White and Knife, neither Green nor Pipe (event 2).
    assert not satisfies(good | {"knife": "Cy", "pipe": "envelope"})
    # Bob with one card, Cy with three (both events still hold).
    assert not satisfies(good | {"wrench": "Cy"})
    # Swapping Bob's Green with the envelope's Peacock is another consistent deal.
    assert satisfies(good | {"green": "envelope", "peacock": "Bob"})


def test_editions_lists_the_classic(capsys):
    code, out, _ = run(capsys, "editions")
    assert code == 0
    ids = [line.split()[0] for line in out.splitlines()]
    assert "cluedo-classic-1949" in ids
    line = next(line for line in out.splitlines() if line.startswith("cluedo-classic-1949"))
    assert "Waddingtons 1949" in line and "2-6 players" in line


def test_solve_text_refuter_uniform(capsys, tmp_path):
    record = write(tmp_path, {"deck": DECK3, "players": ["Ann", "Bob", "Cy"],
                              "observer": "Ann", "hand": ["Plum", "Rope"],
                              "events": [{"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                          "shown_by": "Bob", "card": "Knife"}]})
    code, out, _ = run(capsys, "solve", "--model", "refuter-uniform", "--numbers", "fraction",
                       record)
    assert code == 0
    assert "Consistent deals:" in out
    assert notepad_row(out, "Green", 4)[-1] == "16/29"


def test_lessons_are_copied_and_never_overwritten_unasked(capsys, tmp_path):
    assert main(["lessons", str(tmp_path)]) == 0
    assert (tmp_path / "00_start_here.ipynb").is_file()
    assert (tmp_path / "app" / "classroom.ipynb").is_file()
    (tmp_path / "00_start_here.ipynb").write_text("mine")
    assert main(["lessons", str(tmp_path)]) == 2
    assert "--force" in capsys.readouterr().err
    assert (tmp_path / "00_start_here.ipynb").read_text() == "mine"
    assert main(["lessons", str(tmp_path), "--keep"]) == 0
    assert (tmp_path / "00_start_here.ipynb").read_text() == "mine"
    (tmp_path / "01_deduction.ipynb").unlink()
    assert main(["lessons", str(tmp_path), "--keep"]) == 0
    assert "1 notebooks written" in capsys.readouterr().out
    assert (tmp_path / "01_deduction.ipynb").is_file()
    assert main(["lessons", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "00_start_here.ipynb").read_text() != "mine"


def test_lessons_bring_the_classroom_page_template(capsys, tmp_path):
    """The classroom page's Voila template (no CDN style sheets) goes beside its notebook, and
    the command says how to serve the page with it."""
    from cluedo_lab.lab.lessons import CLASSROOM_TEMPLATE
    from cluedo_lab.rules.data import lessons_dir

    assert main(["lessons", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    names = sorted(p.name for p in (tmp_path / CLASSROOM_TEMPLATE).iterdir())
    assert names == ["conf.json", "index.html.j2"]
    for name in names:
        assert ((tmp_path / CLASSROOM_TEMPLATE / name).read_bytes()
                == (lessons_dir() / CLASSROOM_TEMPLATE / name).read_bytes())
    assert "fontawesome" in (tmp_path / CLASSROOM_TEMPLATE / "index.html.j2").read_text()
    assert f"JUPYTER_PATH={tmp_path / 'app' / 'share' / 'jupyter'} voila" in out
    assert "--template=classroom" in out


def test_student_copies_drop_solutions_and_fold_hints(capsys, tmp_path):
    source = tmp_path / "lessons"
    source.mkdir()

    def cell(text, *tags, outputs=()):
        return {"cell_type": "code", "source": text, "metadata": {"tags": list(tags)},
                "outputs": list(outputs), "execution_count": 1}

    shown = {"output_type": "stream", "name": "stdout", "text": "Right!"}
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        cell("my_answer = ...", "exercise", outputs=[shown]),
        cell("my_answer = 42", "solution"),
        cell("# think of the hand sizes", "hint"),
        cell("check(my_answer)", outputs=[shown])]}
    (source / "01_x.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    from cluedo_lab.lab.lessons import write_lessons

    teacher = write_lessons(tmp_path / "teacher", source=source)
    assert json.loads(teacher[0].read_text()) == notebook
    student = json.loads(write_lessons(tmp_path / "class", student=True, source=source)[0]
                         .read_text())
    sources = [c["source"] for c in student["cells"]]
    assert sources == ["my_answer = ...", "# think of the hand sizes", "check(my_answer)"]
    assert student["cells"][0]["outputs"] == []
    assert student["cells"][1]["metadata"]["jupyter"]["source_hidden"] is True
    assert student["cells"][2]["outputs"] == [shown]  # only exercise outputs are cleared


def test_student_copies_of_the_shipped_lessons_keep_every_other_cell(tmp_path):
    from cluedo_lab.lab.lessons import lesson_paths
    from cluedo_lab.rules.data import lessons_dir

    assert main(["lessons", str(tmp_path), "--student"]) == 0
    for name in lesson_paths():
        teacher = json.loads((lessons_dir() / name).read_text(encoding="utf-8"))
        student = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        kept = [c for c in teacher["cells"] if "solution" not in c["metadata"].get("tags", [])]
        assert len(student["cells"]) == len(kept)
        for mine, theirs in zip(student["cells"], kept, strict=True):
            if "exercise" not in theirs["metadata"].get("tags", []):
                assert mine["source"] == theirs["source"]   # only exercise cells change


# -- play --save, record ------------------------------------------------------------------------
MINI = str(Path(__file__).parents[1] / "data" / "mini-two-item.toml")


def test_play_plays_an_edition_file_not_the_shipped_deck(capsys):
    code, out, err = run(capsys, "play", "--edition", MINI, "--players", "3", "--seed", "2")
    assert code == 0, err
    assert out.startswith("# Mini Card Game, two-item questions (mini-two-item), seed 2")


def test_play_save_then_each_seats_record_solves(capsys, tmp_path):
    saved = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--edition", "cluedo-card-game-2018", "--players",
                         "3", "--seed", "5", "--save", str(saved))
    assert code == 0, err
    data = json.loads(saved.read_text())
    assert data["edition"] == "cluedo-card-game-2018" and data["seed"] == 5
    assert f"# {len(data['actions'])} actions" in out
    from cluedo_lab.games.factory import game_from_json
    game = game_from_json(saved.read_text())
    assert game.is_over
    for name in [*game.names, None]:
        argv = ["record", str(saved)] + (["--seat", name] if name else ["--public"])
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        record = json.loads(out)
        assert record == game.record_for(None if name is None else game.names.index(name))
        assert record.get("observer") == name
        path = write(tmp_path, out, f"{name}.json")
        code, solved, err = run(capsys, "solve", path)
        assert code == 0 and "Consistent deals" in solved, err


def test_play_save_of_an_edition_file_names_the_file(capsys, tmp_path):
    saved = tmp_path / "mini.json"
    code, _, err = run(capsys, "play", "--edition", MINI, "--players", "2", "--save",
                       str(saved))
    assert code == 0, err
    assert json.loads(saved.read_text())["edition"] == str(Path(MINI).resolve())
    code, out, err = run(capsys, "record", str(saved), "--seat", "P1")
    assert code == 0, err
    code, _, err = run(capsys, "solve", write(tmp_path, out))
    assert code == 0, err


@pytest.mark.parametrize("argv, says", [
    ([], "--seat NAME or --public"),
    (["--seat", "Zed"], "no seat 'Zed'"),
    (["--seat", "P1", "--public"], "--seat NAME or --public")])
def test_record_needs_one_existing_seat(capsys, tmp_path, argv, says):
    saved = tmp_path / "game.json"
    assert run(capsys, "play", "--edition", "cluedo-card-game-2018", "--players", "2",
               "--save", str(saved))[0] == 0
    code, _, err = run(capsys, "record", str(saved), *argv)
    assert code == 2 and says in err


def test_record_of_a_file_that_is_not_a_saved_game_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "record", write(tmp_path, "{\"x\": 1}"), "--public")
    assert code == 2 and "field 'x': unknown" in err and err.count("\n") == 1


COMMANDS = ["solve", "explain", "dimacs", "play", "record", "simulate", "editions", "lessons",
            "puzzle", "review", "puzzle-book", "grade"]


@pytest.mark.parametrize("command", COMMANDS)
def test_parser_for_one_command_reads_as_the_whole(command, capsys):
    """The command line builds only the parser of the subcommand it runs: its help is the
    same as in the whole, and so is the top usage (printed for a stray argument)."""
    from cluedo_lab.cli import parser
    helps = []
    for built in (parser(), parser(command)):
        with pytest.raises(SystemExit):
            built.parse_args([command, "--help"])
        helps.append((built.format_usage(), capsys.readouterr().out))
    assert helps[0] == helps[1]
    assert command in helps[0][1]


def test_stray_argument_and_mistyped_command_list_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["solve", CLASSIC, "extra"])
    stray = capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["slove", CLASSIC])
    mistyped = capsys.readouterr().err
    for command in COMMANDS:
        assert command in stray.splitlines()[1]
        assert repr(command) in mistyped
    assert "unrecognized arguments: extra" in stray


def test_solve_imports_only_what_it_uses():
    """``cluedo-lab solve`` starts without the board, variants, OpenSSL, importlib.resources,
    the TOML reader or shutil (``benchmarks/import_time.py`` times the start): on a classic record
    it reads the shipped edition's parsed copy, and a record with its own deck reads no
    edition file."""
    import subprocess
    import sys

    def loaded(record: str) -> set[str]:
        code = ("import sys, io, contextlib\nfrom cluedo_lab.cli import main\n"
                "with contextlib.redirect_stdout(io.StringIO()):\n"
                f"    assert main(['solve', {record!r}]) == 0\n"
                "print(' '.join(sys.modules))")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)
        return set(done.stdout.split())

    unused = {"cluedo_lab.rules.board", "cluedo_lab.rules.variant", "hashlib",
              "importlib.resources", "networkx", "cluedo_lab.knowledge.advice", "tomllib",
              "shutil"}
    classic = loaded(CLASSIC)
    assert "cluedo_lab.knowledge.engine" in classic
    assert not classic & unused
    assert not loaded(PUBLIC) & unused
