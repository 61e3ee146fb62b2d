"""The game review (issue 34): every figure against the brute-force oracle on small games, the
board's rooms, the record-only review, the outputs and the refusals."""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
from gamegen import edition_path
from oracle import brute_force

from cluedo_lab.bots.registry import make_bot
from cluedo_lab.cli import main
from cluedo_lab.games.factory import new_game
from cluedo_lab.knowledge.advice import Option, Outcome, entropy
from cluedo_lab.lab.puzzles import PuzzleError
from cluedo_lab.lab.review import (
    NOTHING_NEW,
    ReviewError,
    grade,
    grade_question,
    load_review,
    puzzle_from_review,
    review_game,
    review_record,
)
from cluedo_lab.records import Record

# Small games the oracle can enumerate: (edition, players, seed, the seats' bots).
SMALL = [
    ("mini-two-item", 2, 5, ("eliminator", "random")),
    ("mini-two-item", 3, 5, ("bluffer", "eliminator", "random")),
    ("mini-two-item", 3, 8, ("eliminator", "bluffer", "eliminator")),
    ("mini-3x3x3", 3, 2, ("eliminator", "bluffer", "random")),
    ("mini-2x3x4", 3, 4, ("bluffer", "eliminator", "eliminator")),
]


@cache
def small_game(edition: str, players: int, seed: int, bots: tuple[str, ...]):
    game = new_game(edition_path(edition), players, seed)
    game.play([make_bot(b, seed * 10 + i) for i, b in enumerate(bots)])
    return game


@cache
def played(edition: str = "cluedo-classic-1949", players: int = 3, seed: int = 4):
    game = new_game(edition, players, seed)
    game.play([make_bot("detective", seed * 10 + i) for i in range(players)])
    return game


def seat_record(game, seat: int) -> dict:
    """The seat's record, naming a test edition by its file (as the oracle loads it)."""
    record = game.record_for(seat)
    edition = game.edition.id
    record["edition"] = edition_path(edition) if edition.startswith("mini-") else edition
    return record


def prefix(record: dict, count: int) -> dict:
    return {**record, "events": record["events"][:count]}


def deals(record: dict) -> list[tuple[dict[str, str], int]]:
    """The oracle's consistent deals ({card: place}, weight), less those a wrong accuser's
    look at the solution rules out: the oracle reads an accusation's verdict, not the
    envelope the accuser saw (``envelope``, in the accuser's own record)."""
    seen = [set(e["envelope"]) for e in record["events"] if e.get("envelope")]
    return [(where, weight) for where, weight in brute_force(record).where()
            if all({c for c, p in where.items() if p == "envelope"} == s for s in seen)]


def envelope_chances(record: dict) -> dict[tuple[str, ...], Fraction]:
    weights: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    cards = brute_force(record).cards
    for where, weight in deals(record):
        weights[tuple(c for c in cards if where[c] == "envelope")] += weight
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def brute_gain(record: dict, asker: str, named: tuple[str, ...]) -> float:
    """Expected information gain about the envelope from every consistent deal: the players
    after the asker answer in turn, the first holding a named card shows one of them (each
    equally likely), the asker seeing which."""
    oracle = brute_force(record)
    players = oracle.table.players
    i = players.index(asker)
    order = players[i + 1:] + players[:i]
    joint: dict[object, dict[tuple[str, ...], Fraction]] = defaultdict(
        lambda: defaultdict(Fraction))
    envelopes: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    for where, weight in deals(record):
        envelope = tuple(c for c in oracle.cards if where[c] == "envelope")
        envelopes[envelope] += weight
        for who in order:
            held = [c for c in named if where[c] == who]
            if held:
                for card in held:
                    joint[(who, card)][envelope] += Fraction(weight, len(held))
                break
        else:
            joint[None][envelope] += weight
    total = sum(envelopes.values())
    before = entropy(w / total for w in envelopes.values())
    after = 0.0
    for dist in joint.values():
        mass = sum(dist.values())
        after += float(mass / total) * entropy(w / mass for w in dist.values())
    return before - after


def every_question(edition, pinned: str | None) -> list[tuple[str, ...]]:
    if edition.question.form == "one-per-category":
        return [combo for combo in itertools.product(*[[c.id for c in cat.cards]
                                                      for cat in edition.categories])
                if pinned is None or pinned in combo]
    return list(itertools.combinations([c.id for c in edition.cards], edition.question.items))


