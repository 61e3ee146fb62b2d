"""Build the classroom site: every lesson and the classroom app as a static JupyterLite site.

    python3 docs/site/build_site.py            # build/site: runs offline, Pyodide included
    python3 docs/site/build_site.py --cdn      # smaller: Pyodide and its wheels from its CDN
    python3 docs/site/build_site.py --student  # the student site: student copies only
    python3 docs/site/build_site.py --class class.toml   # ... under a class's settings

The site's first page leads to the classroom page (play at the table and explore the board,
no code) and to the lessons in JupyterLab.

The site runs Python in the student's browser (Pyodide, CPython compiled to WebAssembly):
any static host can serve it and no code runs on a server. ``make site`` calls this script.

What it does, and why:

1. The build tools (docs/site/requirements.txt) go into their own venv under build/cache-site,
   apart from the kit's own environment.
2. The kit is built as a wheel from this checkout; the wheel carries data/ (the editions and
   boards) and is checked for it.
3. Pyodide's core (the interpreter, its standard library and its lock file) is the npm
   registry's ``pyodide`` package. The npm package has no wheels, so every package the kernel
   loads from the lock (micropip, IPython and its friends, sympy, networkx, tqdm) is taken from
   PyPI, same version, pure-Python wheels only, and served next to the lock; the lock's file
   name and sha256 are rewritten for each (Pyodide's own rebuilt wheels differ from PyPI's).
   Dependencies that name Pyodide-built binary packages the kit never uses (networkx's numpy
   and matplotlib, IPython's sqlite3 history) are cut from the lock: without them networkx and
   IPython run as they do anywhere without those extras.
4. The kit, ipywidgets and comm join the lock as packages of their own, so the kernel loads
   them when a cell imports ``cluedo_lab`` (it loads lock packages from a cell's imports) and
   the lessons run unchanged. The kit's own dependencies (sympy, networkx, tqdm) are loaded
   only when the kit first imports them (load_on_import.py, a finder the kernel puts on
   sys.meta_path as it starts), so a page that does not use them does not wait for them.
   Every wheel served (and the offline site's standard library) carries CPython 3.13 bytecode
   (bytecode.py), so the browser does not compile the kernel's modules as it starts, and jedi
   leaves out its third-party type stubs. The offline site's kernel starts Python through
   start_pyodide.js, which keeps the learner's folder (the drive, where every look is a
   request through the page) out of the kernel's imports (START_PYTHON).
5. ``voici build`` makes the site: JupyterLab with the widget manager, where the lessons and
   the classroom notebook (app/classroom.ipynb) open with the Pyodide kernel named in their
   metadata (no kernel dialog), and Voici, the static Voila, for the classroom page
   (voici/render/app/classroom.html): the page runs the notebook in the browser and shows its
   outputs only, through the same Voila template as ``make app``. The lessons get no Voici
   page (they are read and changed in JupyterLab), and the site's first page links the two.
6. With ``--cdn`` the site holds only the lock and the wheels Pyodide lacks (the kit,
   ipywidgets, comm and the loader, in static/wheels): the kernel takes Pyodide's core from
   its CDN and the lock from the site, and the lock names Pyodide's own wheels by their CDN
   address (with Pyodide's own sha256).

Downloads are cached under build/cache-site, so a second build needs no network and takes
seconds. Pyodide and every wheel the site serves have pinned versions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CACHE = ROOT / "build" / "cache-site"
"""Not under a name that starts with build/site: jupyterlite-core 0.7.0 skips the lite dir's
jupyter-lite.json when its path starts with the output's (a plain string prefix test)."""
VENV = CACHE / "venv"
LITE_DIR = CACHE / "lite"          # the JupyterLite "lite dir" the build reads
WHEELS = CACHE / "wheels"          # PyPI wheels, kept between builds
OUTPUT = ROOT / "build" / "site"

PYODIDE_VERSION = "0.29.0"
"""The Pyodide that jupyterlite-pyodide-kernel 0.7.0 is built for (CPython 3.13)."""
PYTHON_VERSION = "3.13"
CDN_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"

PYODIDE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                 "python_stdlib.zip", "package.json")
"""What the site needs of the npm package (not its source maps, consoles or type files)."""

KERNEL_PACKAGES = ("micropip", "ipython", "jedi", "traitlets", "packaging")
"""Lock packages the Pyodide kernel itself loads (micropip, then IPython and jedi)."""

KIT_DEPENDENCIES = ("networkx", "sympy", "tqdm")
"""The kit's own dependencies (pyproject.toml), all in Pyodide's lock. The site serves them,
but the kit's lock entry does not name them: the kit imports each only where it is used
(sympy for closed forms, networkx with a board, tqdm in a tournament), and the site's kernel
loads a lock package when it is first imported (load_on_import.py), so a page that uses none
of them (lesson 00, the classroom's card game) does not load them (sympy alone is 6 MB)."""

