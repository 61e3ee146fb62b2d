"""A learner's attempts at one exercise: what a handed-in notebook carries for grading.

An exercise widget keeps an :class:`AttemptLog`: when it was first shown, each answer checked
(what was typed or chosen, right or wrong, and the sentence the learner got back: for a wrong
answer the trap it fell into), each hint asked for and each reveal, with the time. The widget
holds the log's JSON in a synced widget trait, and JupyterLab (or JupyterLite) saves widget
state in the notebook (the kit's default: ``saveState`` in ``overrides.json``), so the
notebook a learner downloads carries it and ``cluedo-lab grade`` reads it back with no server.

The JSON carries a digest of its content: a log edited by hand no longer matches it and is
reported as tampered. (The digest is not a secret: it stops an edit in a text editor, not a
learner who reads this module.) Reading never evaluates what it reads, and caps every size.

Saved widget state alone does not survive every reopening: JupyterLite (Pyodide 0.29, widget
manager 3.0.17) shows a reopened notebook's widgets as "Loading widget..." and its next save
writes no widget state at all. So a widget running in a notebook also keeps a spare copy of
its log beside the notebook (:func:`keep_spare`, ``.cluedo-attempts/KEY.json``, in the
browser's storage on the site) and, made again after a reopening, takes the earlier attempts
back from it (:func:`with_spare`): running the lesson again puts them back in the notebook.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Event", "AttemptLog", "LogError", "keep_spare", "with_spare", "spare_path",
           "OUTCOMES", "FIRST_TRY", "AFTER_HELP", "REVEALED", "WRONG", "NOT_TRIED", "MAX_EVENTS",
           "MAX_TEXT"]

FORMAT = "cluedo-lab attempts 1"
"""The log's format name, inside its JSON (a later format reads older ones by it)."""

SALT = "cluedo-lab/attempts"
MAX_EVENTS = 500
"""A log keeps the first 500 events (an exercise answered more often than that is counted,
not stored): a notebook stays small however long a learner clicks."""
MAX_TEXT = 300
"""Characters kept of a typed answer or of a sentence shown."""
MAX_JSON = 200_000
"""Characters of a log's JSON the reader accepts."""

FIRST_TRY, AFTER_HELP, REVEALED, WRONG, NOT_TRIED = (
    "right at first try", "right after hints or tries", "revealed", "not right yet",
    "not tried")
OUTCOMES = (FIRST_TRY, AFTER_HELP, REVEALED, WRONG, NOT_TRIED)
"""What became of an exercise, best first: right at the first answer with no hint; right
later (after a wrong answer or a hint); the answer revealed before it was right; answered but
never right; not answered at all (hints alone do not count as an answer)."""

KINDS = ("answer", "hint", "reveal")


class LogError(ValueError):
    """Attempt data that cannot be trusted: malformed, too large, or edited by hand."""


@dataclass(frozen=True)
class Event:
    """One thing the learner did: ``kind`` is ``"answer"`` (then ``answer`` is what they gave,
    ``right`` the verdict and ``said`` the sentence they got back), ``"hint"`` or
    ``"reveal"``; ``at`` is the time in whole seconds since 1970 (UTC)."""

    kind: str
    at: int
    answer: str = ""
    right: bool = False
    said: str = ""

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "answer":
            return {"kind": self.kind, "at": self.at, "answer": self.answer,
                    "right": self.right, "said": self.said}
        return {"kind": self.kind, "at": self.at}

    @classmethod
    def from_dict(cls, data: object) -> Event:
        if not isinstance(data, dict):
            raise LogError("an event is not an object")
        kind, at = data.get("kind"), data.get("at")
        if kind not in KINDS:
            raise LogError(f"an event's kind is {str(kind)[:20]!r}, not one of {KINDS}")
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise LogError("an event's time is not a whole number of seconds")
        if kind != "answer":
            return cls(kind, at)
        answer, right, said = data.get("answer"), data.get("right"), data.get("said")
        if not isinstance(answer, str) or not isinstance(said, str) or \
                not isinstance(right, bool):
            raise LogError("an answer event needs an answer, a verdict and a sentence")
        return cls(kind, at, answer[:MAX_TEXT], right, said[:MAX_TEXT])


def _now() -> int:
    return int(time.time())


