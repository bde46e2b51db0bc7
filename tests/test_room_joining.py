"""Joining and rejoining a room with nothing typed, the join form's address,
the join link and its QR code, and the teacher's lobby (issue 24's "Joining
and rejoining" and the lobby's first bullet).

A real loopback room; widgets on ManualClocks (each kernel's loop). The
notebook cell that runs ``join()`` is stood in for by ``cells.running_cell``.
"""

from __future__ import annotations

import os
import re
import stat
import time

import pytest
import segno
from room_helpers import wait_until

from triviador_nb.classroom import ManualClock
from triviador_nb.rooms import RoomHost
from triviador_nb.ui import cells, rejoin, student
from triviador_nb.ui.join_link import PageInfo, join_link, link_query
from triviador_nb.ui.joining import join
from triviador_nb.ui.student import StudentScreen
from triviador_nb.ui.map_styles import MAP_CSS
from triviador_nb.ui.styles import CSS
from triviador_nb.ui.teacher import HostScreen


@pytest.fixture(autouse=True)
def _keys_in_a_temporary_home(token_home, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    rejoin.set_live(None)
    yield
    rejoin.set_live(None)


@pytest.fixture
def room():
    room_host = RoomHost()
    yield room_host, room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5)
    room_host.close()


@pytest.fixture
def cell(monkeypatch):
    """The join cell of a notebook: ``run()`` is one more run of it."""
    runs = iter(range(1, 1000))
    current = {}

    def run() -> None:
        current["run"] = ("join-cell", f"run-{next(runs)}")
    monkeypatch.setattr(cells, "running_cell", lambda: current.get("run"))
    return run


def test_rerunning_the_join_cell_after_a_reload_shows_the_same_screen_still_in_its_seat(room, cell):
    """A reload keeps the kernel: the cell run again shows the live screen, no
    new connection, no form (on main it closed the screen and showed an empty form)."""
    room_host, the_room = room
    cell()
    anna = join(the_room.code, "Anna")
    assert wait_until(lambda: anna.client.seat == 0)
    connection = anna.client
    cell()  # the page reloaded; the student runs the cell again: `screen = join()` as join.ipynb has it
    again = join()
    assert again is anna and again.client is connection and connection.status == "joined"
    assert connection.rejoins == 0 and not anna._closed and anna.form.layout.display == "none"
    cell()
    assert join(the_room.code.lower(), "anna") is anna  # the same code and name typed again: the same screen
    cell()
    other = join(the_room.code, "Ben")  # another name is another join
    assert other is not anna and anna._closed and other.client.name == "Ben"
    other.close()


def test_after_a_kernel_restart_join_with_nothing_typed_is_back_in_the_seat(room, cell, monkeypatch):
    room_host, the_room = room
    cell()
    anna = join(the_room.code, "Anna", address="127.0.0.1")
    assert wait_until(lambda: anna.client.seat == 0)
    token = anna.client.token
    kept = rejoin.memory_file()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    last = rejoin.recall()
    assert (last.code, last.name, last.address, last.in_room) == (the_room.code, "Anna", "127.0.0.1", True)
    monkeypatch.setenv("JPY_SESSION_NAME", "rooms/join-Ben.ipynb")  # another student's notebook, one account
    assert rejoin.recall() is None
    monkeypatch.delenv("JPY_SESSION_NAME")
    # the kernel dies: its connection drops, its memory is gone
    anna.client.close()
    rejoin.set_live(None)
    cell()
    began = time.monotonic()
    back = join()
    assert back is not anna and back.client is not None and back.client.status == "joined"
    assert (back.code_box.value, back.name_box.value, back.address_box.value) == (the_room.code, "Anna",
                                                                                  "127.0.0.1")
    assert wait_until(lambda: back.client.seat == 0) and back.client.token == token
    print(f"\nback in seat 1 {time.monotonic() - began:.3f} s after join() in a restarted kernel")
    back.close()


