"""Game records: what one player saw (or what everybody saw), as validated events.

A record is the kit's "PGN" (``docs/records.md``): JSON a person can type at the table, that
games save, and that the knowledge engine reads. Parsing checks everything up front, so a bad
record raises one :class:`~cluedo_lab.errors.RecordError` naming the event by its position
(counted from 1) and the field, and no half-read record exists.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.edition import (
    AccusationRules,
    Card,
    Category,
    DealRules,
    Edition,
    QuestionRules,
    load_edition,
    normalize,
)
from ..rules.errors import EditionError, RecordError
from ..rules.variant import Variant

ENVELOPE = "envelope"
FACE_UP = "face-up"
SETUP_KEYS = {"edition", "deck", "players", "observer", "hand", "face_up", "face_down",
              "fugitive", "events", "comment"}


@dataclass(frozen=True)
class Event:
    """Base of all events. ``position`` counts from 1; ``raw`` is the JSON object as given."""

    position: int
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def kind(self) -> str:
        return type(self).__name__.lower()

    def describe(self) -> str:
        return f"event {self.position}"


def _names(cards: Sequence[Card]) -> str:
    return ", ".join(c.name for c in cards)


@dataclass(frozen=True)
class Suggest(Event):
    """A question. When the first player who can answers (every edition here), ``shown_by``
    and ``card`` say who showed what; when every player who can answers (a house rule),
    ``showed`` pairs each shower with their card (None if the observer did not see it) and
    ``shown_by`` stays None. ``passed`` lists who had none of the cards, in the order asked."""

    named: tuple[Card, ...] = ()
    by: str = ""
    passed: tuple[str, ...] = ()
    shown_by: str | None = None
    card: Card | None = None
    showed: tuple[tuple[str, Card | None], ...] = ()

    @property
    def showers(self) -> tuple[str, ...]:
        """Everyone who showed a card, under either answering rule."""
        if self.shown_by is not None:
            return (self.shown_by,)
        return tuple(who for who, _ in self.showed)

    def describe(self) -> str:
        text = f"event {self.position}: {self.by} asked about {_names(self.named)}"
        if self.passed:
            text += f"; {', '.join(self.passed)} had none"
        answers = [(self.shown_by, self.card)] if self.shown_by else list(self.showed)
        for who, card in answers:
            text += f"; {who} showed " + (card.name if card else "a card")
        if not answers:
            text += "; nobody showed a card"
        return text


@dataclass(frozen=True)
class Accuse(Event):
    named: tuple[Card, ...] = ()
    by: str = ""
    correct: bool = False

    def describe(self) -> str:
        verdict = "rightly" if self.correct else "wrongly"
        return f"event {self.position}: {self.by} {verdict} accused {_names(self.named)}"


@dataclass(frozen=True)
class Snoop(Event):
    target: str = ""
    by: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = f" and saw {self.card.name}" if self.card else ""
        return f"event {self.position}: {self.by} snooped on {self.target}{seen}"


@dataclass(frozen=True)
class AllSnoop(Event):
    direction: str = "left"
    by: str = ""
    card: Card | None = None
    seen_from: str | None = None

    def describe(self) -> str:
        seen = f"; the observer saw {self.card.name} from {self.seen_from}" if self.card else ""
        return f"event {self.position}: {self.by} played All Snoop ({self.direction}){seen}"


@dataclass(frozen=True)
class SuperSleuth(Event):
    feature: str = ""
    value: str = ""
    by: str = ""
    showed: tuple[tuple[str, Card | None], ...] = ()
    nothing: tuple[str, ...] = ()

    def describe(self) -> str:
        parts = [f"{who} showed {card.name if card else 'a card'}" for who, card in self.showed]
        parts += [f"{who} had none" for who in self.nothing]
        return (f"event {self.position}: {self.by} asked everyone for a {self.value} card "
                f"({self.feature}); " + "; ".join(parts))


@dataclass(frozen=True)
class PrivateTip(Event):
    by: str = ""
    to: str = ""
    category: str = ""
    all: bool = False
    feature: str | None = None
    value: str | None = None
    cards: tuple[Card, ...] | None = None

    def describe(self) -> str:
        what = f"all their {self.category} cards" if self.all else f"one {self.value} card"
        got = "" if self.cards is None else f": {_names(self.cards) or 'none'}"
        return f"event {self.position}: {self.to} gave {self.by} a private tip of {what}{got}"


@dataclass(frozen=True)
class RoomCard(Event):
    pile: str = ""
    by: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = f" and saw {self.card.name}" if self.card else ""
        return f"event {self.position}: {self.by} looked at the card in {self.pile}{seen}"


@dataclass(frozen=True)
class Show(Event):
    shower: str = ""
    to: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = self.card.name if self.card else "a card"
        return f"event {self.position}: {self.shower} showed {self.to} {seen}"


@dataclass(frozen=True)
class Reveal(Event):
    card: Card | None = None
    by: str = ""

    def describe(self) -> str:
        return f"event {self.position}: {self.by} revealed {self.card.name} to everybody"


@dataclass(frozen=True)
class Player:
    name: str
    hand_size: int


@dataclass(frozen=True)
class Record:
    """A validated record. Build one with :meth:`from_dict`, :meth:`from_json` or :meth:`load`."""

    edition: Edition
    players: tuple[Player, ...]
    observer: str | None
    hand: tuple[Card, ...]
    face_up: tuple[Card, ...]
    face_down: tuple[str, ...]
    fugitive: str | None
    events: tuple[Event, ...]
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    # -- places ------------------------------------------------------------------------------
    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def places(self) -> tuple[str, ...]:
        """Every place a card can be: players in seat order, the envelope, then piles."""
        extra = (FACE_UP,) if self.face_up else ()
        return self.player_names + (ENVELOPE,) + extra + self.face_down

    def hand_size(self, name: str) -> int:
        return next(p.hand_size for p in self.players if p.name == name)

    def departed(self) -> tuple[str, ...]:
        """Players out of the game: wrong accusers, when the edition says a wrong accuser
        leaves (``accusation.wrong = "leaves"``); they no longer answer or act."""
        if self.edition.accusation.wrong != "leaves":
            return ()
        return tuple(dict.fromkeys(e.by for e in self.events
                                   if isinstance(e, Accuse) and not e.correct))

    def answer_order(self, asker: str, out: Sequence[str] | None = None) -> tuple[str, ...]:
        """Who is asked, in order: the players after ``asker`` clockwise, leaving out those
        who left the game (``out``, by default :meth:`departed`); in one-against-all the
        fugitive answers only when nobody else can, so last."""
        gone = set(self.departed() if out is None else out)
        names = self.player_names
        i = names.index(asker)
        order = tuple(n for n in names[i + 1:] + names[:i] if n not in gone)
        if self.fugitive and self.fugitive in order:
            order = tuple(n for n in order if n != self.fugitive) + (self.fugitive,)
        return order

    def neighbour(self, name: str, side: str, out: Sequence[str] | None = None) -> str:
        """The player on ``name``'s left (next in seat order) or right (previous), among
        those still in the game (see :meth:`departed`)."""
        gone = set(self.departed() if out is None else out) - {name}
        names = [n for n in self.player_names if n not in gone]
        step = 1 if side == "left" else -1
        return names[(names.index(name) + step) % len(names)]

    # -- editing -----------------------------------------------------------------------------
    def with_events(self, events: Sequence[Mapping[str, Any]]) -> Record:
        """A new record with ``events`` (raw JSON objects) in place of this one's."""
        data = dict(self.source)
        data["events"] = list(events)
        return Record.from_dict(data)

    def public(self) -> Record:
        """What every player saw: no observer, no hand, and no card that was shown or
        looked at in private (an unseen refutation stays "someone showed a card")."""
        data = {k: v for k, v in self.source.items() if k not in ("observer", "hand")}
        events = []
        for raw in self.source.get("events", []):
            event = {k: v for k, v in raw.items() if k not in ("card", "cards", "from")}
            if "showed" in event:
                event["showed"] = {who: None for who in event["showed"]}
            events.append(event)
        data["events"] = events
        return Record.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.source))

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.source, indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    # -- reading -----------------------------------------------------------------------------
    @classmethod
    def for_variant(cls, variant: Variant, players: Sequence[str] | int | None = None,
                    observer: str | None = None, hand: Sequence[str] = (),
                    events: Sequence[Mapping[str, Any]] = (), **setup: Any) -> Record:
        """A record of ``variant`` (``docs/records.md``) whose ``edition`` is the variant
        itself (``{"base": ..., <options>}``), so the record reads in any session."""
        count = variant.player_count(players if isinstance(players, int) else
                                     None if players is None else len(players))
        names = [f"P{i + 1}" for i in range(count)] if players is None or \
            isinstance(players, int) else list(players)
        data: dict[str, Any] = {"edition": variant.to_dict(), "players": names, **setup,
                                "events": [dict(e) for e in events]}
        if observer is not None:
            data["observer"] = observer
            data["hand"] = list(hand)
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {path}: {error.strerror}") from None
        return cls.from_json(text)

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], edition: Edition | None = None, *,
                  fresh: bool = False) -> Record:
        """Parse and validate; the record keeps its own copy, so later changes to ``data``
        do not reach it. ``edition``: the edition ``data`` names, already loaded (a game
        passes its own: reading the edition again costs more than the rest of a parse).
        ``fresh=True`` skips the copy, for data made for this call and not kept (a game's
        ``record_for``): bots and checks parse a record after every event."""
        return _Parser(data if fresh else copy.deepcopy(data), edition).record()

    def __repr__(self) -> str:
        who = f"observer={self.observer!r}" if self.observer else "public"
        return (f"Record({self.edition.id!r}, players={list(self.player_names)}, {who}, "
                f"{len(self.events)} events)")