DEPENDS_CUT = {"networkx": {"matplotlib", "numpy", "setuptools"}, "ipython": {"sqlite3"},
               "matplotlib-inline": {"matplotlib"}}
"""Lock dependencies that are binary Pyodide builds (not on PyPI) or unused by the kit.
networkx imports none of them unless drawing or converting to arrays; IPython keeps its
history in memory without sqlite3."""

PLACEHOLDERS = ("sqlite3",)
"""Binary Pyodide packages the kernel installs as it starts whatever the lock says
(jupyterlite-pyodide-kernel 0.7.0 asks for sqlite3, then ipykernel, comm, ...). PyPI has no
browser build of them, so the offline site serves an empty wheel under the name: the
install finds a file (no failed request in the console), ``import sqlite3`` still fails, and
IPython keeps its history in memory as it does without sqlite3."""

KERNEL_PYPI = (VENV / "share" / "jupyter" / "labextensions" / "@jupyterlite"
               / "pyodide-kernel-extension" / "static" / "pypi")
"""The kernel's own wheels (piplite, the ipykernel shim, pyodide_kernel), which it installs
one by one as it starts unless they are in the lock and preloaded."""

KERNEL_WHEELS = {
    # name: (imports, lock dependencies)
    "piplite": (["piplite"], ["micropip"]),
    "ipykernel": (["ipykernel"], []),
    "pyodide-kernel": (["pyodide_kernel"], ["ipykernel", "comm", "ipython", "jedi", "sqlite3"]),
}

PRELOAD = ["micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi",
           "ipython", "load_on_import"]
"""What the offline site's kernel loads at once, in parallel, as Pyodide starts (the
``packages`` of loadPyodide): the kernel then skips its own one-by-one installs of these
(micropip, then piplite, then each of the rest in turn)."""

EXTRA_PACKAGES = {
    # name: (version, imports, lock dependencies)
    "comm": ("0.2.3", ["comm"], ["traitlets"]),
    "ipywidgets": ("8.1.9", ["ipywidgets"], ["comm", "ipython", "traitlets"]),
}
"""Packages the kit's views need that Pyodide's lock does not have. ipywidgets pairs with
the jupyterlab_widgets front end pinned in requirements.txt."""

KIT_IMPORTS = ["cluedo_lab"]


def log(message: str) -> None:
    print(f"site: {message}", flush=True)


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    subprocess.run([str(c) for c in command], cwd=cwd, check=True, env=env)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------------------------
# 1. Tools
# ---------------------------------------------------------------------------------------------

def tools() -> Path:
    """The build venv (made once; reinstalled when requirements.txt changes)."""
    python = VENV / "bin" / "python"
    stamp = VENV / ".installed"
    requirements = HERE / "requirements.txt"
    if not python.exists():
        log("making the build venv")
        run(sys.executable, "-m", "venv", VENV)
    if not stamp.exists() or stamp.stat().st_mtime < requirements.stat().st_mtime:
        log("installing the build tools (docs/site/requirements.txt)")
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "-r", requirements)
        stamp.touch()
    return python


# ---------------------------------------------------------------------------------------------
# 2. The kit's wheel
# ---------------------------------------------------------------------------------------------

