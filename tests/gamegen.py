"""Random games, played truthfully by the rules and written down as game records.

``random_record`` deals a small edition with a seeded ``random.Random``, plays random events
that are all *true* of that deal (docs/records.md says what each one means), and writes the
record as one player saw it (or as everybody saw it: public knowledge). It returns the record
and the true deal, which must always be among the deals the record allows.
``contradictory_record`` returns a record and one more event that no deal fits with it.

Card names in the records are written as ids, printed names or aliases at random, so the
name lookup is exercised too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import Edition, load_edition, normalize
from cluedo_lab.rules.errors import CluedoLabError, RecordError

try:  # as tests.gamegen, or as gamegen with tests/ on sys.path (how pytest imports tests)
    from .oracle import ENVELOPE, FACE_UP, brute_force
except ImportError:
    from oracle import ENVELOPE, FACE_UP, brute_force  # type: ignore[no-redef]

DATA = Path(__file__).resolve().parent / "data"
NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay")
KINDS = ("suggest", "accuse", "snoop", "all_snoop", "super_sleuth", "private_tip", "room_card",
         "show", "reveal")


def edition_path(name: str) -> str:
    """The path of a test edition in tests/data (``"mini-3x3x3"``)."""
    return str(DATA / f"{name}.toml")


ACTION_KINDS = {"snoop": "snoop", "all_snoop": "all-snoop", "super_sleuth": "super-sleuth",
                "private_tip": "private-tip"}


def kinds_for(edition: Edition) -> tuple[str, ...]:
    """The event kinds a game of this edition can produce: action-card events only with that
    card in the edition's action deck (super sleuth also needs features), room cards only with
    face-down piles."""
    deck = {a.kind for a in edition.actions}
    out = []
    for kind in KINDS:
        if kind in ACTION_KINDS and ACTION_KINDS[kind] not in deck:
            continue
        if kind == "super_sleuth" and not edition.features:
            continue
        if kind == "room_card" and not edition.deal.face_down:
            continue
        out.append(kind)
    return tuple(out)


class Game:
    """A deal and the players; makes true events about it, as ``observer`` sees them."""

    def __init__(self, path: str, names: Sequence[str], rng: random.Random, *,
                 observer: str | None, fugitive: str | None, as_deck: bool):
        self.path = path
        self.edition = edition = _edition(path)
        self.names = list(names)
        self.rng = rng
        self.observer = observer
        self.fugitive = fugitive
        self.as_deck = as_deck
        self.out: list[str] = []   # who left the game (wrong accusers, when the rules say so)
        self.accused: list[str] = []   # wrong accusers: they take no more turns
        n = len(names)
        # Hand sizes: the edition's; sometimes the deal started at another seat, so the sizes
        # are rotated and written into the record.
        sizes = list(edition.hand_sizes(n))
        self.explicit_sizes = rng.random() < 0.3
        if self.explicit_sizes:
            k = rng.randrange(n)
            sizes = sizes[k:] + sizes[:k]
        self.sizes = dict(zip(self.names, sizes, strict=True))
        # The deal: the envelope per category, face-down piles, hands, the rest face up.
        self.where: dict[str, str] = {}
        for category in edition.categories:
            for card in rng.sample(list(category.cards), edition.deal.envelope[category.id]):
                self.where[card.id] = ENVELOPE
        rest = [c.id for c in edition.cards if c.id not in self.where]
        rng.shuffle(rest)
        self.piles = list(edition.deal.face_down_places)
        for pile in self.piles:
            self.where[rest.pop()] = pile
        for name in self.names:
            for _ in range(self.sizes[name]):
                self.where[rest.pop()] = name
        self.face_up = sorted(rest, key=[c.id for c in edition.cards].index)
        for card in rest:
            self.where[card] = FACE_UP

    # -- helpers ----------------------------------------------------------------------------
    def hand(self, place: str) -> list[str]:
        return [c.id for c in self.edition.cards if self.where[c.id] == place]

    def label(self, card_id: str) -> str:
        """How the record writes a card: its id, printed name or an alias (custom decks: the
        printed name, in a random case)."""
        card = self.edition.card(card_id)
        if self.as_deck:
            return self.rng.choice([card.name, card.name.lower(), card.name.upper()])
        return self.rng.choice([card.id, card.id, card.name, *card.aliases])

    def labels(self, cards: Sequence[str]) -> list[str]:
        return [self.label(c) for c in cards]

    @property
    def present(self) -> list[str]:
        """The players still in the game."""
        return [p for p in self.names if p not in self.out]

    def player(self) -> str:
        """Who takes this turn: a player still in the game who has not accused wrongly."""
        return self.rng.choice([p for p in self.present if p not in self.accused])

    def anyone(self) -> str:
        """A player still at the table (a wrong accuser still shows and reveals cards)."""
        return self.rng.choice(self.present)

    def other(self, name: str) -> str:
        return self.rng.choice([p for p in self.present if p != name])

    def answer_order(self, asker: str) -> list[str]:
        seat = self.names.index(asker)
        order = [p for p in self.names[seat + 1:] + self.names[:seat] if p not in self.out]
        if self.fugitive in order:
            order.remove(self.fugitive)
            order.append(self.fugitive)
        return order

    def sees(self, *viewers: str) -> bool:
        return self.observer is not None and self.observer in viewers

    def feature_cards(self, feature: str, value: str) -> set[str]:
        return {c.id for c in self.edition.cards_with(feature, value)}

    # -- events -----------------------------------------------------------------------------
    def suggest(self) -> dict[str, Any]:
        """Ask the players after ``by`` in turn; the first holding a named card shows one,
        chosen uniformly among those they hold (or, when every player who can answers, each
        of them shows one)."""
        rng, edition = self.rng, self.edition
        by = self.player()
        if edition.question.form == "one-per-category":
            named = [rng.choice(category.cards).id for category in edition.categories]
        else:
            named = rng.sample([c.id for c in edition.cards], edition.question.items)
        event: dict[str, Any] = {"suggest": self.labels(named), "by": by}
        passed = []
        if edition.question.answer == "every-who-can":
            showed: dict[str, str | None] = {}
            for name in self.answer_order(by):
                held = [c for c in named if self.where[c] == name]
                if held:
                    showed[name] = self.label(rng.choice(held)) if self.sees(by, name) else None
                else:
                    passed.append(name)
            event["showed"] = showed
            if passed or rng.random() < 0.5:
                event["passed"] = passed
            return event
        for name in self.answer_order(by):
            held = [c for c in named if self.where[c] == name]
            if held:
                event["shown_by"] = name
                if self.sees(by, name):
                    event["card"] = self.label(rng.choice(held))
                break
            passed.append(name)
        if passed or rng.random() < 0.5:
            event["passed"] = passed
        return event

    def accuse(self) -> dict[str, Any]:
        """An accusation, right only if all its cards are in the envelope; now and then one
        that names the envelope."""
        rng = self.rng
        named = []
        right = rng.random() < 0.1
        leaves = self.edition.accusation.wrong == "leaves"
        right = right or (leaves and len(self.present) <= 2)   # keep two players in the game
        for category in self.edition.categories:
            pool = [c.id for c in category.cards]
            if right:
                pool = [c for c in pool if self.where[c] == ENVELOPE]
            named.append(rng.choice(pool))
        correct = all(self.where[c] == ENVELOPE for c in named)
        by = self.player()
        if not correct:
            self.accused.append(by)
        if leaves and not correct:
            self.out.append(by)
        return {"accuse": self.labels(named), "by": by, "correct": correct}

    def snoop(self) -> dict[str, Any]:
        """``by`` looks at a random card of another player's hand."""
        by = self.player()
        target = self.other(by)
        event: dict[str, Any] = {"snoop": target, "by": by}
        if self.sees(by):
            event["card"] = self.label(self.rng.choice(self.hand(target)))
        return event

    def all_snoop(self) -> dict[str, Any]:
        """Hands go one seat towards ``direction``; the observer looks at a card of the hand
        they get: with "left", their right neighbour's (the previous seat)."""
        rng = self.rng
        direction = rng.choice(["left", "right"])
        event: dict[str, Any] = {"all_snoop": direction, "by": self.player()}
        if self.observer in self.present:
            ring = self.present              # those who left pass no hand
            seat = ring.index(self.observer)
            source = ring[(seat + (-1 if direction == "left" else 1)) % len(ring)]
            event["card"] = self.label(rng.choice(self.hand(source)))
            if rng.random() < 0.3:
                event["from"] = source
        return event

    def super_sleuth(self) -> dict[str, Any]:
        """Every opponent of ``by`` shows ``by`` one card with the feature (uniformly among
        theirs), or says they have none."""
        rng, edition = self.rng, self.edition
        feature = rng.choice(sorted(edition.features))
        value = rng.choice(edition.features[feature].values)
        wanted = self.feature_cards(feature, value)
        by = self.player()
        showed: dict[str, str | None] = {}
        nothing = []
        for name in self.present:
            if name == by:
                continue
            held = [c for c in self.hand(name) if c in wanted]
            if held:
                card = rng.choice(held)
                showed[name] = self.label(card) if self.sees(by, name) else None
            else:
                nothing.append(name)
        return {"super_sleuth": {"feature": feature, "value": value}, "by": by,
                "showed": showed, "nothing": nothing}

    def private_tip(self) -> dict[str, Any]:
        """``to`` secretly gives ``by`` all their cards of a category, or one card with a
        feature; only the two of them learn which."""
        rng, edition = self.rng, self.edition
        by = self.player()
        to = self.other(by)
        if not edition.features or rng.random() < 0.5:
            category = rng.choice(edition.categories).id
            spec: dict[str, Any] = {"category": category, "all": True}
            cards = [c for c in self.hand(to) if edition.card(c).category == category]
            rng.shuffle(cards)
        else:
            feature = rng.choice(sorted(edition.features))
            value = rng.choice(edition.features[feature].values)
            spec = {"feature": feature, "value": value}
            held = [c for c in self.hand(to) if c in self.feature_cards(feature, value)]
            cards = [rng.choice(held)] if held else []
        event: dict[str, Any] = {"private_tip": spec, "by": by, "to": to}
        if self.sees(by, to):
            event["cards"] = self.labels(cards)
        return event

    def room_card(self) -> dict[str, Any]:
        """``by`` looks at the face-down card of a pile."""
        by = self.player()
        pile = self.rng.choice(self.piles)
        event: dict[str, Any] = {"room_card": pile, "by": by}
        if self.sees(by):
            event["card"] = self.label(self.hand(pile)[0])
        return event

    def show(self) -> dict[str, Any]:
        """``show`` shows ``to`` a card of their hand (uniformly at random)."""
        shower = self.anyone()
        to = self.other(shower)
        event: dict[str, Any] = {"show": shower, "to": to}
        if self.sees(shower, to):
            event["card"] = self.label(self.rng.choice(self.hand(shower)))
        return event

    def reveal(self) -> dict[str, Any]:
        """``by`` lays a card of their hand face up for everybody."""
        by = self.anyone()
        return {"reveal": self.label(self.rng.choice(self.hand(by))), "by": by}

    # -- the record ----------------------------------------------------------------------------
    def record(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        rng, edition = self.rng, self.edition
        record: dict[str, Any] = {}
        if self.as_deck:
            record["deck"] = {c.id: [card.name for card in c.cards] for c in edition.categories}
        else:
            record["edition"] = self.path
        if self.explicit_sizes:
            record["players"] = [{"name": n, "hand_size": self.sizes[n]} for n in self.names]
        elif rng.random() < 0.5:
            record["players"] = list(self.names)
        else:
            record["players"] = [{"name": n} for n in self.names]
        if self.observer is not None:
            record["observer"] = self.observer
            hand = self.hand(self.observer)
            rng.shuffle(hand)
            record["hand"] = self.labels(hand)
        if self.face_up:
            record["face_up"] = self.labels(self.face_up)
        if self.piles and rng.random() < 0.3:
            record["face_down"] = list(self.piles)
        if self.fugitive is not None:
            record["fugitive"] = self.fugitive
        record["events"] = events
        return record

    def true_deal(self) -> dict[str, str]:
        """{card id: place}; custom-deck ids are the normalized printed names."""
        if self.as_deck:
            return {normalize(self.edition.card(c).name): p for c, p in self.where.items()}
        return dict(self.where)


@lru_cache(maxsize=32)
def _edition(path: str) -> Edition:
    return load_edition(path)


def new_game(edition_path: str | Path, players: int | Sequence[str], seed: int, *,
             observer: bool | str | None = True, fugitive: bool | str = False,
             as_deck: bool = False) -> Game:
    """A seeded deal; ``observer`` True picks a random player, False/None is public."""
    rng = random.Random(seed)
    edition = _edition(str(edition_path))
    names = list(NAMES[:players]) if isinstance(players, int) else list(players)
    if observer is True:
        observer = rng.choice(names)
    elif observer is False:
        observer = None
    if edition.mode == "one-against-all" and not fugitive:
        fugitive = True                 # that game always has a fugitive
    if fugitive and edition.mode != "one-against-all" and not as_deck:
        raise ValueError(f"{edition.id} has no fugitive: use a one-against-all edition or "
                         "a custom deck")
    if fugitive is True:
        fugitive = rng.choice(names)
    if as_deck and (edition.deal.face_down or edition.deal.spares != "uneven"
                    or edition.question.form != "one-per-category"
                    or any(n != 1 for n in edition.deal.envelope.values())):
        raise ValueError("a custom deck gets the classic rules; this edition has others")
    return Game(str(edition_path), names, rng, observer=observer or None,
                fugitive=fugitive or None, as_deck=as_deck)


def random_record(edition_path: str | Path, players: int | Sequence[str], seed: int,
                  events: int = 8, observer: bool | str | None = True,
                  kinds: Sequence[str] | None = None, *, fugitive: bool | str = False,
                  as_deck: bool = False) -> tuple[dict[str, Any], dict[str, str]]:
    """A record of ``events`` random true events, and the true deal ({card id: place}).

    ``players``: how many (named Ann, Bob, Cy, ...) or the names in seat order. ``observer``:
    True for a random player's view, a name for that player's, False for public knowledge.
    ``kinds``: the event kinds to draw from (default: all that the edition allows; suggestions
    are drawn three times as often as each other kind). ``fugitive``: a player (or True: a
    random one) who answers suggestions last (one-against-all editions, which always have
    one, and custom decks only). ``as_deck``: write the deck into the record
    instead of naming the edition (classic-rules editions only).
    """
    game = new_game(edition_path, players, seed, observer=observer, fugitive=fugitive,
                    as_deck=as_deck)
    return game.record(play(game, events, kinds)), game.true_deal()


def play(game: Game, events: int, kinds: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """``events`` random true events of the given kinds (default: all the edition allows)."""
    allowed = kinds_for(game.edition)
    chosen = [k for k in (kinds or allowed) if k in allowed]
    if not chosen:
        raise ValueError(f"none of the kinds {kinds} fits {game.edition.id}")
    weights = [3 if k == "suggest" else 1 for k in chosen]
    out: list[dict[str, Any]] = []
    for position, kind in enumerate(game.rng.choices(chosen, weights=weights, k=events)):
        turns = [p for p in game.present if p not in game.accused]
        if not turns or len(game.present) < 2:
            break                   # every player has accused wrongly: the game is over
        if kind == "accuse" and len(turns) <= 2 and "suggest" in chosen:
            kind = "suggest"        # keep two players taking turns
        event = getattr(game, kind)()
        if "accuse" in event and event["correct"] and position < events - 1:
            # The game ends with a correct accusation: it may only be the last event.
            for _ in range(20):
                event = game.accuse()
                if not event["correct"]:
                    break
            else:
                event = game.suggest()
        out.append(event)
    return out


def contradictory_record(edition_path: str | Path, players: int | Sequence[str], seed: int,
                         events: int = 8, observer: bool | str | None = True,
                         kinds: Sequence[str] | None = None, **options: Any
                         ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A consistent record and one more event that no deal fits together with it.

    The extra event is drawn from kinds that can contradict: a reveal, a suggestion nobody
    answered, an accusation, a super sleuth's "nothing", or a card the observer saw. If the
    record pins nothing down yet (public knowledge early on), a true reveal is added first.
    """
    game = new_game(edition_path, players, seed, observer=observer, **options)
    played = play(game, events, kinds)
    if played and played[-1].get("correct"):
        played.pop()                # the game would be over: no event may follow
    record = game.record(played)
    rng = game.rng
    for _attempt in range(2):
        oracle = brute_force(record)
        candidates = _impossible_events(record, oracle, rng)
        rng.shuffle(candidates)
        for event in candidates:
            if _well_formed(record, event) and not oracle.admits_event(event):
                return record, event
        # Nothing is certain yet: reveal a true card, after which the same card in another
        # hand is impossible.
        by = rng.choice(game.names)
        card = rng.choice(game.hand(by))
        record = {**record, "events": [*record["events"],
                                       {"reveal": game.label(card), "by": by}]}
    raise AssertionError("no contradicting event found")  # pragma: no cover


def _well_formed(record: dict[str, Any], event: dict[str, Any]) -> bool:
    """Could a game of this edition write ``event`` after ``record``'s events (the turn
    rules: who may still take a turn, which events the edition has)?"""
    try:
        Record.from_dict({**record, "events": [*record["events"], event]})
    except RecordError:
        return False
    except CluedoLabError:
        return True
    return True


def _impossible_events(record: dict[str, Any], oracle, rng: random.Random
                       ) -> list[dict[str, Any]]:
    """Events built on cells the record rules out; each is checked by the caller."""
    tab = oracle.table
    observer = record.get("observer")
    players = list(tab.players)
    known = oracle.known()
    never = [(c, p) for (c, p), v in known.items() if not v]
    always = [(c, p) for (c, p), v in known.items() if v]
    out: list[dict[str, Any]] = []

    def named_with(card: str) -> list[str]:
        """One card per category, ``card`` among them."""
        return [card if tab.category[card] == cat else rng.choice(ids)
                for cat, ids in tab.categories]

    question = None if "deck" in record else _edition(record["edition"]).question
    one_each = question is None or question.form == "one-per-category"
    items = len(tab.categories) if question is None else question.items
    for card, place in never:
        if place in players:
            out.append({"reveal": card, "by": place})
            if observer is not None and observer != place:
                out.append({"show": place, "to": observer, "card": card})
                out.append({"snoop": place, "by": observer, "card": card})
        elif place == ENVELOPE:
            out.append({"accuse": named_with(card), "by": rng.choice(players),
                        "correct": True})
        elif place != FACE_UP and observer is not None:
            out.append({"room_card": place, "by": observer, "card": card})
    for card, place in always:
        if place in players:
            by = rng.choice([p for p in players if p != place])
            if one_each:
                named = named_with(card)
            else:
                named = [card] + rng.sample([c for c in tab.cards if c != card], items - 1)
            order = [p for p in players[players.index(by) + 1:] + players[:players.index(by)]]
            out.append({"suggest": named, "by": by, "passed": _fugitive_last(order, record)})
            features = tab.features[card]
            for feature, value in features.items():
                opponents = [p for p in players if p != by]
                out.append({"super_sleuth": {"feature": feature, "value": value}, "by": by,
                            "showed": {}, "nothing": opponents})
    distribution = oracle.envelope_distribution()
    if len(distribution) == 1:
        (solution,) = distribution
        by_category = {tab.category[c]: c for c in solution}
        named = [by_category[cat] for cat, _ in tab.categories]
        out.append({"accuse": named, "by": rng.choice(players), "correct": False})
    return out


def _fugitive_last(order: list[str], record: dict[str, Any]) -> list[str]:
    fugitive = record.get("fugitive")
    if fugitive in order:
        order = [p for p in order if p != fugitive] + [fugitive]
    return order
