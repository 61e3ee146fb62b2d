"""Editions as data: decks, features and rule options read from ``data/editions/*.toml``.

An edition file is the single source of what differs between games; the engine reads it and
never hard-codes a deck. Loading validates everything first and builds the edition last, so a
bad file raises one :class:`~cluedo_lab.errors.EditionError` naming the file and the field, and
nothing is half-loaded. ``docs/editions.md`` describes the format field by field.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import EditionError

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
EDITIONS_DIR = DATA_DIR / "editions"
SCHEMA_VERSION = 1


def normalize(name: str) -> str:
    """Key for matching card names typed by people: case, spaces, dots and hyphens don't count."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True)
class Card:
    """One card of the deck. ``features`` maps a feature id (e.g. ``gender``) to its value."""

    id: str
    name: str
    category: str
    features: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash((self.category, self.id))

    def __repr__(self) -> str:
        return f"Card({self.id!r})"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    cards: tuple[Card, ...]

    def __repr__(self) -> str:
        return f"Category({self.id!r}, {len(self.cards)} cards)"


@dataclass(frozen=True)
class Feature:
    """A printed marking that some actions ask about (2002: "a blue vehicle")."""

    id: str
    category: str
    values: tuple[str, ...]
    description: str = ""


@dataclass(frozen=True)
class DealRules:
    """How cards leave the deck: the envelope, face-down piles, then hands and spares.

    ``spares`` is ``"uneven"`` (all dealt, some hands one larger: the first seats after the
    dealer get the extra cards) or ``"face-up"`` (equal hands, the rest face up for all).
    ``face_down`` cards are set aside unseen before the deal (2023 two-player: one in each of
    four rooms) and named ``face_down_places``.
    """

    envelope: Mapping[str, int]
    spares: str
    face_down: int = 0
    face_down_places: tuple[str, ...] = ()


@dataclass(frozen=True)
class QuestionRules:
    """What a question names and who answers it.

    ``form``: ``"one-per-category"`` (classic suggestion) or ``"any"`` (2018: any two items).
    ``place``: where the room/destination comes from: ``"current-room"``, ``"marker"`` or
    ``"free"``. ``answer``: ``"first-who-can"`` (every edition here) or ``"every-who-can"``.
    """

    items: int
    form: str
    place: str
    answer: str = "first-who-can"
    reenter_to_repeat: bool = False


@dataclass(frozen=True)
class AccusationRules:
    limit: int = 1
    wrong: str = "stays-to-refute"
    anywhere: bool = False
    simultaneous: bool = False
    two_player_both_accuse: bool = False


@dataclass(frozen=True)
class Dice:
    """``icon_faces`` are faces that show a magnifying glass (2023): they count as their number
    and also let the roller draw a Clue card (at most one per roll)."""

    count: int
    sides: int = 6
    icon_faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class ActionCardKind:
    """One line of an action deck (2002): ``count`` copies of one kind of card."""

    kind: str
    count: int
    direction: str | None = None
    feature: str | None = None
    value: str | None = None
    category: str | None = None
    all: bool = False

    def label(self) -> str:
        if self.kind == "all-snoop":
            return f"All Snoop ({self.direction})"
        if self.kind == "super-sleuth":
            return f"Super Sleuth: one {self.value} {self.category}"
        if self.kind == "private-tip":
            if self.all:
                return f"Private Tip: all {self.category} cards"
            return f"Private Tip: one {self.value} {self.category}"
        return {
            "suggest-any": "Suggestion from any destination",
            "suggest-current": "Suggestion from present destination (or move)",
            "snoop": "Snoop",
        }[self.kind]


@dataclass(frozen=True)
class Assumption:
    """A fact the rule books do not give, chosen by the kit: what, the choice, why, and source."""

    about: str
    choice: str
    source: str
    why: str = ""


