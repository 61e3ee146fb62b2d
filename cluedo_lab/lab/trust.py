"""Trusting the lessons the kit wrote, and nothing else (``make lab``).

Jupyter shows a notebook's saved HTML and runs its scripts only if the notebook is trusted.
The lessons' saved boards and tables need that, but a working copy of the lessons is a folder
a learner (or anyone) can drop files into, so trusting everything in it would run whatever
was put there. Here a notebook is trusted only if its bytes are those of a lesson the kit
ships (the teacher's copy or the student copy): compared by SHA-256 to what
:func:`~cluedo_lab.lab.lessons.write_lessons` writes. A notebook a learner has since saved
from JupyterLab is signed by JupyterLab itself.

    python -m cluedo_lab.lab.trust DIR
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from ..rules.data import lessons_dir
from .lessons import lesson_paths, student_copy

__all__ = ["kit_hashes", "trusted_paths", "trust"]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def kit_hashes(source: Path | None = None) -> dict[Path, set[str]]:
    """For each lesson (relative path), the SHA-256 of the copies the kit writes."""
    root = source or lessons_dir()
    out: dict[Path, set[str]] = {}
    for name in lesson_paths(root):
        text = (root / name).read_text(encoding="utf-8")
        student = json.dumps(student_copy(json.loads(text)), indent=1, ensure_ascii=False)
        out[name] = {_digest(text.encode("utf-8")), _digest((student + "\n").encode("utf-8"))}
    return out


def trusted_paths(folder: Path, source: Path | None = None) -> list[Path]:
    """The notebooks in ``folder`` that are, byte for byte, lessons the kit writes (plain
    files only: a symbolic link is never trusted)."""
    out = []
    for name, digests in kit_hashes(source).items():
        path = folder / name
        if path.is_symlink() or not path.is_file():
            continue
        if _digest(path.read_bytes()) in digests:
            out.append(path)
    return out


def trust(folder: Path) -> list[Path]:
    """Sign the kit's own lessons in ``folder`` (Jupyter's notary, as ``jupyter trust`` does);
    returns the notebooks signed."""
    import nbformat
    from nbformat.sign import NotebookNotary

    notary = NotebookNotary()  # type: ignore[no-untyped-call]
    paths = trusted_paths(folder)
    for path in paths:
        notary.sign(nbformat.read(path, as_version=4))  # type: ignore[no-untyped-call]
    return paths


if __name__ == "__main__":  # pragma: no cover - run by `make lab`
    signed = trust(Path(sys.argv[1]))
    print(f"{len(signed)} of the kit's notebooks trusted in {sys.argv[1]}", file=sys.stderr)
