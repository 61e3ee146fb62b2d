"""A class's settings: the one small file (``class.toml``) a teacher chooses for a class.

::

    lessons = ["00_start_here", "01_deduction", "02_probability"]   # or "all"
    reveal = false            # the Reveal buttons (exercises, the learner's notepad)
    engine_notepad = false    # the switch to the engine's exact notepad at the table
    bots = ["detective", "random"]
    editions = ["cluedo-card-game-2018", "cluedo-classic-1949"]
    numbers = "fraction"      # percent, frequency or fraction

Every field may be left out (then the kit's default: everything allowed, every lesson, the
table's bots, every edition, percent). :func:`load_class_settings` reads and checks the file:
a bad one is refused with one line naming the file and the field. Bots meant only for tests
are never offered to students, whatever the file says.

The settings travel with the lessons: ``cluedo-lab lessons DIR --student --class FILE`` and
``make site CLASS=FILE`` put the file beside the notebooks as ``class.toml``, and
:func:`class_settings` (what the classroom page and the exercise widgets ask) reads it from
the folder the notebook runs in, or from ``$CLUEDO_LAB_CLASS``. They steer what the page
offers; they are not a lock against a learner who edits the file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import registry
from ..rules.edition import edition_ids
from ..rules.errors import CluedoLabError
from ..rules.files import parse_toml, read_text
from ..rules.numbers import STYLES

__all__ = ["ClassSettings", "ClassSettingsError", "load_class_settings", "class_settings",
           "student_bots", "apply_to_lessons", "TABLE_BOTS", "FILE_NAME", "ENVIRONMENT"]

FILE_NAME = "class.toml"
ENVIRONMENT = "CLUEDO_LAB_CLASS"
"""The environment variable that names a settings file (else ``class.toml`` in the working
folder is read, if there is one)."""

TABLE_BOTS = ("detective", "random")
"""The opponents the classroom page offers by default."""

FIELDS = ("lessons", "reveal", "engine_notepad", "bots", "editions", "numbers")


class ClassSettingsError(CluedoLabError, ValueError):
    """A class settings file is malformed: the message names the file and the field."""


def student_bots(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` without the bots meant only for tests."""
    hidden = registry.FOR_TESTS
    return tuple(n for n in names if n not in hidden)


@dataclass(frozen=True)
class ClassSettings:
    """What a class's pages offer. ``lessons`` is None for every lesson."""

    lessons: tuple[str, ...] | None = None
    reveal: bool = True
    engine_notepad: bool = True
    bots: tuple[str, ...] = TABLE_BOTS
    editions: tuple[str, ...] | None = None
    numbers: str = "percent"
    source: str = field(default="", compare=False)

    def includes(self, lesson: str | Path) -> bool:
        """Is this lesson (a notebook's path or name) part of the class? The classroom page
        (``app/``) always is."""
        path = Path(lesson)
        if self.lessons is None or path.parts[:1] == ("app",):
            return True
        return path.with_suffix("").as_posix() in self.lessons or path.stem in self.lessons

    def edition_ids(self) -> list[str]:
        return list(self.editions) if self.editions is not None else edition_ids()

    def to_toml(self) -> str:
        """The settings as a ``class.toml`` (what is written beside student copies)."""
        def value(v: Any) -> str:
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, str):
                return f'"{v}"'
            return "[" + ", ".join(f'"{x}"' for x in v) + "]"
        fields = {"lessons": self.lessons if self.lessons is not None else "all",
                  "reveal": self.reveal, "engine_notepad": self.engine_notepad,
                  "bots": self.bots, "editions": self.editions if self.editions is not None
                  else "all", "numbers": self.numbers}
        return "".join(f"{k} = {value(v)}\n" for k, v in fields.items())


def load_class_settings(path: str | Path) -> ClassSettings:
    """Read and check a class settings file (see the module's docstring)."""
    path = Path(path)
    name = path.name

    def fail(problem: str) -> ClassSettingsError:
        return ClassSettingsError(problem)

    data = parse_toml(read_text(path, fail, limit=100_000), name, fail)
    return settings_from(data, name)


