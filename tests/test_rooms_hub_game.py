"""A whole room played through a real JupyterHub (issue 22): the room host is
the hub's service, behind the hub's proxy; a teacher and two students are hub
users, each known by their own hub token, never by a typed name.

The hub, its proxy and the users' tokens come from :mod:`hub_helpers`
(everything on 127.0.0.1); the host is a :class:`RoomHost` with the hub's
identities, on the service's port.
"""

from __future__ import annotations

import pytest
from hub_helpers import SERVICE, TEACHERS, configurable_http_proxy, free_port, missing, start_hub
from room_helpers import play_to_the_end, wait_until

from triviador_nb.rooms import JoinError, RoomClient, RoomHost
from triviador_nb.rooms.identity import HubIdentities
from triviador_nb.rooms.teacher_client import RoomRefused, TeacherClient

MISSING = missing()


@pytest.fixture(autouse=True)
def _keys_in_a_temporary_home(token_home):
    pass


@pytest.fixture(scope="module")
def hub_service(tmp_path_factory):
    """(hub, host, the service's URL through the proxy)."""
    if MISSING:
        pytest.skip(MISSING)
    service_port = free_port()
    room_host = RoomHost("127.0.0.1", service_port, journals=False)  # listening before the hub asks for it
    running = None
    try:
        running = start_hub(tmp_path_factory.mktemp("jupyterhub"), configurable_http_proxy(),
                            service_port=service_port)
        room_host.hub = HubIdentities(TEACHERS, api_url=running.api_url, api_token=running.service_token,
                                      service_name=SERVICE)
        yield running, room_host, f"ws://127.0.0.1:{running.proxy_port}/services/{SERVICE}/"
    finally:
        room_host.close()
        if room_host.hub is not None:
            room_host.hub.close()
        if running is not None:
            running.stop()


def test_a_teacher_and_two_students_play_a_whole_room_as_hub_users(hub_service):
    running, room_host, url = hub_service
    tokens = running.tokens
    with pytest.raises(RoomRefused) as refused:
        TeacherClient(url, hub_token=tokens["anna"])  # a student is refused the teacher's role
    assert refused.value.code == "not_a_teacher"
    with pytest.raises(RoomRefused):
        TeacherClient(url, hub_token="made-up-token")  # the hub does not know it: the handshake is refused
    tereza = TeacherClient(url, hub_token=tokens["tereza"])
    admin = TeacherClient(url, hub_token=tokens["admin"])
    students = []
    try:
        assert tereza.who == "tereza" and tereza.codes == []
        code = tereza.open_room("conquiztador", "hungary", "general_knowledge_en", seed=11, pace=0.02,
                                journal=False)
        from triviador_nb.classroom import ManualClock
        from triviador_nb.ui.teacher import HostScreen

        screen = HostScreen(tereza, None, clock=ManualClock())  # her screen: join through the hub, no name to type
        assert f'join("{code}", address="{url}")' in screen.codes.value.replace("&quot;", '"')
        assert "type the code and press Join" in screen.codes.value and "port" not in screen.codes.value
        assert admin.codes == []  # another teacher's room: not listed, not reachable
        with pytest.raises(RoomRefused) as refused:
            admin.command("start", code)
        assert refused.value.code == "no_such_room"
        with pytest.raises(JoinError) as refused_join:
            RoomClient(code, "anna", address=url, hub_token="made-up-token")
        assert refused_join.value.code == "not_allowed" and "HTTP 403" in str(refused_join.value)
        # the name is the hub user's, whatever is typed: Ben cannot pass for Anna
        anna = RoomClient(code, "Anna Typed", address=url, hub_token=tokens["anna"])
        students.append(anna)
        ben = RoomClient(code, "anna", address=url, hub_token=tokens["ben"])
        students.append(ben)
        assert (anna.name, anna.seat, ben.name, ben.seat) == ("anna", 0, "ben", 1)
        assert wait_until(lambda: [p["name"] for p in tereza.states[code]["people"]] == ["anna", "ben"])
        tereza.command("start", code)
        assert wait_until(lambda: anna.view is not None and ben.view is not None)
        tereza.command("hold", code)
        assert wait_until(lambda: anna.held and ben.held)
        tereza.command("release", code)
        accepted = play_to_the_end([anna, ben], timeout=240)
        assert accepted > 10 and wait_until(lambda: anna.view.is_over and ben.view.is_over)
        assert wait_until(lambda: tereza.views[code].is_over)
        table = room_host.rooms[code.replace("-", "")].table
        seats = {getattr(a, "player", None) for a in table.game.record}
        assert {0, 1} <= seats  # both students' own moves are in the record
        assert [p.name for p in table.game.players][:2] == ["anna", "ben"]
    finally:
        for client in students:
            client.close()
        tereza.close(), admin.close()
