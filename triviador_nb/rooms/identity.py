"""Who is on the other end of a room connection, by their JupyterHub identity (issue 22).

Under JupyterHub every kernel holds its owner's hub token
(``JUPYTERHUB_API_TOKEN``). A room host running as a hub service reads that
token from the WebSocket handshake (:func:`token_from_headers`) and asks the
hub whose it is (:class:`HubIdentities`, with JupyterHub's own
:class:`jupyterhub.services.auth.HubAuth`). The name therefore comes from the
token, never from what the client types; a teacher is a hub user in the
teachers' group given at start, or a hub admin.

What the hub must grant (JupyterHub 5 and 6; tested against 5.5.4 and 6.1.1):

- **The service needs no scope to identify a token.**
  ``HubAuth.user_for_token(token)`` sends ``GET {api_url}/user`` with the
  *student's* token as its ``Authorization``; the service's own token is not
  used. The hub always lets a token read its owner's name, ``admin`` flag and
  groups on that endpoint (it adds the "identify" scopes
  ``read:users:name!user`` and ``read:users:groups!user`` there), so the
  model carries ``name``, ``admin``, ``groups`` and the token's own
  ``scopes`` whatever the token may otherwise do.
- **The student's token must hold** ``access:services!service=<name>`` (the
  scope by which JupyterHub says "this token may use that service"). Users get
  it from a role (``c.JupyterHub.load_roles``); a kernel's
  ``JUPYTERHUB_API_TOKEN`` gets it only if the spawner asks for it
  (``c.Spawner.server_token_scopes``, whose default, the ``server`` role, is
  ``users:activity!user`` and ``access:servers!server`` only). A valid token
  without it raises :class:`NoServiceAccess`. See the README, "Rooms on a
  JupyterHub".

Answers are cached (``cache_s``, HubAuth's five minutes by default), both "who"
and "no such token": a token revoked, or a user taken out of the teachers'
group, keeps its old answer until then.

No sockets of our own and no widgets: the HTTP to the hub is HubAuth's.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

HUB_TIMEOUT_S = 5.0  # the longest one question to the hub may take
CACHE_S = 300  # HubAuth's own default: answers are kept five minutes

_AUTH_HEADER = re.compile(r"^\s*(?:token|bearer)\s+(\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Identity:
    """A hub user as the room host sees them.

    Attributes:
        user: the hub user name (the student's name in the room).
        teacher: True for a member of the teachers' group or a hub admin.
        groups: the hub groups the user is in.
        admin: True for a hub admin.
    """

    user: str
    teacher: bool
    groups: frozenset[str]
    admin: bool


class HubUnavailable(Exception):
    """The hub could not be asked: not reachable, too slow, or it answered with
    an error of its own (the service's token refused, a 5xx). Says which URL."""


class NoServiceAccess(Exception):
    """A valid hub token that may not use this service: its scopes lack
    ``scope`` (``access:services!service=<name>``). ``user`` is its owner."""

    def __init__(self, user: str, scope: str):
        super().__init__(f"the hub token of {user!r} lacks the scope {scope!r}")
        self.user = user
        self.scope = scope


class HubIdentities:
    """Identifies hub tokens with JupyterHub's ``HubAuth``; answers are cached.

    Args:
        teachers_group: members of this hub group are teachers (None: only hub
            admins are).
        api_url: the hub's API URL (``http://127.0.0.1:8081/hub/api``); None:
            ``$JUPYTERHUB_API_URL`` as the hub sets it for a managed service.
        api_token: the service's own token; None: ``$JUPYTERHUB_API_TOKEN``.
            Not needed to identify a token (see the module's docstring).
        cache_s: seconds an answer (a user, or "no such token") is kept.
        service_name: the service's name in the hub; a token must hold
            ``access:services!service=<service_name>``. None:
            ``$JUPYTERHUB_SERVICE_NAME`` (set for a managed service) or, for an
            external service, the scopes in ``$JUPYTERHUB_OAUTH_ACCESS_SCOPES``;
            when none of these is set, no access scope is required.
        timeout_s: the longest one question to the hub may take.

    Raises:
        ImportError: ``jupyterhub`` is not installed (``pip install
            'triviador-nb[hub]'``).

    Questions go to the hub from one thread of this object's own (with its own
    event loop), so :meth:`identify_async` never blocks the caller's loop and
    HubAuth's cache is only ever touched from that thread. :meth:`close` (or
    the end of a ``with`` block) stops it.
    """

    def __init__(self, teachers_group: str | None, api_url: str | None = None, api_token: str | None = None,
                 cache_s: float = CACHE_S, *, service_name: str | None = None, timeout_s: float = HUB_TIMEOUT_S):
        from jupyterhub.services.auth import HubAuth

        options = {"cache_max_age": int(cache_s)}
        if api_url:
            options["api_url"] = api_url
        if api_token:
            options["api_token"] = api_token
        self._auth = HubAuth(**options)
        if service_name:
            self._auth.access_scopes = {f"access:services!service={service_name}"}
        self.teachers_group = teachers_group
        self.timeout_s = timeout_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def api_url(self) -> str:
        """The hub API URL asked."""
        return self._auth.api_url

    @property
    def access_scopes(self) -> frozenset[str]:
        """Scopes a token must hold (any one of them) to use this service."""
        return frozenset(self._auth.access_scopes)

    def identify(self, token: str) -> Identity | None:
        """The hub user owning ``token``, or None if it is no valid hub token.

        Blocks for at most ``timeout_s`` (a cached answer: no question to the hub).

        Raises:
            HubUnavailable: the hub cannot be asked.
            NoServiceAccess: the token may not use this service.
        """
        future = asyncio.run_coroutine_threadsafe(self._identify(token), self._ensure_loop())
        return future.result()

    async def identify_async(self, token: str) -> Identity | None:
        """:meth:`identify` for an event loop: awaits the answer, blocks nothing."""
        future = asyncio.run_coroutine_threadsafe(self._identify(token), self._ensure_loop())
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop the thread that asks the hub (a later identify starts it again)."""
        with self._lock:
            loop, thread, self._loop, self._thread = self._loop, self._thread, None, None
        if loop is not None:
            asyncio.run_coroutine_threadsafe(_close_http_client(), loop).result(self.timeout_s)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(self.timeout_s)
            loop.close()

    def __enter__(self) -> "HubIdentities":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="hub-identities", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def check_service(self) -> str:
        """Ask the hub whose this service's own token is: the service's name.
        For the host's start (fail fast, before any student connects).

        Raises:
            HubUnavailable: the hub cannot be asked, no service token is set,
                or the hub does not know the token as a service's.
        """
        return asyncio.run_coroutine_threadsafe(self._check_service(), self._ensure_loop()).result()

    async def _check_service(self) -> str:
        if not self._auth.api_token:
            raise HubUnavailable("no service token: JUPYTERHUB_API_TOKEN is not set (the hub sets it for a "
                                 "managed service; give an external one its api_token)")
        model = await self._ask(self._auth.api_token, use_cache=False)
        if model is None or model.get("kind") != "service":
            raise HubUnavailable(f"the hub at {self.api_url} does not know this service's token")
        return model["name"]

    async def _identify(self, token: str) -> Identity | None:
        if not token or not token.strip():
            return None
        model = await self._ask(token.strip())
        if model is None or model.get("kind", "user") != "user" or not model.get("name"):
            return None  # no such token, or a service's token: no person
        if self.access_scopes and not self._auth.check_scopes(self.access_scopes, model):
            raise NoServiceAccess(model["name"], sorted(self.access_scopes)[0])
        groups = frozenset(model.get("groups") or ())
        admin = bool(model.get("admin"))
        teacher = admin or (self.teachers_group is not None and self.teachers_group in groups)
        return Identity(user=model["name"], teacher=teacher, groups=groups, admin=admin)

    async def _ask(self, token: str, use_cache: bool = True) -> dict | None:
        """HubAuth's answer for ``token`` (its model, or None), within ``timeout_s``."""
        from tornado.web import HTTPError

        try:
            return await asyncio.wait_for(self._auth.user_for_token(token, use_cache=use_cache, sync=False),
                                          self.timeout_s)
        except asyncio.TimeoutError:
            raise HubUnavailable(f"the hub at {self.api_url} did not answer within {self.timeout_s:g} s") from None
        except HTTPError as error:
            raise HubUnavailable(f"the hub at {self.api_url} could not be asked: {error.log_message}") from None
        except Exception as error:  # the answer broke off, or was not the hub's JSON
            raise HubUnavailable(f"the hub at {self.api_url} gave no usable answer: {error!r}") from None


async def _close_http_client() -> None:
    """Close the HTTP session HubAuth opened on this loop (JupyterHub 6: aiohttp)."""
    try:
        from jupyterhub.httpclient import JupyterHubHTTPClient
    except ImportError:  # JupyterHub 5 uses tornado's client: nothing to close
        return
    client = JupyterHubHTTPClient._loop_instances.get(asyncio.get_running_loop())
    if client is None and JupyterHubHTTPClient.initialized():
        client = JupyterHubHTTPClient.instance()
        if client._loop is not asyncio.get_running_loop():
            client = None
    if client is not None:
        await client.close()


def token_from_headers(headers: Mapping[str, str]) -> str | None:
    """The hub token in ``Authorization: token <t>`` or ``Bearer <t>`` (any case),
    as a kernel sends it; None when there is none, or more than one.
    ``headers``: a ``websockets`` ``Headers`` (its ``get_all`` sees a repeated
    header) or any mapping of names to values, matched without regard to case."""
    if hasattr(headers, "get_all"):  # websockets' Headers: a repeated header is kept twice
        values = headers.get_all("Authorization")
    else:
        values = [v for k, v in headers.items() if k.lower() == "authorization"]
    if len(values) != 1 or not values[0]:
        return None  # none, or two: whose would it be?
    value = values[0]
    match = _AUTH_HEADER.match(value)
    return match.group(1) if match else None


def kernel_hub_token() -> str | None:
    """This kernel's own hub token (``$JUPYTERHUB_API_TOKEN``), or None outside a hub."""
    return os.environ.get("JUPYTERHUB_API_TOKEN") or None


def hub_service_url(name: str, hub_url: str | None = None) -> str | None:
    """The ``ws(s)://`` URL of the hub service ``name`` behind the hub's proxy.

    Args:
        name: the service's name (``triviador``).
        hub_url: the hub's public address as a browser opens it
            (``https://hub.example.org/`` or ``.../hub/``); None: from
            ``$JUPYTERHUB_PUBLIC_HUB_URL``, which a single-user server has only
            when the hub sets ``c.JupyterHub.public_url``.

    Returns:
        e.g. ``wss://hub.example.org/services/triviador/`` (the path keeps the
        hub's base URL, ``$JUPYTERHUB_BASE_URL``), or None when no public
        address is known: ``$JUPYTERHUB_API_URL`` names the hub's own API
        (``http://hub:8081/hub/api``, ``http://127.0.0.1:8081/hub/api``),
        which does not route ``/services/``, so the URL must then be given.
    """
    hub_url = hub_url or os.environ.get("JUPYTERHUB_PUBLIC_HUB_URL")
    if not hub_url or not hub_url.strip():
        return None
    hub_url = hub_url.strip()
    if "://" not in hub_url:
        hub_url = "https://" + hub_url
    parts = urlsplit(hub_url)
    scheme = {"https": "wss", "wss": "wss", "http": "ws", "ws": "ws"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        return None
    segments = [s for s in parts.path.split("/") if s]
    if segments and segments[-1] == "hub":
        segments.pop()  # the hub's own pages: the services are beside them
    if not segments:  # no path given: the hub's base URL, if this kernel knows it
        segments = [s for s in os.environ.get("JUPYTERHUB_BASE_URL", "/").split("/") if s]
    base = "/".join(["", *segments, ""])
    return f"{scheme}://{parts.netloc}{base}services/{name}/"
