"""Reading the files a person hands the kit: bounded, UTF-8, parsed as data, never echoed.

Records, saved games and edition files come from users, so every one is read the same way:
its size is checked before a byte is read, it must be UTF-8 (a byte-order mark is allowed
and dropped), its nesting is measured before a recursive parser sees it, and a message about
it names the file and the position of the problem, never the file's content (a path can
point anywhere on the machine). Nothing here pickles, evaluates or imports what it reads.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import UnsafePath, WrongType

__all__ = ["MAX_FILE_BYTES", "MAX_NESTING", "MAX_DIGITS", "read_text", "parse_json",
           "parse_toml", "nesting_depth", "shown", "check_inside", "write_inside",
           "write_file"]

MAX_FILE_BYTES = 5_000_000
"""The largest file the kit reads (a whole game's record is a few tens of kB)."""

MAX_NESTING = 64
"""The deepest nesting of arrays and tables accepted (the kit's formats need fewer than 8)."""

MAX_DIGITS = 30
"""The most digits a number in a record, saved game or edition file may have (a seed needs
20; Python refuses to read more than 4,300, and counting with such numbers never ends)."""

Fail = Callable[[str], Exception]
"""Makes the exception to raise from a problem's description (a RecordError, EditionError...)."""


def shown(name: str | Path) -> str:
    """A file name (or any text from outside) as a message may print it: a name of printable
    characters as it is, any other with its control, bidi and other invisible characters
    escaped (``\\x1b``, ``\\u202e``), so it cannot move the cursor or reorder the line."""
    text = str(name)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def read_text(path: str | Path, fail: Fail, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a UTF-8 file, its size checked first."""
    if not isinstance(path, str | Path):
        raise WrongType(f"expected the path of a file, not {path!r}")
    path = Path(path)
    name = shown(path.name)
    if "\0" in str(path):
        raise fail(f"{name}: not a file name")
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise fail(f"{name}: not a file")
        if size > limit:
            raise fail(f"{name}: {size:,} bytes is more than the {limit:,} a record, "
                       "saved game or edition file can need")
        data = path.read_bytes()
    except OSError as error:
        raise fail(f"{name}: cannot be read ({error.strerror or error})") from None
    return decode(data, name, fail)


def decode(data: bytes, name: str, fail: Fail) -> str:
    """UTF-8 text, with or without a byte-order mark; anything else is refused by position."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise fail(f"{name}: the file is UTF-16; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x}); "
                   "save it as UTF-8") from None


def _check_text(text: Any) -> None:
    if not isinstance(text, str):
        raise WrongType(f"expected the text of a file (a str), not {type(text).__name__}")


def nesting_depth(text: str, comments: bool = False) -> int:
    """How deep arrays and tables nest in JSON or TOML text, brackets in strings (and, with
    ``comments``, in TOML's ``#`` comments) ignored: a linear scan, so a hostile file costs no
    recursion."""
    depth = deepest = 0
    quote = ""
    escaped = comment = False
    for char in text:
        if comment:
            comment = char != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#" and comments:
            comment = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_nesting(text: str, name: str, fail: Fail, comments: bool = False) -> None:
    depth = nesting_depth(text, comments)
    if depth > MAX_NESTING:
        raise fail(f"{name}: arrays or tables nest {depth} deep; at most {MAX_NESTING} "
                   "are accepted")


def _too_long(digits: int, name: str, fail: Fail) -> Exception:
    return fail(f"{name}: a number with {digits:,} digits; numbers in the kit's files have "
                f"at most {MAX_DIGITS}")


def parse_json(text: str, name: str, fail: Fail) -> Any:
    """JSON data from ``text``; a syntax error is reported by line and column, a number too
    long to be meant before it is converted."""
    _check_text(text)
    _check_nesting(text, name, fail)

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            raise _too_long(len(digits.lstrip("-")), name, fail)
        return int(digits)

    try:
        return json.loads(text, parse_int=integer)
    except json.JSONDecodeError as error:
        raise fail(f"{name}: not valid JSON: {error.msg} at line {error.lineno}, column "
                   f"{error.colno}") from None
    except RecursionError:  # pragma: no cover - the nesting check comes first
        raise fail(f"{name}: nested too deeply") from None