@dataclass(frozen=True, eq=False)
class Edition:
    id: str
    name: str
    publisher: str
    year: int
    family: str
    rule_book: str
    categories: tuple[Category, ...]
    features: Mapping[str, Feature]
    min_players: int
    max_players: int
    deal: DealRules
    question: QuestionRules
    accusation: AccusationRules
    first_player: str
    dice: Dice | None
    board: str | None
    actions: tuple[ActionCardKind, ...]
    action_hand: int
    mode: str
    assumptions: tuple[Assumption, ...]
    extends: str | None
    source: str
    description: str = ""

    # -- the deck ---------------------------------------------------------------------------
    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for category in self.categories for card in category.cards)

    def category(self, category_id: str) -> Category:
        for category in self.categories:
            if category.id == category_id:
                return category
        raise KeyError(f"{self.id} has no category {category_id!r}")

    def card(self, name: str | Card) -> Card:
        """The card a person means by ``name``: its id, its name or an alias, any case."""
        if isinstance(name, Card):
            return name
        found = self._lookup.get(normalize(name))
        if found is None:
            raise KeyError(f"{self.id} has no card {name!r}")
        return found

    @cached_property
    def _lookup(self) -> dict[str, Card]:
        lookup: dict[str, Card] = {}
        for card in self.cards:
            for key in (card.id, card.name, *card.aliases):
                lookup[normalize(key)] = card
        return lookup

    def cards_with(self, feature: str, value: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.features.get(feature) == value)

    # -- dealing arithmetic -----------------------------------------------------------------
    @property
    def envelope_size(self) -> int:
        return sum(self.deal.envelope.values())

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """Hand sizes in deal order (the first seat is the one after the dealer)."""
        self.check_players(players)
        dealt = len(self.cards) - self.envelope_size - self.deal.face_down
        base, extra = divmod(dealt, players)
        if self.deal.spares == "uneven":
            return tuple(base + (1 if seat < extra else 0) for seat in range(players))
        return (base,) * players

    def face_up_count(self, players: int) -> int:
        dealt = len(self.cards) - self.envelope_size - self.deal.face_down
        return dealt - sum(self.hand_sizes(players))

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )

    def __repr__(self) -> str:
        return f"Edition({self.id!r})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{c.name}</th><td>{', '.join(card.name for card in c.cards)}</td></tr>"
            for c in self.categories
        )
        return f"<b>{self.name}</b> ({self.publisher} {self.year})<table>{rows}</table>"


# ---------------------------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------------------------

FAMILIES = ("board", "card")
SPARES = ("uneven", "face-up")
FORMS = ("one-per-category", "any")
PLACES = ("current-room", "marker", "free")
ANSWERS = ("first-who-can", "every-who-can")
WRONG = ("stays-to-refute", "leaves")
FIRST = ("scarlett", "highest-roll", "dealer", "most-suspicious", "first-seat")
MODES = ("standard", "one-against-all")
ACTION_KINDS = ("suggest-any", "suggest-current", "snoop", "all-snoop", "super-sleuth",
                "private-tip")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")

TOP_LEVEL = {"schema", "id", "name", "publisher", "year", "family", "rule_book", "extends",
             "description", "categories", "features", "players", "deal", "question",
             "accusation", "turns", "dice", "board", "actions", "assumptions", "mode"}


class _Reader:
    """Typed access to one parsed TOML table, raising EditionError with the dotted field path."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, problem: str) -> EditionError:
        return EditionError(self.source, path, problem)

    def table(self, data: Any, path: str, allowed: Iterable[str]) -> dict:
        if not isinstance(data, dict):
            raise self.fail(path, f"expected a table, got {_kind(data)}")
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise self.fail(f"{path}.{unknown[0]}" if path else unknown[0],
                            f"unknown field; expected one of {sorted(allowed)}")
        return data

    def get(self, data: dict, key: str, path: str, kind: type | tuple, *,
            required: bool = True, default: Any = None) -> Any:
        where = f"{path}.{key}" if path else key
        if key not in data:
            if required:
                raise self.fail(where, f"missing; expected {_expected(kind)}")
            return default
        value = data[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise self.fail(where, f"expected {_expected(kind)}, got {_kind(value)} {value!r}")
        return value

    def choice(self, data: dict, key: str, path: str, options: Iterable[str], *,
               required: bool = True, default: str | None = None) -> str:
        value = self.get(data, key, path, str, required=required, default=default)
        options = tuple(options)
        if value not in options:
            where = f"{path}.{key}" if path else key
            raise self.fail(where, f"expected one of {list(options)}, got {value!r}")
        return value

    def positive(self, data: dict, key: str, path: str, *, minimum: int = 1,
                 required: bool = True, default: int | None = None) -> int:
        value = self.get(data, key, path, int, required=required, default=default)
        if value < minimum:
            raise self.fail(f"{path}.{key}", f"expected an integer >= {minimum}, got {value}")
        return value

    def ident(self, data: dict, key: str, path: str) -> str:
        value = self.get(data, key, path, str)
        if not ID_PATTERN.match(value):
            raise self.fail(f"{path}.{key}" if path else key,
                            f"expected a lower-case id like 'lead-piping', got {value!r}")
        return value


def _kind(value: Any) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean",
            int: "an integer", float: "a float"}.get(type(value), type(value).__name__)


def _expected(kind: type | tuple) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_kind(k()) if k is not bool else "a boolean" for k in kinds)


def _merge(base: dict, override: dict) -> dict:
    """Variant files override their base table by table; arrays and values are replaced."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and key != "categories":
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_toml(path: Path) -> dict:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise EditionError(path.name, "(file)", f"not valid TOML: {error}") from None
    except OSError as error:
        raise EditionError(str(path), "(file)", f"cannot be read: {error.strerror}") from None


