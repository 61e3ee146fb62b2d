"""Names a package loads on first use (PEP 562): ``import cluedo_lab`` and ``import
cluedo_lab.knowledge`` stay light, and a name's module is imported when the name is first read.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, names: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, for ``names`` (name -> the module
    that defines it). A name read once is kept in the package, so the next read is plain."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
