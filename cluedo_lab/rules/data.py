"""Where the kit's data files are: the only module that knows.

The repository keeps ``data/`` at its top; a built wheel carries the same folder inside the
package as ``cluedo_lab/data``. Both are found here, so every loader works from a source
checkout, an editable install and an installed wheel alike. The package is always a folder on
disk (the kit is not run from a zip), so its own path says where: ``importlib.resources``, which
also reads zips, would add a tenth of ``cluedo-lab solve``'s start.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .errors import EditionError


def _package() -> Path:
    """The folder of the ``cluedo_lab`` package."""
    return Path(__file__).parent.parent


@cache
def data_dir() -> Path:
    """The folder holding ``editions/``, ``boards/`` and the Clue-card deck."""
    packaged = _package() / "data"
    if packaged.is_dir():
        return packaged
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


def board_ids(directory: Path | None = None) -> list[str]:
    """Ids of the boards shipped in ``data/boards`` (or another folder), sorted."""
    return sorted(p.stem for p in (directory or boards_dir()).glob("*.txt"))


def clue_deck_path() -> Path:
    return data_dir() / "clue-cards-2023.toml"


def lessons_dir() -> Path:
    """The lesson notebooks: inside an installed wheel (``cluedo_lab/lessons``), else the
    checkout's ``notebooks/``."""
    packaged = _package() / "lessons"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "notebooks"