RESTARTED_KERNEL = r"""
import asyncio, json, re, sys

MAP_SCREEN = ("ipyleaflet", "numpy", "shapely", "triviador_nb.ui.screen", "triviador_nb.ui.map_view",
              "triviador_nb.classroom.table", "triviador_nb.classroom.journal", "triviador_nb.rooms.host")

def seen(screen):
    return {"loaded": [m for m in MAP_SCREEN if m in sys.modules], "line": re.sub("<[^>]+>", "", screen.header.value),
            "lobby": re.sub("<[^>]+>", "", screen.lobby.value), "drawn": screen.screen is not None,
            "body": [c is getattr(screen.screen, "widget", None) for c in screen.body.children]}

async def main():
    from triviador_nb.ui import join
    from triviador_nb.ui import joining

    shown = {}

    def show(client, language):  # what a kernel shows at once, and what it had loaded by then
        shown.update(loaded=[m for m in ("ipywidgets", *MAP_SCREEN) if m in sys.modules],
                     line=re.sub("<[^>]+>", "", joining.line_html(client, language)))
        return None  # (no kernel here to show it in)
    joining._show_line = show
    screen = join()  # join.ipynb's cell, nothing typed
    client = screen.client
    cell = {**seen(screen), "status": client.status, "seat": client.seat, "token": client.token,
            "came_back": client.came_back, "shown": shown}
    for _ in range(600):  # then the kernel's loop draws the game (at most 60 s)
        if screen.screen is not None and "connected" in screen.header.value:
            break
        await asyncio.sleep(0.1)
    print(json.dumps({"cell": cell, "after": seen(screen)}))
    screen.close()

asyncio.run(main())
"""