def settings_from(data: dict[str, Any], name: str = FILE_NAME) -> ClassSettings:
    """Check the parsed fields of a settings file called ``name``."""
    def bad(field_name: str, problem: str) -> ClassSettingsError:
        return ClassSettingsError(f"{name}: field '{field_name}': {problem}")

    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise bad(unknown[0], f"not a class setting (the settings are {', '.join(FIELDS)})")
    for flag in ("reveal", "engine_notepad"):
        if flag in data and not isinstance(data[flag], bool):
            raise bad(flag, "true or false")
    numbers = data.get("numbers", "percent")
    if numbers not in STYLES:
        raise bad("numbers", f"one of {', '.join(STYLES)}, not {str(numbers)[:40]!r}")
    lessons = _names(data, "lessons", bad, _lesson_names())
    editions = _names(data, "editions", bad, edition_ids())
    bots = _names(data, "bots", bad, _bot_names()) or TABLE_BOTS
    tests_only = sorted(set(bots) & registry.FOR_TESTS)
    if tests_only:
        raise bad("bots", f"{tests_only[0]!r} plays only to test the engine: it is never "
                  "offered to students")
    return ClassSettings(lessons, data.get("reveal", True), data.get("engine_notepad", True),
                         bots, editions, numbers, source=name)


def _names(data: dict[str, Any], field_name: str, bad: Any, known: list[str]
           ) -> tuple[str, ...] | None:
    """A list field: "all" (or left out) is None; otherwise names from ``known``, at least
    one, no repeats."""
    value = data.get(field_name, "all")
    if value == "all":
        return None
    if not isinstance(value, list) or not value or \
            not all(isinstance(v, str) for v in value):
        raise bad(field_name, 'a list of names, like ["a", "b"], or "all"')
    unknown = [v for v in value if v not in known]
    if unknown:
        shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
        raise bad(field_name, f"no {unknown[0][:60]!r}; the names are {shown}")
    if len(set(value)) != len(value):
        raise bad(field_name, "a name is listed twice")
    return tuple(value)


def _lesson_names() -> list[str]:
    from .lessons import lesson_paths
    return [p.with_suffix("").as_posix() for p in lesson_paths() if p.parts[0] != "app"]


def _bot_names() -> list[str]:
    return list(dict.fromkeys([*TABLE_BOTS, *registry.bot_names()]))


def apply_to_lessons(target: Path, settings: ClassSettings, written: Sequence[Path]
                     ) -> list[Path]:
    """Lessons just written to ``target`` under a class's settings: the lessons the class
    leaves out are taken away again, and the settings go beside the notebooks as
    ``class.toml`` (in ``target`` and in its ``app`` folder, where the classroom page runs),
    so the pages read them. Returns the notebooks kept."""
    kept = []
    for path in written:
        if settings.includes(path.relative_to(target)):
            kept.append(path)
        else:
            path.unlink()
    for folder in (target, target / "app"):
        if folder.is_dir():
            (folder / FILE_NAME).write_text(settings.to_toml(), encoding="utf-8")
    return kept


_cache: dict[tuple[str, float], ClassSettings] = {}


def class_settings(folder: str | Path | None = None) -> ClassSettings:
    """The settings in force: the file ``$CLUEDO_LAB_CLASS`` names, else ``class.toml`` in
    ``folder`` (the working folder: where the notebook runs), else the kit's defaults.
    Read again when the file changes."""
    named = os.environ.get(ENVIRONMENT)
    path = Path(named) if named else Path(folder or ".") / FILE_NAME
    try:
        stamp = path.stat().st_mtime
    except OSError:
        if named:
            raise ClassSettingsError(f"{ENVIRONMENT} names {path}, which cannot be "
                                     "read") from None
        return ClassSettings()
    key = (str(path.resolve()), stamp)
    if key not in _cache:
        _cache[key] = load_class_settings(path)
    return _cache[key]