def kit_wheel(python: Path) -> Path:
    """Build the kit's wheel from this checkout and check that it carries data/."""
    out = CACHE / "kit"
    shutil.rmtree(out, ignore_errors=True)
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--disable-pip-version-check", "-w", out, ROOT)
    for leftover in ("build/lib", "build/bdist.linux-x86_64"):
        shutil.rmtree(ROOT / leftover, ignore_errors=True)
    (wheel,) = out.glob("cluedo_lab-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("cluedo_lab/data/editions/", "cluedo_lab/data/boards/"):
        if not any(n.startswith(needed) for n in names):
            sys.exit(f"site: {wheel.name} has no {needed}: check [tool.setuptools] in "
                     "pyproject.toml")
    return wheel


# ---------------------------------------------------------------------------------------------
# 3. Pyodide and the wheels its lock names
# ---------------------------------------------------------------------------------------------

def pyodide_package() -> Path:
    """The npm registry's ``pyodide`` package, unpacked (fetched once)."""
    npm_dir = CACHE / "npm"
    tarball = npm_dir / f"pyodide-{PYODIDE_VERSION}.tgz"
    unpacked = npm_dir / f"pyodide-{PYODIDE_VERSION}"
    if not tarball.exists():
        npm_dir.mkdir(parents=True, exist_ok=True)
        log(f"npm pack pyodide@{PYODIDE_VERSION}")
        run("npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", cwd=npm_dir)
    if not (unpacked / "pyodide-lock.json").exists():
        shutil.rmtree(unpacked, ignore_errors=True)
        with tarfile.open(tarball) as tar:
            tar.extractall(npm_dir / "tmp", filter="data")
        (npm_dir / "tmp" / "package").rename(unpacked)
        shutil.rmtree(npm_dir / "tmp")
    return unpacked


def closure(lock: dict, roots: list[str]) -> list[str]:
    """The lock packages ``roots`` need, following the (already cut) dependencies."""
    packages = lock["packages"]
    seen: list[str] = []
    todo = list(roots)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        if key not in packages:
            sys.exit(f"site: {key!r} is not in Pyodide {PYODIDE_VERSION}'s lock")
        seen.append(key)
        todo.extend(packages[key]["depends"])
    return sorted(seen)


def pypi_wheel(python: Path, name: str, version: str) -> Path:
    """The pure-Python wheel of ``name==version`` from PyPI, downloaded once into the cache."""
    def cached() -> list[Path]:
        prefix = f"{name.replace('-', '_')}-{version}-".lower()
        return [w for w in WHEELS.glob("*-none-any.whl") if w.name.lower().startswith(prefix)]

    found = cached()
    if not found:
        log(f"pip download {name}=={version}")
        run(python, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--no-deps", "--only-binary=:all:", "--python-version", PYTHON_VERSION,
            "-d", WHEELS, f"{name}=={version}")
        found = cached()
    if not found:
        sys.exit(f"site: PyPI has no pure-Python wheel of {name}=={version}; Pyodide's own "
                 "build of it would be needed")
    return found[0]


BYTECODE_MAGIC = "f30d0d0a"
"""The bytecode magic number of CPython 3.13 (every 3.13 release), Pyodide 0.29.0's Python."""

KEEP_SOURCE = ("cluedo-lab", "load-on-import")
"""Wheels whose modules keep their source beside the bytecode: the kit's, whose code a learner
reads (``??``, tracebacks), and the loader's (IPython runs its startup file by path). The
others are served as bytecode only, as Pyodide's own are."""


TRIM = {"jedi": ("jedi/third_party/django-stubs/", "jedi/third_party/typeshed/third_party/")}
"""Parts of a wheel the browser never reads, left out: jedi's type stubs for Django and for
third-party packages (1,100 of its 1,900 files, each unpacked as the kernel starts). Jedi
lists the third-party folder, so it stays, empty; the standard library's stubs stay."""


def trimmed(name: str, wheel: Path) -> Path:
    """``wheel`` without the parts :data:`TRIM` names for ``name`` (their folders kept
    empty), made once into the cache."""
    prefixes = TRIM.get(name)
    if not prefixes:
        return wheel
    out = CACHE / "trimmed" / wheel.name
    if not out.exists() or out.stat().st_mtime < wheel.stat().st_mtime:
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
            for folder in prefixes:
                dst.writestr(zipfile.ZipInfo(folder, (2020, 1, 1, 0, 0, 0)), b"")
            for info in src.infolist():
                if not info.filename.startswith(prefixes):
                    dst.writestr(info, src.read(info), zipfile.ZIP_DEFLATED)
    return out


def bytecode_python() -> Path | None:
    """A CPython on this machine that writes Pyodide's bytecode (3.13), or None."""
    names = [shutil.which(f"python{PYTHON_VERSION}"), sys.executable,
             *sorted(Path.home().glob(f".pyenv/versions/{PYTHON_VERSION}.*/bin/python3"))]
    for name in filter(None, names):
        magic = subprocess.run([str(name), "-c", "import importlib.util as u; "
                                "print(u.MAGIC_NUMBER.hex())"], capture_output=True, text=True)
        if magic.returncode == 0 and magic.stdout.strip() == BYTECODE_MAGIC:
            return Path(name)
    return None


BYTECODE_MODES = {"": "", "--keep-source": "-source", "--stdlib": "-stdlib"}
"""bytecode.py's modes (instead of the modules, beside them, or beside the standard library's),
each with the end of its cache folder's name."""


def with_bytecode(python: Path | None, archive: Path, mode: str = "") -> Path:
    """``archive`` (a wheel, or Pyodide's standard library) with bytecode as ``mode`` says
    (docs/site/bytecode.py), made once into the cache; ``archive`` itself without ``python``."""
    if python is None:
        return archive
    compiled = CACHE / "bytecode" / f"{sha256(archive)[:16]}{BYTECODE_MODES[mode]}" / archive.name
    if not compiled.exists():
        compiled.parent.mkdir(parents=True, exist_ok=True)
        run(python, HERE / "bytecode.py", archive, compiled.with_suffix(".tmp"),
            *filter(None, [mode]))
        compiled.with_suffix(".tmp").rename(compiled)
    return compiled


STDLIB = "python_stdlib.zip"
"""Pyodide's standard library: the npm package's holds sources only, so the browser compiled
every standard module the kernel imports (http.client, urllib.request, email, pydoc,
unittest.mock ... for IPython and micropip) each time it started."""


def lock_entry(name: str, version: str, wheel: Path, imports: list[str],
               depends: list[str]) -> dict:
    return {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
            "sha256": sha256(wheel), "package_type": "package", "imports": imports,
            "depends": depends, "unvendored_tests": False}


def make_wheel(name: str, version: str, files: dict[str, str], summary: str) -> Path:
    """A pure-Python wheel of ``files`` (path in site-packages: text), made once into the
    cache (again when its contents change: the name carries their hash)."""
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    files = {**files,
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                                 f"Summary: {summary}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: build_site\n"
                              "Root-Is-Purelib: true\nTag: py3-none-any\n"}
    files[f"{info}/RECORD"] = "".join(f"{n},,\n" for n in [*files, f"{info}/RECORD"])
    digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:12]
    folder = WHEELS / "made" / digest
    wheel = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    if not wheel.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel, "w") as archive:
            for member, text in files.items():
                archive.writestr(zipfile.ZipInfo(member, (2020, 1, 1, 0, 0, 0)), text)
    return wheel


