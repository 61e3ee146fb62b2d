"""A seat sees only what its player sees: seeded games of every edition, played by bots.

For every seat of every game: a card named in a private field of the seat's record (a card
shown, looked at, handed back, the solution peeked at) reaches that seat under the rules of its
event kind; a face-down accusation's cards and a Private Tip's wording stay with the players
the rules name; the table's narration names no card the seat could not know; the opening does
not change when two cards the seat never saw swap hands; the true deal breaks no constraint of
any record; and in the card games a shower always takes a step of their own, so no driver of
another seat learns whether they held one named card or several.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from cluedo_lab.bots.explorer import ExplorerBot
from cluedo_lab.games import new_game
from cluedo_lab.games.game import Game
from cluedo_lab.games.seat import seat_of
from cluedo_lab.knowledge.constraints import violated
from cluedo_lab.lab.table_story import opening
from cluedo_lab.rules.edition import all_editions
from cluedo_lab.views.table import Table

EDITIONS = [e.id for e in all_editions()]
SEEDS = (1, 2)
MAX_ACTIONS = 700


def played(edition_id: str, seed: int) -> Game:
    """A seeded game played by exploring bots (which accuse now and then) for a while."""
    edition = next(e for e in all_editions() if e.id == edition_id)
    players = min(3, edition.max_players) if seed % 2 else edition.min_players
    game = new_game(edition, players, seed)
    bots = [ExplorerBot(seed * 100 + s, accuse_chance=0.02) for s in range(len(game.names))]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        game.apply(bots[game.current].choose(game, game.current))
    return game


GAMES = {(e, s): played(e, s) for e in EDITIONS for s in SEEDS}


def allowed(event: dict, seat: str, edition) -> set[str]:
    """The fields of ``event`` (as the game wrote it, every card in it) that the rules let
    ``seat`` see, read from the event's players, not from its visibility keys."""
    if "suggest" in event:
        return {"card"} if seat in (event["by"], event.get("shown_by")) else set()
    if "snoop" in event or "room_card" in event:
        return {"card"} if seat == event["by"] else set()
    if "show" in event:
        return {"card"} if seat in (event["show"], event["to"]) else set()
    if "private_tip" in event:
        return {"cards", "private_tip"} if seat in (event["by"], event["to"]) else set()
    if "accuse" in event:
        mine = seat == event["by"]
        # 2018: accusations made together turn the solution over for everybody
        return {"envelope"} if mine or event.get("together") else set()
    return set()


def seen_cards(record: dict) -> set[str]:
    """Every card id a record names in a field that holds a privately seen card."""
    out = set(record.get("hand", [])) | set(record.get("escape_plan", []))
    for event in record["events"]:
        for key in ("card", "envelope", "cards"):
            value = event.get(key)
            out |= set(value if isinstance(value, list) else [value] if value else [])
        for card in (event.get("showed") or {}).values():
            if card:
                out.add(card)
    return out


