"""A real JupyterHub for tests (issue 22): the hub, its proxy, users and their tokens.

:func:`start_hub` runs ``python -m jupyterhub`` with Debian's or npm's
``configurable-http-proxy`` (``.ci/run`` installs it into ``.ci/node``), every
port on 127.0.0.1 and picked here, a sqlite database and its log in a
temporary folder, the DummyAuthenticator with a password, and:

- the users ``anna`` and ``ben`` (students), ``tereza`` (in the group
  ``teachers``) and ``admin`` (a hub admin);
- an external service ``triviador`` with a URL on a loopback port (nothing
  listens there until a test starts something) and its own token;
- the role the README gives: every user holds
  ``access:services!service=triviador``. The service is given no role: it
  needs none to identify a token (``triviador_nb.rooms.identity``).

Each user's token is made through the hub's REST API as the user would
(``POST /hub/api/users/<name>/tokens`` with their password), with the scopes
a kernel's ``JUPYTERHUB_API_TOKEN`` has under the README's
``c.Spawner.server_token_scopes``. A test may start a user's server
(:meth:`Hub.start_server`: the hub spawns ``tests/hub_fake_server.py``,
which keeps the environment a kernel would have).
Every wait is bounded; :meth:`Hub.stop` ends the hub and its proxy (their
own process group), killing them when they do not stop in time.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from websockets.asyncio.server import serve

from triviador_nb.rooms.identity import HubIdentities, HubUnavailable, NoServiceAccess, token_from_headers

REPO = Path(__file__).resolve().parents[1]
SERVICE = "triviador"
TEACHERS = "teachers"
STUDENTS = ("anna", "ben")
TEACHER = "tereza"
ADMIN = "admin"
USERS = (*STUDENTS, TEACHER, ADMIN)
PASSWORD = "lesson-password"
KERNEL_SCOPES = ["users:activity!user", f"access:services!service={SERVICE}"]  # as the README's server_token_scopes
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0


def configurable_http_proxy() -> str | None:
    """The proxy's command: ``.ci/node``'s (``npm ci --prefix .ci/node``), else one on PATH."""
    local = REPO / ".ci" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
    if local.exists() and shutil.which("node"):
        return str(local)
    return shutil.which("configurable-http-proxy")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Hub:
    """A running hub: where it is, its users' tokens, how to stop it."""

    folder: Path
    hub_port: int
    proxy_port: int
    service_port: int
    service_token: str
    process: subprocess.Popen | None = None
    tokens: dict[str, str] = field(default_factory=dict)
    service: "ServiceStandIn | None" = None
    started_s: float = 0.0  # seconds from launch until the hub, its proxy and every token were ready

    @property
    def api_url(self) -> str:
        """The hub's API (the address ``$JUPYTERHUB_API_URL`` gives a kernel or a service)."""
        return f"http://127.0.0.1:{self.hub_port}/hub/api"

    @property
    def service_url(self) -> str:
        """The service through the hub's proxy, as a student's kernel reaches it."""
        return f"ws://127.0.0.1:{self.proxy_port}/services/{SERVICE}/"

    @property
    def log(self) -> Path:
        return self.folder / "jupyterhub.log"

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def new_token(self, user: str, scopes: list[str] | None = KERNEL_SCOPES) -> str:
        """A new token of ``user`` made through the REST API with their password
        (``scopes`` None: the hub's default, all the user may do)."""
        body = {"auth": {"username": user, "password": PASSWORD}, "note": "tests/hub_helpers.py"}
        if scopes is not None:
            body["scopes"] = scopes
        answer = _request("POST", f"{self.api_url}/users/{user}/tokens", body)
        return answer["token"]

    def start_server(self, user: str, timeout: float = START_TIMEOUT_S) -> dict[str, str]:
        """Start ``user``'s single-user server (``tests/hub_fake_server.py``, as
        the hub spawns one) and return its ``JUPYTERHUB_*`` environment: what
        a kernel of that user has. Bounded by ``timeout``."""
        env_file = self.folder / "home" / user / "hub-env.json"
        request = urllib.request.Request(f"{self.api_url}/users/{user}/server", method="POST",
                                         headers={"Authorization": f"token {self.new_token(user, scopes=None)}"})
        urllib.request.urlopen(request, timeout=5).close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not env_file.exists():
            time.sleep(0.1)
        if not env_file.exists():
            raise RuntimeError(f"{user}'s server did not start:\n{self.log_tail()}")
        return json.loads(env_file.read_text())

    def stop(self) -> None:
        """SIGTERM to the hub (it stops its proxy); SIGKILL to their process group
        when they are not gone within ``STOP_TIMEOUT_S``."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
        try:  # the proxy is the hub's child, in the group started for the hub
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(STOP_TIMEOUT_S)


def _request(method: str, url: str, body: dict | None = None, timeout: float = 5.0) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"{}")


def write_config(hub: Hub, proxy_command: str) -> Path:
    """The hub's ``jupyterhub_config.py`` in ``hub.folder``."""
    config = f"""
c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {hub.proxy_port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{free_port()}"
c.ConfigurableHTTPProxy.command = [{proxy_command!r}]
c.ConfigurableHTTPProxy.pid_file = {str(hub.folder / 'proxy.pid')!r}
c.JupyterHub.db_url = {'sqlite:///' + str(hub.folder / 'jupyterhub.sqlite')!r}
c.JupyterHub.cookie_secret_file = {str(hub.folder / 'cookie_secret')!r}
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {PASSWORD!r}
c.Authenticator.allowed_users = {set(USERS)!r}
c.Authenticator.admin_users = {{{ADMIN!r}}}
c.JupyterHub.load_groups = {{{TEACHERS!r}: {{"users": [{TEACHER!r}]}}}}
c.JupyterHub.services = [{{
    "name": {SERVICE!r},
    "url": "http://127.0.0.1:{hub.service_port}",
    "api_token": {hub.service_token!r},
    "display": False,
}}]
c.JupyterHub.load_roles = [
    {{"name": "user", "scopes": ["self", "access:services!service={SERVICE}"]}},
]
c.Spawner.server_token_scopes = {KERNEL_SCOPES!r}
c.JupyterHub.public_url = "http://127.0.0.1:{hub.proxy_port}/"
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(hub.folder / 'home' / '{username}')!r}
c.Spawner.cmd = [{sys.executable!r}, {str(Path(__file__).with_name('hub_fake_server.py'))!r}]
"""
    path = hub.folder / "jupyterhub_config.py"
    path.write_text(config)
    return path


