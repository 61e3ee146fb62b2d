"""`make lab` starts JupyterLab on the notebooks (as root too) and opens the start page."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "jupyter").exists(),
                    reason="run through `make test`, which builds .venv")
def test_make_lab_serves_the_start_notebook(tmp_path):
    port = free_port()
    token = "cluedo-lab-test"
    lessons = tmp_path / "lessons"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "JUPYTER_DATA_DIR": str(tmp_path / "data"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_TOKEN": token}
    process = subprocess.Popen(["make", "-s", "lab", f"PORT={port}", f"LESSONS={lessons}"],
                               cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        listing = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:
            try:
                url = f"http://127.0.0.1:{port}/api/contents?token={token}"
                with urllib.request.urlopen(url, timeout=2) as response:
                    listing = json.load(response)
                break
            except OSError:
                time.sleep(0.5)
        if listing is None:
            pytest.fail("JupyterLab did not answer: " + process.stderr.read1().decode()[-2000:]
                        if process.poll() is not None else "JupyterLab did not answer in 90 s")
        # The server's own address opens lesson 00, not the Launcher.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?token={token}") as response:
            assert response.url.split("?")[0].endswith("/lab/tree/00_start_here.ipynb")
        names = {item["name"] for item in listing["content"]}
        assert "00_start_here.ipynb" in names  # served from the working copy of the lessons
        # The working copy is trusted, so saved boards and tables show before a lesson runs.
        nbformat = pytest.importorskip("nbformat")
        from nbformat.sign import NotebookNotary

        notary = NotebookNotary(data_dir=str(tmp_path / "data"))
        for name in ("00_start_here.ipynb", "05_board_explorer.ipynb"):
            assert notary.check_signature(nbformat.read(lessons / name, as_version=4))
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
