"""The room screens headless: the teacher's host screen and two students'
screens, clicked as people would, over a real loopback room (issue 11).

Widgets live on a ManualClock each (standing in for each kernel's loop), so
the test runs every handed-over refresh itself; the host runs on its thread.
"""

from __future__ import annotations

import time

import pytest
from room_helpers import wait_until

from triviador_nb.classroom import ManualClock
from triviador_nb.rooms import RoomHost
from triviador_nb.ui.student import StudentScreen
from triviador_nb.ui.teacher import HostScreen


@pytest.fixture(autouse=True)
def _keys_in_a_temporary_home(token_home):
    pass


@pytest.fixture
def room_setup():
    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5)
    teacher_clock = ManualClock()
    teacher = HostScreen(room_host, [room], clock=teacher_clock)
    yield room_host, room, teacher, teacher_clock
    teacher.close()


def lobby_text(teacher, row=None) -> str:
    """The text of the teacher's lobby (or of one of its rows)."""
    def text(widget) -> str:
        own = getattr(widget, "value", "") if hasattr(widget, "value") and isinstance(widget.value, str) else ""
        return own + "".join(text(c) for c in getattr(widget, "children", ()))
    rows = teacher.lobby.children if row is None else [teacher.lobby.children[row]]
    return "".join(text(r) for r in rows)


def settle(*clocks, condition=lambda: True, timeout=10.0):
    """Run the widgets' handed-over work until ``condition()`` (bounded)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for clock in clocks:
            clock.run_pending()
        if condition():
            return True
        time.sleep(0.01)
    return False


def in_the_reveal(view, seat: int, given: int) -> bool:
    """The last result on ``view`` shows ``seat``'s answer ``given``."""
    return view.reveal is not None and {"seat": seat, "given": given} in [
        {"seat": a["seat"], "given": a["given"]} for a in view.reveal.data["answers"]]


def test_the_teacher_sees_the_code_the_lobby_and_then_the_projector(room_setup):
    room_host, room, teacher, tclock = room_setup
    assert room.code in teacher.codes.value and "join.ipynb" in teacher.codes.value
    assert "Nobody has joined yet." in lobby_text(teacher)
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: "Anna" in lobby_text(teacher, 0))
    assert "Seat 1</b>: Anna<" in lobby_text(teacher, 0)
    assert "Waiting for the teacher to press Start" in anna.lobby.value
    assert f"Room {room.code} · Anna · seat 1 · connected" in anna.header.value
    teacher.start_button.click()
    assert room.started and teacher.start_button.layout.display == "none"
    assert settle(tclock, aclock, condition=lambda: anna.screen is not None and teacher.screens)
    projector = teacher.screens[room.code]
    assert projector.seat is None and f"room {room.code}" in projector.title.value
    assert "game 5" not in projector.title.value and "game 5" not in anna.screen.title.value  # the seed stays hidden
    assert anna.screen.start_button.layout.display == "none"
    anna.close()


def test_a_student_plays_by_clicking_and_the_projector_follows(room_setup):
    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: anna.client.lobby)
    teacher.start_button.click()
    assert settle(tclock, aclock, condition=lambda: anna.screen is not None)
    screen = anna.screen
    clicks = answers = 0
    end = time.monotonic() + 90
    while time.monotonic() < end and not screen.view.is_over:
        aclock.run_pending(), tclock.run_pending()
        v = screen.view
        if not v.paused and v.prompt.kind in ("base", "pick", "claim", "attack") and v.prompt.choices:
            screen.map_view.click(v.prompt.choices[0])
            clicks += 1
        elif not v.paused and v.prompt.kind == "answer" and screen._shown == v.state_id \
                and screen.panel._accepting:
            given = 1848 if v.question.kind == "guess" else 1
            if v.question.kind == "guess":
                screen.panel.guess_box.value = "1848"
            else:
                screen.panel.choice_buttons[1].click()
            # the panel says the answer went in, or (Anna answering last) the result with it is on screen already
            assert settle(aclock, condition=lambda: "Answer sent:" in screen.panel.feedback.value
                          or in_the_reveal(screen.view, 0, given))
            answers += 1
        time.sleep(0.01)
    assert screen.view.is_over and clicks >= 3 and answers >= 5  # a whole game, clicked
    assert settle(aclock, condition=lambda: screen.ranking.value != "")
    projector = teacher.screens[room.code]
    assert settle(tclock, condition=lambda: projector.ranking.value != "")
    assert [p.score for p in projector.view.players] == [p.score for p in screen.view.players]
    assert projector.ranking.value == screen.ranking.value and "Anna" in projector.scoreboard.value
    assert screen.play_again.layout.display == "none"  # only the teacher starts another game
    anna.close()