def placeholder_wheel(name: str, version: str) -> Path:
    """An empty wheel (metadata only) named ``name``."""
    return make_wheel(name, version, {}, "empty: the browser build is not served")


LOADER = HERE / "load_on_import.py"
LOADER_STARTUP = "load_on_import_startup.py"
"""The file IPython runs as the kernel starts (PYTHONSTARTUP): it puts the finder of
load_on_import.py on sys.meta_path."""


DRIVE = "/drive"
"""Where the kernel mounts the site's files (the learner's folder: jupyterlite-pyodide-kernel
0.7.0 makes it the working directory before it imports IPython). Every look at it is a
synchronous request from the kernel's worker through the service worker to the page's main
thread: 10-40 ms each in the page timelines taken here, while the page is still drawing."""

START_PYTHON = f"""import sys
if "" in sys.path:
    sys.path.remove("")
    sys.path.append("")
sys.path_importer_cache[{DRIVE!r}] = None
"""
"""Run as Python starts, before the kernel's imports (start_pyodide.js). Pyodide puts the
working directory ('') first on sys.path, so every module the kernel and the kit import
(about 120 as the kernel starts, more for the kit) first looked in the learner's folder, and
every module that is nowhere (optional ones IPython tries: ssl, readline, colorama ...) listed
it: 120 requests to the drive as a lesson's kernel started, 121 on the classroom page.
The folder goes last on sys.path (a learner's own module still imports, but no longer hides a
library's), and while the kernel starts it is not searched at all (a None in
sys.path_importer_cache means "no finder here"); the startup file lets it be searched again
(:data:`DRIVE_BACK`)."""

DRIVE_BACK = f"__import__('sys').path_importer_cache.pop({DRIVE!r}, None)\n"
"""The startup file's first line (IPython runs it at the end of the kernel's start): the
learner's folder is searched for modules from here on."""

START_FILE = "start_pyodide.js"
"""The file the offline site's kernel loads Pyodide through (docs/site/start_pyodide.js):
pyodide.js, then :data:`START_PYTHON`."""


def start_file(target: Path) -> None:
    """Write :data:`START_FILE` into ``target`` (beside pyodide.js), :data:`START_PYTHON` in
    it."""
    text = (HERE / START_FILE).read_text()
    if text.count('"@START@"') != 1:
        sys.exit(f"site: {START_FILE} has no single \"@START@\" to fill in")
    (target / START_FILE).write_text(text.replace('"@START@"', json.dumps(START_PYTHON)))


def loader_wheel(version: str, lazy: list[str]) -> Path:
    """The wheel of load_on_import.py, which loads the lock packages ``lazy`` when they are
    first imported; its startup file also gives the learner's folder back to the import system
    (:data:`DRIVE_BACK`)."""
    return make_wheel("load-on-import", version, {
        "load_on_import.py": LOADER.read_text(),
        LOADER_STARTUP: DRIVE_BACK
                        + f'__import__("load_on_import").install({sorted(lazy)!r})\n'},
        "load a lock package when a module first imports it (the classroom site)")


