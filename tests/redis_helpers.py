"""A real ``redis-server`` for tests (issue 23): on a loopback port the test picks, in a temporary folder.

:func:`start_redis` runs Debian's ``redis-server`` (``.ci/run`` installs it)
with ``--bind 127.0.0.1 --port N --save '' --appendonly no`` in a folder of
its own, waits (bounded) until it answers ``PING``, and returns a
:class:`RedisServer`; :meth:`RedisServer.stop` ends it (SIGTERM, then SIGKILL
when it does not stop in time). The ``redis_server`` fixture starts one for a
test module and flushes it before every test that asks for it
(``redis_url``). Where the binary is missing the tests skip with that reason,
except in CI (``CI`` set), where a missing server fails: CI must run them.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

START_TIMEOUT_S = 10.0  # the longest a server may take to answer its first PING
STOP_TIMEOUT_S = 5.0  # ...and to stop after SIGTERM


def free_port() -> int:
    """A port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def missing() -> str:
    """Why a real Redis cannot be started here, or "" when it can."""
    return "" if shutil.which("redis-server") else "redis-server is not installed (Debian: apt-get install redis-server)"


@dataclass
class RedisServer:
    """A running ``redis-server``: its port, its folder, its process."""

    port: int
    folder: Path
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self, timeout: float = 1.0) -> bool:
        """Whether the server answers ``PING`` with ``+PONG`` (a raw RESP exchange, bounded)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def flush(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2.0) as s:
            s.sendall(b"FLUSHALL\r\n")
            assert s.recv(16).startswith(b"+OK")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT_S)


def start_redis(folder: Path, port: int | None = None) -> RedisServer:
    """Start ``redis-server`` on 127.0.0.1 (``port``: a free one by default), keeping nothing on disk.

    Raises:
        RuntimeError: it did not answer within :data:`START_TIMEOUT_S` (its log is in the message).
    """
    port = port or free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "redis.log"
    process = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(folder), "--logfile", str(log),
                                "--protected-mode", "yes"],
                               cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.STDOUT)
    server = RedisServer(port, folder, process)
    end = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < end and process.poll() is None:
        if server.ping(0.5):
            return server
        time.sleep(0.05)
    server.stop()
    text = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
    raise RuntimeError(f"redis-server on 127.0.0.1:{port} did not answer in {START_TIMEOUT_S} s: {text}")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A :class:`RedisServer` for the tests of one module, stopped after them."""
    reason = missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Redis tests: {reason}")
        pytest.skip(reason)
    server = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server) -> str:
    """The URL of the module's Redis, emptied for this test."""
    redis_server.flush()
    return redis_server.url


def start_host(url: str, tmp_path, rooms: int = 1, pace: float = 1.0) -> tuple[subprocess.Popen, int, list[str]]:
    """A ``triviador-nb host --redis`` process (``--pace``): its port and its rooms' codes (bounded wait);
    the teacher key it printed is its ``teacher_key``."""
    env = {**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "triviador_nb", "host", "--redis", url, "--rooms", str(rooms),
                                "--for", "600", "--start-after", "600", "--pace", str(pace)],
                               stdout=subprocess.PIPE, text=True, env=env)
    lines = []
    for _ in range(2 + rooms):  # serving..., teacher: ..., a line per room (bounded: --for and the test's timeout)
        lines.append(process.stdout.readline())
    port = int(re.search(r"ws://127\.0\.0\.1:(\d+)", lines[0]).group(1))
    found = [re.search(r'room (\S+): join\("\1", name="...", address="127\.0\.0\.1:(\d+)"\)', line) for line in lines[2:]]
    assert all(m is not None and int(m.group(2)) == port for m in found), lines
    process.teacher_key = re.search(r'key="([^"]+)"', lines[1]).group(1)  # (the service's: every process prints it)
    return process, port, [m.group(1) for m in found]


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    process.stdout.close()