@pytest.mark.parametrize("case", SMALL, ids=lambda c: f"{c[0]}-{c[1]}p-{c[2]}")
def test_every_figure_matches_the_oracle(case):
    game = small_game(*case)
    for seat, name in enumerate(game.names):
        review = review_game(game, name)
        record = seat_record(game, seat)
        # The curve: deals and entropy after every event, certainty from the first single
        # envelope on.
        first_certain = None
        for point in review.curve.points:
            envelopes = envelope_chances(prefix(record, point.event))
            assert point.deals == len(deals(prefix(record, point.event)))
            assert math.isclose(point.entropy, entropy(envelopes.values()), abs_tol=1e-12)
            if len(envelopes) == 1 and first_certain is None:
                first_certain = point.event
        assert review.certain_from == first_certain
        # Each accusation's chance, as this seat saw it just before.
        for accusation in review.accusations:
            envelopes = envelope_chances(prefix(record, accusation.event - 1))
            if accusation.cards is None:
                assert record["events"][accusation.event - 1]["accuse"] is None
            else:
                assert accusation.chance == envelopes.get(accusation.cards, 0)
        # Each question's gain, and the best legal question's, by brute force.
        for turn in review.turns:
            if turn.question is None:
                continue
            before = prefix(record, turn.event - 1)
            assert math.isclose(turn.gain, brute_gain(before, name, turn.question),
                                abs_tol=1e-9)
            gains = {q: brute_gain(before, name, q)
                     for q in every_question(game.edition, turn.room)}
            assert math.isclose(turn.best_gain, max(gains.values()), abs_tol=1e-9)
            assert math.isclose(gains[turn.best], turn.best_gain, abs_tol=1e-9)
        # What each question taught the others (reported for bluffs), from their records.
        for turn in review.turns:
            for seat_name, bits in review.told(turn).items():
                theirs = seat_record(game, game.names.index(seat_name))
                drop = entropy(envelope_chances(prefix(theirs, turn.event - 1)).values()) - \
                    entropy(envelope_chances(prefix(theirs, turn.event)).values())
                assert math.isclose(bits, drop, abs_tol=1e-12)
        # The others' moment of certainty, from their own records.
        for other in review.others:
            theirs = seat_record(game, game.names.index(other.seat))
            counts = [len(envelope_chances(prefix(theirs, n)))
                      for n in range(len(theirs["events"]) + 1)]
            assert other.certain_from == next((n for n, c in enumerate(counts) if c == 1),
                                              None)
            assert [p.deals for p in other.curve().points] == [
                len(deals(prefix(theirs, n))) for n in range(len(theirs["events"]) + 1)]
            assert [p.entropy for p in other.curve().points] == pytest.approx(
                [entropy(envelope_chances(prefix(theirs, n)).values())
                 for n in range(len(theirs["events"]) + 1)], abs=1e-12)


def test_an_event_that_rules_no_deal_out_is_not_counted_again(monkeypatch):
    """A curve reads the point after an event that holds in every deal already fitting (a
    pass on cards known elsewhere) off the point before it: fewer counts than positions,
    and every point still the count of its own prefix."""
    import cluedo_lab.lab.review as reviewing
    from cluedo_lab.knowledge import Knowledge
    counts = 0

    class Counting(Knowledge):
        def __init__(self, *args, **kwargs):
            nonlocal counts
            counts += 1
            super().__init__(*args, **kwargs)

    game = played("cluedo-classic-1949", 4, 1)
    monkeypatch.setattr(reviewing, "Knowledge", Counting)
    review = review_game(game, 0)
    for other in review.others:
        counts = 0
        curve = other.curve()
        assert counts < len(curve.points)
        theirs = game.record_for(game.names.index(other.seat))
        for point in curve.points:
            k = Knowledge(Record.from_dict(prefix(theirs, point.event)))
            envelopes = k.envelope_distribution()
            assert (point.deals, point.entropy, point.certain) == \
                (k.consistent_deals, entropy(envelopes.values()), len(envelopes) == 1)