def together(game: Game, event: dict) -> bool:
    """Was this accusation one of several turned face up at once? They end the game (2018),
    so they are the game's last events."""
    at = next(i for i, e in enumerate(game.events) if e is event)
    rest = game.events[at:]
    return game.is_over and len(rest) > 0 and all("accuse" in e for e in rest) and len(
        [e for e in game.events[max(0, at - len(game.names)):] if "accuse" in e]) > 1


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_a_seats_record_holds_only_what_the_rules_let_it_see(edition_id):
    for seed in SEEDS:
        game = GAMES[edition_id, seed]
        edition = game.edition
        where = game.true_places()
        for seat in [*range(len(game.names)), None]:
            me = None if seat is None else game.names[seat]
            record = game.record_for(seat)
            assert violated(game.record(seat), where) == [], (edition_id, seed, me)
            if "escape_plan" in record:     # the fugitive chose it (one against all)
                assert me == record["fugitive"], (edition_id, seed, me)
            for raw, mine in zip(game.events, record["events"], strict=True):
                ok = allowed(raw, me, edition) if me is not None else \
                    {"envelope"} if raw.get("together") else set()
                for key in ("card", "cards", "envelope"):
                    if key in mine and mine[key] is not None and "all_snoop" not in raw:
                        assert key in ok, (edition_id, seed, me, raw, mine)
                if "showed" in mine:
                    for who, card in mine["showed"].items():
                        assert card is None or me in (raw["by"], who), (me, raw, mine)
                if "private_tip" in raw and "private_tip" not in ok:
                    assert mine["private_tip"] is None and "cards" not in mine
                if "accuse" in raw and me != raw["by"] and not raw["correct"] and \
                        edition.accusation.reveal == "accuser" and not together(game, raw):
                    assert mine["accuse"] is None, (me, raw, mine)
                if "all_snoop" in raw and mine.get("card"):
                    # each player looks at one card of the neighbour whose hand they receive
                    assert where[mine["card"]] != me and where[mine["card"]] in game.names


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_the_table_narrates_no_card_the_seat_could_not_know(edition_id):
    game = GAMES[edition_id, SEEDS[0]]
    edition = game.edition
    # Where a piece or a marker stands is public: rooms on a board, 2002 destinations.
    places = {"room", "destination"}
    for seat in range(len(game.names)):
        record = game.record_for(seat)
        text = " ".join(Table.for_game(game, seat=seat, bots=("random",)).log())
        if game.is_over:     # the last line shows the solution to everybody
            text = re.split(r"\(the (?:solution|envelope):", text)[0]
        public = " ".join(str(e) for e in record["events"]) + " " + str(record)
        characters = set(getattr(game, "characters", None) or ())   # pieces, not cards
        known = seen_cards(record) | characters | {
            c.id for c in edition.cards if c.id in public or c.category in places}
        for action in game.history:     # a Private Tip's wording stays with its two players
            if action.kind == "play" and "Private Tip" in action["card"] and seat not in (
                    action.seat, game.names.index(action["target"])):
                assert action["card"] not in text, (edition_id, game.names[seat])
        for card in edition.cards:
            if card.id in known:
                continue
            assert not re.search(rf"\b{re.escape(card.name)}\b", text), (
                edition_id, game.names[seat], card.name)


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_swapping_two_unseen_cards_between_other_hands_changes_no_seats_opening(edition_id):
    edition = next(e for e in all_editions() if e.id == edition_id)
    game = new_game(edition, min(edition.min_players + 1, edition.max_players), 3)
    hands = [list(h) for h in game.deal.hands]
    for seat in range(len(game.names)):
        others = [s for s in range(len(hands)) if s != seat and hands[s]]
        if len(others) < 2:
            continue
        p, q = others[:2]
        before = (game.record_for(seat), [str(x) for x in opening(seat_of(game, seat))])
        swapped = [list(h) for h in hands]
        swapped[p][0], swapped[q][0] = hands[q][0], hands[p][0]
        original = game.deal
        game.deal = dataclasses.replace(original, hands=tuple(tuple(h) for h in swapped))
        try:
            after = (game.record_for(seat), [str(x) for x in opening(seat_of(game, seat))])
        finally:
            game.deal = original
        assert after == before, (edition_id, seat)


def show_steps_needed(game: Game) -> int:
    """How many cards the rules had a shower give (one step each)."""
    count = 0
    for event in game.events:
        if "suggest" in event or "super_sleuth" in event:
            count += 1 if event.get("shown_by") else len(event.get("showed") or {})
        elif "private_tip" in event and "feature" in event["private_tip"]:
            count += len(event["cards"])
    return count


@pytest.mark.parametrize("edition_id", [e.id for e in all_editions() if e.family == "card"])
def test_a_shower_always_takes_a_step_so_nobody_learns_they_held_several(edition_id):
    for seed in SEEDS:
        game = GAMES[edition_id, seed]
        shows = sum(a.kind == "show" for a in game.history)
        pending = 1 if not game.is_over and game.stage == "show" else 0
        assert shows + pending >= show_steps_needed(game) > 0, (edition_id, seed)
        assert shows == show_steps_needed(game), (edition_id, seed)


@pytest.mark.parametrize("edition_id", [e.id for e in all_editions() if e.family == "board"])
def test_a_board_shower_always_takes_a_step(edition_id):
    for seed in SEEDS:
        game = GAMES[edition_id, seed]
        shows = sum(a.kind == "show" for a in game.history)
        sizes = dict(zip(game.names, map(len, game.deal.hands), strict=True))
        # Every refutation is a step; a Clue card's show is one unless the hand holds a
        # single card (hand sizes are public, so that one tells nobody anything).
        steps = sum(1 for e in game.events if e.get("shown_by")) + \
            sum(1 for e in game.events if "show" in e and sizes[e["show"]] > 1)
        assert shows == steps, (edition_id, seed)


def test_the_games_cover_every_event_kind_and_a_face_down_accusation():
    from cluedo_lab.records.parse import _Parser as Parser  # the record format's event kinds
    events = [e for game in GAMES.values() for e in game.events]
    assert {next(iter(e)) for e in events} >= set(Parser.KINDS)
    assert any("accuse" in e and e.get("_secret") == ["accuse"] for e in events)