def test_a_restarted_kernel_is_back_in_its_seat_before_the_map_is_imported(room, cell):
    """Issue 24, "from the moment the student's kernel is ready: in the seat
    within 1 s, nothing typed": a restarted kernel's join cell takes the seat
    back with its kept key and its room line says so ("back in your seat"),
    with ipyleaflet, numpy, shapely, the game screen and the table not yet
    imported; the map is imported and drawn after the cell, on the kernel's
    loop, and the line then says "connected". One screen: the body holds the
    game screen alone. (How fast: benchmarks/rejoin.py.)"""
    import json
    import subprocess
    import sys

    room_host, the_room = room
    cell()
    anna = join(the_room.code, "Anna")
    assert wait_until(lambda: anna.client.seat == 0)
    the_room.start()
    assert wait_until(lambda: anna.client.view is not None)
    token = anna.client.token
    anna.client.close()  # the kernel dies: no goodbye, its memory gone
    rejoin.set_live(None)
    run = subprocess.run([sys.executable, "-c", RESTARTED_KERNEL], capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    kernel = json.loads(run.stdout.strip().splitlines()[-1])
    at_return, after = kernel["cell"], kernel["after"]
    assert (at_return["status"], at_return["seat"], at_return["token"], at_return["came_back"]) == (
        "joined", 0, token, True)
    assert at_return["loaded"] == [] and not at_return["drawn"] and at_return["body"] == [], at_return
    # the line was shown the moment the seat was taken, before any widget was imported
    assert at_return["shown"]["loaded"] == [], at_return["shown"]
    assert at_return["shown"]["line"] == f"Room {the_room.code} · Anna · seat 1 · back in your seat"
    assert re.fullmatch(rf"Room {the_room.code} · Anna · seat 1( \(red\))? · back in your seat", at_return["line"]), \
        at_return["line"]
    assert at_return["lobby"] == "The game is under way: your map is on its way…"  # not "waiting for Start"
    assert after["drawn"] and after["body"] == [True], after
    assert after["line"] == f"Room {the_room.code} · Anna · seat 1 (red) · connected" and after["lobby"] == ""
    assert {"ipyleaflet", "triviador_nb.ui.screen"} <= set(after["loaded"])
    assert [(m.name, m.seat) for m in the_room.members()] == [("Anna", 0)]  # her seat, no second one


def test_a_student_s_join_imports_nothing_of_the_teacher_s_screen():
    """Issue 24: a restarted kernel's rejoin is mostly its import. ``from
    triviador_nb.ui import join`` and a join load neither the QR code
    library (the teacher's screen draws the code), nor pandas and the
    reports, nor the setup form, the teacher's screen or the banks, nor
    (until the seat is taken) the map: ipyleaflet, numpy, shapely."""
    import subprocess
    import sys

    code = ("import sys; from triviador_nb.ui import join; import triviador_nb.ui.student; "
            "print([m for m in ('segno', 'pandas', 'openpyxl', 'triviador_nb.reports', 'triviador_nb.banks', "
            "'triviador_nb.ui.setup', 'triviador_nb.ui.teacher', 'triviador_nb.ui.join_link', 'ipyleaflet', "
            "'numpy', 'shapely', 'triviador_nb.ui.screen') if m in sys.modules])")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['triviador_nb.ui.join_link']"  # (the link's code and address fill the form)


def test_an_old_join_or_a_closed_room_fills_the_form_and_waits_for_join(room, cell):
    room_host, the_room = room
    rejoin.remember(rejoin.LastJoin(the_room.code, "Anna", "", time.time() - rejoin.REJOIN_WITHIN_S - 60))
    cell()
    old = join()
    assert old.client is None and (old.code_box.value, old.name_box.value) == (the_room.code, "Anna")
    rejoin.remember(rejoin.LastJoin(the_room.code, "Anna", "", time.time(), in_room=False))
    cell()
    closed = join()
    assert closed.client is None and closed.code_box.value == the_room.code
    closed.join_button.click()  # one press
    assert closed.client is not None and closed.client.status == "joined"
    closed.close()


def test_a_closed_room_is_remembered_as_left(room):
    room_host, the_room = room
    clock = ManualClock()
    anna = StudentScreen(the_room.code, "Anna", clock=clock)
    assert rejoin.live() is anna and rejoin.recall().in_room
    room_host.close()
    assert wait_until(lambda: (clock.run_pending(), anna.client.status in ("closed", "refused"))[1])
    clock.run_pending()
    assert rejoin.live() is None and rejoin.recall().in_room is False


def test_the_join_form_takes_the_address_of_another_computer(room):
    room_host, the_room = room
    form = StudentScreen(clock=ManualClock())
    assert form.elsewhere.get_title(0) == "Another computer?" and form.elsewhere.selected_index is None
    assert form.address_box in form.elsewhere.children[0].children
    form.code_box.value = the_room.code
    form.address_box.value = f"127.0.0.1:{room_host.port}"
    form.name_box.value = "Cleo"  # Enter in the name box joins
    assert form.client is not None and form.client.url == f"ws://127.0.0.1:{room_host.port}"
    assert rejoin.recall().address == f"127.0.0.1:{room_host.port}"
    form.close()
    wrong = StudentScreen(clock=ManualClock())
    wrong.code_box.value, wrong.name_box.value = the_room.code, ""
    wrong.address_box.value = "127.0.0.9:1"
    wrong.name_box.value = "Dora"
    assert wrong.client is None and "No room answered at ws://127.0.0.9:1" in wrong.header.value
    shown = StudentScreen(address="127.0.0.7", clock=ManualClock())
    assert shown.elsewhere.selected_index == 0 and shown.address_box.value == "127.0.0.7"


def _page(origin: str, path: str, base: str = "/", hub: str = "", loaded_from: str = "") -> PageInfo:
    page = PageInfo()
    tree = path.split("/tree/", 1)[1] if "/tree/" in path else ""
    page.config = {"baseUrl": base, "hubPrefix": hub, "treePath": tree}
    page.loaded_from, page.path, page.origin = loaded_from or origin + path, path, origin
    return page


def test_the_join_link_opens_join_ipynb_beside_the_teacher_s_notebook():
    lab = _page("http://127.0.0.1:8888", "/lab/tree/notebooks/host.ipynb")
    assert join_link(lab, "k7pq45") == "http://127.0.0.1:8888/lab/tree/notebooks/join.ipynb?code=K7-PQ45"
    assert join_link(lab, "K7-PQ45", "127.0.0.7:8765") == (
        "http://127.0.0.1:8888/lab/tree/notebooks/join.ipynb?code=K7-PQ45&address=127.0.0.7%3A8765")
    hub = _page("https://hub.example.org", "/user/teacher/lab/tree/class/host.ipynb", base="/user/teacher/",
                hub="/hub/")
    assert join_link(hub, "K7-PQ45", "wss://hub.example.org/services/triviador/") == (
        "https://hub.example.org/hub/user-redirect/lab/tree/class/join.ipynb?code=K7-PQ45"
        "&address=wss%3A%2F%2Fhub.example.org%2Fservices%2Ftriviador%2F")
    voila = _page("http://127.0.0.1:8866", "/voila/render/host.ipynb")
    assert join_link(voila, "K7-PQ45") == "http://127.0.0.1:8866/voila/render/join.ipynb?code=K7-PQ45"
    assert join_link(PageInfo(), "K7-PQ45") is None  # no browser has said where the page is


def test_a_join_link_fills_the_form(monkeypatch):
    page = _page("http://127.0.0.1:8888", "/lab/tree/join.ipynb",
                 loaded_from="http://127.0.0.1:8888/lab/tree/join.ipynb?code=K7-PQ45&address=127.0.0.7&x=1")
    assert link_query(page) == {"code": "K7-PQ45", "address": "127.0.0.7"}
    form = StudentScreen(clock=ManualClock())
    form.page.loaded_from = page.loaded_from  # the browser reports the address the page was loaded from
    assert form.client is None and form.code_box.value == "K7-PQ45"
    assert form.address_box.value == "127.0.0.7" and form.elsewhere.selected_index == 0
    monkeypatch.setenv("QUERY_STRING", "code=AB-CDEF")  # Voila gives the kernel the page's query
    assert StudentScreen(clock=ManualClock()).code_box.value == "AB-CDEF"


def test_a_join_link_of_a_hungarian_room_opens_the_form_in_hungarian(monkeypatch):
    """The tryout of issue 24: a student whose kernel has no Hungarian in its environment opened the
    Hungarian teacher's link and met an English form. The link carries the room's language; the form
    takes it before the join, unless the student chose a language."""
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    lab = _page("http://127.0.0.1:8888", "/lab/tree/notebooks/host.ipynb")
    link = join_link(lab, "K7-PQ45", language="hu")
    assert link == "http://127.0.0.1:8888/lab/tree/notebooks/join.ipynb?code=K7-PQ45&lang=hu"
    form = StudentScreen(clock=ManualClock())
    assert form.join_button.description == "Join"
    form.page.loaded_from = link  # the browser reports the address the page was loaded from
    assert form.language == "hu" and form.code_box.value == "K7-PQ45"
    assert (form.code_box.description, form.name_box.description, form.join_button.description) == (
        "Szobakód", "Neved", "Belépés")
    assert form.elsewhere.titles == ("Másik gépen?",)
    chosen = StudentScreen(clock=ManualClock(), language="cs")
    chosen.page.loaded_from = link
    assert chosen.language == "cs" and chosen.join_button.description != "Belépés"
    made_up = StudentScreen(clock=ManualClock())
    before = made_up.language
    made_up.page.loaded_from = link.replace("lang=hu", "lang=xx")  # no such catalogue: the form stays as it was
    assert made_up.language == before != "xx" and made_up.code_box.value == "K7-PQ45"


def qr_matrix_drawn(svg: str) -> list[list[int]]:
    """The modules segno's SVG path draws (rows of 0/1, the quiet zone included)."""
    size = int(re.search(r'd="M0 0h(\d+)v', svg).group(1))
    path = re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path):
        if command in "Mm":
            x, y = (float(a), float(b)) if command == "M" else (x + float(a), y + float(b))
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = 1
            x += float(a)
    return grid