def test_the_small_games_have_questions_accusations_and_certainty():
    """The oracle test above checks something: its games ask, accuse and become certain."""
    reviews = [review_game(small_game(*case), 0) for case in SMALL]
    assert sum(1 for r in reviews for t in r.turns if t.question) >= 5
    assert any(a.chance not in (None, 0, 1) for r in reviews for a in r.accusations) or \
        sum(1 for r in reviews for a in r.accusations) >= 3
    assert any(r.certain_from for r in reviews)
    assert {t.grade for r in reviews for t in r.turns if t.grade} - {"best"}


def option(gain: float, answers: int = 2) -> Option:
    outcomes = [Outcome((), None, None, Fraction(1, answers), 0.0) for _ in range(answers)]
    return Option(("a",), gain, 0.0, outcomes)


@pytest.mark.parametrize("gain, grade", [(1.0, "best"), (0.95, "good"), (0.9, "good"),
                                         (0.8, "inaccuracy"), (0.5, "mistake"),
                                         (0.39, "blunder"), (0.0, "blunder")])
def test_grades_follow_the_share_of_the_best_gain(gain, grade):
    assert grade_question(option(gain), 1.0) == grade


def test_a_question_with_one_possible_answer_could_teach_nothing():
    assert grade_question(option(0.0, answers=1), 0.7) == NOTHING_NEW
    assert grade_question(option(0.0, answers=1), 0.0) == NOTHING_NEW


def test_on_a_board_questions_are_graded_in_their_room_and_reach_is_apart():
    game = played()
    for seat in range(len(game.names)):
        review = review_game(game, seat)
        for turn in review.turns:
            if turn.question is None:
                continue
            assert turn.room in turn.question and turn.room in turn.best
            assert turn.best_gain >= turn.gain - 1e-9
            if turn.reach_room is not None:
                assert turn.reach_room != turn.room and turn.reach_room in turn.reach_best
        rooms = {c.id for c in game.edition.categories[-1].cards}
        assert all(set(t.question) & rooms for t in review.turns if t.question)