@dataclass
class AttemptLog:
    """Everything a learner did at the exercise called ``key`` (``prompt`` is its question,
    kept for the report's headings), from ``shown`` (when the widget first appeared)."""

    key: str
    prompt: str = ""
    shown: int = field(default_factory=_now)
    events: list[Event] = field(default_factory=list)
    dropped: int = 0
    clock: Callable[[], int] = field(default=_now, repr=False, compare=False)

    # -- recording ---------------------------------------------------------------------------
    def answered(self, answer: object, right: bool, said: str) -> None:
        self._add(Event("answer", self.clock(), _text(answer), right, said[:MAX_TEXT]))

    def hinted(self) -> None:
        self._add(Event("hint", self.clock()))

    def revealed(self) -> None:
        self._add(Event("reveal", self.clock()))

    def _add(self, event: Event) -> None:
        if len(self.events) < MAX_EVENTS:
            self.events.append(event)
        else:
            self.dropped += 1

    # -- reading -----------------------------------------------------------------------------
    @property
    def answers(self) -> list[Event]:
        return [e for e in self.events if e.kind == "answer"]

    @property
    def hints(self) -> int:
        return sum(e.kind == "hint" for e in self.events)

    def outcome(self) -> str:
        """One of :data:`OUTCOMES`; see there."""
        for i, event in enumerate(self.events):
            if event.kind == "reveal":
                return REVEALED
            if event.kind == "answer" and event.right:
                helped = any(e.kind == "hint" or e.kind == "answer"
                             for e in self.events[:i])
                return AFTER_HELP if helped else FIRST_TRY
        return WRONG if self.answers else NOT_TRIED

    def seconds_to_right(self) -> int | None:
        """Seconds from first shown to the first right answer (None if never right)."""
        right = next((e for e in self.answers if e.right), None)
        return None if right is None else max(0, right.at - self.shown)

    def merged(self, other: AttemptLog) -> AttemptLog:
        """This log and ``other`` (the same exercise shown twice, as when a cell is run
        again): every event of both, once each, in time order."""
        if other.key != self.key:
            raise ValueError(f"logs of two exercises ({self.key}, {other.key}) do not merge")
        seen = {(e.at, e.kind, e.answer, e.right): e for e in [*self.events, *other.events]}
        events = sorted(seen.values(), key=lambda e: e.at)
        kept, over = events[:MAX_EVENTS], max(0, len(events) - MAX_EVENTS)
        return AttemptLog(self.key, self.prompt or other.prompt, min(self.shown, other.shown),
                          kept, max(self.dropped, other.dropped) + over, self.clock)

    # -- JSON --------------------------------------------------------------------------------
    def body(self) -> dict[str, Any]:
        return {"format": FORMAT, "key": self.key, "prompt": self.prompt[:MAX_TEXT],
                "shown": self.shown, "dropped": self.dropped,
                "events": [e.to_dict() for e in self.events]}

    def to_json(self) -> str:
        body = self.body()
        return json.dumps({**body, "digest": _digest(body)}, ensure_ascii=False,
                          separators=(",", ":"))

    @classmethod
    def from_json(cls, text: object) -> AttemptLog:
        """Read a log back; :class:`LogError` if it is malformed, too large or edited."""
        if not isinstance(text, str):
            raise LogError("the attempt data is not text")
        if len(text) > MAX_JSON:
            raise LogError(f"the attempt data is over {MAX_JSON:,} characters")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise LogError(f"the attempt data is not JSON ({error.msg})") from None
        except RecursionError:
            raise LogError("the attempt data is nested too deeply") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise LogError(f"the attempt data is not in the format {FORMAT!r}")
        digest = data.pop("digest", None)
        key, prompt, shown = data.get("key"), data.get("prompt"), data.get("shown")
        dropped, events = data.get("dropped"), data.get("events")
        if not (isinstance(key, str) and 0 < len(key) <= MAX_TEXT and isinstance(prompt, str)
                and isinstance(shown, int) and isinstance(dropped, int) and dropped >= 0
                and isinstance(events, list) and len(events) <= MAX_EVENTS):
            raise LogError("the attempt data lacks its key, prompt, time or events")
        log = cls(key, prompt[:MAX_TEXT], shown, [Event.from_dict(e) for e in events],
                  dropped)
        if digest != _digest(log.body()) or log.body() != data:
            raise LogError(f"the attempts at {key!r} were changed after they were saved "
                           "(their digest does not match)")
        if any(b.at < a.at for a, b in zip(log.events, log.events[1:], strict=False)) or \
                any(e.at < shown for e in log.events):
            raise LogError(f"the attempts at {key!r} are out of time order")
        return log


SPARE_FOLDER = ".cluedo-attempts"
"""Where a kernel keeps a spare copy of each exercise's log, beside the notebook."""


def spare_path(folder: Path, key: str) -> Path:
    """The spare copy of the log of exercise ``key`` in ``folder``."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in key)[:120]
    return folder / SPARE_FOLDER / f"{safe}.json"


def keep_spare(log: AttemptLog, folder: Path) -> None:
    """Write a spare copy of ``log`` (a file that cannot be written is skipped: the notebook's
    own copy is the one handed in)."""
    path = spare_path(folder, log.key)
    try:
        path.parent.mkdir(exist_ok=True)
        path.write_text(log.to_json(), encoding="utf-8")
    except OSError:
        pass


def with_spare(log: AttemptLog, folder: Path) -> AttemptLog:
    """``log`` with the attempts of the spare copy in ``folder`` merged in (a missing,
    unreadable or edited copy adds nothing)."""
    path = spare_path(folder, log.key)
    try:
        if path.stat().st_size > MAX_JSON:
            return log
        earlier = AttemptLog.from_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, LogError):
        return log
    return log.merged(earlier) if earlier.key == log.key else log


def _text(answer: object) -> str:
    """A response as the report shows it: a list of options joined, anything else as text."""
    if isinstance(answer, set | frozenset):
        return ", ".join(sorted(map(str, answer)))[:MAX_TEXT]
    if isinstance(answer, list | tuple):
        return ", ".join(map(str, answer))[:MAX_TEXT]
    return str(answer).strip()[:MAX_TEXT]


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((SALT + canonical).encode()).hexdigest()[:24]