def test_the_teacher_s_screen_shows_the_link_and_its_qr_code(room):
    room_host, the_room = room
    teacher = HostScreen(room_host, [the_room], clock=ManualClock())
    try:
        assert "<svg" not in teacher.codes.value  # before a browser says where the page is served
        teacher.page.config = {"baseUrl": "/", "hubPrefix": "", "treePath": "notebooks/host.ipynb"}
        teacher.page.path = "/lab/tree/notebooks/host.ipynb"
        teacher.page.origin = "http://127.0.0.1:8888"
        teacher.clock.run_pending()
        link = f"http://127.0.0.1:8888/lab/tree/notebooks/join.ipynb?code={the_room.code}&lang=en"  # the room speaks English
        assert f'href="{link.replace("&", "&amp;")}"' in teacher.codes.value
        svg = re.search(r"<svg.*?</svg>", teacher.codes.value).group(0)
        expected = segno.make(link, error="m", micro=False)
        with_border = [[0] * 4 + list(row) + [0] * 4 for row in expected.matrix]
        blank = [[0] * len(with_border[0])] * 4
        assert qr_matrix_drawn(svg) == blank + with_border + blank
    finally:
        teacher.close()


def _style_rules(widget) -> str:
    found = []

    def walk(node) -> None:
        value = getattr(node, "value", None)
        if isinstance(value, str) and "<style>" in value:
            found.append(value)
        for child in getattr(node, "children", ()):
            walk(child)
    walk(widget)
    return "".join(found)


