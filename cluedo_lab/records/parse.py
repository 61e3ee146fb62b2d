"""Reading a record: a JSON object checked field by field into a record's :class:`Fields`.

Every check runs before a record exists, so a bad record raises one
:class:`~cluedo_lab.rules.errors.RecordError` naming the event by its position (counted from 1)
and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from ..rules.edition import (
    ID_PATTERN,
    AccusationRules,
    Card,
    Category,
    DealRules,
    Edition,
    QuestionRules,
    is_shipped,
    load_edition,
    normalize,
    shipped_ids,
)
from ..rules.errors import CluedoLabError, EditionError, RecordError
from ..rules.files import shown
from ..rules.limits import MAX_CARDS
from .events import (
    ENVELOPE,
    FACE_UP,
    Accuse,
    AllSnoop,
    Event,
    PrivateTip,
    Reveal,
    RoomCard,
    Show,
    Snoop,
    Suggest,
    SuperSleuth,
)
from .seating import Player, answer_order, neighbour

SETUP_KEYS = {"edition", "deck", "players", "observer", "hand", "face_up", "face_down",
              "fugitive", "escape_plan", "events", "comment"}


class Fields(NamedTuple):
    """A record's fields in :class:`~cluedo_lab.records.record.Record`'s order, checked."""

    edition: Edition
    players: tuple[Player, ...]
    observer: str | None
    hand: tuple[Card, ...]
    face_up: tuple[Card, ...]
    face_down: tuple[str, ...]
    fugitive: str | None
    events: tuple[Event, ...]
    source: Mapping[str, Any]
    escape_plan: tuple[Card, ...]


def read_fields(data: Mapping[str, Any], edition: Edition | None = None,
                folder: Path | None = None) -> Fields:
    """``data`` checked and read into a record's fields (``data`` is kept, not copied): see
    :func:`~cluedo_lab.records.record.parse_record`, which builds the record from them."""
    return _Parser(data, edition, folder).fields()


def edition_path(ref: str, folder: Path | None) -> Path:
    """The edition file a record names by ``ref``: a ``.toml`` path, relative to the record's
    ``folder`` (the working folder for a record made in Python) and never out of it, not even
    by a symbolic link; or absolute (``play --save`` writes the path of the file it played)."""
    path = Path(ref)
    if path.suffix != ".toml" or ".." in path.parts:
        raise RecordError("expected an edition id, or the path of an edition's .toml file "
                          "(a record may not climb out of its folder with '..')", field="edition")
    if path.is_absolute():
        return path
    home = (folder or Path.cwd()).resolve()
    try:
        resolved = (home / path).resolve()
    except (OSError, RuntimeError):
        raise RecordError(f"{shown(ref)}: cannot be read (a loop of symbolic links)",
                          field="edition") from None
    if not resolved.is_relative_to(home):
        raise RecordError(f"{shown(ref)} leads out of the record's folder (through a "
                          "symbolic link); name the edition file by its absolute path",
                          field="edition")
    return resolved


def load_named_edition(path: Path) -> Edition:
    """The edition in the file a record names. A record may come from anyone, so a refusal
    names the file and the field but quotes nothing from the file: loading it directly
    (``load_edition``, ``cluedo-lab play --edition FILE``) says the rest."""
    try:
        return load_edition(path)
    except EditionError as error:
        if error.field == "(file)":
            raise RecordError(str(error), field="edition") from None
        raise RecordError(f"{shown(path.name)}: field '{error.field}' is not valid; load the "
                          "edition file itself to see why", field="edition") from None


def custom_edition(deck: Mapping[str, Sequence[str]]) -> Edition:
    """An edition for a deck typed into a record: classic rules over the given categories."""
    if not isinstance(deck, Mapping) or not deck:
        raise RecordError("expected a table of categories to card names", field="deck")
    if sum(len(names) if isinstance(names, list) else 0 for names in deck.values()) > MAX_CARDS:
        raise RecordError(f"more than {MAX_CARDS} cards: the kit counts deals of decks up to "
                          f"{MAX_CARDS} cards", field="deck")
    categories = []
    seen: set[str] = set()
    for category, names in deck.items():
        if not isinstance(names, list) or len(names) < 2 or not all(
                isinstance(n, str) and n for n in names):
            raise RecordError(f"category {category!r}: expected at least two card names",
                              field="deck")
        for text in (category, *names):
            if not text.isprintable():
                raise RecordError(f"{text!r}: a category or card name is one line of "
                                  "printable text", field="deck")
        cards = []
        for name in names:
            key = normalize(name)
            if not key:
                raise RecordError(f"{name!r} has no letters or digits", field="deck")
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


def _published(edition: Edition) -> bool:
    """Whether ``edition`` follows a rule book the kit ships (a shipped edition or a variant
    of one): its events are those of that game. A deck typed into a record, or a person's own
    edition file, may write any observation."""
    return is_shipped(edition) or edition.extends in shipped_ids()


def player_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot be a player's name (in a record, a game or a saved game), or
    None: a name is one line of printable text, and not one of the places cards lie in."""
    if not isinstance(name, str) or not name.strip():
        return "a player's name cannot be empty"
    if normalize(name) in (normalize(ENVELOPE), normalize(FACE_UP)):
        return (f"{name!r} cannot be a player's name: 'envelope' and 'face-up' are places, "
                "not player names")
    if not name.isprintable():
        return f"{name!r} cannot be a player's name: a name is one line of printable text"
    return None


