"""Bad input ends in the kit's own error, naming what is wrong, and changes nothing (issue 17).

A regression corpus of the cases a fuzzing pass found: files in other encodings, deep nesting,
huge sizes, ill-typed fields, records no game could produce, tampered saved games and paths
that climb out of their folder. Each case asserts the error type and a few words of the
message, so a refusal that says nothing useful fails too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cluedo_lab import Knowledge, load_edition
from cluedo_lab.cli import main
from cluedo_lab.games.factory import game_from_json, new_game
from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import edition_data
from cluedo_lab.rules.errors import (
    CluedoLabError,
    EditionError,
    RecordError,
    SavedGameError,
)
from cluedo_lab.rules.files import MAX_NESTING, nesting_depth

E49 = "cluedo-classic-1949"


def classic_record(**changes) -> dict:
    data = {"edition": E49, "players": ["Ann", "Bob", "Cy"], "observer": "Ann",
            "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study", "Lounge"],
            "events": [{"suggest": ["Green", "Dagger", "Library"], "by": "Ann",
                        "passed": ["Bob"], "shown_by": "Cy", "card": "Dagger"}]}
    data.update(changes)
    return data


# -- files: encodings, sizes, nesting ------------------------------------------------------

@pytest.mark.parametrize("encoding, words", [
    ("utf-16", "UTF-16"), ("latin-1", "not UTF-8 text (byte"),
])
def test_a_record_in_another_encoding_is_refused_by_name(tmp_path, encoding, words):
    path = tmp_path / "game.json"
    text = json.dumps(classic_record(players=["Zoë", "Bob", "Cy"], observer="Zoë"),
                      ensure_ascii=False)
    path.write_bytes(text.encode(encoding))
    with pytest.raises(RecordError, match=re.escape(words)):
        Record.load(path)


def test_a_utf8_byte_order_mark_is_fine(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(classic_record()).encode())
    assert Record.load(path).observer == "Ann"


def test_an_edition_file_in_latin_1_is_refused_naming_the_file(tmp_path):
    source = Path(__file__).parents[2] / "data" / "editions" / f"{E49}.toml"
    path = tmp_path / "mine.toml"
    path.write_bytes(source.read_text(encoding="utf-8").replace(
        "Tudor Close", "Tudor Clos\u00e9").encode("latin-1"))
    with pytest.raises(EditionError, match=r"mine\.toml.*not UTF-8"):
        load_edition(path)


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 1000, 100_000])
def test_deep_nesting_is_refused_before_parsing(depth):
    nested = "[" * depth + "]" * depth
    with pytest.raises(RecordError, match="nest"):
        Record.from_json('{"comment": ' + nested + "}")
    text = json.dumps(classic_record(comment={"a": 1}))
    assert Record.from_json(text).observer == "Ann"      # shallow comments are fine


def test_deep_toml_arrays_are_refused(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(EditionError, match="nest"):
        load_edition(path)


def test_nesting_ignores_brackets_in_strings_and_comments():
    assert nesting_depth('{"a": "[[[[[[", "b": [1]}') == 2
    assert nesting_depth("# [[[[[[[[ don't\nx = [1]\n", comments=True) == 1


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(50_000_000)                   # sparse: no time or disk spent
    with pytest.raises(RecordError, match="bytes is more than"):
        Record.load(path)


def test_an_overlong_edition_id_is_refused_without_touching_the_disk():
    with pytest.raises(EditionError, match="not an edition id"):
        load_edition("x" * 300)
    with pytest.raises(RecordError, match="edition"):
        Record.from_dict(classic_record(edition="y" * 300))


# -- records no game could produce --------------------------------------------------------

def refused(data: dict, *words: str) -> RecordError:
    with pytest.raises(RecordError) as error:
        Record.from_dict(data)
    for word in words:
        assert word in str(error.value), (word, str(error.value))
    return error.value


def test_an_event_the_edition_does_not_have():
    refused(classic_record(events=[{"snoop": "Bob", "by": "Ann"}]), "event 1",
            "no snoop action card")
    refused(classic_record(events=[{"room_card": "study-pile", "by": "Ann"}]), "event 1",
            "face down")


def test_a_wrong_accuser_takes_no_more_turns_and_accuses_once():
    wrong = {"accuse": ["Green", "Dagger", "Library"], "by": "Bob", "correct": False}
    ask = {"suggest": ["Green", "Rope", "Library"], "by": "Bob", "passed": ["Cy"],
           "shown_by": "Ann", "card": "Rope"}
    refused(classic_record(events=[wrong, ask]), "event 2", "Bob accused wrongly at event 1",
            "takes no more turns")
    refused(classic_record(events=[wrong, dict(wrong, accuse=["Plum", "Rope", "Hall"])]),
            "event 2", "one accusation per player")
    # Answering is not a turn: a wrong accuser still shows cards.
    answer = {"suggest": ["Green", "Rope", "Library"], "by": "Ann", "passed": [],
              "shown_by": "Bob", "card": None}
    assert len(Record.from_dict(classic_record(events=[wrong, answer])).events) == 2


def test_nothing_happens_after_a_correct_accusation():
    right = {"accuse": ["Green", "Dagger", "Library"], "by": "Bob", "correct": True}
    ask = {"suggest": ["Green", "Rope", "Library"], "by": "Cy", "passed": ["Ann", "Bob"]}
    refused(classic_record(events=[right, ask]), "event 2", "game ended")


@pytest.mark.parametrize("name, words", [
    ("", "empty"), ("  ", "empty"), ("Envelope", "are places"), ("face up", "are places"),
    ("Ann\nevent 9", "one line"), ("Ann\tBob", "one line")])
def test_a_player_name_that_is_a_place_or_not_a_line(name, words):
    refused(classic_record(players=[name, "Bob", "Cy"], observer=None, hand=[]), "players",
            words)


@pytest.mark.parametrize("players", [7, 100])
def test_player_counts_and_hand_sizes_outside_the_edition(players):
    names = [{"name": f"P{i}", "hand_size": 1} for i in range(players)]
    refused({"edition": E49, "players": names}, "players", "2-6 players")
    sizes = [{"name": n, "hand_size": s} for n, s in zip("ABC", (5, 6, 7), strict=True)]
    refused({"edition": E49, "players": sizes}, "players", "hands of 6, 6, 6")


def test_a_record_may_not_climb_out_of_its_folder_for_its_edition(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('password = "hunter2"\n', encoding="utf-8")
    error = refused(classic_record(edition=f"../{secret.name}"), "edition", "'..'")
    assert "hunter2" not in str(error)
    error = refused(classic_record(edition=str(secret)), "edition")
    assert "hunter2" not in str(error) and "password" in str(error)  # the field, not the value


@pytest.mark.parametrize("change, words", [
    ({"players": "Ann"}, "players"),
    ({"events": [{"suggest": ["Green", "Dagger", "Library"], "by": "Ann",
                  "passed": ["Bob"], "shown_by": "Cy", "card": ["colour"]}]}, "card"),
    ({"hand": [5, "Rope"]}, "hand"),
])
def test_ill_typed_fields_name_the_field(change, words):
    refused(classic_record(**change), words)


# -- saved games --------------------------------------------------------------------------

def saved(**changes) -> str:
    game = new_game(E49, 3, 7)
    game.play_until = None
    data = json.loads(game.to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("changes, words", [
    ({"edition": None}, "'edition'"),
    ({"players": [1, 2, 3]}, "'players'"),
    ({"players": 10 ** 8}, "'players'"),
    ({"players": [f"P{i}" for i in range(100)]}, "2-6 players"),
    ({"seed": "seven"}, "'seed'"),
    ({"seed": 8}, "no longer deal the cards"),
    ({"actions": {"kind": "roll"}}, "'actions'"),
    ({"options": ["dice"]}, "'options'"),
    ({"edition": "no-such-edition"}, "no such edition"),
    ({"game": "card"}, "'game'"),
    ({"extra": 1}, "unknown"),
])
def test_a_tampered_saved_game_names_the_field(changes, words):
    with pytest.raises(SavedGameError, match=re.escape(words)):
        game_from_json(saved(**changes))


def test_a_saved_game_without_a_fingerprint_still_loads():
    data = json.loads(saved())
    del data["deal"]
    assert game_from_json(json.dumps(data)).names == ("P1", "P2", "P3")


def test_a_saved_game_of_one_edition_checks_its_actions_by_position():
    game = new_game(E49, 3, 7)
    data = json.loads(game.to_json())
    data["actions"] = [{"kind": "dance", "seat": 0}]
    with pytest.raises(CluedoLabError, match="saved action 1"):
        game_from_json(json.dumps(data))


# -- the command line: a one-line message and a non-zero exit -----------------------------

@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe{\x00}\x00", "UTF-16"),
    (b"{" * 5000, "nest"),
    (b'{"edition": "cluedo-classic-1949", "players": ["A", "B", "C"], "events": [1]}',
     "event 1"),
])
def test_the_cli_says_what_is_wrong_in_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["solve", str(path)]) != 0
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_a_refused_record_leaves_knowledge_unchanged():
    knowledge = Knowledge(Record.from_dict(classic_record()))
    before = knowledge.probabilities()
    with pytest.raises(CluedoLabError):
        knowledge.add({"snoop": "Bob", "by": "Ann"})
    assert knowledge.probabilities() == before


def test_edition_data_round_trip_is_untouched_by_a_failed_load(tmp_path):
    data = edition_data(E49)
    path = tmp_path / "bad.toml"
    path.write_text('schema = "one"\n', encoding="utf-8")
    with pytest.raises(EditionError):
        load_edition(path)
    assert edition_data(E49) == data


@pytest.mark.parametrize("spec, words", [
    ({"drop": {"weapon": [5]}}, "no card 5"),
    ({"add": {"weapon": [{"name": "Poison", "id": 5}]}}, "an id is a text"),
])
def test_ill_typed_variant_cards_are_refused(spec, words):
    from cluedo_lab.rules.variant import VariantError, variant_from_dict
    with pytest.raises(VariantError, match=words):
        variant_from_dict({"base": E49, **spec})


# -- the command line and the views: the rest of the fuzzing pass's findings --------------

def test_a_billion_players_are_refused_before_any_name_is_made(capsys):
    assert main(["play", "--edition", E49, "--players", "1000000000"]) == 2
    err = capsys.readouterr().err
    assert "2-6 players" in err and err.count("\n") == 1


def test_an_edition_naming_an_unknown_board_fails_on_loading(tmp_path):
    data = edition_data(E49)
    data["board"] = "../../etc/passwd"
    from cluedo_lab.rules.edition import edition_from_dict
    with pytest.raises(EditionError, match="board.*no board"):
        edition_from_dict(data, "mine.toml")


def test_names_in_the_notepad_html_are_escaped():
    from cluedo_lab.views.display import to_html
    record = classic_record(players=["<img src=x onerror=alert(1)>", "Bob", "Cy"],
                            observer="Bob", events=[])
    html = to_html(Knowledge(Record.from_dict(record)))
    assert "<img src=x" not in html and "&lt;img src=x" in html


def test_solve_into_a_closed_pipe_ends_quietly(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "r.json"
    path.write_text(json.dumps(classic_record()), encoding="utf-8")
    # A reader that stops at once: the solver's output meets a closed pipe.
    solver = subprocess.Popen([sys.executable, "-m", "cluedo_lab.cli", "solve", str(path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    solver.stdout.close()
    _, err = solver.communicate(timeout=120)
    assert solver.returncode == 0 and b"Traceback" not in err


def test_more_workers_than_cores_are_capped(monkeypatch, capsys):
    import os
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert main(["simulate", "--edition", "cluedo-card-game-2018", "--bots", "random,random",
                 "--games", "2", "--workers", "16"]) == 0
    assert "using 2" in capsys.readouterr().err


# == round two (issue 32) ========================================================================

MINI = Path(__file__).parents[1] / "data" / "mini-3x3x3.toml"
MINI_TEXT = MINI.read_text(encoding="utf-8")


def mini_file(folder: Path, name: str = "mine.toml", old: str = "", new: str = "") -> Path:
    """The mini test edition written into ``folder`` (with ``old`` replaced by ``new``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    text = MINI_TEXT.replace('id = "mini-3x3x3"', f'id = "{path.stem}"')
    path.write_text(text.replace(old, new) if old else text, encoding="utf-8")
    return path


def mini_record(edition: object) -> dict:
    return {"edition": edition, "players": ["Ann", "Bob", "Cy"]}


# -- 2: no path out of its folder, no content from another file -------------------------------

def test_a_variant_base_obeys_the_record_path_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.toml").write_text('schema = 1\nid = "Sup3r-Secret Token 42"\n',
                                    encoding="utf-8")
    (tmp_path / "plain").write_text('schema = 1\nid = "Sup3r-Secret Token 42"\n',
                                    encoding="utf-8")
    for base in ("rec/../outside/x.toml", "plain"):
        error = refused(mini_record({"base": base, "players": 3}), "edition")
        assert "Sup3r" not in str(error)
    error = refused(mini_record({"base": str(outside / "x.toml"), "players": 3}), "edition")
    assert "Sup3r" not in str(error) and "x.toml" in str(error)
    error = refused(mini_record(str(outside / "x.toml")), "edition", "field 'id'")
    assert "Sup3r" not in str(error)


