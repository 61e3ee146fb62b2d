"""Load a package of the site's Pyodide lock the moment a module first imports it.

Pyodide loads lock packages for the imports it sees in a cell (``import sympy``), not for the
imports a library makes as it runs. So a lock package the kit imports only inside a function,
or in a module a lesson reaches later (sympy for the closed forms, networkx for the boards,
tqdm for a tournament), had to be loaded with the kit itself, on every page, whether the page
used it or not. This finder loads it when it is first imported instead: the wheel is fetched
with a synchronous request (allowed in the kernel's worker), checked against the lock's
sha256, unpacked into site-packages and recorded as loaded, so Pyodide never loads it twice.

The site's kernel runs this module's ``install`` at start, naming the packages to load so
(IPython runs the file named by PYTHONSTARTUP: docs/site/build_site.py writes and sets it).
Only pure-Python wheels are loaded this way; any other import is left to Python and Pyodide.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import io
import site
import sys
import zipfile
from collections.abc import Sequence
from types import ModuleType
from typing import Any

CHANNEL = "default channel"
"""What Pyodide records for a package loaded from its lock (pyodide.loadedPackages)."""


class LoadOnImport(importlib.abc.MetaPathFinder):
    """A meta path finder that loads a lock package, with what it depends on, when a module
    imports one of its top-level names, and then lets the usual finders find it."""

    def __init__(self, pyodide_js: Any, lazy: Sequence[str]) -> None:
        self.pyodide = pyodide_js
        self.packages: dict[str, dict[str, Any]] = pyodide_js.lockfile.packages.to_py()
        self.base = str(pyodide_js.lockfileBaseUrl or "")
        self.by_import = {name: key for key in lazy if key in self.packages
                          for name in self.packages[key].get("imports", [])}

    def __repr__(self) -> str:
        return f"<LoadOnImport: {', '.join(sorted(self.by_import))}>"

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> None:
        key = self.by_import.get(fullname)
        if "." in fullname or key is None or self.loaded(key) or not self.pure(key):
            return None
        for name in self.closure(key):
            self.load(name)
        importlib.invalidate_caches()
        return None   # the package is in site-packages now: the path finder takes it

    def loaded(self, key: str) -> bool:
        return getattr(self.pyodide.loadedPackages, self.packages[key]["name"], None) is not None

    def pure(self, key: str) -> bool:
        return str(self.packages[key]["file_name"]).endswith("-none-any.whl")

    def closure(self, key: str) -> list[str]:
        """``key`` and the packages it depends on that are not loaded yet."""
        todo, seen = [key], []
        while todo:
            name = todo.pop()
            if name in seen or name not in self.packages or self.loaded(name):
                continue
            seen.append(name)
            todo.extend(self.packages[name].get("depends", []))
        return seen

    def load(self, key: str) -> None:
        entry = self.packages[key]
        if not self.pure(key):
            raise ImportError(f"{entry['name']} is not a pure-Python wheel: "
                              f"import it in a cell of its own first")
        data = fetch(url_in(self.base, entry["file_name"]))
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise ImportError(f"{entry['file_name']} does not match the site's lock (sha256)")
        with zipfile.ZipFile(io.BytesIO(data)) as wheel:
            wheel.extractall(site.getsitepackages()[0])
        setattr(self.pyodide.loadedPackages, entry["name"], CHANNEL)


def url_in(base: str, file_name: str) -> str:
    """The address of a lock's file: as written if absolute, else beside the lock."""
    from js import URL  # type: ignore[import-not-found]

    return str(URL.new(file_name, base).href) if base else file_name


def fetch(url: str) -> bytes:
    """The bytes at ``url``, by a synchronous request (a worker may make one)."""
    from js import XMLHttpRequest

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise ImportError(f"could not load {url}: HTTP {request.status}")
    return bytes(request.response.to_bytes())


def install(lazy: Sequence[str]) -> LoadOnImport | None:
    """Put a finder for the lock packages ``lazy`` (the ones the site serves but loads only
    when imported) first on ``sys.meta_path``, once; nothing outside Pyodide."""
    if sys.platform != "emscripten":
        return None
    for finder in sys.meta_path:
        if isinstance(finder, LoadOnImport):
            return finder
    import pyodide_js  # type: ignore[import-not-found]

    finder = LoadOnImport(pyodide_js, lazy)
    sys.meta_path.insert(0, finder)
    return finder