class _Parser:
    def __init__(self, data: Mapping[str, Any], edition: Edition | None = None,
                 folder: Path | None = None):
        if not isinstance(data, Mapping):
            raise RecordError("a record is a JSON object")
        self.data = data
        self.loaded = edition
        self.folder = folder
        self.position: int | None = None

    @property
    def at(self) -> int:
        """The position of the event being parsed: events are only built inside the event loop."""
        assert self.position is not None
        return self.position

    def fail(self, problem: str, key: str | None = None) -> RecordError:
        return RecordError(problem, event=self.position, field=key)

    # -- set-up -------------------------------------------------------------------------------
    def fields(self) -> Fields:
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
        fugitive = self._fugitive()
        escape_plan = self._escape_plan(fugitive, hand, face_up)
        dealt = sum(p.hand_size for p in players) + len(face_up) + len(self.piles)
        expected = len(self.edition.cards) - self.edition.envelope_size
        if dealt != expected:
            raise self.fail(f"hands ({sum(p.hand_size for p in players)}), face-up cards "
                            f"({len(face_up)}) and face-down piles ({len(self.piles)}) hold "
                            f"{dealt} cards; the deck leaves {expected} outside the envelope",
                            "players")
        self.fugitive = fugitive
        events_raw = data.get("events", [])
        if not isinstance(events_raw, list):
            raise self.fail("expected a list of events", "events")
        events = []
        self.out: dict[str, int] = {}    # who left the game, and at which event
        self.accused: dict[str, int] = {}   # who accused wrongly, and at which event
        self.won: int | None = None         # the event of the correct accusation
        for position, raw in enumerate(events_raw, start=1):
            self.position = position
            self._check_turn_rules(raw)
            event = self._event(raw)
            if isinstance(event, Accuse):
                if event.correct:
                    self.won = position
                else:
                    self.accused[event.by] = position
                    if self.edition.accusation.wrong == "leaves":
                        self.out.setdefault(event.by, position)
            events.append(event)
        self.position = None
        return Fields(self.edition, players, observer, hand, face_up, self.piles, fugitive,
                      tuple(events), data, escape_plan)

    def _fugitive(self) -> str | None:
        """The one-against-all fugitive, who answers a suggestion only when nobody else can.
        Only that mode (or a deck typed into the record, which names no rule book) has one,
        and there it must be named: the answering order depends on it."""
        if "fugitive" not in self.data:
            if self.edition.mode == "one-against-all":
                raise self.fail(f"{self.edition.name} has a fugitive: name the player",
                                "fugitive")
            return None
        fugitive = self.data["fugitive"]
        if self.edition.mode != "one-against-all" and self.edition.id != "custom":
            raise self.fail(f"{self.edition.name} has no fugitive (only a one-against-all "
                            "game has one)", "fugitive")
        if not isinstance(fugitive, str) or fugitive not in self.names:
            raise self.fail(f"{fugitive!r} is not a player", "fugitive")
        return fugitive

    def _escape_plan(self, fugitive: str | None, hand: tuple[Card, ...],
                     face_up: tuple[Card, ...]) -> tuple[Card, ...]:
        """The three cards the fugitive chose as the solution (2002 one-against-all): only in
        the fugitive's own record, one card of each category the envelope holds."""
        if "escape_plan" not in self.data:
            return ()
        if fugitive is None or self.observer != fugitive:
            raise self.fail("only the fugitive's own record holds the escape plan they chose",
                            "escape_plan")
        plan = self._cards(self.data["escape_plan"], "escape_plan")
        counts = {c: sum(card.category == c for card in plan) for c in self.edition.deal.envelope}
        if len(plan) != self.edition.envelope_size or counts != dict(self.edition.deal.envelope):
            raise self.fail("the escape plan is the solution: "
                            + ", ".join(f"{n} {c}" for c, n in self.edition.deal.envelope.items()),
                            "escape_plan")
        if set(plan) & (set(hand) | set(face_up)):
            raise self.fail("a card of the escape plan is in the envelope, not in a hand or "
                            "face up", "escape_plan")
        return plan

    TURN_KINDS = ("suggest", "accuse", "snoop", "all_snoop", "super_sleuth", "private_tip",
                  "room_card")
    """Events a player makes on their own turn (answering is not a turn)."""
    ACTION_EVENTS = {"snoop": "snoop", "all_snoop": "all-snoop", "super_sleuth": "super-sleuth",
                     "private_tip": "private-tip"}

    def _check_turn_rules(self, raw: Any) -> None:
        """Refuse an event no game of this edition could produce, naming the rule."""
        if not isinstance(raw, Mapping):
            return                      # the event parser says what is wrong with it
        kind = next((k for k in self.KINDS if k in raw), None)
        edition = self.edition
        # A deck typed into the record names no rule book: any observation may be written.
        if kind in self.ACTION_EVENTS and edition.id != "custom" and not any(
                a.kind == self.ACTION_EVENTS[kind] for a in edition.actions):
            raise self.fail(f"{edition.name} has no {self.ACTION_EVENTS[kind]} action card, so "
                            f"no {kind} event", kind)
        # A card is shown by a Clue card (2023); one is revealed by a Clue card or, on any
        # board, when a false witness is proved (the false_witness house rule).
        clue_cards = bool(edition.dice and edition.dice.icon_faces)
        if _published(edition) and (kind == "show" and not clue_cards or
                                     kind == "reveal" and edition.family != "board"):
            why = "no Clue cards" if kind == "show" else "no board (no Clue cards, no witness)"
            raise self.fail(f"{edition.name} has {why}, so no {kind} event", kind)
        if kind == "room_card" and not self.piles:
            raise self.fail(f"{edition.name} lays no card face down in a room", kind)
        if self.won is not None and not (
                kind == "accuse" and edition.accusation.simultaneous):
            raise self.fail(f"the game ended with the correct accusation of event "
                            f"{self.won}: nothing happens after it")
        by = raw.get("by")
        if kind in self.TURN_KINDS and isinstance(by, str) and by in self.accused \
                and by not in self.out:          # (one who left is refused as such below)
            if kind == "accuse" and edition.accusation.limit > 1:
                return
            rule = ("one accusation per player" if kind == "accuse" else
                    "a wrong accuser takes no more turns")
            raise self.fail(f"{by} accused wrongly at event {self.accused[by]}: {rule} "
                            f"(accusation.wrong = {edition.accusation.wrong!r})", "by")

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
            spec = dict(data["edition"])
            base = spec.get("base")
            if isinstance(base, str) and not ID_PATTERN.match(base):
                path = edition_path(base, self.folder)
                load_named_edition(path)                # refused without quoting the file
                spec["base"] = str(path)
            from ..rules.variant import variant_from_dict  # only records of a variant
            try:
                return variant_from_dict(spec).edition
            except CluedoLabError as error:
                raise self.fail(str(error), "edition") from None
        if not isinstance(data["edition"], str):
            raise self.fail("expected an edition id or path, or a variant "
                            "{\"base\": <edition id>, ...}", "edition")
        if ID_PATTERN.match(data["edition"]):
            try:
                return load_edition(data["edition"])
            except EditionError as error:
                raise self.fail(str(error), "edition") from None
        return load_named_edition(edition_path(data["edition"], self.folder))

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
        for p in names:
            problem = player_name_problem(p["name"])
            if problem:
                raise self.fail(problem, "players")
        if self.edition.id != "custom":
            try:
                self.edition.check_players(len(names))
            except ValueError as error:
                raise self.fail(str(error), "players") from None
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
        if self.edition.id != "custom":
            dealt = sorted(self.edition.hand_sizes(len(names)))
            if sorted(p.hand_size for p in players) != dealt:
                raise self.fail(f"{self.edition.name} deals {len(names)} players hands of "
                                f"{', '.join(map(str, dealt))} cards, not "
                                f"{', '.join(str(p.hand_size) for p in players)}", "players")
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
        return str(name)

    # -- events -------------------------------------------------------------------------------
    KINDS = {"suggest": ({"by", "passed", "shown_by", "card", "showed"}, "_suggest"),
             "accuse": ({"by", "correct", "envelope", "together"}, "_accuse"),
             "snoop": ({"by", "card"}, "_snoop"),
             "all_snoop": ({"by", "card", "from"}, "_all_snoop"),
             "super_sleuth": ({"by", "showed", "nothing"}, "_super_sleuth"),
             "private_tip": ({"by", "to", "cards", "returned"}, "_private_tip"),
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
        event: Event = getattr(self, method)(raw)
        return event

    def _present(self, name: str, key: str) -> str:
        """``name``, refused if they left the game after a wrong accusation."""
        if name in self.out:
            raise self.fail(f"{name} left the game after a wrong accusation (event "
                            f"{self.out[name]}) and takes no further part", key)
        return name

    def _seen_card(self, raw: Mapping[str, Any], viewers: Sequence[str], key: str = "card",
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

    def _named(self, raw: Mapping[str, Any], key: str, arity_rule: str) -> tuple[Card, ...]:
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

    def _suggest(self, raw: Mapping[str, Any]) -> Suggest:
        by = raw["by"]
        named = self._named(raw, "suggest", "question")
        passed = raw.get("passed", [])
        if not isinstance(passed, list):
            raise self.fail("expected a list of players", "passed")
        for name in passed:
            self._player(name, "passed")
        order = answer_order(self.names, by, self.out, self.fugitive)
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
        return Suggest(self.at, raw, named, by, tuple(passed), shown_by, card)

    def _suggest_every(self, raw: Mapping[str, Any], named: tuple[Card, ...], passed: list[Any],
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
                assert card is not None  # the raw card is not None, so it was parsed
                if card not in named:
                    raise self.fail(f"{card.name} was not one of the cards asked about",
                                    "showed")
            showed.append((name, card))
        return Suggest(self.at, raw, named, by, tuple(passed), None, None, tuple(showed))

    def _accuse(self, raw: Mapping[str, Any]) -> Accuse:
        """``"accuse": null`` is an accusation made face down that the observer did not see;
        ``envelope`` is the solution the accuser looked at, known only to them."""
        correct = raw.get("correct")
        if not isinstance(correct, bool):
            raise self.fail("expected true or false", "correct")
        named: tuple[Card, ...] = ()
        if raw["accuse"] is not None:
            named = self._named(raw, "accuse", "accusation")
        elif correct:
            raise self.fail("a correct accusation is shown to everybody: name its cards",
                            "accuse")
        elif self.observer == raw["by"]:
            raise self.fail(f"{self.observer} made this accusation: name its cards", "accuse")
        together = raw.get("together", False)
        if not isinstance(together, bool):
            raise self.fail("expected true or false", "together")
        if together and not (self.edition.accusation.simultaneous
                             or self.edition.id == "custom"):
            raise self.fail(f"{self.edition.name} has players accuse one at a time, never "
                            "together", "together")
        if together and raw["accuse"] is None:
            raise self.fail("accusations made together are turned face up: name its cards",
                            "accuse")
        envelope = None
        if raw.get("envelope") is not None:
            if self.observer != raw["by"] and not together:
                who = self.observer or "nobody (public record)"
                raise self.fail(f"only the accuser looked at the solution, not {who}",
                                "envelope")
            envelope = self._named(raw, "envelope", "accusation")
        return Accuse(self.at, raw, named, raw["by"], correct, envelope, together)

    def _snoop(self, raw: Mapping[str, Any]) -> Snoop:
        target = self._present(self._player(raw["snoop"], "snoop"), "snoop")
        if target == raw["by"]:
            raise self.fail("a player snoops on someone else", "snoop")
        card = self._seen_card(raw, [raw["by"]])
        return Snoop(self.at, raw, target, raw["by"], card)

    def _all_snoop(self, raw: Mapping[str, Any]) -> AllSnoop:
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
            seen_from = neighbour(self.names, self.observer,
                                  "right" if direction == "left" else "left", self.out)
            if raw.get("from") not in (None, seen_from):
                raise self.fail(f"with All Snoop {direction}, {self.observer} looks at "
                                f"{seen_from}'s hand, not {raw['from']}'s", "from")
        card = self._seen_card(raw, present)
        return AllSnoop(self.at, raw, direction, raw["by"], card,
                        seen_from if card else None)

    def _feature(self, spec: Any, key: str) -> tuple[str, str]:
        if not isinstance(spec, Mapping) or set(spec) - {"feature", "value", "category",
                                                          "all"}:
            raise self.fail("expected {\"feature\": ..., \"value\": ...}", key)
        feature, value = spec.get("feature"), spec.get("value")
        if not isinstance(feature, str) or feature not in self.edition.features:
            raise self.fail(f"unknown feature {feature!r}; {self.edition.name} has "
                            f"{sorted(self.edition.features)}", key)
        if not isinstance(value, str) or value not in self.edition.features[feature].values:
            raise self.fail(f"{feature} is one of {list(self.edition.features[feature].values)}"
                            f", not {value!r}", key)
        return feature, value

    def _super_sleuth(self, raw: Mapping[str, Any]) -> SuperSleuth:
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
                assert card is not None  # the raw card is not None, so it was parsed
                if card.features.get(feature) != value:
                    raise self.fail(f"{card.name} is not a {value} card", "showed")
            showed.append((name, card))
        ordered_nothing = tuple(n for n in opponents if n in nothing)
        return SuperSleuth(self.at, raw, feature, value, by, tuple(showed),
                           ordered_nothing)

    def _private_tip(self, raw: Mapping[str, Any]) -> PrivateTip:
        by = raw["by"]
        if "to" not in raw:
            raise self.fail("missing: who gave the tip", "to")
        to = self._present(self._player(raw["to"], "to"), "to")
        if to == by:
            raise self.fail("a private tip goes to an opponent", "to")
        spec = raw["private_tip"]
        returned = raw.get("returned")
        if returned is not None and (type(returned) is not int or returned < 0):
            raise self.fail("expected how many cards came back (0 or more)", "returned")
        if spec is None:
            if self.observer in (by, to):
                raise self.fail(f"{self.observer} read this tip: write what it asked",
                                "private_tip")
            if raw.get("cards") is not None:
                raise self.fail("the tip is secret: only its giver and receiver know the "
                                "cards", "cards")
            return PrivateTip(self.at, raw, by, to, "", False, None, None, None, returned)
        if isinstance(spec, Mapping) and "all" in spec:
            if spec["all"] is not True:
                raise self.fail(f"'all' is true or left out, not {spec['all']!r}",
                                "private_tip")
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
        if returned is not None and cards is not None and returned != len(cards):
            raise self.fail(f"{len(cards)} cards are listed but {returned} came back",
                            "returned")
        return PrivateTip(self.at, raw, by, to, category, every, feature, value, cards,
                          returned)

    def _room_card(self, raw: Mapping[str, Any]) -> RoomCard:
        pile = raw["room_card"]
        if pile not in self.piles:
            raise self.fail(f"no face-down card lies in {pile!r}; piles are "
                            f"{list(self.piles)}", "room_card")
        card = self._seen_card(raw, [raw["by"]])
        return RoomCard(self.at, raw, pile, raw["by"], card)

    def _show(self, raw: Mapping[str, Any]) -> Show:
        shower = self._player(raw["show"], "show")
        if "to" not in raw:
            raise self.fail("missing: who was shown the card", "to")
        to = self._player(raw["to"], "to")
        if to == shower:
            raise self.fail("a card is shown to someone else", "to")
        card = self._seen_card(raw, [shower, to])
        return Show(self.at, raw, shower, to, card)

    def _reveal(self, raw: Mapping[str, Any]) -> Reveal:
        card = self._card(raw["reveal"], "reveal")
        return Reveal(self.at, raw, card, raw["by"])
