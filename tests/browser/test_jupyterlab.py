"""Real JupyterLab in headless Chromium: run the notebook and play by clicking.

Opt-in (it takes minutes and needs Debian's chromium and Playwright for Python):

    pip install -e ".[test,browser]" && apt-get install chromium
    TRIVIADOR_BROWSER=1 .venv/bin/python -m pytest tests/browser -s

Screenshots land in ``test-artifacts/browser/``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(os.environ.get("TRIVIADOR_BROWSER") != "1",
                                reason="browser test: set TRIVIADOR_BROWSER=1 (needs chromium and playwright)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyterlab_url():
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--IdentityProvider.token=", "--ServerApp.password=", f"--ServerApp.root_dir={REPO}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{url}/api", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    yield url
    server.terminate()
    server.wait(timeout=30)


def test_play_notebook_by_clicking_in_jupyterlab(jupyterlab_url):
    pytest.importorskip("playwright")
    from drive_jupyterlab import chromium_path, play

    if chromium_path() is None:
        pytest.skip("no chromium on PATH")
    out = REPO / "test-artifacts" / "browser"
    done = play(jupyterlab_url, out, moves=25, timeout_s=360)
    assert "guess" in done and "territory" in done, done
    assert (out / "start.png").exists() and (out / "battle.png").exists()
