"""A single-user server's stand-in that the test hub spawns (tests/hub_helpers.py).

A kernel inherits its single-user server's environment, so what the hub puts
there (``JUPYTERHUB_API_TOKEN``, ``JUPYTERHUB_API_URL``, ...) is what a
student's kernel has. This stand-in writes every ``JUPYTERHUB_*`` variable to
``$HOME/hub-env.json`` and answers any GET with 200 on the address the hub
gave it (``$JUPYTERHUB_SERVICE_URL``), so the hub counts the server as up.
It stops on SIGTERM/SIGINT (the hub stopping it) or when the hub process that
started it is gone (checked each second).
"""

from __future__ import annotations

import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit


class Up(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "3")
        self.end_headers()
        self.wfile.write(b"up\n")

    def log_message(self, *args):
        pass


def main() -> None:
    env = {k: v for k, v in os.environ.items() if k.startswith("JUPYTERHUB_")}
    (Path(os.environ["HOME"]) / "hub-env.json").write_text(json.dumps(env))
    address = urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
    server = ThreadingHTTPServer((address.hostname, address.port), Up)
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        server.shutdown()

    threading.Thread(target=watch, daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