def start_hub(folder: Path, proxy_command: str, timeout: float = START_TIMEOUT_S, service_port: int | None = None) -> Hub:
    """Start a hub in ``folder`` and wait (at most ``timeout`` s) until its API
    and its proxy answer and every user has a token. Raises RuntimeError with
    the log's tail when it does not come up; the hub is stopped then.

    Something should already answer HTTP on ``service_port`` (the fixture's
    :class:`ServiceStandIn`): the hub waits up to 30 s for an external
    service's URL before it routes anything."""
    began = time.monotonic()
    hub = Hub(folder=folder, hub_port=free_port(), proxy_port=free_port(), service_port=service_port or free_port(),
              service_token=secrets.token_hex(32))
    config = write_config(hub, proxy_command)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTERHUB_", "CONFIGPROXY_"))}
    with open(hub.log, "w") as log:
        hub.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder, env=env,
                                       stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True)
    try:
        _wait_for(hub, f"{hub.api_url}/", began + timeout)  # the hub itself
        _wait_for(hub, f"http://127.0.0.1:{hub.proxy_port}/hub/api/", began + timeout)  # its proxy routes to it
        hub.tokens = {user: hub.new_token(user) for user in USERS}
    except BaseException:
        hub.stop()
        raise
    hub.started_s = time.monotonic() - began
    return hub


