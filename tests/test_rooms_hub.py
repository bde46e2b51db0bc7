"""Room connections identified by JupyterHub (issue 22), against a real hub.

A real JupyterHub (``python -m jupyterhub``) and its proxy
(``configurable-http-proxy`` from npm, installed by ``.ci/run``) run on
127.0.0.1 (``tests/hub_helpers.py``). Skipped where the proxy or jupyterhub
is missing, except in CI, where that fails. The tests of the pure helpers
(headers, URLs) run everywhere.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from websockets.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from hub_fake_server import Up
from hub_helpers import ADMIN, KERNEL_SCOPES, SERVICE, TEACHER, TEACHERS, CountingForwarder, free_port, hub, missing  # noqa: F401
from triviador_nb.rooms.identity import (
    HubIdentities,
    HubUnavailable,
    Identity,
    NoServiceAccess,
    hub_service_url,
    kernel_hub_token,
    token_from_headers,
)

MISSING = missing()
if MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the JupyterHub tests: {MISSING}")

ACCESS = f"access:services!service={SERVICE}"


def run_on_a_loop_of_its_own(coroutine):
    """Await ``coroutine`` on a new loop, leaving the thread's event loop as it
    was (``asyncio.run`` would leave the main thread with none: later tests
    that make a ``LoopClock`` there would fail)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coroutine)
    finally:
        loop.close()


@pytest.fixture
def identities(hub):
    with HubIdentities(TEACHERS, api_url=hub.api_url, api_token=hub.service_token, service_name=SERVICE) as found:
        yield found


# --- who a token is -------------------------------------------------------------------------


def test_a_student_a_teacher_by_group_and_an_admin_are_told_apart(hub, identities):
    assert identities.identify(hub.tokens["anna"]) == Identity("anna", teacher=False, groups=frozenset(), admin=False)
    assert identities.identify(hub.tokens["ben"]) == Identity("ben", teacher=False, groups=frozenset(), admin=False)
    assert identities.identify(hub.tokens[TEACHER]) == Identity(TEACHER, teacher=True, groups=frozenset({TEACHERS}),
                                                                admin=False)
    assert identities.identify(hub.tokens[ADMIN]) == Identity(ADMIN, teacher=True, groups=frozenset(), admin=True)


def test_without_a_teachers_group_only_hub_admins_teach(hub):
    with HubIdentities(None, api_url=hub.api_url, service_name=SERVICE) as only_admins:
        assert only_admins.identify(hub.tokens[TEACHER]).teacher is False
        assert only_admins.identify(hub.tokens[TEACHER]).groups == frozenset({TEACHERS})
        assert only_admins.identify(hub.tokens[ADMIN]).teacher is True


def test_a_made_up_or_empty_token_is_nobody(hub, identities):
    assert identities.identify("0" * 32) is None
    assert identities.identify("not-a-token") is None
    assert identities.identify("") is None
    assert identities.identify("   ") is None


def test_the_name_comes_from_the_token_never_from_the_client(hub, identities):
    # ben's token, whatever the client calls itself, is ben
    assert identities.identify(hub.tokens["ben"]).user == "ben"
    assert identities.identify(f"  {hub.tokens['ben']}  ").user == "ben"
    # the service's own token is no person
    assert identities.identify(hub.service_token) is None


def test_the_smallest_kernel_token_still_tells_groups_and_admin(hub, identities):
    """The hub lets every token read its owner's name, admin flag and groups on
    /hub/api/user: a token holding nothing but the access scope is enough."""
    tereza = hub.new_token(TEACHER, scopes=[ACCESS])
    admin = hub.new_token(ADMIN, scopes=[ACCESS])
    assert identities.identify(tereza) == Identity(TEACHER, teacher=True, groups=frozenset({TEACHERS}), admin=False)
    assert identities.identify(admin) == Identity(ADMIN, teacher=True, groups=frozenset(), admin=True)


def test_a_token_without_the_access_scope_may_not_use_the_service(hub, identities):
    activity_only = hub.new_token("anna", scopes=["users:activity!user"])  # the hub's default kernel token
    with pytest.raises(NoServiceAccess) as refused:
        identities.identify(activity_only)
    assert (refused.value.user, refused.value.scope) == ("anna", ACCESS)
    # a token with everything anna may do (the hub's default for a new token) includes the access
    assert identities.identify(hub.new_token("anna", scopes=None)).user == "anna"
    # without a service name (and no JUPYTERHUB_SERVICE_NAME) no access scope is asked for
    with HubIdentities(TEACHERS, api_url=hub.api_url) as lenient:
        assert lenient.access_scopes == frozenset()
        assert lenient.identify(activity_only).user == "anna"


def test_identify_async_answers_on_the_callers_loop(hub, identities):
    async def both():
        return await asyncio.gather(identities.identify_async(hub.tokens["anna"]),
                                    identities.identify_async(hub.tokens[TEACHER]))

    anna, tereza = run_on_a_loop_of_its_own(both())
    assert (anna.user, anna.teacher, tereza.user, tereza.teacher) == ("anna", False, TEACHER, True)