def test_a_wrong_code_or_a_taken_name_is_a_message_not_a_traceback(room_setup):
    room_host, room, teacher, tclock = room_setup
    wrong = StudentScreen("22-2222" if room.code != "22-2222" else "22-3333", "Cleo", clock=ManualClock())
    assert wrong.client is None and wrong.form.layout.display != "none"
    assert "No room answered at ws://127.0.0.1:41000" in wrong.header.value or "There is no room" in wrong.header.value
    bad = StudentScreen("K7-PQ0", "Cleo", clock=ManualClock())
    assert "is not a room code: a room code is six letters and digits, like K7-PQ45" in bad.header.value
    first = StudentScreen(room.code, "Dora", clock=ManualClock())
    assert first.client is not None
    import os
    os.environ["TRIVIADOR_NB_HOME"] = os.environ["TRIVIADOR_NB_HOME"] + "-other"  # another student's account
    second = StudentScreen(room.code, "dora", clock=ManualClock())
    assert second.client is None and "Someone called Dora is in room" in second.header.value
    empty = StudentScreen(room.code, "   ", clock=ManualClock())
    assert "Type your name to join." in empty.header.value
    first.close()


def test_the_teacher_makes_a_team_and_hands_a_seat_to_a_bot(room_setup):
    room_host, room, teacher, tclock = room_setup
    aclock, bclock = ManualClock(), ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    ben = StudentScreen(room.code, "Ben", clock=bclock)
    assert settle(tclock, condition=lambda: "Ben" in lobby_text(teacher, 1))
    choosers = teacher.lobby.children[-1].children
    ben_seat = next(d for d in choosers if d.description == "Ben")
    ben_seat.value = 0  # Ben joins Anna's seat: a team
    assert settle(tclock, aclock, bclock, condition=lambda: ben.client.seat == 0)
    assert settle(tclock, condition=lambda: "Seat 1</b>: Anna, Ben" in lobby_text(teacher, 0))
    teacher.start_button.click()
    assert [p.name for p in room.table.game.players] == ["Anna & Ben", "Bot 2 (medium)", "Bot 3 (medium)"]
    assert settle(tclock, aclock, bclock, condition=lambda: anna.screen is not None and ben.screen is not None)
    assert anna.screen.seat == ben.screen.seat == 0
    hand = next(c for c in teacher.lobby.children[0].children if getattr(c, "description", "") == "Bot plays it")
    hand.click()
    assert 0 in room.table.bots and room.roles()[0] == {"kind": "bot", "skill": "medium"}
    assert settle(tclock, condition=lambda: any(getattr(c, "description", "") == "Hand back"
                                                for c in teacher.lobby.children[0].children))
    next(c for c in teacher.lobby.children[0].children if c.description == "Hand back").click()
    assert 0 not in room.table.bots
    anna.close(), ben.close()


def test_several_rooms_on_one_overview():
    room_host = RoomHost()
    rooms = [room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=s) for s in (1, 2, 3)]
    tclock = ManualClock()
    teacher = HostScreen(room_host, rooms, clock=tclock)
    try:
        assert len({r.code for r in rooms}) == 3 and len({r.code[:2] for r in rooms}) == 1  # one host, one port
        assert all(r.code in teacher.codes.value for r in rooms)
        assert teacher.overview.value.count("lobby · 0 seated") == 3
        clients = [StudentScreen(r.code, f"Student {i}", clock=ManualClock()) for i, r in enumerate(rooms)]
        assert settle(tclock, condition=lambda: teacher.overview.value.count("lobby · 1 seated") == 3)
        teacher.start_all.click()
        assert all(r.started for r in rooms)
        assert settle(tclock, condition=lambda: "lobby" not in teacher.overview.value)
        teacher.choose.value = rooms[2].code
        assert teacher.shown == rooms[2].code and teacher.game.children == (teacher.screens[rooms[2].code].widget,)
        assert wait_until(lambda: rooms[2].view(None) is not None)
        for c in clients:
            c.close()
    finally:
        teacher.close()


def test_the_teacher_pauses_enters_an_oral_answer_and_ends_a_room_game(room_setup):
    """Issue 12: the controls work on a room's host too (on the room's thread)."""
    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: anna.client.lobby)
    teacher.start_button.click()
    assert settle(tclock, aclock, condition=lambda: anna.screen is not None and room.code in teacher.controls)
    controls = teacher.controls[room.code]
    assert controls.widget in teacher.screens[room.code].side.children
    assert list(controls.entries) == [0]  # Anna's seat; the others are bots
    assert wait_until(lambda: room.table.game.stage == "answer" and not room.table.paused
                      and 0 in room.table.game.question.waiting_for)
    controls.pause_button.click()
    assert room.table.held and settle(tclock, aclock, condition=lambda: anna.screen.view.paused)
    asked = room.table.game.question
    controls.entries[0].value = "1848" if asked.is_guess else "B"  # Anna said it aloud
    given = 1848 if asked.is_guess else 1
    if room.table.game.question is asked:  # the bots wait while the game is held, unless they answered before
        entered = asked.answers[0]
        assert (entered.value if asked.is_guess else entered.option) == given
        # the row says "answer in" while the game is held: a held question still takes answers
        assert settle(tclock, aclock, condition=lambda: "answer in" in controls.entry_status[0].value
                      and anna.screen.view.question.my_answer == given), controls.entry_status[0].value
    else:  # Anna's was the last answer: the result shows it
        assert in_the_reveal(room.table.view(None), 0, given)
    controls.pause_button.click()
    assert not room.table.held
    controls.end_button.click()
    assert room.table.game.is_over
    assert settle(tclock, aclock, condition=lambda: anna.screen.view.is_over and anna.screen.ranking.value != "")
    anna.close()


