"""What a seat at the table is told: the opening, each action as it happens, warnings before an
accusation, and why the game ended.

The engine's own log is written for an all-seeing reader (every hand, every card shown), so it
cannot be shown to a player. A seat's log says what was done in the open (an action's public
arguments, as :meth:`~cluedo_lab.games.seat.Seat.heard` gives them, and the dice) and gives
every event *as the seat's record holds it*, so it hides exactly what the observation model
hides. A log is a list of :data:`Entry`: a line of text, or the index of an event, shown as
the seat's record describes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..games.action import Action
from ..games.game import Game, required
from ..games.seat import Seat
from ..records import Accuse
from .table_controls import shown

__all__ = ["Before", "Entry", "accusation_warnings", "ending", "narrate", "opening"]

Entry = str | int
"""A log entry: a line of text, or the index of an event (shown as the seat's record holds
it)."""


@dataclass(frozen=True)
class Before:
    """The game just before an action: what :func:`narrate` compares the game after it with."""

    log: int
    """Lines of the engine's log."""
    events: int
    actions: int
    turn: int | None
    accusation_open: bool
    """Had a player said this turn that they accuse (2018)?"""

    @classmethod
    def at(cls, seat: Seat[Game]) -> Before:
        game = seat.game
        return cls(len(game.log), len(game.events), len(game.history), seat.turn,
                   seat.accusation_open)

    def joins(self, action: Action) -> bool:
        """Does ``action`` join an accusation already declared this turn (the 2018 game: "Ask
        if anyone else wants to accuse")? Then it is turned over with that one."""
        return action.kind == "accuse" and self.accusation_open


def opening(seat: Seat[Game]) -> list[Entry]:
    """The first lines of a seat's log: the game, who you are, your cards."""
    game = seat.game
    record = seat.record()
    who = f"You are {seat.name}"
    if seat.piece is not None:
        who += f", playing {shown(seat, seat.piece)}"
    lines: list[Entry] = [
        f"{game.edition.name}, {len(game.names)} players ({', '.join(game.names)}), "
        f"seed {game.seed}. {who}.",
        f"Your hand: {', '.join(c.name for c in record.hand) or 'no cards'}"]
    if record.face_up:
        lines.append(f"Face up for everyone: {', '.join(c.name for c in record.face_up)}")
    if record.fugitive:
        lines.append(f"{record.fugitive} is the fugitive")
    return lines + turn_line(seat)


def turn_line(seat: Seat[Game]) -> list[Entry]:
    """A "-- P2's turn --" line (nothing once the game is over)."""
    turn = seat.turn
    if seat.game.is_over or turn is None:
        return []
    whose = "your" if turn == seat.index else f"{seat.game.names[turn]}'s"
    return [f"-- {whose} turn --"]


def narrate(seat: Seat[Game], action: Action, before: Before) -> list[Entry]:
    """What ``seat`` learns from ``action``, just applied to its game (``before`` it, the game
    was as :meth:`Before.at` took it).

    The action is told from its arguments as the seat heard them (a card shown privately is
    never named here, nor a Private Tip an onlooker saw pass); its events follow as indices
    into the seat's record. The engine's log is read only for a roll (its first line is the
    dice, thrown in the open) and at the end (its last line gives the winner and the envelope,
    which everybody sees then).
    """
    g, kind = seat.game, action.kind
    who = g.names[action.seat]
    heard = seat.heard(action)
    new_events = len(g.events) - before.events
    out: list[Entry] = []
    if kind == "roll":
        out.append(g.log[before.log] if len(g.log) > before.log else f"{who} rolls")
        if seat.clue_card is not None:
            out.append(f"{who} draws a Clue card: {seat.clue_card}")
    elif kind == "passage":
        out.append(f"{who} takes the secret passage to the {shown(seat, action['to'])}")
    elif kind == "stay":
        room = seat.room_of(action.seat)
        out.append(f"{who} stays in the {shown(seat, room)}" if room else f"{who} stays")
    elif kind == "move":
        to = action["to"]
        out.append(f"{who} moves into the {shown(seat, to)}" if isinstance(to, str)
                   else f"{who} moves to {shown(seat, to)}")
    elif kind in ("suggest", "ask") and not new_events:
        named = shown(seat, action.get("cards") or action.get("items") or ())
        room = seat.room_of(action.seat)
        where = f" in the {shown(seat, room)}" if room else marker_place(seat, action.seat)
        shower = g.names[required(g.current, "seat to show a card")]
        out.append(f"{who} asks about {named}{where}; {shower} must choose a card to show")
    elif kind in ("show", "reveal") and action.seat == seat.index and not new_events:
        out.append(f"You ({who}) show {shown(seat, action['card'])}")
    elif kind == "pass":
        out.append(f"{who} says they cannot show a card")
    elif kind == "clue":
        out.append(f"{who} picks {action['player']} for the Clue card")
    elif kind == "accuse" and not new_events:
        out.append(f"{who} makes an accusation, face down")
    elif kind == "decline":
        out.append(f"{who} does not accuse")
    elif kind == "end":
        out.append(f"{who} ends the turn")
    elif kind == "play" and heard["card"] is None:
        # The one card played face down is a Private Tip: onlookers see who passed it to
        # whom, not its words.
        out.append(f"{who} passes {heard['target']} a Private Tip")
    elif kind == "play":
        text = f"{who} plays {heard['card']}"
        for key in ("target", "destination", "cards"):
            if heard.get(key) is not None:
                text += " " + {"target": "on", "destination": "to",
                               "cards": "naming"}[key] + " " + shown(seat, heard[key])
        if heard.get("cards") is not None and heard.get("destination") is None:
            text += marker_place(seat, action.seat)
        out.append(text)
    out += range(before.events, len(g.events))
    if g.is_over:
        out.append(g.log[-1])
    elif seat.turn != before.turn:
        out += turn_line(seat)
    return out