def custom_edition(deck: Mapping[str, Sequence[str]]) -> Edition:
    """An edition for a deck typed into a record: classic rules over the given categories."""
    if not isinstance(deck, Mapping) or not deck:
        raise RecordError("expected a table of categories to card names", field="deck")
    categories = []
    seen: set[str] = set()
    for category, names in deck.items():
        if not isinstance(names, list) or len(names) < 2 or not all(
                isinstance(n, str) and n for n in names):
            raise RecordError(f"category {category!r}: expected at least two card names",
                              field="deck")
        cards = []
        for name in names:
            key = normalize(name)
            if key in seen:
                raise RecordError(f"duplicate card {name!r}", field="deck")
            seen.add(key)
            cards.append(Card(key, name, category))
        categories.append(Category(category, category.title(), tuple(cards)))
    return Edition(
        id="custom", name="Custom deck", publisher="", year=0, family="card",
        rule_book="", categories=tuple(categories), features={}, min_players=2,
        max_players=len(seen), deal=DealRules({c.id: 1 for c in categories}, "uneven"),
        question=QuestionRules(len(categories), "one-per-category", "free"),
        accusation=AccusationRules(), first_player="first-seat", dice=None, board=None,
        actions=(), action_hand=0, mode="standard", assumptions=(), extends=None,
        source="(record deck)")


