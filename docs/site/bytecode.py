"""Add CPython bytecode to a pure-Python wheel, so that the browser imports it without compiling.

    python3.13 docs/site/bytecode.py IN.whl OUT.whl [--keep-source]
    python3.13 docs/site/bytecode.py python_stdlib.zip OUT.zip --stdlib

Run by docs/site/build_site.py with a CPython whose bytecode is Pyodide's (same magic number).
In the browser, compiling a module's source is most of the cost of importing it: the kernel's
start (IPython, prompt_toolkit, jedi) spends about half its time compiling.

With ``--keep-source`` each module keeps its source and gains an unchecked hash-based .pyc in
``__pycache__`` (PEP 552): Python uses it without looking at the source, and tracebacks and
``??`` still show the code. Without it each module is replaced by its .pyc (a sourceless
module, as Pyodide's own wheels are). A module that does not compile keeps its source.

With ``--stdlib`` the archive is Pyodide's standard library, which Python imports from the zip
file itself (zipimport, at /lib/python313.zip): each module keeps its source and gains an
unchecked hash-based .pyc beside it (zipimport looks for ``name.pyc`` next to ``name.py``, not
in ``__pycache__``, and takes the .pyc first).
"""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from importlib import _bootstrap_external  # the pyc writers py_compile itself uses
from pathlib import PurePosixPath

VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
SITE_PACKAGES = f"/lib/python{VERSION}/site-packages"
STDLIB_ZIP = f"/lib/python{VERSION.replace('.', '')}.zip"
"""Where Pyodide puts its standard library's zip file (on sys.path)."""
STAMP = (2020, 1, 1, 0, 0, 0)


def bytecode(source: bytes, filename: str, keep_source: bool) -> bytes | None:
    """The .pyc of ``source``, whose code names ``filename`` (None if it does not compile)."""
    try:
        code = compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    if keep_source:
        digest = importlib.util.source_hash(source)
        return bytes(_bootstrap_external._code_to_hash_pyc(  # type: ignore[attr-defined]
            code, digest, checked=False))
    return bytes(_bootstrap_external._code_to_timestamp_pyc(  # type: ignore[attr-defined]
        code, 0, len(source)))


def pyc_path(path: str, keep_source: bool, stdlib: bool = False) -> str:
    if keep_source and not stdlib:
        return importlib.util.cache_from_source(path)
    return str(PurePosixPath(path).with_suffix(".pyc"))


def compile_wheel(source_wheel: str, target_wheel: str, keep_source: bool,
                  stdlib: bool = False) -> None:
    root = STDLIB_ZIP if stdlib else SITE_PACKAGES
    keep_source = keep_source or stdlib
    with zipfile.ZipFile(source_wheel) as src, \
            zipfile.ZipFile(target_wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            data = src.read(info)
            pyc = None
            if info.filename.endswith(".py") and ".dist-info/" not in info.filename:
                pyc = bytecode(data, f"{root}/{info.filename}", keep_source)
            if pyc is None or keep_source:
                out.writestr(info, data, zipfile.ZIP_DEFLATED)
            if pyc is not None:
                out.writestr(zipfile.ZipInfo(pyc_path(info.filename, keep_source, stdlib),
                                             STAMP), pyc, zipfile.ZIP_DEFLATED)


if __name__ == "__main__":
    flags = {"--keep-source", "--stdlib"}
    args = [a for a in sys.argv[1:] if a not in flags]
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    compile_wheel(args[0], args[1], "--keep-source" in sys.argv, "--stdlib" in sys.argv)
