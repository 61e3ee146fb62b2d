"""The kit's exceptions: each names what was wrong and where, so a learner can fix it."""

from __future__ import annotations


class CluedoLabError(Exception):
    """Base class for every error the kit raises on purpose."""


class EditionError(CluedoLabError, ValueError):
    """An edition or deck file is malformed: the message names the file and the field."""

    def __init__(self, source: str, field: str, problem: str):
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: field '{field}': {problem}")


class RecordError(CluedoLabError, ValueError):
    """A game record is malformed; `event` is the 1-based position of the bad event, if any."""

    def __init__(self, problem: str, event: int | None = None, field: str | None = None):
        self.problem = problem
        self.event = event
        self.field = field
        where = []
        if event is not None:
            where.append(f"event {event}")
        if field is not None:
            where.append(f"field '{field}'")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {problem}" if prefix else problem)


class Contradiction(CluedoLabError, ValueError):
    """The observations admit no deal. `conflict` lists the smallest set of events in conflict."""

    def __init__(self, message: str, conflict: tuple[int, ...] = ()):
        self.conflict = conflict
        super().__init__(message)


class SavedGameError(CluedoLabError, ValueError):
    """A saved game cannot be loaded: the message names the file's field and what it needs."""


class IllegalAction(CluedoLabError, ValueError):
    """A move the rules forbid; the game state is unchanged."""


class ProblemTooLarge(CluedoLabError, ValueError):
    """Counting exactly would take more than the allowed work: ``size`` is the estimate (a
    bound on the counting's states, or on the envelopes to list) and ``limit`` the limit."""

    def __init__(self, what: str, size: int, limit: int, advice: str):
        self.size = size
        self.limit = limit
        super().__init__(f"{what}: up to {size:,} (the limit is {limit:,}). {advice}")


class ActionLimit(CluedoLabError, RuntimeError):
    """A game played by bots went on past ``limit`` actions without ending: bots that never
    finish (a bug), or, in a tournament, a game counted as unfinished."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"no result after {limit:,} actions")


class UnknownName(CluedoLabError, KeyError):
    """A card, category, place, room or player the edition or game does not have. It is a
    KeyError too, as a lookup by name is; its text is the message, not the message's repr."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidArgument(CluedoLabError, ValueError):
    """A value handed to the kit's API that it cannot use (a player count out of range, a
    square off the board...): the message says what was expected."""


class WrongType(CluedoLabError, TypeError):
    """An argument of the wrong kind handed to the kit's API (``load_edition(None)``)."""


class NothingToUndo(IllegalAction, IndexError):
    """``undo`` with nothing to take back, from a game, a knowledge engine or a notepad."""


class UnsafePath(CluedoLabError, ValueError):
    """A path the kit will not read or write: outside its folder, or through a symbolic link."""
