"""Reading the files a person hands the kit: bounded, UTF-8, parsed as data, never echoed.

Records, saved games and edition files come from users, so every one is read the same way:
its size is checked before a byte is read, it must be UTF-8 (a byte-order mark is allowed
and dropped), its nesting is measured before a recursive parser sees it, and a message about
it names the file and the position of the problem, never the file's content (a path can
point anywhere on the machine). Nothing here pickles, evaluates or imports what it reads.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["MAX_FILE_BYTES", "MAX_NESTING", "read_text", "parse_json", "parse_toml",
           "nesting_depth"]

MAX_FILE_BYTES = 5_000_000
"""The largest file the kit reads (a whole game's record is a few tens of kB)."""

MAX_NESTING = 64
"""The deepest nesting of arrays and tables accepted (the kit's formats need fewer than 8)."""

Fail = Callable[[str], Exception]
"""Makes the exception to raise from a problem's description (a RecordError, EditionError...)."""


def read_text(path: str | Path, fail: Fail, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a UTF-8 file, its size checked first."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise fail(f"{path.name}: not a file")
        if size > limit:
            raise fail(f"{path.name}: {size:,} bytes is more than the {limit:,} a record, "
                       "saved game or edition file can need")
        data = path.read_bytes()
    except OSError as error:
        raise fail(f"{path.name}: cannot be read ({error.strerror or error})") from None
    return decode(data, path.name, fail)


def decode(data: bytes, name: str, fail: Fail) -> str:
    """UTF-8 text, with or without a byte-order mark; anything else is refused by position."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise fail(f"{name}: the file is UTF-16; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise fail(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x}); "
                   "save it as UTF-8") from None


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


def parse_json(text: str, name: str, fail: Fail) -> Any:
    """JSON data from ``text``; a syntax error is reported by line and column."""
    _check_nesting(text, name, fail)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise fail(f"{name}: not valid JSON: {error.msg} at line {error.lineno}, column "
                   f"{error.colno}") from None
    except RecursionError:  # pragma: no cover - the nesting check comes first
        raise fail(f"{name}: nested too deeply") from None


def parse_toml(text: str, name: str, fail: Fail) -> dict[str, Any]:
    """TOML data from ``text``; the parser's message gives the line and column."""
    _check_nesting(text, name, fail, comments=True)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise fail(f"{name}: not valid TOML: {error}") from None
    except RecursionError:  # pragma: no cover - the nesting check comes first
        raise fail(f"{name}: nested too deeply") from None