def parse_toml(text: str, name: str, fail: Fail) -> dict[str, Any]:
    """TOML data from ``text``; the parser's message gives the line and column."""
    # Imported here: tomllib compiles its patterns when imported (a third of a Python start),
    # and a record with its own deck reads no TOML.
    import tomllib
    _check_text(text)
    _check_nesting(text, name, fail, comments=True)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"{name}: not valid TOML: {error}") from None
    except ValueError:      # Python's own limit on the digits of an integer
        raise fail(f"{name}: a number with over 4,300 digits; numbers in the kit's files "
                   f"have at most {MAX_DIGITS}") from None
    except RecursionError:  # pragma: no cover - the nesting check comes first
        raise fail(f"{name}: nested too deeply") from None
    _check_numbers(data, name, fail)
    return data


def _check_numbers(data: Any, name: str, fail: Fail) -> None:
    """Refuse an integer longer than :data:`MAX_DIGITS` anywhere in parsed data (TOML's
    parser has no hook for integers; the walk is iterative, its depth already bounded)."""
    limit = 10 ** MAX_DIGITS
    todo = [data]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif type(value) is int and abs(value) >= limit:
            raise _too_long(len(str(abs(value))), name, fail)


# -- writing ------------------------------------------------------------------------------------

def write_file(path: str | Path, text: str, fail: Fail) -> None:
    """Write ``text`` (UTF-8) to a file a person named; a failure names the file and why."""
    path = Path(path)
    if not str(path):
        raise fail("expected a file name, got an empty one")
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise fail(f"{shown(path)}: cannot be written ({error.strerror or error})") from None


def check_inside(root: Path, relative: Path) -> None:
    """Refuse ``root / relative`` as a place to write if it leaves ``root`` or passes through
    a symbolic link below ``root`` (``root`` itself may be one: the person named it)."""
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise UnsafePath(f"{shown(relative)}: not a path inside {shown(root)}")
    place = root
    for part in relative.parts:
        place = place / part
        if place.is_symlink():
            raise UnsafePath(f"{shown(place)} is a symbolic link; the kit writes only plain "
                             f"files and folders inside {shown(root)}: remove the link")


def write_inside(root: Path, relative: Path, data: bytes, *, replace: bool = False) -> Path:
    """Write ``data`` to ``root / relative``, making its folders, and never through a symbolic
    link: a link at the file or at any folder below ``root`` is refused (a dangling one
    would write somewhere else, an existing one overwrite what it points at), and the file is
    opened so that a link put there meanwhile is refused too. A file already there is
    overwritten only if ``replace``. Returns the path written."""
    check_inside(root, relative)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UnsafePath(f"{shown(root)}: cannot make the folder ({error.strerror or error})"
                         ) from None
    folder = root
    for part in relative.parts[:-1]:
        folder = folder / part
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise UnsafePath(f"{shown(folder)}: cannot make the folder "
                             f"({error.strerror or error})") from None
        if folder.is_symlink():     # put there since the check
            raise UnsafePath(f"{shown(folder)} is a symbolic link")
    target = root / relative
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    flags |= os.O_TRUNC if replace else os.O_EXCL
    try:
        handle = os.open(target, flags, 0o644)
    except FileExistsError:
        raise UnsafePath(f"{shown(target)} already exists") from None
    except OSError as error:
        raise UnsafePath(f"{shown(target)}: cannot be written ({error.strerror or error})"
                         ) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
    except OSError as error:
        raise UnsafePath(f"{shown(target)}: cannot be written ({error.strerror or error})"
                         ) from None
    return target