def test_the_same_teacher_screen_runs_a_lesson_on_a_host_in_another_process(tmp_path, monkeypatch):
    """Issue 22: ``teach(url, key)`` gives the screen of ``host()`` against a
    ``triviador-nb host`` process it holds no object of: two rooms, a student
    seated, Pause, Undo, End, play again with the same code."""
    import os
    import re
    import subprocess
    import sys

    from triviador_nb.ui import teacher as teacher_module

    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "home"))
    process = subprocess.Popen([sys.executable, "-m", "triviador_nb", "host", "--rooms", "0", "--for", "120"],
                               stdout=subprocess.PIPE, text=True, env={**os.environ})
    screen = anna = ben = None
    try:
        process.stdout.readline()
        url, key = re.search(r'teach\("([^"]+)", key="([^"]+)"\)', process.stdout.readline()).groups()
        tclock = ManualClock()
        monkeypatch.setattr(teacher_module, "LoopClock", lambda: tclock)
        screen = teacher_module.teach(url, key=key, rooms=2, pace=0.05)
        first, second = screen.room_codes
        assert first != second and first in screen.codes.value and second in screen.codes.value
        assert screen.overview.value.count("lobby · 0 seated") == 2
        anna = StudentScreen(first, "Anna", clock=ManualClock())
        ben = StudentScreen(first, "Ben", clock=ManualClock())
        assert settle(tclock, condition=lambda: "Ben" in lobby_text(screen))
        ben_seat = next(d for d in screen.lobby.children[-1].children if d.description == "Ben")
        ben_seat.value = "watch"  # the teacher moves Ben out of his seat...
        assert settle(tclock, condition=lambda: "Seat 2</b>: free" in lobby_text(screen, 1))
        ben_seat = next(d for d in screen.lobby.children[-1].children if d.description == "Ben")
        ben_seat.value = 2  # ...and into seat 3
        assert settle(tclock, condition=lambda: "Seat 3</b>: Ben" in lobby_text(screen, 2))
        screen.start_button.click()
        assert settle(tclock, condition=lambda: first in screen.controls)
        controls, projector = screen.controls[first], screen.screens[first]
        assert controls.widget in projector.side.children and sorted(controls.entries) == [0, 2]
        controls.pause_button.click()
        assert settle(tclock, condition=lambda: anna.client.held and controls.pause_button.description == "Resume")
        controls.pause_button.click()
        assert settle(tclock, condition=lambda: not anna.client.held)
        assert settle(tclock, condition=lambda: not controls.undo_button.disabled, timeout=30)
        controls.undo_button.click()
        assert "The last move was taken back." in controls.message.value
        controls.end_button.click()
        assert settle(tclock, condition=lambda: projector.view.is_over and anna.client.view.is_over)
        assert "The game was ended: the ranking stands." in controls.message.value
        assert settle(tclock, condition=lambda: screen.again_button.layout.display is None)
        screen.again_button.click()  # the same room, code and seats
        assert screen.again_button.layout.display == "none"
        assert settle(tclock, condition=lambda: not anna.client.view.is_over and anna.client.code == first)
        controls.report_folder = tmp_path
        controls.report_button.click()
        assert controls.last_report and controls.last_report[0].suffix == ".xlsx"
        assert controls.last_report[0].stat().st_size > 1000
        screen.choose.value = second
        assert "Nobody has joined yet." in lobby_text(screen)
    finally:
        for student in (anna, ben):
            if student is not None:
                student.close()
        if screen is not None:
            screen.close()
        process.kill()
        process.wait(timeout=10)
        process.stdout.close()


def test_a_refusal_and_a_closing_are_worded_by_the_students_screen_in_its_language(room_setup):
    """Issue 22: refusals travel as codes and data; the screen words them (a
    Hungarian student reads Hungarian, whatever the host's English says)."""
    from triviador_nb.i18n import set_language

    room_host, room, teacher, tclock = room_setup
    first = StudentScreen(room.code, "Dora", clock=ManualClock())
    import os
    os.environ["TRIVIADOR_NB_HOME"] = os.environ["TRIVIADOR_NB_HOME"] + "-other"  # another student's account
    try:
        set_language("hu")
        second = StudentScreen(room.code, "dora", clock=ManualClock(), language="hu")
        assert second.client is None
        assert f"Valaki Dora néven már bent van a(z) {room.code} szobában" in second.header.value, second.header.value
    finally:
        set_language("en")
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: "Anna" in lobby_text(teacher))
    room.remove("Anna")
    assert settle(aclock, condition=lambda: "The teacher took you out of the room." in anna.header.value)
    first.close(), anna.close()