class _Parser:
    def __init__(self, data: Mapping[str, Any], edition: Edition | None = None):
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        self.data = data
        self.loaded = edition
        self.position: int | None = None

    def fail(self, problem: str, key: str | None = None) -> RecordError:
        return RecordError(problem, event=self.position, field=key)

    # -- set-up -------------------------------------------------------------------------------
    def record(self) -> Record:
        data = self.data
        unknown = sorted(set(data) - SETUP_KEYS)
        if unknown:
            raise self.fail(f"unknown key; expected some of {sorted(SETUP_KEYS)}", unknown[0])
        self.edition = self._edition()
        players = self._players()
        self.names = tuple(p.name for p in players)
        observer = data.get("observer")
        if observer is not None and observer not in self.names:
            raise self.fail(f"{observer!r} is not a player {list(self.names)}", "observer")
        self.observer = observer
        hand = self._cards(data.get("hand", []), "hand")
        if observer is None and hand:
            raise self.fail("a hand needs an observer whose hand it is", "hand")
        if observer is not None:
            if "hand" not in data:
                raise self.fail("missing: the observer's cards", "hand")
            size = next(p.hand_size for p in players if p.name == observer)
            if len(hand) != size:
                raise self.fail(f"{observer} holds {size} cards, the hand lists {len(hand)}",
                                "hand")
        face_up = self._cards(data.get("face_up", []), "face_up")
        if set(face_up) & set(hand):
            raise self.fail("a card cannot be both in the hand and face up", "face_up")
        face_down = data.get("face_down", list(self.edition.deal.face_down_places))
        if not isinstance(face_down, list) or not all(isinstance(p, str) for p in face_down):
            raise self.fail("expected a list of pile names", "face_down")
        self.piles = tuple(face_down)
        clash = {ENVELOPE, FACE_UP, *self.names} & set(self.piles)
        if clash or len(set(self.piles)) != len(self.piles):
            raise self.fail("pile names must differ from each other, the players, "
                            "'envelope' and 'face-up'", "face_down")
        fugitive = data.get("fugitive")
        if fugitive is not None and fugitive not in self.names:
            raise self.fail(f"{fugitive!r} is not a player", "fugitive")
        dealt = sum(p.hand_size for p in players) + len(face_up) + len(self.piles)
        expected = len(self.edition.cards) - self.edition.envelope_size
        if dealt != expected:
            raise self.fail(f"hands ({sum(p.hand_size for p in players)}), face-up cards "
                            f"({len(face_up)}) and face-down piles ({len(self.piles)}) hold "
                            f"{dealt} cards; the deck leaves {expected} outside the envelope",
                            "players")
        self.record_so_far = Record(self.edition, players, observer, hand, face_up,
                                    self.piles, fugitive, (), data)
        events_raw = data.get("events", [])
        if not isinstance(events_raw, list):
            raise self.fail("expected a list of events", "events")
        events = []
        self.out: dict[str, int] = {}    # who left the game, and at which event
        for position, raw in enumerate(events_raw, start=1):
            self.position = position
            event = self._event(raw)
            if isinstance(event, Accuse) and not event.correct and \
                    self.edition.accusation.wrong == "leaves":
                self.out.setdefault(event.by, position)
            events.append(event)
        self.position = None
        return Record(self.edition, players, observer, hand, face_up, self.piles, fugitive,
                      tuple(events), data)

    def _edition(self) -> Edition:
        data = self.data
        if ("edition" in data) == ("deck" in data):
            raise self.fail("give either an edition or a custom deck", "edition")
        if self.loaded is not None:
            if data.get("edition") != self.loaded.id:
                raise self.fail(f"the record names {data.get('edition')!r}, not the edition "
                                f"given ({self.loaded.id!r})", "edition")
            return self.loaded
        if "deck" in data:
            return custom_edition(data["deck"])
        if isinstance(data["edition"], Mapping):
            # A variant written into the record: {"base": <edition id>, <option>: ...}.
            from ..rules.variant import variant_from_dict
            try:
                return variant_from_dict(data["edition"]).edition
            except (EditionError, ValueError, TypeError) as error:
                raise self.fail(str(error), "edition") from None
        if not isinstance(data["edition"], str):
            raise self.fail("expected an edition id or path, or a variant "
                            "{\"base\": <edition id>, ...}", "edition")
        try:
            return load_edition(data["edition"])
        except EditionError as error:
            raise self.fail(str(error), "edition") from None

    def _players(self) -> tuple[Player, ...]:
        raw = self.data.get("players")
        if not isinstance(raw, list) or len(raw) < 2:
            raise self.fail("expected a list of at least two players", "players")
        names = []
        for item in raw:
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
                raise self.fail("each player is a name or {\"name\": ..., \"hand_size\": n}",
                                "players")
            extra = set(item) - {"name", "hand_size"}
            if extra:
                raise self.fail(f"unknown key {sorted(extra)[0]!r} in a player", "players")
            names.append(item)
        if len({p["name"] for p in names}) != len(names):
            raise self.fail("player names repeat", "players")
        if {p["name"] for p in names} & {ENVELOPE, FACE_UP}:
            raise self.fail("'envelope' and 'face-up' are places, not player names", "players")
        default = None
        if any("hand_size" not in p for p in names):
            try:
                default = self.edition.hand_sizes(len(names))
            except ValueError as error:
                raise self.fail(str(error), "players") from None
        players = []
        for seat, p in enumerate(names):
            size = p.get("hand_size", default[seat] if default else None)
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                raise self.fail(f"{p['name']}: hand_size must be a whole number", "players")
            players.append(Player(p["name"], size))
        return tuple(players)

    def _card(self, name: Any, key: str) -> Card:
        if isinstance(name, Card):
            return name
        if not isinstance(name, str):
            raise self.fail(f"expected a card name, got {name!r}", key)
        try:
            return self.edition.card(name)
        except KeyError:
            raise self.fail(f"unknown card {name!r} in {self.edition.name}", key) from None

    def _cards(self, names: Any, key: str) -> tuple[Card, ...]:
        if not isinstance(names, list):
            raise self.fail("expected a list of card names", key)
        cards = tuple(self._card(n, key) for n in names)
        if len(set(cards)) != len(cards):
            raise self.fail("a card is listed twice", key)
        return cards

    def _player(self, name: Any, key: str) -> str:
        if name not in self.names:
            raise self.fail(f"{name!r} is not a player {list(self.names)}", key)
        return name

    # -- events -------------------------------------------------------------------------------
    KINDS = {"suggest": ({"by", "passed", "shown_by", "card", "showed"}, "_suggest"),
             "accuse": ({"by", "correct"}, "_accuse"),
             "snoop": ({"by", "card"}, "_snoop"),
             "all_snoop": ({"by", "card", "from"}, "_all_snoop"),
             "super_sleuth": ({"by", "showed", "nothing"}, "_super_sleuth"),
             "private_tip": ({"by", "to", "cards"}, "_private_tip"),
             "room_card": ({"by", "card"}, "_room_card"),
             "show": ({"to", "card"}, "_show"),
             "reveal": ({"by"}, "_reveal")}

    def _event(self, raw: Any) -> Event:
        if not isinstance(raw, Mapping):
            raise self.fail("an event is a JSON object")
        kinds = [k for k in self.KINDS if k in raw]
        if len(kinds) != 1:
            raise self.fail(f"an event has exactly one of the keys {list(self.KINDS)}")
        kind = kinds[0]
        allowed, method = self.KINDS[kind]
        unknown = sorted(set(raw) - allowed - {kind, "comment"})
        if unknown:
            raise self.fail(f"unknown key for a {kind} event; expected some of "
                            f"{sorted(allowed)}", unknown[0])
        if "by" in allowed and kind != "show":
            if "by" not in raw:
                raise self.fail("missing: who did it", "by")
            self._player(raw["by"], "by")
            if kind != "reveal":
                self._present(raw["by"], "by")
        return getattr(self, method)(raw)

    def _present(self, name: str, key: str) -> str:
        """``name``, refused if they left the game after a wrong accusation."""
        if name in self.out:
            raise self.fail(f"{name} left the game after a wrong accusation (event "
                            f"{self.out[name]}) and takes no further part", key)
        return name

    def _seen_card(self, raw: Mapping, viewers: Sequence[str], key: str = "card",
                   field: str | None = None) -> Card | None:
        field = field or key
        if raw.get(key) is None:
            return None
        card = self._card(raw[key], field)
        if self.observer not in viewers:
            who = self.observer or "nobody (public record)"
            raise self.fail(f"the observer, {who}, could not have seen which card it was",
                            field)
        return card

    def _named(self, raw: Mapping, key: str, arity_rule: str) -> tuple[Card, ...]:
        named = self._cards(raw[key], key)
        edition = self.edition
        if arity_rule == "question":
            q = edition.question
            if len(named) != q.items:
                raise self.fail(f"a question in {edition.name} names {q.items} items, "
                                f"not {len(named)}", key)
            one_each = q.form == "one-per-category"
        else:
            if len(named) != len(edition.categories):
                raise self.fail(f"an accusation names {len(edition.categories)} items, "
                                f"not {len(named)}", key)
            one_each = True
        if one_each:
            cats = [c.category for c in named]
            if sorted(cats) != sorted(cat.id for cat in edition.categories):
                raise self.fail("name one card of each category: "
                                + ", ".join(cat.name for cat in edition.categories), key)
        return named

    def _suggest(self, raw: Mapping) -> Suggest:
        by = raw["by"]
        named = self._named(raw, "suggest", "question")
        passed = raw.get("passed", [])
        if not isinstance(passed, list):
            raise self.fail("expected a list of players", "passed")
        for name in passed:
            self._player(name, "passed")
        order = self.record_so_far.answer_order(by, out=list(self.out))
        if self.edition.question.answer == "every-who-can":
            return self._suggest_every(raw, named, passed, order)
        if "showed" in raw:
            raise self.fail(f"in {self.edition.name} only the first player who can shows a "
                            "card: say who with 'shown_by' (and 'card')", "showed")
        shown_by = raw.get("shown_by")
        if shown_by is not None:
            self._player(shown_by, "shown_by")
        expected = list(order[: len(passed)])
        if passed != expected:
            raise self.fail(f"players are asked in seat order after {by}: the first "
                            f"{len(passed)} would be {expected}, not {passed}", "passed")
        if shown_by is None:
            if len(passed) != len(order):
                raise self.fail(f"nobody showed a card, so everyone else ({list(order)}) "
                                "must be listed as having passed", "passed")
        else:
            if len(passed) >= len(order) or order[len(passed)] != shown_by:
                nxt = order[len(passed)] if len(passed) < len(order) else "nobody"
                raise self.fail(f"after {passed or 'nobody'} passed, the next to answer is "
                                f"{nxt}, not {shown_by}", "shown_by")
        card = self._seen_card(raw, [by, shown_by] if shown_by else [])
        if card is not None and card not in named:
            raise self.fail(f"{card.name} was not one of the cards asked about", "card")
        return Suggest(self.position, raw, named, by, tuple(passed), shown_by, card)

    def _suggest_every(self, raw: Mapping, named: tuple[Card, ...], passed: list,
                       order: tuple[str, ...]) -> Suggest:
        """Every player who can shows one card: ``showed`` maps each of them to the card
        (null when the observer did not see it); ``passed`` lists the others in order."""
        by = raw["by"]
        for key in ("shown_by", "card"):
            if key in raw:
                raise self.fail(f"in {self.edition.name} every player who can shows a card: "
                                "list them in 'showed' ({\"Bob\": \"Rope\", \"Cy\": null})",
                                key)
        showed_raw = raw.get("showed", {})
        if not isinstance(showed_raw, Mapping):
            raise self.fail("'showed' maps each player who showed a card to the card",
                            "showed")
        for name in showed_raw:
            self._player(name, "showed")
        if set(passed) & set(showed_raw):
            both = sorted(set(passed) & set(showed_raw))[0]
            raise self.fail(f"{both} cannot both pass and show a card", "passed")
        if sorted([*passed, *showed_raw]) != sorted(order):
            raise self.fail(f"everyone asked ({list(order)}) either shows a card or passes, "
                            "exactly once", "showed")
        in_order = [n for n in order if n in passed]
        if passed != in_order:
            raise self.fail(f"players are asked in seat order after {by}: list those who "
                            f"passed as {in_order}", "passed")
        showed = []
        for name in order:
            if name not in showed_raw:
                continue
            card = None
            if showed_raw[name] is not None:
                card = self._seen_card({"card": showed_raw[name]}, [by, name], field="showed")
                if card not in named:
                    raise self.fail(f"{card.name} was not one of the cards asked about",
                                    "showed")
            showed.append((name, card))
        return Suggest(self.position, raw, named, by, tuple(passed), None, None, tuple(showed))

    def _accuse(self, raw: Mapping) -> Accuse:
        named = self._named(raw, "accuse", "accusation")
        correct = raw.get("correct")
        if not isinstance(correct, bool):
            raise self.fail("expected true or false", "correct")
        return Accuse(self.position, raw, named, raw["by"], correct)

    def _snoop(self, raw: Mapping) -> Snoop:
        target = self._present(self._player(raw["snoop"], "snoop"), "snoop")
        if target == raw["by"]:
            raise self.fail("a player snoops on someone else", "snoop")
        card = self._seen_card(raw, [raw["by"]])
        return Snoop(self.position, raw, target, raw["by"], card)

    def _all_snoop(self, raw: Mapping) -> AllSnoop:
        direction = raw["all_snoop"]
        if direction not in ("left", "right"):
            raise self.fail("expected 'left' or 'right'", "all_snoop")
        seen_from = None
        if raw.get("from") is not None:
            self._player(raw["from"], "from")
        present = [n for n in self.names if n not in self.out]
        if raw.get("from") is not None:
            self._present(raw["from"], "from")
        if self.observer in present:
            # Hands go towards `direction`, so each player receives from the other side.
            # Players who left the game are not in the ring.
            seen_from = self.record_so_far.neighbour(
                self.observer, "right" if direction == "left" else "left", out=list(self.out))
            if raw.get("from") not in (None, seen_from):
                raise self.fail(f"with All Snoop {direction}, {self.observer} looks at "
                                f"{seen_from}'s hand, not {raw['from']}'s", "from")
        card = self._seen_card(raw, present)
        return AllSnoop(self.position, raw, direction, raw["by"], card,
                        seen_from if card else None)

    def _feature(self, spec: Any, key: str) -> tuple[str, str]:
        if not isinstance(spec, Mapping) or set(spec) - {"feature", "value", "category",
                                                          "all"}:
            raise self.fail("expected {\"feature\": ..., \"value\": ...}", key)
        feature, value = spec.get("feature"), spec.get("value")
        if feature not in self.edition.features:
            raise self.fail(f"unknown feature {feature!r}; {self.edition.name} has "
                            f"{sorted(self.edition.features)}", key)
        if value not in self.edition.features[feature].values:
            raise self.fail(f"{feature} is one of {list(self.edition.features[feature].values)}"
                            f", not {value!r}", key)
        return feature, value

    def _super_sleuth(self, raw: Mapping) -> SuperSleuth:
        by = raw["by"]
        feature, value = self._feature(raw["super_sleuth"], "super_sleuth")
        showed_raw = raw.get("showed", {})
        nothing = raw.get("nothing", [])
        if not isinstance(showed_raw, Mapping) or not isinstance(nothing, list):
            raise self.fail("'showed' maps players to cards; 'nothing' lists players",
                            "showed")
        for name in showed_raw:
            self._player(name, "showed")
        for name in nothing:
            self._player(name, "nothing")
        opponents = [n for n in self.names if n != by and n not in self.out]
        answered = list(showed_raw) + list(nothing)
        if sorted(answered) != sorted(opponents):
            raise self.fail(f"every opponent of {by} ({opponents}) answers exactly once",
                            "showed")
        showed = []
        for name in opponents:
            if name not in showed_raw:
                continue
            card = None
            if showed_raw[name] is not None:
                card = self._seen_card({"card": showed_raw[name]}, [by, name],
                                       field="showed")
                if card.features.get(feature) != value:
                    raise self.fail(f"{card.name} is not a {value} card", "showed")
            showed.append((name, card))
        ordered_nothing = tuple(n for n in opponents if n in nothing)
        return SuperSleuth(self.position, raw, feature, value, by, tuple(showed),
                           ordered_nothing)

    def _private_tip(self, raw: Mapping) -> PrivateTip:
        by = raw["by"]
        if "to" not in raw:
            raise self.fail("missing: who gave the tip", "to")
        to = self._present(self._player(raw["to"], "to"), "to")
        if to == by:
            raise self.fail("a private tip goes to an opponent", "to")
        spec = raw["private_tip"]
        if isinstance(spec, Mapping) and spec.get("all"):
            category = spec.get("category")
            if category not in [c.id for c in self.edition.categories] or set(spec) - {
                    "category", "all"}:
                raise self.fail("expected {\"category\": <category id>, \"all\": true}",
                                "private_tip")
            feature = value = None
            every = True
        else:
            feature, value = self._feature(spec, "private_tip")
            category = self.edition.features[feature].category
            every = False
        cards = None
        if raw.get("cards") is not None:
            if self.observer not in (by, to):
                raise self.fail("the tip is secret: only its giver and receiver know the "
                                "cards", "cards")
            cards = self._cards(raw["cards"], "cards")
            for card in cards:
                if card.category != category or (feature and card.features.get(feature)
                                                 != value):
                    raise self.fail(f"{card.name} does not answer this tip", "cards")
            if not every and len(cards) > 1:
                raise self.fail("this tip returns one card at most", "cards")
        return PrivateTip(self.position, raw, by, to, category, every, feature, value, cards)

    def _room_card(self, raw: Mapping) -> RoomCard:
        pile = raw["room_card"]
        if pile not in self.piles:
            raise self.fail(f"no face-down card lies in {pile!r}; piles are "
                            f"{list(self.piles)}", "room_card")
        card = self._seen_card(raw, [raw["by"]])
        return RoomCard(self.position, raw, pile, raw["by"], card)

    def _show(self, raw: Mapping) -> Show:
        shower = self._player(raw["show"], "show")
        if "to" not in raw:
            raise self.fail("missing: who was shown the card", "to")
        to = self._player(raw["to"], "to")
        if to == shower:
            raise self.fail("a card is shown to someone else", "to")
        card = self._seen_card(raw, [shower, to])
        return Show(self.position, raw, shower, to, card)

    def _reveal(self, raw: Mapping) -> Reveal:
        card = self._card(raw["reveal"], "reveal")
        return Reveal(self.position, raw, card, raw["by"])
