"""Issue 24's classroom bugs on the screens, headless (widget state on a
ManualClock): the countdown after the teacher's Resume, what a student
whose seat a bot plays is told, a team-mate's late click, a pause warning
after Resume, Remove with a confirmation and a way back, the teacher's box
on a student's own screen, the saved-game list, and the projector's
controls after End."""

from __future__ import annotations

import re

import pytest

from triviador_nb.classroom import ManualClock


def seconds_shown(screen) -> int:
    """The whole seconds the question panel's countdown shows ("7 s" -> 7)."""
    return int(re.search(r"(\d+)", screen.panel.timer_label.value).group(1))


def test_the_countdown_ticks_again_after_the_teacher_s_resume():
    """Issue 24 bug 1 (D16's Pause keeps the time left): after Resume the
    countdown goes on from where it stood, on the same question."""
    from triviador_nb.ui import play

    clock = ManualClock()
    app = play(seed=3, clock=clock, journal=False)
    app.start()
    assert app.game.question.is_guess and seconds_shown(app) == 10  # D3: a guess question's 10 s
    clock.advance(2.0)
    assert seconds_shown(app) == 8
    app.controls.pause_button.click()
    clock.advance(30.0)
    assert seconds_shown(app) == 8 and app.table.time_left() == pytest.approx(8.0)
    app.controls.pause_button.click()  # Resume: the same question, 8 s left
    clock.advance(3.0)
    assert seconds_shown(app) == 5
    clock.advance(2.0)
    assert seconds_shown(app) == 3 and app.panel.timer.value == 3


# ---------------------------------------------------------------- a room: a student's screen and the projector

@pytest.fixture
def room_setup(token_home):
    from triviador_nb.rooms import RoomHost
    from triviador_nb.ui.teacher import HostScreen

    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5)
    teacher_clock = ManualClock()
    teacher = HostScreen(room_host, [room], clock=teacher_clock)
    yield room_host, room, teacher, teacher_clock
    teacher.close()


def settle(*clocks, condition=lambda: True, timeout=10.0, step=0.0):
    """Run the widgets' handed-over work (advancing each clock ``step`` s a
    round) until ``condition()`` (bounded)."""
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for clock in clocks:
            clock.advance(step) if step else clock.run_pending()
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_the_countdown_ticks_again_after_resume_on_the_student_s_screen_and_the_projector(room_setup):
    """Issue 24 bug 1 in a room: the student's remote screen and the
    teacher's projector count the same question down again after Resume."""
    import time

    from triviador_nb.ui.student import StudentScreen

    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: anna.client.lobby)
    teacher.start_button.click()
    assert settle(tclock, aclock, condition=lambda: anna.screen is not None and room.code in teacher.controls)
    projector, controls = teacher.screens[room.code], teacher.controls[room.code]
    assert settle(tclock, aclock, step=0.05, condition=lambda: room.table.game.stage == "answer"
                  and not room.table.paused and anna.screen.panel.timer_label.value
                  and projector.panel.timer_label.value)
    asked = room.table.state_id
    controls.pause_button.click()
    assert settle(tclock, aclock, step=0.05, condition=lambda: anna.screen.view.paused and projector.view.paused)
    frozen = (seconds_shown(anna.screen), seconds_shown(projector))
    time.sleep(1.2)
    assert settle(tclock, aclock, step=0.25, timeout=0.3, condition=lambda: False) is False
    assert (seconds_shown(anna.screen), seconds_shown(projector)) == frozen  # held: nothing counts
    controls.pause_button.click()
    assert settle(tclock, aclock, step=0.05, condition=lambda: not anna.screen.view.paused
                  and not projector.view.paused)
    assert room.table.state_id == asked  # the same question goes on
    assert settle(tclock, aclock, step=0.25, timeout=4.0,
                  condition=lambda: seconds_shown(anna.screen) <= frozen[0] - 2
                  and seconds_shown(projector) <= frozen[1] - 2)
    anna.close()