def wheel_version(wheel: Path) -> str:
    """The version in a wheel's file name (name-version-tags.whl)."""
    return wheel.name.split("-")[1]


def pyodide_dir(python: Path, kit: Path, target: Path, cdn: bool) -> list[str]:
    """Fill ``target`` (the site's static/pyodide, or static/wheels with ``cdn``) with
    Pyodide's core, the lock packages the kernel and the kit load, the kit and its extras, and
    the lock rewritten to match. Every wheel served carries CPython bytecode when a CPython
    3.13 is at hand (:func:`with_bytecode`).

    With ``cdn`` only the lock and the wheels Pyodide does not have are local: the lock names
    Pyodide's own wheels by their CDN address. Returns the packages it serves."""
    package = pyodide_package()
    lock = json.loads((package / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    compiler = bytecode_python()
    log(f"bytecode from {compiler}" if compiler else
        f"no CPython {PYTHON_VERSION} found: the wheels are served without bytecode "
        "(the kernel starts slower)")
    served: list[str] = []

    def serve(name: str, wheel: Path, imports: list[str] | None = None,
              depends: list[str] | None = None) -> None:
        """Copy ``wheel`` (with bytecode) into the site and point the lock's ``name`` at it,
        a new entry if ``imports`` are given."""
        wheel = with_bytecode(compiler, trimmed(name, wheel),
                              "--keep-source" if name in KEEP_SOURCE else "")
        shutil.copy2(wheel, target / wheel.name)
        if imports is None:
            packages[name]["file_name"], packages[name]["sha256"] = wheel.name, sha256(wheel)
        else:
            packages[name] = lock_entry(name, wheel_version(wheel), wheel, imports,
                                        depends or [])
        served.append(name)

    for name, cut in DEPENDS_CUT.items():
        packages[name]["depends"] = [d for d in packages[name]["depends"] if d not in cut]
    for name, (version, imports, depends) in EXTRA_PACKAGES.items():
        serve(name, pypi_wheel(python, name, version), imports, depends)
    serve("cluedo-lab", kit, KIT_IMPORTS, list(EXTRA_PACKAGES))
    needed = closure(lock, [*KERNEL_PACKAGES, *KIT_DEPENDENCIES])
    lazy = [p for p in closure(lock, list(KIT_DEPENDENCIES))
            if p not in closure(lock, [*KERNEL_PACKAGES, *EXTRA_PACKAGES])]
    serve("load-on-import", loader_wheel(wheel_version(kit), lazy), ["load_on_import"])
    if cdn:
        for entry in packages.values():
            if entry["name"] not in served:
                entry["file_name"] = CDN_URL + entry["file_name"]
    else:
        for name in PYODIDE_FILES:
            shutil.copy2(package / name, target / name)
        shutil.copy2(with_bytecode(compiler, package / STDLIB, "--stdlib"), target / STDLIB)
        start_file(target)
        for name, (imports, depends) in KERNEL_WHEELS.items():
            (wheel,) = KERNEL_PYPI.glob(f"{name.replace('-', '_')}-*-none-any.whl")
            serve(name, wheel, imports, depends)
        for name in PLACEHOLDERS:
            serve(name, placeholder_wheel(name, packages[name]["version"]), [], [])
        for key in needed:
            entry = packages[key]
            if not entry["file_name"].endswith("-none-any.whl"):
                sys.exit(f"site: {key} is a binary Pyodide package ({entry['file_name']}); "
                         "PyPI has no build of it for the browser")
            serve(key, pypi_wheel(python, key, entry["version"]))
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    return served


# ---------------------------------------------------------------------------------------------
# 4. The lite dir: contents and settings
# ---------------------------------------------------------------------------------------------

KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"
"""The Pyodide kernel's settings in jupyter-lite.json's litePluginSettings."""

PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)",
                      "language": "python"}


CLASSROOM = Path("app") / "classroom.ipynb"
CLASSROOM_PAGE = Path("voici") / "render" / "app" / "classroom.html"
"""The classroom as a page of its own (Voici): it runs by itself and shows no code."""
CLASSROOM_START = ("**To play without the code, open the classroom page** "
                   f"(`{CLASSROOM_PAGE.as_posix()}` at the site's address: the site's "
                   "first page links it). Here in JupyterLab, choose **Run › Run All Cells** and "
                   "wait for the table to appear (Python starts in this tab: a few seconds). The "
                   "code is folded away: click the dots of a cell to see it.")
LAB_ONLY = "lab-only"
"""Tag of a cell the classroom template leaves off the Voici page (how to run it in JupyterLab)."""