def test_a_relative_edition_path_is_found_in_the_records_folder(tmp_path, monkeypatch):
    folder = tmp_path / "class"
    mini_file(folder)
    (folder / "game.json").write_text(json.dumps(mini_record("mine.toml")), encoding="utf-8")
    (folder / "variant.json").write_text(
        json.dumps(mini_record({"base": "mine.toml", "players": 3})), encoding="utf-8")
    monkeypatch.chdir(tmp_path)                  # not the record's folder
    assert Record.load(folder / "game.json").edition.id == "mine"
    assert Record.load(folder / "variant.json").edition.extends == "mine"


def test_a_symbolic_link_may_not_lead_an_edition_path_out_of_the_folder(tmp_path):
    outside = mini_file(tmp_path / "outside")
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "link.toml").symlink_to(outside)
    (folder / "game.json").write_text(json.dumps(mini_record("link.toml")), encoding="utf-8")
    with pytest.raises(RecordError, match="out of the record's folder"):
        Record.load(folder / "game.json")


def test_lessons_are_never_written_through_a_symbolic_link(tmp_path):
    from cluedo_lab.lab.lessons import write_lessons
    outside = tmp_path / "outside.txt"
    target = tmp_path / "lessons"
    target.mkdir()
    (target / "00_start_here.ipynb").symlink_to(outside)           # dangling
    with pytest.raises(CluedoLabError, match="already holds"):
        write_lessons(target)
    with pytest.raises(CluedoLabError, match="symbolic link"):
        write_lessons(target, force=True)
    assert not outside.exists()
    outside.write_text("mine", encoding="utf-8")
    with pytest.raises(CluedoLabError, match="symbolic link"):
        write_lessons(target, force=True)
    assert outside.read_text(encoding="utf-8") == "mine"
    assert [p.name for p in target.iterdir()] == ["00_start_here.ipynb"]   # nothing written
    (target / "00_start_here.ipynb").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (target / "app").symlink_to(elsewhere)
    with pytest.raises(CluedoLabError, match="symbolic link"):
        write_lessons(target)
    assert list(elsewhere.iterdir()) == []