def load_edition(ref: str | Path, *, directory: Path | None = None) -> Edition:
    """Load an edition by id (``"cluedo-classic-1949"``) or by the path of a TOML file."""
    path = _resolve(ref, directory)
    return _load(path.resolve(), ())


def _resolve(ref: str | Path, directory: Path | None) -> Path:
    path = Path(ref)
    if path.suffix == ".toml" or path.exists():
        return path
    folder = directory or EDITIONS_DIR
    candidate = folder / f"{ref}.toml"
    if not candidate.exists():
        known = ", ".join(edition_ids(folder))
        raise EditionError(str(ref), "(file)", f"no such edition; known editions: {known}")
    return candidate


def _load(path: Path, chain: tuple[Path, ...]) -> Edition:
    raw = _read_toml(path)
    source = path.name
    reader = _Reader(source)
    reader.table(raw, "", TOP_LEVEL)
    if "extends" in raw:
        base_id = reader.get(raw, "extends", "", str)
        base_path = _resolve(base_id, path.parent)
        if base_path.resolve() in chain + (path,):
            raise reader.fail("extends", f"circular: {base_id!r} extends this file again")
        base_raw = _read_toml(base_path.resolve())
        # Resolve the base's own `extends` first, then lay this file over it.
        while "extends" in base_raw:
            parent = _resolve(base_raw["extends"], base_path.parent).resolve()
            if parent in chain + (path, base_path.resolve()):
                raise reader.fail("extends", "circular chain of 'extends'")
            parent_raw = _read_toml(parent)
            base_raw = _merge(parent_raw, {k: v for k, v in base_raw.items() if k != "extends"})
        raw = _merge({k: v for k, v in base_raw.items() if k not in ("assumptions",)},
                     raw) | {"assumptions": base_raw.get("assumptions", []) +
                             raw.get("assumptions", [])}
    return _build(raw, source, reader)


def _build(raw: dict, source: str, r: _Reader) -> Edition:
    schema = r.get(raw, "schema", "", int)
    if schema != SCHEMA_VERSION:
        raise r.fail("schema", f"expected {SCHEMA_VERSION}, got {schema}")
    edition_id = r.ident(raw, "id", "")
    name = r.get(raw, "name", "", str)
    publisher = r.get(raw, "publisher", "", str)
    year = r.get(raw, "year", "", int)
    family = r.choice(raw, "family", "", FAMILIES)
    rule_book = r.get(raw, "rule_book", "", str)
    description = r.get(raw, "description", "", str, required=False, default="")
    mode = r.choice(raw, "mode", "", MODES, required=False, default="standard")

    features = _features(raw, r)
    categories = _categories(raw, r, features)
    category_ids = [c.id for c in categories]
    for feature in features.values():
        if feature.category not in category_ids:
            raise r.fail(f"features.{feature.id}.category",
                         f"expected one of the categories {category_ids}, "
                         f"got {feature.category!r}")

    players = r.table(r.get(raw, "players", "", dict), "players", {"min", "max"})
    min_players = r.positive(players, "min", "players")
    max_players = r.positive(players, "max", "players")
    if max_players < min_players:
        raise r.fail("players.max", f"expected at least players.min ({min_players})")

    deal = _deal(raw, r, category_ids, categories)
    question = _question(raw, r, len(categories))
    accusation = _accusation(raw, r)
    turns = r.table(r.get(raw, "turns", "", dict), "turns", {"first"})
    first = r.choice(turns, "first", "turns", FIRST)
    dice = _dice(raw, r)
    board = r.get(raw, "board", "", str, required=False)
    actions, action_hand = _actions(raw, r, features, category_ids)
    assumptions = _assumptions(raw, r)

    edition = Edition(
        id=edition_id, name=name, publisher=publisher, year=year, family=family,
        rule_book=rule_book, categories=categories, features=features,
        min_players=min_players, max_players=max_players, deal=deal, question=question,
        accusation=accusation, first_player=first, dice=dice, board=board, actions=actions,
        action_hand=action_hand, mode=mode, assumptions=assumptions,
        extends=raw.get("extends"), source=source, description=description,
    )
    for players_count in range(min_players, max_players + 1):
        sizes = edition.hand_sizes(players_count)
        if min(sizes) < 1:
            raise r.fail("players.max", f"with {players_count} players some hands would be "
                         f"empty ({len(edition.cards)} cards)")
    return edition