def classroom(notebook: dict) -> None:
    """The classroom notebook, shared by the Voici page (which runs it and shows only its
    outputs) and JupyterLab (code folded away, and a first line, left off the page, on how to
    start it there). No stored outputs: both run it afresh."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            cell.setdefault("metadata", {}).setdefault("jupyter", {})["source_hidden"] = True
    notebook["cells"].insert(1, {"cell_type": "markdown", "id": "site-start",
                                 "metadata": {"tags": [LAB_ONLY]}, "source": CLASSROOM_START})


def contents(target: Path, lessons: Path = ROOT / "notebooks") -> None:
    """The lessons and the classroom app, opening with the Pyodide kernel (whose name is
    ``python``, not ``python3``), so JupyterLite asks no kernel question; the class's
    settings (class.toml) beside them, if ``lessons`` has any."""
    shutil.rmtree(target, ignore_errors=True)
    for source in sorted(lessons.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in source.parts:
            continue
        notebook = json.loads(source.read_text())
        notebook.setdefault("metadata", {})["kernelspec"] = PYODIDE_KERNELSPEC
        if source.relative_to(lessons) == CLASSROOM:
            classroom(notebook)
        out = target / source.relative_to(lessons)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
    for settings in lessons.rglob(CLASS_FILE):
        out = target / settings.relative_to(lessons)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(settings, out)


CLASS_FILE = "class.toml"


def student_lessons(python: Path, kit: Path, class_file: Path | None) -> Path:
    """The student copies (``cluedo-lab lessons --student``, with ``--class`` if given), made
    by the kit itself in the build venv, so the site holds what a class is handed."""
    out = CACHE / "student-lessons"
    stamp = VENV / ".kit-deps"
    if not stamp.exists():   # the kit's own dependencies, once
        run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "networkx>=3.2", "sympy>=1.12", "tqdm>=4.60")
        stamp.touch()
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--force-reinstall", kit)
    shutil.rmtree(out, ignore_errors=True)
    command: list[str | Path] = [VENV / "bin" / "cluedo-lab", "lessons", out, "--student"]
    if class_file is not None:
        command += ["--class", class_file.resolve()]
    try:
        run(*command)
    except subprocess.CalledProcessError:
        sys.exit("site: cluedo-lab lessons could not make the student copies (its message "
                 "is above)")
    return out


LAB_OVERRIDES_FILE = HERE / "overrides.json"
"""JupyterLab's defaults for the kit, shared with ``make lab``: lessons are short, so every cell
is rendered (a widget scrolled away keeps its state on screen), and widget state is saved in
the notebook, so a notebook a learner downloads carries their exercise attempts
(views/exercises.py) for ``cluedo-lab grade``."""
LAB_OVERRIDES = json.loads(LAB_OVERRIDES_FILE.read_text())


def settings(lite_dir: Path, cdn: bool) -> None:
    """jupyter-lite.json (what the pages read) and jupyter_lite_config.json (the build's)."""
    kernel: dict = {"disablePyPIFallback": True}
    if cdn:
        # Pyodide's core from its CDN, the lock from here (the kernel makes a *URL option
        # absolute against the site): it names Pyodide's own wheels by their CDN address and
        # the kit, ipywidgets and comm by file names beside it.
        kernel["pyodideUrl"] = CDN_URL + "pyodide.mjs"
        kernel["loadPyodideOptions"] = {"lockFileURL": "./static/wheels/pyodide-lock.json",
                                        "packages": ["load_on_import"]}
    else:   # the build sets pyodide.js here: start_through_file sets START_FILE after it
        kernel["pyodideUrl"] = "./static/pyodide/pyodide.js"
        kernel["loadPyodideOptions"] = {"packages": PRELOAD}
    kernel["loadPyodideOptions"]["env"] = {
        "PYTHONSTARTUP": f"/lib/python{PYTHON_VERSION}/site-packages/{LOADER_STARTUP}"}
    page = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "cluedo-lab",
        "disabledExtensions": ["@jupyterlab/apputils-extension:announcements"],
        "litePluginSettings": {KERNEL_SETTINGS: kernel}}}
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(page, indent=2))
    (lite_dir / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2))
    build = {"LiteBuildConfig": {
        "apps": ["lab"],
        "contents": ["content"],
        "output_dir": str(OUTPUT),
        "no_sourcemaps": True,
        "no_unused_shared_packages": True,
    }}
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(build, indent=2))


# ---------------------------------------------------------------------------------------------
# 5. Build
# ---------------------------------------------------------------------------------------------

TEMPLATES = ROOT / "notebooks" / "app" / "share" / "jupyter"
"""Where the classroom's Voila template lives (it leaves out the CDN style sheets)."""