def test_the_lobby_shows_the_code_large_the_names_as_they_come_and_the_count(room):
    room_host, the_room = room
    clock = ManualClock()
    teacher = HostScreen(room_host, [the_room], clock=clock)
    try:
        styles = _style_rules(teacher.widget)  # no map on the page yet
        code_rule = re.search(r"\.tnb-code \{[^}]*font-size: (\d+)px", styles)
        assert code_rule and int(code_rule.group(1)) >= 48, "the room code's style came only with the map"
        assert ".tnb-code" not in MAP_CSS and ".tnb-code" in CSS
        assert "0 of 3 seats" in _lobby(teacher)
        anna = StudentScreen(the_room.code, "Anna", clock=ManualClock())
        assert wait_until(lambda: (clock.run_pending(), "1 of 3 seats" in _lobby(teacher))[1])
        assert '<span class="tnb-joined-name">Anna</span>' in _lobby(teacher)
        ben = StudentScreen(the_room.code, "Ben", clock=ManualClock())
        assert wait_until(lambda: (clock.run_pending(), "2 of 3 seats" in _lobby(teacher))[1])
        assert re.search(r'tnb-joined-name">Anna</span><span class="tnb-joined-name">Ben<', _lobby(teacher))
        anna.close(), ben.close()
    finally:
        teacher.close()


def _lobby(teacher) -> str:
    return teacher.joined.value


def test_several_rooms_are_labelled_each_with_its_own_join_line():
    room_host = RoomHost("127.0.0.1", 0)  # a port of its own: the join lines name the address and port
    rooms = [room_host.open_room(seed=s) for s in (1, 2)]
    teacher = HostScreen(room_host, rooms, clock=ManualClock())
    try:
        html = teacher.codes.value
        for n, r in enumerate(rooms, 1):
            assert re.search(rf'Room {n}</span><span class="tnb-code">{r.code}</span><code>join\(&quot;{r.code}'
                             r"&quot;, name=&quot;…&quot;, address=&quot;[^&]+&quot;\)</code>", html), html
        assert "the line beside your room&#x27;s code" in html
        assert "0 of 6 seats" in teacher.overview.value and "Room 2</b> " + rooms[1].code in teacher.overview.value
    finally:
        teacher.close()
        room_host.close()


def test_the_screen_takes_the_place_of_the_room_line_shown_before_it(room, monkeypatch):
    """One output, one screen (issue 24): the room line a restarted kernel
    showed at once is replaced by the student's screen when the cell shows
    it; shown again later (another cell), the screen is a new output."""
    room_host, the_room = room

    class Display:  # the display of the line, as IPython's display(..., display_id=True) returns it
        def __init__(self):
            self.updates = []

        def update(self, obj):
            self.updates.append(obj)

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    anna = StudentScreen(the_room.code, "Anna", clock=ManualClock())
    line = anna.shown_line = Display()
    anna._ipython_display_()
    assert line.updates == [anna.widget] and shown == [] and anna.shown_line is None
    anna._ipython_display_()
    assert shown == [anna.widget] and line.updates == [anna.widget]
    anna.close()


def test_the_line_shown_at_once_speaks_the_room_s_language():
    """The line a restarted kernel shows before any widget speaks the room's
    language (the teacher's), or the kernel's when it has no catalogue for it."""
    from types import SimpleNamespace

    from triviador_nb.ui import joining

    client = SimpleNamespace(code="K7-PQ45", name="Anna", seat=1, status="joined", came_back=True, language="hu")
    text = re.sub("<[^>]+>", "", joining.line_html(client))
    assert text == "Szoba: K7-PQ45 · Anna · 2. hely · újra a helyeden"
    client.language = "xx"
    assert re.sub("<[^>]+>", "", joining.line_html(client)) == "Room K7-PQ45 · Anna · seat 2 · back in your seat"
    assert re.sub("<[^>]+>", "", joining.line_html(client, "cs")) == \
        "Místnost K7-PQ45 · Anna · místo 2 · zpět na svém místě"