def _features(raw: dict, r: _Reader) -> dict[str, Feature]:
    table = r.get(raw, "features", "", dict, required=False, default={})
    features: dict[str, Feature] = {}
    for feature_id, spec in table.items():
        path = f"features.{feature_id}"
        if not ID_PATTERN.match(feature_id):
            raise r.fail(path, "expected a lower-case id as the feature name")
        r.table(spec, path, {"category", "values", "description"})
        values = r.get(spec, "values", path, list)
        if not values or not all(isinstance(v, str) for v in values):
            raise r.fail(f"{path}.values", "expected a non-empty array of strings")
        if len(set(values)) != len(values):
            raise r.fail(f"{path}.values", "values repeat")
        features[feature_id] = Feature(
            id=feature_id, category=r.get(spec, "category", path, str), values=tuple(values),
            description=r.get(spec, "description", path, str, required=False, default=""))
    return features


def _categories(raw: dict, r: _Reader, features: dict[str, Feature]) -> tuple[Category, ...]:
    items = r.get(raw, "categories", "", list)
    if len(items) < 1:
        raise r.fail("categories", "expected at least one category")
    categories: list[Category] = []
    seen_ids: dict[str, str] = {}
    seen_names: dict[str, str] = {}
    for index, spec in enumerate(items):
        path = f"categories[{index}]"
        r.table(spec, path, {"id", "name", "cards"})
        category_id = r.ident(spec, "id", path)
        if any(c.id == category_id for c in categories):
            raise r.fail(f"{path}.id", f"duplicate category {category_id!r}")
        category_name = r.get(spec, "name", path, str)
        own_features = {f.id: f for f in features.values() if f.category == category_id}
        cards_spec = r.get(spec, "cards", path, list)
        if not cards_spec:
            raise r.fail(f"{path}.cards", "expected at least one card")
        cards = []
        for position, card_spec in enumerate(cards_spec):
            card_path = f"{path}.cards[{position}]"
            card = _card(card_spec, card_path, category_id, own_features, r)
            if card.id in seen_ids:
                raise r.fail(f"{card_path}.id",
                             f"duplicate card {card.id!r} (also at {seen_ids[card.id]})")
            seen_ids[card.id] = card_path
            for key in (card.id, card.name, *card.aliases):
                k = normalize(key)
                if k in seen_names and seen_names[k] != card_path:
                    raise r.fail(f"{card_path}.name", f"duplicate card name {key!r} "
                                 f"(also at {seen_names[k]})")
                seen_names[k] = card_path
            cards.append(card)
        categories.append(Category(category_id, category_name, tuple(cards)))
    return tuple(categories)


def _card(spec: Any, path: str, category: str, features: dict[str, Feature],
          r: _Reader) -> Card:
    r.table(spec, path, {"id", "name", "aliases", *features})
    card_id = r.ident(spec, "id", path)
    name = r.get(spec, "name", path, str)
    aliases = r.get(spec, "aliases", path, list, required=False, default=[])
    if not all(isinstance(a, str) for a in aliases):
        raise r.fail(f"{path}.aliases", "expected an array of strings")
    values = {}
    for feature in features.values():
        value = r.get(spec, feature.id, path, str)
        if value not in feature.values:
            raise r.fail(f"{path}.{feature.id}",
                         f"expected one of {list(feature.values)}, got {value!r}")
        values[feature.id] = value
    return Card(card_id, name, category, values, tuple(aliases))


def _deal(raw: dict, r: _Reader, category_ids: list[str],
          categories: tuple[Category, ...]) -> DealRules:
    spec = r.table(r.get(raw, "deal", "", dict), "deal",
                   {"envelope", "spares", "face_down", "face_down_places"})
    envelope = r.get(spec, "envelope", "deal", dict)
    if set(envelope) != set(category_ids):
        raise r.fail("deal.envelope", f"expected a count for each category {category_ids}, "
                     f"got {sorted(envelope)}")
    for category in categories:
        count = r.get(envelope, category.id, "deal.envelope", int)
        if not 1 <= count < len(category.cards):
            raise r.fail(f"deal.envelope.{category.id}",
                         f"expected 1 to {len(category.cards) - 1}, got {count}")
    spares = r.choice(spec, "spares", "deal", SPARES)
    face_down = r.positive(spec, "face_down", "deal", minimum=0, required=False, default=0)
    places = r.get(spec, "face_down_places", "deal", list, required=False, default=[])
    if len(places) != face_down or not all(isinstance(p, str) for p in places):
        raise r.fail("deal.face_down_places",
                     f"expected {face_down} place names, one per face-down card")
    return DealRules({c: envelope[c] for c in category_ids}, spares, face_down, tuple(places))