UNUSED_EXTENSIONS = ("@voila-dashboards/jupyterlab-preview",)
"""Front-end extensions the build tools bring along and the site cannot use (Voila's preview
button needs a Voila server)."""


def classroom_page_only(site: Path) -> None:
    """Keep one Voici page, the classroom's: Voici renders every notebook, and the lessons are
    read and run in JupyterLab, where the learner sees and changes their code. Voici's own
    index sends a visitor to an absolute /voici/tree/, which breaks under a sub-path: it now
    sends them to the classroom page, relative to itself."""
    voici = site / "voici"
    keep = site / CLASSROOM_PAGE
    for page in sorted((voici / "render").rglob("*.html")):
        if page != keep:
            page.unlink()
    shutil.rmtree(voici / "tree", ignore_errors=True)
    target = keep.relative_to(voici).as_posix()
    (voici / "index.html").write_text(
        f'<!DOCTYPE html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0; '
        f'url={target}">\n<a href="{target}">The classroom</a>\n')


LOADING_FIRST = "Loading Python into this page (the first visit takes longest)…"
LOADING_STEPS = """<script>
  // The loading screen says what the page is doing. Voici calls update_loading_text with
  // (0, 0, "Starting up kernel...") once the kernel is connected, then (i, n, null) before each
  // of the notebook's n cells; the classroom's one code cell is its last.
  window.update_loading_text = (function (show) {
    return function (cell_index, cell_count, text) {
      let step = "Opening the classroom…";
      if (cell_count === 0) {
        step = "Starting Python…";
      } else if (cell_index === cell_count) {
        step = "Loading the kit and dealing the cards…";
      }
      show(cell_index, cell_count, step);
    };
  })(window.update_loading_text);
</script>
"""


def loading_steps(page: Path) -> None:
    """Make the classroom page's loading screen say what it is doing, step by step, instead of
    Voila's "Running ..." and "Executing 3 of 3"; screen readers hear each step."""
    html = page.read_text()
    heading = f'<h2 id="loading_text" role="status" aria-live="polite">{LOADING_FIRST}</h2>'
    for old, new in (('<h2 id="loading_text">Running ...</h2>', heading),
                     ('<div id="rendered_cells"', LOADING_STEPS + '<div id="rendered_cells"')):
        if html.count(old) != 1:
            sys.exit(f"site: {page.name} has no single {old!r}: the Voila template changed")
        html = html.replace(old, new)
    page.write_text(html)


def drop_unused_extensions(site: Path) -> None:
    """Take :data:`UNUSED_EXTENSIONS` out of the site and of its extension list."""
    config_file = site / "jupyter-lite.json"
    config = json.loads(config_file.read_text())
    data = config["jupyter-config-data"]
    data["federated_extensions"] = [e for e in data.get("federated_extensions", [])
                                    if e["name"] not in UNUSED_EXTENSIONS]
    config_file.write_text(json.dumps(config, indent=2))
    for name in UNUSED_EXTENSIONS:
        folder = site / "extensions" / name
        shutil.rmtree(folder, ignore_errors=True)
        scope = folder.parent    # an @org folder left empty goes too
        if scope != site / "extensions" and scope.is_dir() and not any(scope.iterdir()):
            scope.rmdir()


def start_through_file(site: Path) -> None:
    """Point the kernel at :data:`START_FILE`, in JupyterLab's settings and in the classroom
    page's own copy of them (the build points it at pyodide.js, as it serves a whole
    Pyodide)."""
    config_file = site / "jupyter-lite.json"
    config = json.loads(config_file.read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][KERNEL_SETTINGS]
    kernel["pyodideUrl"] = f"./static/pyodide/{START_FILE}"
    config_file.write_text(json.dumps(config, indent=2))
    page = site / CLASSROOM_PAGE
    html, count = re.subn(r'("pyodideUrl": "[./]*static/pyodide/)pyodide\.js"',
                          rf'\g<1>{START_FILE}"', page.read_text())
    if count != 1:
        sys.exit(f"site: {page.name} names pyodide.js {count} times, not once: the Voici "
                 "page's settings changed")
    page.write_text(html)


