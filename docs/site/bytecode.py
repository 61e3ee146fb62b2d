"""Add CPython bytecode to a pure-Python wheel, so that the browser imports it without compiling.

    python3.13 docs/site/bytecode.py IN.whl OUT.whl [--keep-source]

Run by docs/site/build_site.py with a CPython whose bytecode is Pyodide's (same magic number).
In the browser, compiling a module's source is most of the cost of importing it: the kernel's
start (IPython, prompt_toolkit, jedi) spends about half its time compiling.

With ``--keep-source`` each module keeps its source and gains an unchecked hash-based .pyc in
``__pycache__`` (PEP 552): Python uses it without looking at the source, and tracebacks and
``??`` still show the code. Without it each module is replaced by its .pyc (a sourceless
module, as Pyodide's own wheels are). A module that does not compile keeps its source.
"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from importlib import _bootstrap_external  # the pyc writers py_compile itself uses
from pathlib import PurePosixPath

SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
STAMP = (2020, 1, 1, 0, 0, 0)


def bytecode(source: bytes, path: str, keep_source: bool) -> bytes | None:
    """The .pyc of ``source`` (None if it does not compile)."""
    try:
        code = compile(source, f"{SITE_PACKAGES}/{path}", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    if keep_source:
        digest = importlib.util.source_hash(source)
        return bytes(_bootstrap_external._code_to_hash_pyc(  # type: ignore[attr-defined]
            code, digest, checked=False))
    return bytes(_bootstrap_external._code_to_timestamp_pyc(  # type: ignore[attr-defined]
        code, 0, len(source)))


def pyc_path(path: str, keep_source: bool) -> str:
    if keep_source:
        return importlib.util.cache_from_source(path)
    return str(PurePosixPath(path).with_suffix(".pyc"))


def compile_wheel(source_wheel: str, target_wheel: str, keep_source: bool) -> None:
    with zipfile.ZipFile(source_wheel) as src, \
            zipfile.ZipFile(target_wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            pyc = None
            if info.filename.endswith(".py") and ".dist-info/" not in info.filename:
                pyc = bytecode(data, info.filename, keep_source)
            if pyc is None or keep_source:
                out.writestr(info, data, zipfile.ZIP_DEFLATED)
            if pyc is not None:
                out.writestr(zipfile.ZipInfo(pyc_path(info.filename, keep_source), STAMP), pyc,
                             zipfile.ZIP_DEFLATED)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--keep-source"]
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    compile_wheel(args[0], args[1], "--keep-source" in sys.argv)