def _question(raw: dict, r: _Reader, categories: int) -> QuestionRules:
    spec = r.table(r.get(raw, "question", "", dict), "question",
                   {"items", "form", "place", "answer", "reenter_to_repeat"})
    items = r.positive(spec, "items", "question")
    form = r.choice(spec, "form", "question", FORMS)
    if form == "one-per-category" and items != categories:
        raise r.fail("question.items", f"a one-per-category question names {categories} items")
    return QuestionRules(
        items=items, form=form, place=r.choice(spec, "place", "question", PLACES),
        answer=r.choice(spec, "answer", "question", ANSWERS, required=False,
                        default="first-who-can"),
        reenter_to_repeat=r.get(spec, "reenter_to_repeat", "question", bool, required=False,
                                default=False))


def _accusation(raw: dict, r: _Reader) -> AccusationRules:
    spec = r.table(r.get(raw, "accusation", "", dict), "accusation",
                   {"limit", "wrong", "anywhere", "simultaneous", "two_player_both_accuse"})
    return AccusationRules(
        limit=r.positive(spec, "limit", "accusation", required=False, default=1),
        wrong=r.choice(spec, "wrong", "accusation", WRONG, required=False,
                       default="stays-to-refute"),
        anywhere=r.get(spec, "anywhere", "accusation", bool, required=False, default=False),
        simultaneous=r.get(spec, "simultaneous", "accusation", bool, required=False,
                           default=False),
        two_player_both_accuse=r.get(spec, "two_player_both_accuse", "accusation", bool,
                                     required=False, default=False))


def _dice(raw: dict, r: _Reader) -> Dice | None:
    if "dice" not in raw:
        return None
    spec = r.table(r.get(raw, "dice", "", dict), "dice", {"count", "sides", "icon_faces"})
    count = r.positive(spec, "count", "dice")
    sides = r.positive(spec, "sides", "dice", minimum=2, required=False, default=6)
    icons = r.get(spec, "icon_faces", "dice", list, required=False, default=[])
    if not all(isinstance(f, int) and 1 <= f <= sides for f in icons):
        raise r.fail("dice.icon_faces", f"expected face numbers from 1 to {sides}")
    return Dice(count, sides, tuple(icons))


def _actions(raw: dict, r: _Reader, features: dict[str, Feature],
             category_ids: list[str]) -> tuple[tuple[ActionCardKind, ...], int]:
    if "actions" not in raw:
        return (), 0
    spec = r.table(r.get(raw, "actions", "", dict), "actions", {"hand", "cards"})
    hand = r.positive(spec, "hand", "actions")
    kinds = []
    for index, item in enumerate(r.get(spec, "cards", "actions", list)):
        path = f"actions.cards[{index}]"
        r.table(item, path, {"kind", "count", "direction", "feature", "value", "category",
                             "all"})
        kind = r.choice(item, "kind", path, ACTION_KINDS)
        count = r.positive(item, "count", path)
        direction = feature = value = category = None
        every = False
        if kind == "all-snoop":
            direction = r.choice(item, "direction", path, ("left", "right"))
        if kind in ("super-sleuth", "private-tip"):
            every = r.get(item, "all", path, bool, required=False, default=False)
            if kind == "private-tip" and every:
                category = r.choice(item, "category", path, category_ids)
            else:
                feature = r.choice(item, "feature", path, list(features))
                value = r.choice(item, "value", path, features[feature].values)
                category = features[feature].category
        kinds.append(ActionCardKind(kind, count, direction, feature, value, category, every))
    return tuple(kinds), hand


def _assumptions(raw: dict, r: _Reader) -> tuple[Assumption, ...]:
    items = r.get(raw, "assumptions", "", list, required=False, default=[])
    out = []
    for index, item in enumerate(items):
        path = f"assumptions[{index}]"
        r.table(item, path, {"about", "choice", "why", "source"})
        out.append(Assumption(about=r.get(item, "about", path, str),
                              choice=r.get(item, "choice", path, str),
                              source=r.get(item, "source", path, str),
                              why=r.get(item, "why", path, str, required=False, default="")))
    return tuple(out)


def edition_ids(directory: Path | None = None) -> list[str]:
    """Ids of the editions shipped in ``data/editions`` (or another folder), sorted."""
    folder = directory or EDITIONS_DIR
    return sorted(p.stem for p in folder.glob("*.toml"))


def all_editions() -> list[Edition]:
    return [load_edition(edition_id) for edition_id in edition_ids()]
