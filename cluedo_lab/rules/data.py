"""Where the kit's data files are: the only module that knows.

The repository keeps ``data/`` at its top; a built wheel carries the same folder inside the
package as ``cluedo_lab/data``. Both are found here, so every loader works from a source
checkout, an editable install and an installed wheel alike.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from .errors import EditionError


@cache
def data_dir() -> Path:
    """The folder holding ``editions/``, ``boards/`` and the Clue-card deck."""
    packaged = resources.files("cluedo_lab") / "data"
    if packaged.is_dir():
        return Path(str(packaged))
    checkout = Path(__file__).resolve().parents[2] / "data"
    if checkout.is_dir():
        return checkout
    raise EditionError("cluedo_lab", "data",
                       f"the kit's data folder is missing (looked in {packaged} and {checkout}); "
                       "reinstall cluedo-lab")


def editions_dir() -> Path:
    return data_dir() / "editions"


def boards_dir() -> Path:
    return data_dir() / "boards"


def clue_deck_path() -> Path:
    return data_dir() / "clue-cards-2023.toml"


def lessons_dir() -> Path:
    """The lesson notebooks: inside an installed wheel (``cluedo_lab/lessons``), else the
    checkout's ``notebooks/``."""
    packaged = resources.files("cluedo_lab") / "lessons"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "notebooks"
