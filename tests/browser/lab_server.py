"""A Jupyter server (JupyterLab and Voila) serving the repository on
127.0.0.1, for the browser tests and ``benchmarks/rejoin.py --browser``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def jupyter_server(home: Path, log_path: Path) -> Iterator[str]:
    """Run ``jupyter lab`` on 127.0.0.1 (a port of its own, no token) rooted
    at the repository, its kernels' journals and seat keys under ``home``
    (never the real home); yields its URL and stops it after. Its output goes
    to ``log_path``.

    Raises:
        RuntimeError: the server did not answer within 120 s.
    """
    port = free_port()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
             f"--port={port}", "--IdentityProvider.token=", "--ServerApp.password=",
             f"--ServerApp.root_dir={REPO}"], stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "TRIVIADOR_NB_HOME": str(home)})
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(240):
                try:
                    urllib.request.urlopen(f"{url}/api", timeout=1)
                    break
                except OSError:
                    time.sleep(0.5)
            else:
                raise RuntimeError(f"the Jupyter server did not start in 120 s; see {log_path}")
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)