def test_the_service_checks_its_own_token_at_start(hub, identities, monkeypatch):
    assert identities.check_service() == SERVICE
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with (HubIdentities(TEACHERS, api_url=hub.api_url, service_name=SERVICE) as tokenless,
          pytest.raises(HubUnavailable, match="no service token: JUPYTERHUB_API_TOKEN is not set")):
        tokenless.check_service()
    with (HubIdentities(TEACHERS, api_url=hub.api_url, api_token="f" * 64, service_name=SERVICE) as wrong,
          pytest.raises(HubUnavailable, match="does not know this service's token")):
        wrong.check_service()


# --- the hub away, and the cache ------------------------------------------------------------


def test_a_hub_that_cannot_be_reached_raises_hub_unavailable(hub):
    nowhere = f"http://127.0.0.1:{free_port()}/hub/api"  # nothing listens there
    with (HubIdentities(TEACHERS, api_url=nowhere, service_name=SERVICE) as away,
          pytest.raises(HubUnavailable, match=f"the hub at {nowhere} could not be asked")):
        away.identify(hub.tokens["anna"])


def test_an_address_that_is_no_hub_raises_hub_unavailable(hub):
    """A web server that answers 200 with "up", not the hub's JSON (a wrong api_url)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Up)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/hub/api"
    try:
        with (HubIdentities(TEACHERS, api_url=url, service_name=SERVICE) as wrong,
              pytest.raises(HubUnavailable, match=f"the hub at {url} gave no usable answer")):
            wrong.identify(hub.tokens["anna"])
    finally:
        server.shutdown()
        server.server_close()


def test_a_silent_hub_times_out_without_blocking_the_event_loop(hub):
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/hub/api"
        with HubIdentities(TEACHERS, api_url=url, service_name=SERVICE, timeout_s=0.5) as slow:
            began = time.monotonic()
            with pytest.raises(HubUnavailable, match=r"did not answer within 0.5 s"):
                slow.identify(hub.tokens["anna"])
            assert time.monotonic() - began < 3.0

            async def ask_while_ticking():
                ticks = 0

                async def tick():
                    nonlocal ticks
                    while True:
                        await asyncio.sleep(0.01)
                        ticks += 1

                ticker = asyncio.create_task(tick())
                try:
                    await slow.identify_async(hub.tokens["ben"])
                except HubUnavailable:
                    pass
                ticker.cancel()
                return ticks

            assert run_on_a_loop_of_its_own(ask_while_ticking()) >= 10  # the loop ran on for the half-second wait


def test_answers_are_cached_and_the_cache_outlives_the_hub(hub):
    with (CountingForwarder(hub.api_url) as counter,
          HubIdentities(TEACHERS, api_url=counter.url, service_name=SERVICE, cache_s=300) as cached):
        assert cached.identify(hub.tokens["anna"]).user == "anna"
        assert counter.count == 1
        assert cached.identify(hub.tokens["anna"]).user == "anna"
        assert run_on_a_loop_of_its_own(cached.identify_async(hub.tokens["anna"])).user == "anna"
        assert counter.count == 1  # the second and third answers came from the cache
        assert cached.identify("f" * 32) is None
        assert cached.identify("f" * 32) is None
        assert counter.count == 2  # "no such token" is cached too
        assert cached.identify(hub.tokens[TEACHER]).teacher is True
        assert counter.count == 3
        counter.stop()  # the hub goes away: what was asked is still known
        assert cached.identify(hub.tokens["anna"]).user == "anna"
        with pytest.raises(HubUnavailable):
            cached.identify(hub.tokens["ben"])  # never asked: the hub must be


def test_a_cached_answer_expires_after_cache_s(hub):
    with (CountingForwarder(hub.api_url) as counter,
          HubIdentities(TEACHERS, api_url=counter.url, service_name=SERVICE, cache_s=1) as brief):
        brief.identify(hub.tokens["ben"])
        brief.identify(hub.tokens["ben"])
        assert counter.count == 1
        time.sleep(1.2)
        assert brief.identify(hub.tokens["ben"]).user == "ben"
        assert counter.count == 2


# --- the transport: a WebSocket through the hub's proxy ---------------------------------------


def _say(hub, header: str, text: str) -> str:
    with connect(hub.service_url, additional_headers={"Authorization": header}, open_timeout=5,
                 close_timeout=2) as ws:
        ws.send(text)
        return ws.recv(timeout=5)


def test_a_websocket_through_the_hubs_proxy_carries_the_kernels_token(hub):
    """/services/triviador/ on the proxy reaches the service's loopback port;
    the service reads the token from the handshake and the hub names its owner."""
    assert _say(hub, f"token {hub.tokens['anna']}", "hello") == "anna: hello"
    assert hub.service.seen[-1] == hub.tokens["anna"]
    assert _say(hub, f"Bearer {hub.tokens[TEACHER]}", "I am anna") == f"{TEACHER}: I am anna"
    assert hub.service.seen[-1] == hub.tokens[TEACHER]


def test_the_service_refuses_a_handshake_without_a_good_token(hub):
    with pytest.raises(InvalidStatus) as made_up:
        _say(hub, "token " + "0" * 32, "hello")
    assert made_up.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as none:
        with connect(hub.service_url, open_timeout=5):
            pass
    assert none.value.response.status_code == 401
    with pytest.raises(InvalidStatus) as no_access:
        _say(hub, "token " + hub.new_token("ben", scopes=["users:activity!user"]), "hello")
    assert no_access.value.response.status_code == 403
    assert b"access:services!service=triviador" in no_access.value.response.body


# --- the pure helpers (no hub) ----------------------------------------------------------------


@pytest.mark.parametrize("headers, token", [
    ({"Authorization": "token abc123"}, "abc123"),
    ({"authorization": "Bearer abc123"}, "abc123"),
    ({"AUTHORIZATION": "  TOKEN   abc123 "}, "abc123"),
    ({"Authorization": "bearer abc123"}, "abc123"),
    ({"Authorization": "Basic YW5uYTpwdw=="}, None),
    ({"Authorization": "token"}, None),
    ({"Authorization": "token a b"}, None),
    ({"Authorization": ""}, None),
    ({"Cookie": "token abc123"}, None),
    ({}, None),
])
def test_token_from_headers(headers, token):
    assert token_from_headers(headers) == token


def test_token_from_websockets_headers():
    assert token_from_headers(Headers([("AuThOrIzAtIoN", "Token xyz")])) == "xyz"
    assert token_from_headers(Headers([("Authorization", "token a1"), ("authorization", "token b2")])) is None


def test_kernel_hub_token(monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "kernel-token")
    assert kernel_hub_token() == "kernel-token"
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "")
    assert kernel_hub_token() is None
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN")
    assert kernel_hub_token() is None


@pytest.mark.parametrize("public, base, url", [
    ("https://hub.example.org/hub/", "/", "wss://hub.example.org/services/triviador/"),
    ("https://hub.example.org/prefix/hub/", "/prefix/", "wss://hub.example.org/prefix/services/triviador/"),
    ("http://127.0.0.1:8000/hub/", "/", "ws://127.0.0.1:8000/services/triviador/"),
    ("https://hub.example.org", "/prefix/", "wss://hub.example.org/prefix/services/triviador/"),
    ("https://github.example.org/myhub/", "/", "wss://github.example.org/myhub/services/triviador/"),
])
def test_hub_service_url_from_the_kernels_environment(monkeypatch, public, base, url):
    monkeypatch.setenv("JUPYTERHUB_PUBLIC_HUB_URL", public)
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", base)
    assert hub_service_url(SERVICE) == url


def test_hub_service_url_needs_a_public_address(monkeypatch):
    """A kernel's JUPYTERHUB_API_URL names the hub's own API, which does not
    route /services/: without a public address there is no URL to guess."""
    monkeypatch.delenv("JUPYTERHUB_PUBLIC_HUB_URL", raising=False)
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://hub:8081/hub/api")
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/")
    assert hub_service_url(SERVICE) is None
    assert hub_service_url(SERVICE, "hub.example.org") == "wss://hub.example.org/services/triviador/"
    assert hub_service_url(SERVICE, "ftp://hub.example.org/") is None
    assert hub_service_url(SERVICE, "   ") is None


def test_kernel_scopes_in_the_helpers_match_the_readme():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert f'c.Spawner.server_token_scopes = {KERNEL_SCOPES!r}'.replace("'", '"') in readme


def test_a_real_kernels_environment_reaches_the_service(hub, identities):
    """The hub spawns anna's server (a stand-in that keeps its environment, as
    a kernel inherits it): its JUPYTERHUB_API_TOKEN, with the README's
    server_token_scopes, identifies anna, and hub_service_url from its
    environment (public_url set) is the proxy's /services/triviador/."""
    env = hub.start_server("anna")
    assert env["JUPYTERHUB_API_URL"] == hub.api_url  # the hub's own API, not the proxy
    assert env["JUPYTERHUB_BASE_URL"] == "/"
    assert env["JUPYTERHUB_PUBLIC_HUB_URL"] == f"http://127.0.0.1:{hub.proxy_port}/hub/"
    assert identities.identify(env["JUPYTERHUB_API_TOKEN"]) == Identity("anna", teacher=False, groups=frozenset(),
                                                                        admin=False)
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        url, token = hub_service_url(SERVICE), kernel_hub_token()
    assert url == hub.service_url
    with connect(url, additional_headers={"Authorization": f"token {token}"}, open_timeout=5) as ws:
        ws.send("from my kernel")
        assert ws.recv(timeout=5) == "anna: from my kernel"