# -- 3: numbers too long to be meant ----------------------------------------------------------

@pytest.mark.parametrize("digits", [31, 4_301, 20_000])
def test_a_huge_integer_is_refused_in_one_line(tmp_path, capsys, digits):
    number = "7" * digits
    with pytest.raises(RecordError, match="digits"):
        Record.from_json('{"comment": ' + number + "}")
    path = tmp_path / "game.json"
    path.write_text('{"edition": "cluedo-classic-1949", "players": ' + number + "}",
                    encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "digits" in err
    toml = mini_file(tmp_path, "big.toml", "year = 2024", f"year = {number}")
    with pytest.raises(EditionError, match="digits"):
        load_edition(toml)
    with pytest.raises(SavedGameError, match="digits"):
        game_from_json(re.sub(r'"seed": \d+', f'"seed": {number}', saved()))


def test_a_records_own_deck_is_capped_before_counting():
    from cluedo_lab.rules.limits import MAX_CARDS
    deck = {"suspect": [f"S{i}" for i in range(MAX_CARDS)], "weapon": ["W1", "W2"]}
    with pytest.raises(RecordError, match=f"more than {MAX_CARDS} cards"):
        Record.from_dict({"deck": deck, "players": ["Ann", "Bob"]})


# -- 4: every size a game enumerates is capped when the edition loads --------------------------

def classic_with(**changes) -> dict:
    data = edition_data(E49)
    for dotted, value in changes.items():
        table = data
        *parents, last = dotted.split("__")
        for key in parents:
            table = table.setdefault(key, {})
        table[last] = value
    return data


@pytest.mark.parametrize("changes, field", [
    ({"players__min": 300_000_000, "players__max": 300_000_000}, "players.max"),
    ({"players__max": 2 ** 62}, "players.max"),
    ({"dice__sides": 10 ** 6}, "dice.sides"),
    ({"dice__count": 10 ** 6}, "dice.count"),
])
def test_an_edition_too_big_to_play_is_refused_when_it_loads(changes, field):
    from cluedo_lab.rules.edition import edition_from_dict
    with pytest.raises(EditionError, match=re.escape(field) + ".*at most"):
        edition_from_dict(classic_with(**changes), "big.toml")


def test_a_deck_of_forty_categories_is_refused_before_a_game_lists_its_accusations():
    from cluedo_lab.rules.edition import edition_from_dict
    data = edition_data("cluedo-card-game-2018")
    data["categories"] = [{"id": f"c{i}", "name": f"C{i}", "cards": [
        {"id": f"c{i}-{j}", "name": f"Card {i}.{j}"} for j in range(2)]} for i in range(40)]
    data["deal"]["envelope"] = {f"c{i}": 1 for i in range(40)}
    data["question"]["items"] = 2
    data.pop("features", None)
    data.pop("actions", None)
    with pytest.raises(EditionError, match="categories"):
        edition_from_dict(data, "wide.toml")


def test_an_action_hand_larger_than_the_action_deck_is_refused(tmp_path):
    path = mini_file(tmp_path, "hand.toml", "hand = 1", "hand = 1000000")
    with pytest.raises(EditionError, match=r"actions\.hand"):
        load_edition(path)


def test_a_long_extends_chain_is_refused_without_recursion(tmp_path):
    mini_file(tmp_path, "base.toml")
    for i in range(1, 1200):
        parent = "base" if i == 1 else f"v{i - 1}"
        (tmp_path / f"v{i}.toml").write_text(f'extends = "{parent}"\nid = "v{i}"\n',
                                            encoding="utf-8")
    with pytest.raises(EditionError, match="extends"):
        load_edition(tmp_path / "v1199.toml")
    assert load_edition(tmp_path / "v3.toml").id == "v3"          # a short chain is fine


def test_an_assumption_about_that_is_an_array_is_refused(tmp_path):
    mini_file(tmp_path, "base.toml")
    path = tmp_path / "v.toml"
    path.write_text('extends = "base"\nid = "v"\n[[assumptions]]\nabout = ["x"]\n'
                    'choice = "c"\nsource = "s"\n', encoding="utf-8")
    with pytest.raises(EditionError, match=r"assumptions\[0\]\.about"):
        load_edition(path)


def test_puzzle_with_a_bad_edition_file_is_refused_in_one_line(tmp_path, capsys):
    path = mini_file(tmp_path, "bad.toml", "max = 5", "max = 1")
    assert main(["puzzle", "--edition", str(path), "--kind", "envelope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "players.max" in err
    # Loads, but four detectives cannot each hold one of three room markers.
    with pytest.raises(CluedoLabError, match="marker"):
        new_game(load_edition(MINI), 4)
    assert main(["puzzle", "--edition", str(MINI), "--kind", "chance"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "marker" in err


# -- 7: nothing printed raw that could drive the terminal -------------------------------------

@pytest.mark.parametrize("name", ["Rope\x1b]0;owned\x07", "Rope\x1b[2J", "Rope\nBob: ✓",
                                  "\u202eepoR"])
def test_card_and_category_names_are_printable_one_line_text(tmp_path, name):
    path = mini_file(tmp_path, "names.toml", 'name = "Rope"', f"name = {json.dumps(name)}")
    with pytest.raises(EditionError, match=r"cards\[0\]\.name"):
        load_edition(path)
    path = mini_file(tmp_path, "cats.toml", 'name = "Weapon"', f"name = {json.dumps(name)}")
    with pytest.raises(EditionError, match=r"categories\[1\]\.name"):
        load_edition(path)
    with pytest.raises(RecordError, match="printable"):
        Record.from_dict({"deck": {"weapon": [name, "Knife"], "room": ["Hall", "Study"]},
                          "players": ["Ann", "Bob"]})


def test_a_file_name_with_control_characters_is_escaped_in_messages(tmp_path, capsys):
    name = "\u202egame\x1b[2J.json"
    assert main(["solve", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert "\u202e" not in err and "\x1b" not in err and "\\u202e" in err
    assert main(["simulate", "--edition", "Ann\nBob", "--bots", "random", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Ann\\nBob" in err


# -- 8: what no game produces is refused --------------------------------------------------------

def test_clue_card_events_need_an_edition_with_clue_cards():
    show, reveal = {"show": "Bob", "to": "Ann", "card": "Rope"}, {"reveal": "Rope", "by": "Bob"}
    refused(classic_record(events=[{**show, "card": None}]), "no Clue cards", "show")
    card_game = {"edition": "cluedo-card-game-2018", "players": ["Ann", "Bob", "Cy"]}
    refused({**card_game, "events": [show]}, "no Clue cards")
    refused({**card_game, "events": [reveal]}, "no board", "reveal")
    # On a board a card is also revealed when a false witness is proved (a house rule).
    assert Record.from_dict(classic_record(events=[{"reveal": "Dagger", "by": "Bob"}])).events


@pytest.mark.parametrize("name", ["Envelope", "face-up", "Face Up", "Ann\x1b[2J"])
def test_a_place_or_control_character_is_no_players_name(name):
    with pytest.raises(CluedoLabError, match="player"):
        new_game(E49, [name, "Bob", "Cy"])
    with pytest.raises(SavedGameError, match="player"):
        game_from_json(saved(players=[name, "Bob", "Cy"]))


def test_a_boolean_is_not_a_seat():
    from cluedo_lab.games.game import Action
    from cluedo_lab.rules.errors import IllegalAction
    with pytest.raises(IllegalAction, match="seat"):
        Action.from_dict({"kind": "roll", "seat": True})


@pytest.mark.parametrize("argv", [
    ["play", "--edition", E49, "--players", "3", "--save", ""],
    ["puzzle-book", "--out", "x.html", "--notebook", "", "--count", "1"],
    ["lessons", ""],
])
def test_an_empty_path_is_refused(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert "empty" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# -- 9: the API refuses with the kit's own errors ----------------------------------------------

def api_calls():
    from cluedo_lab import Dice, deal, new_game, variant
    from cluedo_lab.bots import make_bot
    from cluedo_lab.rules.board import load_board
    from cluedo_lab.rules.clue_cards import load_clue_deck
    record = Record.from_dict({"edition": E49, "players": ["Ann", "Bob", "Cy"]})
    return {
        "load_edition(None)": (lambda: load_edition(None), TypeError),
        "load_edition(plain file)": (lambda: load_edition(Path(__file__)), ValueError),
        "new_game(1949)": (lambda: new_game(E49), ValueError),
        "new_game(1949, 'x')": (lambda: new_game(E49, "x"), TypeError),
        "new_game(option)": (lambda: new_game(E49, 3, bogus=1), ValueError),
        "Knowledge(model)": (lambda: Knowledge(record, model="x"), ValueError),
        "Knowledge(None)": (lambda: Knowledge(None), TypeError),
        "card name": (lambda: load_edition(E49).card("Banana"), KeyError),
        "card type": (lambda: load_edition(E49).card(None), KeyError),
        "place name": (lambda: Knowledge(record).probability("Rope", "Zed"), KeyError),
        "hand sizes": (lambda: load_edition(E49).hand_sizes(99), ValueError),
        "board None": (lambda: load_board(None), TypeError),
        "clue deck None": (lambda: load_clue_deck(3), TypeError),
        "Record.load(None)": (lambda: Record.load(None), TypeError),
        "Record.from_json(None)": (lambda: Record.from_json(None), TypeError),
        "game_from_json('{}')": (lambda: game_from_json("{}"), ValueError),
        "record_for(9)": (lambda: new_game(E49, 3).record_for(9), ValueError),
        "deal(99)": (lambda: deal(load_edition(E49), 99), ValueError),
        "variant(None)": (lambda: variant(None), ValueError),
        "Dice(0)": (lambda: Dice(0), ValueError),
        "Dice.of('x')": (lambda: Dice.of("x"), TypeError),
        "make_bot": (lambda: make_bot("nope"), ValueError),
        "game undo": (lambda: new_game(E49, 3).undo(), IndexError),
        "knowledge undo": (lambda: Knowledge(record).undo(), IndexError),
    }


@pytest.mark.parametrize("name", list(api_calls()))
def test_the_api_refuses_with_a_kit_error_python_users_can_also_catch(name):
    call, builtin = api_calls()[name]
    with pytest.raises(CluedoLabError) as error:
        call()
    assert isinstance(error.value, builtin)
    assert str(error.value) and not str(error.value).startswith("'")    # a message, not a repr


def test_both_undos_raise_one_error_type():
    from cluedo_lab.rules.errors import NothingToUndo
    record = Record.from_dict({"edition": E49, "players": ["Ann", "Bob", "Cy"]})
    for undo in (new_game(E49, 3).undo, Knowledge(record).undo):
        with pytest.raises(NothingToUndo):
            undo()


# -- 10: messages ---------------------------------------------------------------------------------

def test_a_failed_save_names_the_file(capsys):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    assert main(["play", "--edition", E49, "--players", "3", "--save", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert "/dev/full" in err and "No space left" in err


def test_a_stdout_that_is_not_utf8_gets_ascii_marks(tmp_path):
    import os
    import subprocess
    import sys
    path = tmp_path / "game.json"
    path.write_text(json.dumps(classic_record()), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cluedo_lab.cli", "solve", str(path)],
                          capture_output=True, env={**os.environ, "PYTHONIOENCODING": "ascii"},
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert b"Traceback" not in done.stderr
    assert b"+ certainly there" in done.stdout


# -- 6 and issue 35: editions loaded once, nothing loaded replaced -----------------------------

def test_an_edition_file_is_read_once_and_again_when_it_changes(tmp_path):
    path = mini_file(tmp_path)
    first = load_edition(path)
    assert load_edition(path) is first and load_edition(str(path)) is first
    path.write_text(path.read_text(encoding="utf-8").replace('"Rope"', '"Silk Rope"'),
                    encoding="utf-8")
    assert load_edition(path).card("rope").name == "Silk Rope"
    assert load_edition(E49) is load_edition(E49)


def test_a_users_file_with_a_shipped_id_replaces_nothing(tmp_path, monkeypatch):
    from cluedo_lab import variant
    from cluedo_lab.rules.variant import spec_of
    shipped = variant(E49, players=4)
    source = Path(__file__).parents[2] / "data" / "editions" / f"{E49}.toml"
    mine = tmp_path / "mine.toml"
    mine.write_text(source.read_text(encoding="utf-8").replace('"Rope"', '"Skipping Rope"'),
                    encoding="utf-8")
    theirs = variant(str(mine), players=4)
    assert theirs.id != shipped.id
    assert load_edition(shipped.id).card("rope").name == "Rope"
    assert spec_of(load_edition(shipped.id)) == {"base": E49, "players": 4}
    assert load_edition(E49).card("rope").name == "Rope"
    # The base is read from the file the path names now: after a chdir, another file.
    for folder, rope in (("a", "Red Rope"), ("b", "Blue Rope")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "same.toml").write_text(
            source.read_text(encoding="utf-8").replace('"Rope"', f'"{rope}"'), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "a")
    red = variant("same.toml", players=4)
    monkeypatch.chdir(tmp_path / "b")
    blue = variant("same.toml", players=4)
    assert red.edition.card("rope").name == "Red Rope"
    assert blue.edition.card("rope").name == "Blue Rope"


def test_a_game_of_a_users_file_with_a_shipped_id_reloads_as_theirs(tmp_path):
    from cluedo_lab import Record, new_game
    from cluedo_lab.games.factory import game_from_json
    from cluedo_lab.rules.edition import edition_from_dict
    source = Path(__file__).parents[2] / "data" / "editions" / f"{E49}.toml"
    mine = tmp_path / "mine.toml"
    mine.write_text(source.read_text(encoding="utf-8").replace('"Rope"', '"Skipping Rope"'),
                    encoding="utf-8")
    game = new_game(load_edition(mine), 3, seed=1)
    saved = json.loads(game.to_json())
    assert saved["edition"] == str(mine.resolve())
    assert game_from_json(json.dumps(saved)).edition.card("rope").name == "Skipping Rope"
    record = json.loads(json.dumps(game.record_for(0)))
    assert Record.from_dict(record).edition.card("rope").name == "Skipping Rope"
    # The shipped edition still saves by its id, and is untouched.
    assert new_game(E49, 3, seed=1).to_dict()["edition"] == E49
    assert load_edition(E49).card("rope").name == "Rope"
    # Built in Python under the shipped id, it has no name that would find it again.
    built = edition_from_dict(edition_data(mine), "built")
    with pytest.raises(CluedoLabError, match="id of its own"):
        new_game(built, 3, seed=1).to_dict()


# -- 5: servers ---------------------------------------------------------------------------------

def test_make_lab_trusts_only_the_notebooks_the_kit_wrote(tmp_path):
    from cluedo_lab.lab.lessons import write_lessons
    from cluedo_lab.lab.trust import trusted_paths
    written = write_lessons(tmp_path / "lessons", student=True)
    replaced, linked = written[1], written[2]
    replaced.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
                        encoding="utf-8")
    linked.unlink()
    linked.symlink_to(written[3])
    (tmp_path / "lessons" / "dropped.ipynb").write_text("{}", encoding="utf-8")
    trusted = trusted_paths(tmp_path / "lessons")
    assert set(trusted) == set(written) - {replaced, linked}


@pytest.mark.slow
@pytest.mark.skipif(not (Path(__file__).resolve().parents[2] / ".venv" / "bin" / "voila"
                         ).exists(), reason="needs the lab extras (voila) in .venv")
def test_the_classroom_server_refuses_foreign_hosts_and_caps_kernels(tmp_path):
    import os
    import signal
    import socket
    import subprocess
    import time
    import urllib.error
    import urllib.request
    root = Path(__file__).resolve().parents[2]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "JUPYTER_PATH": str(root / "notebooks/app/share/jupyter"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path)}
    server = subprocess.Popen(
        [str(root / ".venv/bin/voila"), "notebooks/app/classroom.ipynb", "--template=classroom",
         "--Voila.ip=127.0.0.1", "--Voila.config_file_paths=notebooks/app",
         "--CappedKernelManager.max_kernels=0", f"--port={port}", "--no-browser"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)

    def status(host: str) -> int:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                first = status(f"rebound.example:{port}")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("voila did not start in 60 s")
                time.sleep(0.5)
        assert first == 403                            # a DNS-rebinding page is refused
        assert status(f"localhost:{port}") == 503      # no kernel beyond the cap
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=15)