def _wait_for(hub: Hub, url: str, deadline: float) -> None:
    last = None
    while time.monotonic() < deadline:
        if hub.process.poll() is not None:
            raise RuntimeError(f"jupyterhub exited with {hub.process.returncode}:\n{hub.log_tail()}")
        try:
            _request("GET", url, timeout=2.0)
            return
        except (OSError, urllib.error.URLError, ValueError) as error:
            last = error
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer in time ({last}):\n{hub.log_tail()}")


class CountingForwarder:
    """An HTTP stand-in for the hub's API on a loopback port that counts the
    requests it is sent and passes each on to ``target`` (the real hub API),
    answering with the hub's status and body. :meth:`stop` takes it away
    (the hub then looks unreachable)."""

    def __init__(self, target: str):
        forwarder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                forwarder.count += 1
                headers = {k: v for k, v in self.headers.items() if k.lower() in ("authorization", "accept")}
                request = urllib.request.Request(target + self.path.removeprefix("/hub/api"), headers=headers)
                try:
                    with urllib.request.urlopen(request, timeout=5) as response:
                        status, body = response.status, response.read()
                except urllib.error.HTTPError as error:
                    status, body = error.code, error.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.count = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hub/api"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(STOP_TIMEOUT_S)

    def __enter__(self) -> "CountingForwarder":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def missing() -> str:
    """Why a real hub cannot run here ("" when it can)."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError as error:
        return f"jupyterhub is not installed ({error}); pip install -e '.[test]'"
    if configurable_http_proxy() is None:
        return "configurable-http-proxy is not installed (npm ci --prefix .ci/node, as .ci/run does)"
    return ""


class ServiceStandIn:
    """The service's stand-in on its loopback port, as the room host will be:
    a ``websockets`` server that reads each connection's hub token from its
    handshake (:func:`token_from_headers`), asks the hub whose it is
    (:meth:`HubIdentities.identify_async`) and refuses the handshake (HTTP 401,
    403 or 503) when it is missing, not a hub token, may not use the service,
    or the hub cannot be asked. Each message is echoed back as ``"<user>: <message>"``.
    Runs on a thread with its own loop; ``seen`` lists every handshake's token."""

    def __init__(self, port: int, identities: HubIdentities):
        self.port = port
        self.identities = identities
        self.seen: list[str | None] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="service-stand-in", daemon=True)
        self._thread.start()
        self._server = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(STOP_TIMEOUT_S)

    async def _start(self):
        return await serve(self._echo, "127.0.0.1", self.port, process_request=self._check)

    async def _check(self, connection, request):
        token = token_from_headers(request.headers)
        self.seen.append(token)
        if token is None:
            return connection.respond(HTTPStatus.UNAUTHORIZED, "no hub token\n")
        try:
            who = await self.identities.identify_async(token)
        except HubUnavailable as error:
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, f"{error}\n")
        except NoServiceAccess as error:
            return connection.respond(HTTPStatus.FORBIDDEN, f"{error}\n")
        if who is None:
            return connection.respond(HTTPStatus.FORBIDDEN, "not a hub token\n")
        connection.identity = who
        return None

    async def _echo(self, connection):
        async for message in connection:
            await connection.send(f"{connection.identity.user}: {message}")

    def stop(self) -> None:
        async def close():
            self._server.close()
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(close(), self._loop).result(STOP_TIMEOUT_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(STOP_TIMEOUT_S)
        if self.identities is not None:
            self.identities.close()


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A running :class:`Hub` with its service's stand-in (``hub.service``) on
    the service's port, for the tests of one module; both stopped after them."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("jupyterhub")
    service_port = free_port()
    stand_in = ServiceStandIn(service_port, None)
    running = None
    try:
        running = start_hub(folder, configurable_http_proxy(), service_port=service_port)
        stand_in.identities = HubIdentities(TEACHERS, api_url=running.api_url, api_token=running.service_token,
                                            service_name=SERVICE)
        running.service = stand_in
        yield running
    finally:
        if running is not None:
            running.stop()
        stand_in.stop()
