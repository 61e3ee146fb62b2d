"""Edition files: every shipped file against its rule book, and every way a file can be wrong.

Expected numbers below are worked out from the rule books (cited per line), not read back from
the loader, so a wrong file or a wrong loader both fail here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cluedo_lab.rules.edition as edition_module
from cluedo_lab.rules.edition import Edition, edition_ids, load_edition, overview
from cluedo_lab.rules.errors import EditionError
from cluedo_lab.views.display import to_html

ROOT = Path(__file__).resolve().parents[2]

SHIPPED = {
    "cluedo-classic-1949", "clue-classic-2023", "clue-classic-2023-two-player",
    "clue-mansion-2014", "cluedo-card-game-2018", "cluedo-card-game-2018-advanced",
    "cluedo-the-card-game-2002", "cluedo-the-card-game-2002-one-against-all",
}

# Cards per category, in file order, from each rule book's contents / set-up section.
DECKS = {
    "cluedo-classic-1949": {"suspect": 6, "weapon": 6, "room": 9},     # 3. PLAYING CARDS
    "clue-classic-2023": {"suspect": 6, "weapon": 6, "room": 9},       # notepad list
    "clue-classic-2023-two-player": {"suspect": 6, "weapon": 6, "room": 9},
    "clue-mansion-2014": {"suspect": 6, "weapon": 6, "room": 9},       # Contents
    "cluedo-card-game-2018": {"suspect": 6, "weapon": 3, "location": 3},           # GET READY 3
    "cluedo-card-game-2018-advanced": {"suspect": 6, "weapon": 4, "location": 5},  # ADVANCED
    "cluedo-the-card-game-2002": {"suspect": 6, "vehicle": 6, "destination": 9},   # SETUP 1
    "cluedo-the-card-game-2002-one-against-all": {"suspect": 6, "vehicle": 6, "destination": 9},
}

# players -> (hand sizes in deal order, face-up spares). Worked by hand from each rule book:
UNEVEN_18 = {  # 18 cards dealt one at a time from the dealer's left (1949 Act 9; 2002 SETUP 1)
    2: ((9, 9), 0), 3: ((6, 6, 6), 0), 4: ((5, 5, 4, 4), 0),
    5: ((4, 4, 4, 3, 3), 0), 6: ((3, 3, 3, 3, 3, 3), 0),
}
HANDS = {
    "cluedo-classic-1949": UNEVEN_18,                                  # 2-6 players
    "clue-classic-2023": {n: UNEVEN_18[n] for n in (3, 4, 5, 6)},
    # 21 - 3 in the envelope - 4 face down = 14: seven each.
    "clue-classic-2023-two-player": {2: ((7, 7), 0)},
    # 18 cards, equal hands, spares face up in the Swimming Pool (Set the Scene 5), 3-6 players.
    "clue-mansion-2014": {3: ((6, 6, 6), 0), 4: ((4, 4, 4, 4), 2), 5: ((3,) * 5, 3),
                          6: ((3,) * 6, 0)},
    # 12 - 3 = 9 Evidence cards, equal hands, spares face up (GET READY 5).
    "cluedo-card-game-2018": {2: ((4, 4), 1), 3: ((3, 3, 3), 0), 4: ((2, 2, 2, 2), 1)},
    # 15 - 3 = 12 (ADVANCED GAME), 2-4 players.
    "cluedo-card-game-2018-advanced": {2: ((6, 6), 0), 3: ((4, 4, 4), 0),
                                       4: ((3, 3, 3, 3), 0)},
    "cluedo-the-card-game-2002": {n: UNEVEN_18[n] for n in (3, 4, 5)},  # 3-5 players
    "cluedo-the-card-game-2002-one-against-all": {n: UNEVEN_18[n] for n in (3, 4, 5)},
}

FIRST = {
    "cluedo-classic-1949": "scarlett", "clue-classic-2023": "highest-roll",
    "clue-classic-2023-two-player": "highest-roll", "clue-mansion-2014": "highest-roll",
    "cluedo-card-game-2018": "most-suspicious", "cluedo-card-game-2018-advanced": "most-suspicious",
    "cluedo-the-card-game-2002": "dealer",
    "cluedo-the-card-game-2002-one-against-all": "first-seat",
}

BOARDS = {"cluedo-classic-1949": "classic-24x25", "clue-classic-2023": "classic-24x25",
          "clue-classic-2023-two-player": "classic-24x25", "clue-mansion-2014": "mansion-2014"}


# -- shipped files ------------------------------------------------------------------------------

def test_the_shipped_editions_are_exactly_these():
    assert set(edition_ids()) == SHIPPED


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_every_shipped_file_loads_under_its_own_id(edition_id):
    edition = load_edition(edition_id)
    assert isinstance(edition, Edition)
    assert edition.id == edition_id
    assert edition.source == f"{edition_id}.toml"
    assert (ROOT / "data" / "editions" / edition.source).is_file()


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_deck_sizes_follow_the_rule_book(edition_id):
    edition = load_edition(edition_id)
    assert {c.id: len(c.cards) for c in edition.categories} == DECKS[edition_id]
    assert [c.id for c in edition.categories] == list(DECKS[edition_id])
    assert len(edition.cards) == sum(DECKS[edition_id].values())
    assert edition.deal.envelope == {category: 1 for category in DECKS[edition_id]}


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_hand_sizes_for_every_legal_player_count(edition_id):
    edition = load_edition(edition_id)
    expected = HANDS[edition_id]
    assert list(range(edition.min_players, edition.max_players + 1)) == sorted(expected)
    for players, (hands, face_up) in expected.items():
        assert edition.hand_sizes(players) == hands, players
        assert edition.face_up_count(players) == face_up, players
        assert sum(hands) + face_up + edition.deal.face_down + 3 == len(edition.cards)


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_player_counts_outside_the_range_are_refused(edition_id):
    edition = load_edition(edition_id)
    for players in (edition.min_players - 1, edition.max_players + 1):
        with pytest.raises(ValueError, match=f"not {players}"):
            edition.hand_sizes(players)


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_families_boards_and_first_player(edition_id):
    edition = load_edition(edition_id)
    assert edition.first_player == FIRST[edition_id]
    if edition_id in BOARDS:
        assert edition.family == "board"
        assert edition.board == BOARDS[edition_id]
        assert edition.dice is not None and edition.dice.count == 2
    else:
        assert edition.family == "card"
        assert edition.board is None and edition.dice is None


@pytest.mark.parametrize("edition_id", sorted(SHIPPED))
def test_every_assumption_says_what_it_rests_on(edition_id):
    edition = load_edition(edition_id)
    abouts = [a.about for a in edition.assumptions]
    assert len(abouts) == len(set(abouts)), "one entry per topic"
    for assumption in edition.assumptions:
        assert assumption.choice.strip() and assumption.why.strip()
        assert re.search(r"rule book|research/|@[0-9a-f]{7}|docs/", assumption.source)


def test_uncertain_facts_are_recorded_as_assumptions():
    def about(edition_id):
        return {a.about for a in load_edition(edition_id).assumptions}

    assert {"categories.location", "categories.weapon", "players"} <= about(
        "cluedo-card-game-2018")
    assert {"categories.weapon", "categories.suspect"} <= about("clue-mansion-2014")
    assert {"players", "dice.icon_faces", "board", "deal.spares"} <= about("clue-classic-2023")
    assert {"features.colour", "features.travel", "features.north_south",
            "features.east_west"} <= about("cluedo-the-card-game-2002")


def test_1949_rules():
    classic = load_edition("cluedo-classic-1949")
    assert (classic.question.items, classic.question.form, classic.question.place) == (
        3, "one-per-category", "current-room")
    assert classic.accusation.limit == 1 and classic.accusation.wrong == "stays-to-refute"
    assert classic.card("lead pipe").id == "lead-piping"
    assert classic.card("WRENCH").name == "Spanner"


def test_2023_dice_and_two_player_piles():
    base = load_edition("clue-classic-2023")
    two = load_edition("clue-classic-2023-two-player")
    assert base.dice.icon_faces == (1,) and base.dice.sides == 6
    assert base.deal.face_down == 0
    assert two.extends == "clue-classic-2023"
    assert two.deal.face_down == 4
    # The corner rooms, and each of them is a room card of the deck.
    assert two.deal.face_down_places == ("Kitchen", "Conservatory", "Lounge", "Study")
    assert all(two.card(place).category == "room" for place in two.deal.face_down_places)
    # Everything else is inherited.
    assert [c.id for c in two.cards] == [c.id for c in base.cards]
    assert two.dice == base.dice and two.question == base.question
    assert (two.min_players, two.max_players) == (2, 2)


def test_2014_rules():
    mansion = load_edition("clue-mansion-2014")
    assert mansion.question.reenter_to_repeat is True
    assert mansion.deal.spares == "face-up"
    rooms = {c.name for c in mansion.category("room").cards}
    # The rooms the rule book itself names (Secret Passages).
    assert {"Spa", "Guest House", "Kitchen", "Observatory"} <= rooms


def test_2018_basic_and_advanced():
    basic = load_edition("cluedo-card-game-2018")
    advanced = load_edition("cluedo-card-game-2018-advanced")
    assert (basic.question.items, basic.question.form, basic.question.place) == (
        2, "any", "free")
    assert basic.accusation.simultaneous and not basic.accusation.two_player_both_accuse
    assert advanced.accusation.simultaneous and advanced.accusation.two_player_both_accuse
    # The advanced deck is the basic deck plus the three (+) cards of the rule book.
    added = {c.id for c in advanced.cards} - {c.id for c in basic.cards}
    assert added == {"pistol", "living-room", "study"}
    assert {c.id for c in basic.cards} <= {c.id for c in advanced.cards}
    assert advanced.card("pistol").category == "weapon"
    assert {advanced.card("living room").category, advanced.card("study").category} == {
        "location"}
    # The rule book's examples name these items.
    assert {basic.card(n).category for n in ("Scarlett", "rope", "candlestick")} == {
        "suspect", "weapon"}


def test_2002_action_deck_matches_the_research_table():
    game = load_edition("cluedo-the-card-game-2002")
    assert game.action_hand == 1
    assert game.question.place == "marker"
    assert sum(a.count for a in game.actions) == 39  # EQUIPMENT: 39 Detective Action cards
    by_kind = {}
    for action in game.actions:
        by_kind[action.kind] = by_kind.get(action.kind, 0) + action.count
    assert by_kind == {"suggest-any": 10, "suggest-current": 9, "snoop": 4, "all-snoop": 4,
                       "super-sleuth": 6, "private-tip": 6}
    assert sorted(a.direction for a in game.actions if a.kind == "all-snoop") == [
        "left", "right"]
    sleuths = {(a.category, a.feature, a.value) for a in game.actions if a.kind == "super-sleuth"}
    assert sleuths == {("suspect", "gender", "female"), ("suspect", "gender", "male"),
                       ("vehicle", "travel", "flying"), ("vehicle", "colour", "blue"),
                       ("destination", "north_south", "south"),
                       ("destination", "east_west", "west")}
    tips = {(a.category, a.all, a.value) for a in game.actions if a.kind == "private-tip"}
    assert tips == {("suspect", True, None), ("vehicle", True, None),
                    ("destination", True, None), ("suspect", False, "female"),
                    ("vehicle", False, "red"), ("destination", False, "north")}
    # Every feature an action asks about picks out at least one card and leaves out another.
    for action in game.actions:
        if action.feature:
            matching = game.cards_with(action.feature, action.value)
            assert 0 < len(matching) < len(game.category(action.category).cards)


def test_2002_features_split_as_recorded():
    game = load_edition("cluedo-the-card-game-2002")
    gender = {c.id: c.features["gender"] for c in game.category("suspect").cards}
    assert {k for k, v in gender.items() if v == "female"} == {"scarlett", "white", "peacock"}
    vehicles = game.category("vehicle").cards
    # Every encoding seen splits the vehicles 3 red / 3 blue and 3 flying / 3 ground.
    for feature in ("colour", "travel"):
        values = [c.features[feature] for c in vehicles]
        assert sorted(values.count(v) for v in set(values)) == [3, 3]
    flying = {c.name for c in vehicles if c.features["travel"] == "flying"}
    assert flying == {"Airliner", "Hot Air Balloon", "Seaplane"}


# Latitude (N) and longitude (E, west negative) of the nine UK destinations, from maps.
COORDINATES = {
    "Loch Ness": (57.32, -4.42), "Giant's Causeway": (55.24, -6.51),
    "York Minster": (53.96, -1.08), "Blackpool Tower": (53.82, -3.06),
    "Caernarfon Castle": (53.14, -4.28), "Alton Towers": (52.99, -1.89),
    "Natural History Museum": (51.50, -0.18), "Leeds Castle": (51.25, 0.63),
    "Stonehenge": (51.18, -1.83),
}


def test_2002_destinations_follow_real_geography():
    game = load_edition("cluedo-the-card-game-2002")
    destinations = game.category("destination").cards
    assert {c.name for c in destinations} == set(COORDINATES)
    for feature, axis, low, high in (("north_south", 0, "south", "north"),
                                     ("east_west", 1, "west", "east")):
        lows = [COORDINATES[c.name][axis] for c in destinations if c.features[feature] == low]
        highs = [COORDINATES[c.name][axis] for c in destinations if c.features[feature] == high]
        assert lows and highs
        assert max(lows) < min(highs), feature  # one straight line splits the map
        middle = sum(lows + highs) / len(destinations)
        assert max(lows) < middle < min(highs), feature  # ... at the middle of the nine


def test_2002_one_against_all_is_the_same_deck_in_another_mode():
    base = load_edition("cluedo-the-card-game-2002")
    variant = load_edition("cluedo-the-card-game-2002-one-against-all")
    assert (base.mode, variant.mode) == ("standard", "one-against-all")
    assert variant.cards == base.cards and variant.actions == base.actions
    assert variant.features == base.features
    # It restates some of the base's assumptions and adds its own (the fugitive's marker,
    # win and escape plan) after them.
    own = [a.about for a in variant.assumptions]
    assert own[:len(base.assumptions)] == [a.about for a in base.assumptions]
    assert set(own[len(base.assumptions):]) == {"mode.marker", "mode.win", "mode.escape_plan"}


def test_card_lookup_by_alias_and_unknown_names():
    game = load_edition("cluedo-the-card-game-2002")
    assert game.card("automobile").id == "car"
    assert game.card("giants causeway").name == "Giant's Causeway"
    with pytest.raises(KeyError):
        game.card("Zeppelin")


def test_tables_for_notebooks():
    table = overview()
    assert [row[0] for row in table.rows] == sorted(SHIPPED)
    text = repr(table)
    assert "0x" not in text and "2: 7-7 +4 down" in text
    game = load_edition("cluedo-the-card-game-2002")
    html = to_html(game)
    assert "Giant&#x27;s Causeway" in html and "<table>" in html
    deck = game.deck_table()
    assert len(deck.rows) == 3 and "Train (red, ground)" in deck.rows[1][1]
    assert repr(deck).splitlines()[0] == "The cards of Cluedo The Card Game (Winning Moves 2002)"
    assumed = game.assumptions_table()
    assert [row[0] for row in assumed.rows] == [a.about for a in game.assumptions]
    assert repr(assumed).splitlines()[0] == "Assumptions of cluedo-the-card-game-2002"


# -- the example in docs/editions.md ------------------------------------------------------------

def docs_example() -> str:
    text = (ROOT / "docs" / "editions.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    minis = [b for b in blocks if 'id = "mini-deck"' in b]
    assert len(minis) == 1
    return minis[0]


def test_the_docs_mini_deck_loads(tmp_path):
    path = tmp_path / "mini-deck.toml"
    path.write_text(docs_example(), encoding="utf-8")
    mini = load_edition(path)
    assert {c.id: len(c.cards) for c in mini.categories} == {"suspect": 4, "weapon": 4, "room": 4}
    # 12 - 3 = 9 cards dealt one at a time, as the file's comment says.
    assert mini.hand_sizes(2) == (5, 4)
    assert mini.hand_sizes(3) == (3, 3, 3)
    assert mini.hand_sizes(4) == (3, 2, 2, 2)
    assert load_edition("mini-deck", directory=tmp_path).id == "mini-deck"


# -- validation: each error names the file and the field ---------------------------------------

MINI = '''\
schema = 1
id = "mini"
name = "Mini"
publisher = "Test"
year = 2024
family = "card"
rule_book = "none"

[players]
min = 2
max = 3

[[categories]]
id = "suspect"
name = "Suspect"
cards = [
  { id = "ann", name = "Ann", aliases = ["Annie"], height = "tall" },
  { id = "bob", name = "Bob", height = "short" },
  { id = "cy", name = "Cy", height = "tall" },
]

[[categories]]
id = "weapon"
name = "Weapon"
cards = [
  { id = "rope", name = "Rope" },
  { id = "knife", name = "Knife" },
  { id = "axe", name = "Axe" },
]

[features.height]
category = "suspect"
values = ["tall", "short"]

[deal]
envelope = { suspect = 1, weapon = 1 }
spares = "uneven"

[question]
items = 2
form = "one-per-category"
place = "free"

[accusation]
limit = 1

[turns]
first = "dealer"
'''

ACTIONS = '''
[actions]
hand = 1
cards = [ { kind = "snoop", count = 2 }, ACTION ]
'''


def write(tmp_path: Path, text: str, name: str = "mini.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def edit(old: str, new: str, text: str = MINI) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def fails(path: Path | str, field: str, source: str | None = None) -> EditionError:
    """Load and return the error, after checking it names the file and the field."""
    with pytest.raises(EditionError) as caught:
        load_edition(path)
    error = caught.value
    source = source or Path(path).name
    assert (error.source, error.field) == (source, field), str(error)
    assert source in str(error) and f"'{field}'" in str(error)
    return error


def test_the_mini_template_itself_loads(tmp_path):
    mini = load_edition(write(tmp_path, MINI))
    assert mini.hand_sizes(3) == (2, 1, 1)


BROKEN = [
    # (what is wrong, old text, new text, field named)
    ("missing field", 'name = "Mini"\n', "", "name"),
    ("missing table", '[turns]\nfirst = "dealer"\n', "", "turns"),
    ("schema version", "schema = 1", "schema = 2", "schema"),
    ("bad id", 'id = "mini"', 'id = "Mini Deck"', "id"),
    ("wrong type", "year = 2024", 'year = "2024"', "year"),
    ("wrong type nested", "min = 2", "min = 2.5", "players.min"),
    ("boolean is not an integer", "limit = 1", "limit = true", "accusation.limit"),
    ("unknown top-level field", "year = 2024", "year = 2024\ncolour = 'red'", "colour"),
    ("unknown nested field", 'spares = "uneven"', 'spares = "uneven"\nshuffle = true',
     "deal.shuffle"),
    ("value not allowed", 'spares = "uneven"', 'spares = "sideways"', "deal.spares"),
    ("duplicate card id", '{ id = "knife", name = "Knife" }', '{ id = "rope", name = "Knife" }',
     "categories[1].cards[1].id"),
    ("duplicate card name", '{ id = "knife", name = "Knife" }', '{ id = "knife", name = "rope" }',
     "categories[1].cards[1].name"),
    ("duplicate alias", '{ id = "bob", name = "Bob",', '{ id = "bob", name = "Bob", '
     'aliases = ["ANN"],', "categories[0].cards[1].aliases"),
    ("duplicate category", 'id = "weapon"', 'id = "suspect"', "categories[1].id"),
    ("empty category", '{ id = "rope", name = "Rope" },\n  { id = "knife", name = "Knife" },\n'
     '  { id = "axe", name = "Axe" },\n', "", "categories[1].cards"),
    ("unknown feature on a card", '{ id = "rope", name = "Rope" }',
     '{ id = "rope", name = "Rope", height = "tall" }', "categories[1].cards[0].height"),
    ("feature value not allowed", 'height = "short"', 'height = "medium"',
     "categories[0].cards[1].height"),
    ("feature value missing", '{ id = "cy", name = "Cy", height = "tall" }',
     '{ id = "cy", name = "Cy" }', "categories[0].cards[2].height"),
    ("bad feature category", 'category = "suspect"', 'category = "room"',
     "features.height.category"),
    ("bad feature name", "[features.height]", "[features.name]", "features.name"),
    ("feature values repeat", 'values = ["tall", "short"]', 'values = ["tall", "tall"]',
     "features.height.values"),
    ("envelope count too big", "envelope = { suspect = 1,", "envelope = { suspect = 3,",
     "deal.envelope.suspect"),
    ("envelope count zero", "weapon = 1 }", "weapon = 0 }", "deal.envelope.weapon"),
    ("envelope misses a category", "envelope = { suspect = 1, weapon = 1 }",
     "envelope = { suspect = 1 }", "deal.envelope"),
    ("face-down places missing", 'spares = "uneven"', 'spares = "uneven"\nface_down = 1',
     "deal.face_down_places"),
    ("face-down places repeat", 'spares = "uneven"',
     'spares = "uneven"\nface_down = 2\nface_down_places = ["Hall", "Hall"]',
     "deal.face_down_places"),
    ("too many face-down cards", 'spares = "uneven"',
     'spares = "uneven"\nface_down = 4\nface_down_places = ["a", "b", "c", "d"]',
     "deal.face_down"),
    ("question items wrong", "items = 2", "items = 3", "question.items"),
    ("too many players for the deck", "max = 3", "max = 5", "players.max"),
    ("max below min", "min = 2\nmax = 3", "min = 3\nmax = 2", "players.max"),
    ("one player", "min = 2", "min = 1", "players.min"),
    ("card game with dice", "[turns]", "[dice]\ncount = 2\n\n[turns]", "dice"),
    ("card game with a board", 'rule_book = "none"', 'rule_book = "none"\nboard = "x"', "board"),
    ("board game without a board", 'family = "card"', 'family = "board"', "board"),
    ("bad dice faces", 'family = "card"\nrule_book = "none"',
     'family = "board"\nrule_book = "none"\nboard = "b"\n[dice]\ncount = 2\nicon_faces = [7]',
     "dice.icon_faces"),
    ("assumption without source", "[turns]",
     '[[assumptions]]\nabout = "x"\nchoice = "y"\n\n[turns]', "assumptions[0].source"),
    ("one-against-all without actions", 'rule_book = "none"',
     'rule_book = "none"\nmode = "one-against-all"', "mode"),
    ("unknown action kind", "ACTION", '{ kind = "steal", count = 1 }', "actions.cards[1].kind"),
    ("action field its kind does not use", "ACTION",
     '{ kind = "suggest-any", count = 1, direction = "left" }', "actions.cards[1].direction"),
    ("action with an unknown feature", "ACTION",
     '{ kind = "super-sleuth", count = 1, feature = "colour", value = "red" }',
     "actions.cards[1].feature"),
    ("action value not allowed", "ACTION",
     '{ kind = "private-tip", count = 1, feature = "height", value = "huge" }',
     "actions.cards[1].value"),
    ("private tip for all without a category", "ACTION",
     '{ kind = "private-tip", count = 1, all = true }', "actions.cards[1].category"),
    ("action count zero", "ACTION", '{ kind = "snoop", count = 0 }', "actions.cards[1].count"),
]


@pytest.mark.parametrize(("old", "new", "field"), [b[1:] for b in BROKEN],
                         ids=[b[0] for b in BROKEN])
def test_a_broken_file_names_its_file_and_field(tmp_path, old, new, field):
    text = edit("ACTION", new, MINI + ACTIONS) if old == "ACTION" else edit(old, new)
    fails(write(tmp_path, text), field)


def test_malformed_toml(tmp_path):
    error = fails(write(tmp_path, MINI + "\n[deal\n"), "(file)")
    assert "not valid TOML" in str(error)


def test_unreadable_path(tmp_path):
    with pytest.raises(EditionError, match="cannot be read") as caught:
        load_edition(tmp_path / "absent.toml")
    assert caught.value.field == "(file)" and "absent.toml" in str(caught.value)


def test_unknown_edition_id_lists_the_known_ones():
    error = fails("no-such-edition", "(file)", source="no-such-edition")
    assert "cluedo-classic-1949" in str(error)


# -- extends ------------------------------------------------------------------------------------

VARIANT = '''\
schema = 1
id = "variant"
extends = "mini"
name = "Mini variant"

[deal]
face_down = 1
face_down_places = ["Cellar"]

[[assumptions]]
about = "z"
choice = "own"
why = "test"
source = "docs/"
'''

ASSUMED = '''
[[assumptions]]
about = "x"
choice = "base x"
why = "test"
source = "docs/"

[[assumptions]]
about = "z"
choice = "base z"
why = "test"
source = "docs/"
'''


def test_a_variant_overrides_table_by_table(tmp_path):
    write(tmp_path, MINI + ASSUMED)
    variant = load_edition(write(tmp_path, VARIANT, "variant.toml"))
    assert variant.id == "variant" and variant.extends == "mini"
    assert variant.deal.face_down == 1 and variant.deal.envelope == {"suspect": 1, "weapon": 1}
    assert variant.name == "Mini variant" and variant.publisher == "Test"
    # 6 cards - 2 in the envelope - 1 face down = 3 dealt.
    assert variant.hand_sizes(3) == (1, 1, 1)
    # Inherited assumptions come first; a restated one replaces the base's.
    assert [(a.about, a.choice) for a in variant.assumptions] == [("x", "base x"), ("z", "own")]


def test_a_chain_of_variants(tmp_path):
    write(tmp_path, MINI)
    write(tmp_path, VARIANT, "variant.toml")
    third = edit('id = "variant"\nextends = "mini"', 'id = "third"\nextends = "variant"', VARIANT)
    third = edit("[deal]\nface_down = 1\n", "[deal]\nface_down = 2\n", third)
    third = edit('["Cellar"]', '["Cellar", "Attic"]\n\n[players]\nmax = 2', third)
    edition = load_edition(write(tmp_path, third, "third.toml"))
    assert edition.deal.face_down_places == ("Cellar", "Attic")
    assert (edition.min_players, edition.max_players) == (2, 2)
    assert edition.hand_sizes(2) == (1, 1)  # 6 - 2 in the envelope - 2 face down
    assert edition.name == "Mini variant" and len(edition.cards) == 6


def test_extends_an_unknown_edition(tmp_path):
    path = write(tmp_path, edit('extends = "mini"', 'extends = "nope"', VARIANT), "variant.toml")
    error = fails(path, "extends")
    assert "'nope'" in str(error)


def test_extends_must_be_an_id(tmp_path):
    write(tmp_path, MINI)
    fails(write(tmp_path, edit('extends = "mini"', "extends = 3", VARIANT), "variant.toml"),
          "extends")


def test_extends_itself(tmp_path):
    error = fails(write(tmp_path, edit('extends = "mini"', 'extends = "variant"', VARIANT),
                        "variant.toml"), "extends")
    assert "circular" in str(error)


def test_circular_extends(tmp_path):
    write(tmp_path, edit('id = "mini"', 'id = "mini"\nextends = "variant"'))
    path = write(tmp_path, VARIANT, "variant.toml")
    with pytest.raises(EditionError, match="circular") as caught:
        load_edition(path)
    assert caught.value.field == "extends"
    assert caught.value.source in {"mini.toml", "variant.toml"}


def test_a_longer_loop_is_found_too(tmp_path):
    # a -> b -> c -> b: the loop does not pass through the file first loaded.
    for name, base in (("a", "b"), ("b", "c"), ("c", "b")):
        write(tmp_path, edit('id = "variant"\nextends = "mini"',
                             f'id = "{name}"\nextends = "{base}"', VARIANT), f"{name}.toml")
    with pytest.raises(EditionError, match="circular") as caught:
        load_edition(tmp_path / "a.toml")
    assert caught.value.field == "extends"


def test_a_variant_needs_its_own_id(tmp_path):
    write(tmp_path, MINI)
    fails(write(tmp_path, edit('id = "variant"', 'id = "mini"', VARIANT), "variant.toml"), "id")
    fails(write(tmp_path, edit('id = "variant"\n', "", VARIANT), "variant.toml"), "id")


def test_a_broken_base_is_reported_against_the_base(tmp_path):
    write(tmp_path, edit("year = 2024", 'year = "2024"'))
    fails(write(tmp_path, VARIANT, "variant.toml"), "year", source="mini.toml")


def test_a_variant_that_breaks_its_base_names_the_variant(tmp_path):
    write(tmp_path, MINI)
    fails(write(tmp_path, edit("face_down = 1", "face_down = 5", VARIANT), "variant.toml"),
          "deal.face_down")


# -- nothing half-loads -------------------------------------------------------------------------

@pytest.fixture
def built(monkeypatch):
    """Ids of every Edition object the loader constructs."""
    ids: list[str] = []

    class Spy(Edition):
        def __init__(self, **fields):
            ids.append(fields["id"])
            super().__init__(**fields)

    monkeypatch.setattr(edition_module, "Edition", Spy)
    return ids


@pytest.mark.parametrize(("old", "new"), [
    ("max = 3", "max = 5"),                                  # checked last of all
    ("[turns]", '[[assumptions]]\nabout = "x"\n\n[turns]'),  # the last section read
])
def test_a_late_error_builds_nothing(tmp_path, built, old, new):
    path = write(tmp_path, edit(old, new))
    with pytest.raises(EditionError):
        load_edition(path)
    assert built == []
    assert load_edition(write(tmp_path, MINI, "good.toml")).id == "mini"
    assert built == ["mini"]  # the spy does see a successful load


def test_a_broken_variant_is_not_built(tmp_path, built):
    write(tmp_path, MINI)
    with pytest.raises(EditionError):
        load_edition(write(tmp_path, edit("face_down = 1", "face_down = 5", VARIANT),
                           "variant.toml"))
    assert "variant" not in built