def test_the_json_has_the_fields_the_issue_lists(tmp_path, capsys):
    game = played()
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    assert main(["review", str(path), "--seat", "P2", "--json",
                 "--html", str(tmp_path / "report.html")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == "P2"
    assert {"event", "question", "gain", "best", "best_gain", "grade"} <= set(data["turns"][0])
    assert {"event", "by", "cards", "chance"} <= set(data["accusations"][0])
    assert all(isinstance(a["chance"], str | None) for a in data["accusations"])
    assert [p["event"] for p in data["curve"]] == list(range(len(game.events) + 1))
    assert {"event", "deals", "entropy"} == set(data["curve"][0])
    assert [o["seat"] for o in data["others"]] == ["P1", "P3"]
    assert all("certain_from" in o for o in data["others"])
    review = review_game(game, "P2")
    for other, theirs in zip(data["others"], review.others, strict=True):
        assert [p["event"] for p in other["curve"]] == list(range(len(game.events) + 1))
        assert {"event", "deals", "entropy"} == set(other["curve"][0])
        assert other["curve"][-1]["deals"] == theirs.curve().points[-1].deals
        assert [s["event"] for s in other["swings"]] == [e for e, _ in theirs.curve().swings()]
        assert other["swings"] and all(s["bits"] > 0 for s in other["swings"])
    assert "certain_from" in data
    page = (tmp_path / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "Game review" in page


def test_a_record_is_reviewed_for_what_it_holds(tmp_path):
    game = played()
    whole = review_game(game, "P2")
    record = Record.from_dict(game.record_for(1))
    alone = review_record(record)
    asked = [(t.event, t.question, t.gain, t.best_gain) for t in whole.turns if t.question]
    assert [(t.event, t.question, t.gain, t.best_gain) for t in alone.turns] == asked
    assert alone.certain_from == whole.certain_from
    assert alone.others == [] and "turns of the others are not known" in alone.notes[0]
    assert [a.chance for a in alone.accusations] == [a.chance for a in whole.accusations]
    path = tmp_path / "record.json"
    record.save(path)
    assert load_review(path).seat == "P2"


def bad(tmp_path, text: str, name: str = "bad.json") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("text, seat, words", [
    ("not json", "P1", "not valid JSON"),
    ("[1, 2]", "P1", "neither a saved game"),
    ('{"hello": 1}', "P1", "neither a saved game"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "events": [{"x": 1}]}',
     None, "neither a saved game nor a record"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "seed": 1, '
     '"actions": []}', "Bob", "no seat 'Bob'"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "seed": 1, '
     '"actions": []}', None, "--seat NAME: one of a, b, c"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "seed": 1, '
     '"actions": [{"kind": "fly", "seat": 0}]}', "a", "saved action 1"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "events": []}', None,
     "public"),
    ('{"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "observer": "a", '
     '"hand": ["rope", "dagger", "hall", "study", "lounge", "plum"], "events": []}', "b",
     "holds nothing of b's turns"),
])
def test_bad_input_gets_one_line(tmp_path, capsys, text, seat, words):
    path = bad(tmp_path, text)
    argv = ["review", path] + (["--seat", seat] if seat else [])
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("marks, words", [
    ({"seat": "Zed", "pages": []}, "no seat 'Zed'"),
    ({"seat": "a", "pages": [{"events": 999, "marks": []}]}, "each page is"),
    ({"seat": "a", "pages": [{"events": 0, "marks": [["nonsuch", "b", "holds"]]}]},
     "field 'marks'"),
    ({"seat": "a", "pages": [{"events": 0, "marks": [["plum", "b", "perhaps"]]}]},
     "the mark one of holds, lacks, maybe"),
    ([1, 2], "expected {"),
])
def test_bad_learner_marks_get_one_line(tmp_path, capsys, marks, words):
    saved = {"edition": "cluedo-classic-1949", "players": ["a", "b", "c"], "seed": 1,
             "actions": [], "marks": marks}
    assert main(["review", bad(tmp_path, json.dumps(saved)), "--seat", "a"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_learner_marks_are_checked_event_by_event():
    game = small_game(*SMALL[1])
    event = 1
    oracle = brute_force(prefix(seat_record(game, 0), event))
    known = oracle.known()
    (right_cell, right), (wrong_cell, truth) = list(known.items())[:2]
    open_cell = next((c, p) for c in oracle.cards for p in oracle.places
                     if (c, p) not in known)
    marks = {event: {right_cell: "holds" if right else "lacks",
                     wrong_cell: "lacks" if truth else "holds",
                     open_cell: "holds"}}
    slip = review_game(game, 0, marks).learner[0]
    assert slip.wrong == (wrong_cell,)
    assert slip.unjustified == (open_cell,)
    assert right_cell not in slip.missed and wrong_cell not in slip.missed
    assert len(slip.missed) == len(known) - 2


def test_a_puzzle_from_a_key_moment_has_the_engine_answer(tmp_path, capsys):
    game = played()
    review = review_game(game, "P1")
    worst = review.worst_turn()
    assert worst is not None and worst.cost > 0
    puzzle = puzzle_from_review(review)
    assert puzzle.kind == "best-question"
    assert puzzle.answer["gain_bits"] == pytest.approx(worst.best_gain, abs=1e-6)
    assert puzzle.answer["asked"] == list(worst.question)
    assert len(puzzle.record["events"]) == worst.event - 1
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    assert main(["puzzle", "--from-review", str(path), "--seat", "P1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "best-question"


def test_an_envelope_puzzle_is_set_where_an_envelope_card_is_certain():
    made = refused = 0
    for case in SMALL:
        game = small_game(*case)
        review = review_game(game, 0)
        record = seat_record(game, 0)
        for n in range(len(record["events"]) + 1):
            chances = envelope_chances(prefix(record, n))
            certain = set.intersection(*map(set, chances))
            told = record["events"][n - 1] if n else {}
            if "accuse" in told or any(t.question and t.event == n for t in review.turns):
                continue    # a question's own event sets a question puzzle
            if certain:
                puzzle = puzzle_from_review(review, n)
                assert puzzle.kind == "envelope" and puzzle.answer["card"] in certain
                assert len(puzzle.record["events"]) == n
                made += 1
            else:
                with pytest.raises(PuzzleError, match="no card of the envelope is certain"):
                    puzzle_from_review(review, n)
                refused += 1
    assert made and refused


def test_an_unknown_seat_number_is_refused():
    with pytest.raises(ReviewError, match="no seat 7"):
        review_game(played(), 7)


def test_the_curve_svg_is_the_same_every_time_and_marks_the_big_steps():
    from cluedo_lab.views.review import Review, curve_svg
    review = review_game(played(), "P1")
    svg = curve_svg(review)
    assert svg == curve_svg(review_game(played(), "P1"))
    assert svg.count("<polyline") == 2 * len(played().names)
    assert svg.count("stroke-dasharray=\"4 3\"") == 2 * len(review.curve.swings())
    assert svg.count('class="swing"') == 2 * sum(len(c.swings()) for c in review.curves())
    for other in review.others:
        for event, _ in other.curve().swings():
            assert f"{other.seat}, event {event}:" in svg
    view = Review(review)
    assert "Game review: P1" in view._repr_html_()
    assert view.choose(0).turn_text().startswith("Turn 1")
    with pytest.raises(IndexError):
        view.choose(len(review.turns))


@pytest.mark.parametrize("edition", ["cluedo-the-card-game-2002", "cluedo-card-game-2018"])
def test_card_games_grade_questions_where_they_may_be_asked(edition):
    game = new_game(edition, 3, 2)
    game.play([make_bot(b, 20 + i) for i, b in enumerate(("eliminator", "eliminator",
                                                           "eliminator"))])
    asked = [t for seat in game.names for t in review_game(game, seat).turns if t.question]
    assert asked
    places = {c.id for c in game.edition.categories[-1].cards}
    for turn in asked:
        assert turn.best_gain >= turn.gain - 1e-9
        if game.edition.actions:        # 2002: asked at the destination marker's place
            assert turn.room in turn.question and turn.room in turn.best
            assert turn.room in places
        else:                           # 2018: any two cards, anywhere
            assert turn.room is None and len(turn.question) == game.edition.question.items


def test_a_certain_accusation_not_made_is_a_missed_moment():
    """A seeded 1949 game: Bob's suggestion at event 11, which nobody could answer, settles the
    envelope for him, so he may accuse in that same turn, and he does not; Ann, the detective,
    accuses as soon as she is sure."""
    from cluedo_lab.lab.play import play_game
    game, _ = play_game("cluedo-classic-1949", ["Ann", "Bob", "Cy"], 11,
                        bots=("quick-detective", "eliminator", "bluffer"))
    bob, ann = review_game(game, "Bob"), review_game(game, "Ann")
    assert bob.certain_from == 11 and game.events[10]["by"] == "Bob"
    assert bob.missed == [(5, 11)] and not bob.turns[-1].accused
    assert ann.missed == [] and ann.first_accusation().event == ann.certain_from + 1
    assert "turn 5: the envelope was certain (after event 11)" in bob.text()


def brute_observe(record: dict, sees) -> float:
    """The expected gain of an observation from every consistent deal: ``sees(where)`` gives
    each thing the observer could see in that deal with its chance."""
    cards = brute_force(record).cards
    joint: dict[object, dict[tuple[str, ...], Fraction]] = defaultdict(
        lambda: defaultdict(Fraction))
    envelopes: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    for where, weight in deals(record):
        envelope = tuple(c for c in cards if where[c] == "envelope")
        envelopes[envelope] += weight
        for seen, chance in sees(where).items():
            joint[seen][envelope] += weight * chance
    total = sum(envelopes.values())
    after = 0.0
    for dist in joint.values():
        mass = sum(dist.values())
        after += float(mass / total) * entropy(w / mass for w in dist.values())
    return entropy(w / total for w in envelopes.values()) - after


def one_of(cards) -> dict:
    """Each card with equal chance, or "none" when there is none."""
    cards = list(cards)
    return {c: Fraction(1, len(cards)) for c in cards} if cards else {"none": Fraction(1)}


def brute_play(game, replay, record: dict, seat: int, play) -> float:
    """What one legal play of an action card could teach ``seat``, by brute force: what it
    shows in each deal, by the rule book's mechanics (a player choosing among cards picks
    each with equal chance)."""
    name = game.names[seat]
    kind = replay.action_kind(play["card"])
    others = [n for n in game.names if n != name]
    feature = {c.id: c.features for c in game.edition.cards}

    def hand(where, who):
        return [c for c, p in where.items() if p == who]

    if kind.kind in ("suggest-any", "suggest-current"):
        if "cards" in dict(play.args):
            named = tuple(sorted([*play["cards"], replay.markers[seat]],
                                 key=[c.id for c in game.edition.cards].index))
            return brute_gain(record, name, named)
        place = play["destination"]
        return max(brute_gain(record, name, q) for q in every_question(game.edition, place))
    if kind.kind == "snoop":
        return brute_observe(record, lambda w: one_of(hand(w, play["target"])))
    if kind.kind == "all-snoop":        # "left": hands go left, so you get your right's
        i = game.names.index(name)
        source = game.names[(i - 1 if kind.direction == "left" else i + 1) % len(game.names)]
        return brute_observe(record, lambda w: one_of(hand(w, source)))
    if kind.kind == "super-sleuth":
        def sees(where):
            out: dict = {}
            answers = [one_of(c for c in hand(where, o)
                              if feature[c].get(kind.feature) == kind.value) for o in others]
            for combo in itertools.product(*(a.items() for a in answers)):
                out[tuple(c for c, _ in combo)] = math.prod(p for _, p in combo)
            return out
        return brute_observe(record, sees)
    assert kind.kind == "private-tip"
    if kind.all:
        return brute_observe(record, lambda w: {frozenset(
            c for c in hand(w, play["target"])
            if game.edition.card(c).category == kind.category): Fraction(1)})
    return brute_observe(record, lambda w: one_of(
        c for c in hand(w, play["target"]) if feature[c].get(kind.feature) == kind.value))


ACTION_GAMES = [("mini-2002", 3, seed, ("eliminator", "bluffer", "eliminator"))
                for seed in range(3)] + \
    [("mini-3x3x3", 3, seed, ("eliminator", "bluffer", "eliminator")) for seed in range(2)]


@pytest.mark.parametrize("case", ACTION_GAMES, ids=lambda c: f"{c[0]}-{c[2]}")
def test_every_action_card_is_graded_by_its_exact_gain_against_every_legal_play(case):
    """Each action card played (Snoop, All Snoop, Super Sleuth, Private Tip, and the
    suggestion cards' destinations and questions) against every play legal at that moment,
    each valued by brute force over the consistent deals; the best play names one worth the
    best gain."""
    game = small_game(*case)
    for seat, name in enumerate(game.names):
        graded = [t for t in review_game(game, name).turns if t.action_grade]
        record = seat_record(game, seat)
        replay = type(game)(game.edition, game.names, game.seed, **game.options)
        plays = []
        for action in game.history:
            if action.seat == seat and action.kind == "play":
                before = prefix(record, len(replay.events))
                legal = [a for a in replay.legal_actions() if a.kind == "play"]
                values = [brute_play(game, replay, before, seat, a) for a in legal]
                plays.append((brute_play(game, replay, before, seat, action), max(values)))
            replay.apply(action)
        assert len(graded) == len(plays)
        for turn, (mine, best) in zip(graded, plays, strict=True):
            assert math.isclose(turn.action_gain, mine, abs_tol=1e-9)
            assert math.isclose(turn.best_action_gain, best, abs_tol=1e-9)
            if turn.action_grade == NOTHING_NEW:     # one thing it could show
                assert mine == pytest.approx(0, abs=1e-9)
            else:
                assert turn.action_grade == grade(mine, 2, best)


def test_the_action_games_play_every_kind_of_card():
    """The brute-force test above sees every kind of action card, and a poor choice."""
    kinds, grades = set(), set()
    for case in ACTION_GAMES:
        for name in small_game(*case).names:
            for turn in review_game(small_game(*case), name).turns:
                if turn.played:
                    kinds.add(turn.played.kind)
                    grades.add(turn.action_grade)
    assert kinds >= {"snoop", "all-snoop", "super-sleuth", "private-tip", "ask", "prepare"}
    assert grades - {"best", NOTHING_NEW}


def test_a_record_grades_its_action_cards_as_the_saved_game_does():
    game = small_game(*ACTION_GAMES[0])
    for seat, name in enumerate(game.names):
        whole = {t.action_event: t for t in review_game(game, name).turns
                 if t.played and t.played.kind not in ("ask", "move", "prepare")}
        alone = review_record(Record.from_dict(game.record_for(seat), edition=game.edition))
        cards = {t.action_event: t for t in alone.turns if t.played}
        assert cards.keys() == whole.keys()
        for event, turn in cards.items():
            assert turn.played == whole[event].played
            assert math.isclose(turn.action_gain, whole[event].action_gain, abs_tol=1e-12)
            assert turn.best_action_gain <= whole[event].best_action_gain + 1e-12


def test_the_review_widget_shows_the_turn_picked():
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.review import Review
    view = Review.from_game(played(), "P1")
    box = view.widget()
    picker, detail = view._picker, view._detail
    assert picker in box.children and detail in box.children
    assert "Turn 1" in detail.value
    last = len(view.review.turns) - 1
    picker.value = last
    assert f"Turn {view.review.turns[last].turn}" in detail.value and view.chosen == last


def test_an_action_card_shows_in_the_text_json_and_widget():
    from cluedo_lab.views.review import Review, review_html
    game = small_game(*ACTION_GAMES[0])
    review = review_game(game, 2)
    index, turn = next((i, t) for i, t in enumerate(review.turns)
                       if t.action_grade not in (None, "best", NOTHING_NEW))
    data = review.to_dict()["turns"][index]
    assert data["action"] == turn.action and data["action_grade"] == turn.action_grade
    assert data["best_action"] == turn.best_action
    assert data["played"]["kind"] == turn.played.kind and data["played"]["card"] == \
        turn.played.label
    assert data["best_play"] == turn.best_play.to_dict()
    assert f"{turn.action} ({turn.action_gain:.3f}) — {turn.action_grade}" in review.text()
    assert f"The best play then: {turn.best_action}" in Review(review).choose(index).turn_text()
    assert turn.best_action in review_html(review).replace("&#x27;", "'")


def test_the_table_keeps_the_learners_marks_and_the_review_checks_them(tmp_path):
    """A seeded game at a table: the learner marks some of what is known and one cell wrong
    before each move; the marks are saved with the game, reloaded and checked event by event
    against the oracle's known facts."""
    from cluedo_lab.lab.learner import LearnerMarks
    from cluedo_lab.lab.table_session import TableSession
    game = new_game(edition_path("mini-two-item"), 3, 5)
    session = TableSession(game, 0, bots=("eliminator",))
    session.notes = LearnerMarks(session.knowledge())
    me = make_bot("eliminator", 1)
    written: dict[int, dict] = {}
    while not game.is_over:
        known = sorted(session.knowledge().known().items())
        for cell, value in known[::2]:
            session.notes.mark(*cell, "holds" if value else "lacks")
        if len(game.events) >= 2 and len(written) % 2:
            cell, value = known[-1]         # now and then a wrong mark
            session.notes.mark(*cell, "lacks" if value else "holds")
        written[len(game.events)] = dict(session.notes.marks)
        assert session.act(me.choose(game, 0)), session.message
    path = session.save(tmp_path / "game.json")
    saved = json.loads(path.read_text())
    assert saved["marks"]["seat"] == "P1"
    saved["edition"] = edition_path("mini-two-item")     # a test deck is named by its file
    path.write_text(json.dumps(saved))

    review = load_review(path, "P1")
    record = seat_record(game, 0)
    pages = sorted(written.items())
    assert [s.event for s in review.learner] == list(range(pages[0][0], len(game.events) + 1))
    wrong_seen = False
    for slip in review.learner:
        page = [marks for seen, marks in pages if seen <= slip.event][-1]
        known = brute_force(prefix(record, slip.event)).known()
        said = {c: m == "holds" for c, m in page.items()}
        wrong = sorted(c for c, v in said.items() if c in known and known[c] != v)
        assert list(slip.wrong) == wrong
        assert list(slip.missed) == sorted(c for c, v in known.items()
                                           if said.get(c) != v and c not in wrong)
        wrong_seen |= bool(wrong)
    assert wrong_seen and any(s.missed for s in review.learner)
    assert "Your notes against what was certain" in review.text()
    assert load_review(path, "P2").learner == []          # the marks are P1's own
    assert load_review(path, "P1").to_dict()["learner"][0]["event"] == pages[0][0]