def marker_place(seat: Seat[Game], asker: int) -> str:
    """" from <destination>": the third card a 2002 suggestion names, the destination marker
    in front of the asker (public); empty where there are no markers."""
    place = dict(seat.markers or ()).get(seat.game.names[asker])
    return f" from {shown(seat, place)}" if place else ""


def accusation_warnings(seat: Seat[Game], action: Action) -> list[str]:
    """What a careful detective checks before accusing: a named card that ``seat`` holds, or
    that lies face up, cannot be in the envelope."""
    record = seat.record()
    named = [seat.game.edition.card(c) for c in action.get("cards") or ()]
    lines = []
    held = [c.name for c in named if c in record.hand]
    if held:
        lines.append(f"You hold {' and '.join(held)}: "
                     f"{'it is' if len(held) == 1 else 'they are'} not in the envelope.")
    seen = [c.name for c in named if c in record.face_up]
    if seen:
        lines.append(f"{' and '.join(seen)} {'is' if len(seen) == 1 else 'are'} face up on "
                     "the table: not in the envelope.")
    return lines


def ending(seat: Seat[Game], joined: Sequence[bool]) -> list[str]:
    """Why the game ended, told to ``seat``: every accusation in the order it was judged (its
    cards as the seat's record holds them, so a wrong accusation made face down stays face
    down), who won and why, and the solution, which everybody sees at the end.

    ``joined[i]`` says whether the i-th accuse action joined the one before it (see
    :meth:`Before.joins`); accusations made together are judged in the order agreed, and the
    first right one wins, so a learner who was right too can still lose.
    """
    game = seat.game
    if not game.is_over:
        return []
    events = [e for e in seat.record().events if isinstance(e, Accuse)]

    def who(name: str) -> str:
        return "you" if name == seat.name else name

    winner = game.winner
    lines = [("You won!" if winner == seat.index else "Nobody won." if winner is None
              else f"{game.names[winner]} won.")]
    for group in _rounds(events, joined):
        lines += _lone(group[0], who) if len(group) == 1 else _together(group, who, seat.name)
    if winner is not None and not any(e.correct for e in events) and game.log:
        lines.append(f"How: {game.log[-1]}.")   # a win by another rule than accusing
    if not events and winner is None:
        lines.append("Nobody could accuse any more.")
    solution = seat.solution()
    if solution is not None:
        lines.append("The solution: " + ", ".join(c.name for c in solution) + ".")
    return lines


def _rounds(events: list[Accuse], joined: Sequence[bool]) -> list[list[Accuse]]:
    """The accusations, those turned over together in one group."""
    rounds: list[list[Accuse]] = []
    for n, event in enumerate(events):
        if rounds and n < len(joined) and joined[n]:
            rounds[-1].append(event)
        else:
            rounds.append([event])
    return rounds


def _cards(event: Accuse) -> str:
    return (", ".join(c.name for c in event.named) if event.named
            else "three cards, face down")


def _lone(event: Accuse, who: Callable[[str], str]) -> list[str]:
    """An accusation judged alone."""
    was = "were" if who(event.by) == "you" else "was"
    verdict = (f"{was} right: the crime is solved" if event.correct else
               f"{was} wrong, so {who(event.by)} could only answer questions from then on")
    return [f"{who(event.by).capitalize()} accused {_cards(event)}, and {verdict}."]


def _together(group: list[Accuse], who: Callable[[str], str], me: str) -> list[str]:
    """Accusations turned over together, judged in the order agreed."""
    first, others = group[0].by, [who(e.by) for e in group[1:]]
    lines = [f"{who(first).capitalize()} said they were ready to accuse and "
             f"{' and '.join(others)} accused too. The accusations were turned over "
             "together and judged in the order agreed; the first right one wins:"]
    right = [e for e in group if e.correct]
    for k, event in enumerate(group, start=1):
        lines.append(f"  {k}. {who(event.by)}: {_cards(event)}: "
                     f"{'right' if event.correct else 'wrong'}")
    if not right:
        lines.append("Nobody was right: the criminal outwitted every accuser.")
    else:
        lines.append(f"{who(right[0].by).capitalize()} came first of those who were "
                     f"right, so {who(right[0].by)} won.")
        if any(e.by == me for e in right[1:]):
            lines.append(f"You were right too, but {right[0].by} came before you in the "
                         "order.")
    return lines