FRONT_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cluedo-lab: the classroom</title>
<link rel="icon" href="lab/favicon.ico">
<!-- The site's root for JupyterLite: every app page reads this (empty) config on its way up. -->
<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{{}}</script>
<style>
  body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 3rem auto;
         padding: 0 1rem; line-height: 1.5; color: #222; }}
  a.door {{ display: block; border: 2px solid #2e7d32; border-radius: 8px; padding: 1rem 1.3rem;
           margin: 1.2rem 0; text-decoration: none; color: inherit; }}
  a.door:hover, a.door:focus {{ background: #f1f8e9; }}
  a.door strong {{ font-size: 1.3rem; color: #1b5e20; }}
  .small {{ color: #555; font-size: 0.92rem; }}
</style>
</head>
<body>
<h1>Cluedo classroom</h1>
<p>Everything here runs in this browser: Python starts in the page itself (the first start
takes 10-20 seconds), and nothing you do is sent anywhere.</p>
<a class="door" id="classroom" href="{classroom}"><strong>Play at the table</strong><br>
Play Cluedo against bots with your own notepad, and explore the board. No code.</a>
<a class="door" id="lessons" href="lab/index.html"><strong>The lessons</strong><br>
The lesson notebooks in JupyterLab: the rules, the chances and the deductions of five
editions, with exercises to answer.</a>
<p class="small">Work in the lessons is saved in this browser's own storage; File › Download
keeps a copy. cluedo-lab {version}.</p>
</body>
</html>
"""


def front_page(site: Path, version: str) -> None:
    """The site's first page: two doors, the classroom page and the lessons. (JupyterLite's own
    first page only forwards to JupyterLab; its empty config block stays, as the apps read it.)"""
    (site / "index.html").write_text(FRONT_PAGE.format(classroom=CLASSROOM_PAGE.as_posix(),
                                                       version=version))


def build(cdn: bool, student: bool = False, class_file: Path | None = None) -> None:
    start = time.monotonic()
    python = tools()
    kit = kit_wheel(python)
    shutil.rmtree(LITE_DIR / "static", ignore_errors=True)
    LITE_DIR.mkdir(parents=True, exist_ok=True)
    # static/pyodide is where the kernel's build step looks for a whole Pyodide to serve
    served = pyodide_dir(python, kit, LITE_DIR / "static" / ("wheels" if cdn else "pyodide"), cdn)
    log(f"serving {len(served)} packages: {', '.join(sorted(served))}")
    if student or class_file is not None:
        contents(LITE_DIR / "content", student_lessons(python, kit, class_file))
        log("student site: student copies" + (f" under {class_file}" if class_file else ""))
    else:
        contents(LITE_DIR / "content")
    settings(LITE_DIR, cdn)
    shutil.rmtree(OUTPUT, ignore_errors=True)
    shutil.rmtree(LITE_DIR / ".cache", ignore_errors=True)
    for state in LITE_DIR.glob(".jupyterlite.doit.db*"):   # a fresh output needs every task
        state.unlink()
    env = {**os.environ, "JUPYTERLITE_NO_JUPYTER_SERVER": "0"}
    env.pop("JUPYTERLITE_PYODIDE_URL", None)
    # Voici adds its app to JupyterLab's; the classroom template is the one `make app` uses.
    env["JUPYTER_PATH"] = os.pathsep.join(
        [str(TEMPLATES), *filter(None, [os.environ.get("JUPYTER_PATH")])])
    run(VENV / "bin" / "voici", "build", "--lite-dir", LITE_DIR, "--output-dir", OUTPUT,
        "--template", "classroom", cwd=LITE_DIR, env=env)
    classroom_page_only(OUTPUT)
    loading_steps(OUTPUT / CLASSROOM_PAGE)
    drop_unused_extensions(OUTPUT)
    if not cdn:
        start_through_file(OUTPUT)
    front_page(OUTPUT, wheel_version(kit))
    # the browser asks for /favicon.ico for a page that names no icon (JupyterLab's)
    shutil.copy2(OUTPUT / "lab" / "favicon.ico", OUTPUT / "favicon.ico")
    if cdn:  # the build copies a whole Pyodide only: the lock and the kit's wheels go by hand
        shutil.copytree(LITE_DIR / "static" / "wheels", OUTPUT / "static" / "wheels")
    size = sum(p.stat().st_size for p in OUTPUT.rglob("*") if p.is_file())
    log(f"built {OUTPUT.relative_to(ROOT)} ({size / 1e6:.0f} MB, "
        f"{'Pyodide from its CDN' if cdn else 'offline'}) in {time.monotonic() - start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cdn", action="store_true",
                        help="fetch Pyodide and its own wheels from its public CDN")
    parser.add_argument("--student", action="store_true",
                        help="the student site: student copies of the lessons only")
    parser.add_argument("--class", dest="class_file", type=Path, metavar="CLASS.toml",
                        help="the student site under a class's settings (implies --student)")
    args = parser.parse_args()
    if args.class_file is not None and not args.class_file.is_file():
        sys.exit(f"site: --class {args.class_file}: no such file")
    build(args.cdn, args.student, args.class_file)


if __name__ == "__main__":
    main()
