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
    return int(re.search(r"(\d+)", screen.panel.timer.label).group(1))


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
                  and not room.table.paused and anna.screen.panel.timer.label
                  and projector.panel.timer.label)
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


def test_a_student_whose_seat_a_bot_plays_is_told_and_told_again_when_it_is_handed_back(room_setup):
    """Issue 24 bug 3: the teacher's "Bot plays it" shows on the student's
    own screen (not "you" as if they played), and no answer controls."""
    from triviador_nb.ui.student import StudentScreen

    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: anna.client.lobby)
    teacher.start_button.click()
    assert settle(tclock, aclock, condition=lambda: anna.screen is not None)
    assert '"tnb-role">you · ' in anna.screen.scoreboard.value
    room.hand_to_bot(0)
    assert settle(tclock, aclock, condition=lambda: "A bot is playing your seat; the teacher can hand it back."
                  in anna.screen.message.value)
    assert "a bot plays for you" in anna.screen.scoreboard.value
    room.hand_back(0)
    assert settle(tclock, aclock, condition=lambda: "The teacher handed your seat back to you: play on."
                  in anna.screen.message.value)
    assert "a bot plays for you" not in anna.screen.scoreboard.value
    anna.close()


def test_a_team_mate_s_click_after_the_team_chose_says_what_the_team_chose(room_setup):
    """Issue 24 bug 3: Anna and Ben play seat 1 as a team; Anna chooses,
    then Ben clicks: his screen says what the team chose, not "it is not
    your turn"."""
    from triviador_nb.ui.student import StudentScreen

    room_host, room, teacher, tclock = room_setup
    aclock, bclock = ManualClock(), ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    ben = StudentScreen(room.code, "Ben", clock=bclock)
    assert settle(tclock, aclock, bclock, condition=lambda: ben.client.lobby and anna.client.lobby)
    room.assign("Ben", 0)
    assert settle(tclock, aclock, bclock, condition=lambda: ben.client.seat == 0)
    teacher.start_button.click()
    assert settle(tclock, aclock, bclock, condition=lambda: anna.screen is not None and ben.screen is not None)

    def team_to_choose() -> bool:
        v = anna.screen.view
        return (v.started and not v.paused and v.prompt.kind in ("base", "pick") and bool(v.prompt.choices)
                and anna.screen._shown == v.state_id)
    def answering_until_the_team_chooses() -> bool:
        screen = anna.screen
        v = screen.view
        if not v.paused and v.prompt.kind == "answer" and screen._shown == v.state_id and screen.panel._accepting:
            if v.question.kind == "guess":
                screen.panel.guess_box.value = str(room.table.game.question.question.answer)  # right: first to pick
            else:
                screen.panel.choice_buttons[0].click()
        return team_to_choose()
    assert settle(tclock, aclock, bclock, step=0.05, timeout=60, condition=answering_until_the_team_chooses)
    while team_to_choose():  # the team's picks (the first to answer right picks more than one)
        choices = anna.screen.view.prompt.choices
        anna.screen.map_view.click(choices[0])
        chosen = anna.screen.view.territory(choices[0]).name
        settle(tclock, aclock, bclock, timeout=0.5, condition=lambda: False)
    v = ben.screen.view
    assert v.prompt.kind not in ("base", "pick") and any(t.name == chosen and t.owner == 0 for t in v.territories)
    free = next(t.id for t in v.territories if t.owner is None)
    ben.screen.map_view.click(free)
    assert f"Your team chose {chosen}." in ben.screen.message.value
    assert "not your turn" not in ben.screen.message.value
    anna.close(), ben.close()


def test_a_pause_warning_goes_when_the_teacher_resumes_and_the_question_can_be_answered_again():
    """Issue 24 bug 3: an answer pressed while the game is held is refused
    with a warning; Resume clears it and the question takes answers again."""
    from triviador_nb.ui import play

    clock = ManualClock()
    app = play(seed=3, clock=clock, journal=False)
    app.start()
    clock.advance(1.0)
    app.controls.pause_button.click()
    app.panel.guess_box.value = "1848"
    assert "paused" in app.message.value and "tnb-warn" in app.message.value
    assert 0 not in app.game.question.answers
    app.controls.pause_button.click()  # Resume
    clock.advance(0.5)
    assert app.message.value == ""
    assert not app.panel.guess_box.disabled and app.panel._accepting
    app.panel.guess_box.value = "1849"
    assert app.game.question.answers[0].value == 1849


def _find(widget, kind, text):
    """The first widget of ``kind`` under ``widget`` whose description or value holds ``text``."""
    if isinstance(widget, kind) and text in (getattr(widget, "description", "") or "") + str(
            getattr(widget, "value", "")):
        return widget
    for child in getattr(widget, "children", ()):
        found = _find(child, kind, text)
        if found is not None:
            return found
    return None


def test_remove_asks_first_and_the_teacher_can_let_the_student_back_in(room_setup):
    """Issue 24 bug 3: "remove from the room" in the seat list only asks;
    Take out removes; the student cannot come back by themselves, and Let
    back in gives them their seat again with their own key."""
    import ipywidgets as w

    from triviador_nb.ui.student import StudentScreen

    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: _find(teacher.lobby, w.Dropdown, "Anna") is not None)
    _find(teacher.lobby, w.Dropdown, "Anna").value = "remove"  # one pick in the list: only a question
    assert [m.name for m in room.members()] == ["Anna"]
    assert _find(teacher.lobby, w.HTML, "Take Anna out of the room?") is not None
    _find(teacher.lobby, w.Button, "Cancel").click()
    assert _find(teacher.lobby, w.HTML, "Take Anna out of the room?") is None
    assert _find(teacher.lobby, w.Dropdown, "Anna").value == 0  # still in seat 1
    _find(teacher.lobby, w.Dropdown, "Anna").value = "remove"
    _find(teacher.lobby, w.Button, "Take out").click()
    assert room.members() == []
    assert settle(tclock, aclock, condition=lambda: "The teacher took you out of the room." in anna.header.value)
    again = StudentScreen(room.code, "Anna", clock=ManualClock())  # the join cell run again: still out
    assert again.client is None and "The teacher took you out of the room" in again.header.value
    assert settle(tclock, condition=lambda: _find(teacher.lobby, w.Button, "Let Anna back in") is not None)
    _find(teacher.lobby, w.Button, "Let Anna back in").click()
    assert [(m.name, m.seat) for m in room.members()] == [("Anna", 0)]
    back = StudentScreen(room.code, "Anna", clock=ManualClock())  # her key fits again
    assert back.client is not None and back.client.seat == 0
    assert settle(tclock, condition=lambda: _find(teacher.lobby, w.Button, "Let Anna back in") is None)
    anna.close(), back.close()


# ---------------------------------------------------------------- the single screen: saved games, the teacher's box

def test_the_saved_game_list_tells_games_apart_and_leaves_out_unplayed_and_bots_only_games(token_home):
    """Issue 24 bug 6: four Run Alls of play.ipynb listed four identical
    lines, every one a game nobody played (and the bots' demonstration).
    Listed now: games a person moved in, with the game's number and how
    far it went; a game closed before anyone moved leaves no file."""
    from triviador_nb.classroom.journal import journals_dir, saved_games
    from triviador_nb.ui import play
    from triviador_nb.ui.setup import saved_label

    clock = ManualClock()
    unplayed = play(seed=11, clock=clock)
    unplayed_path = unplayed.journal_path
    unplayed.close()  # the cell run again before anyone moved
    assert not unplayed_path.exists()
    demo = play(you=None, bots=("easy", "medium", "hard"), seed=2024, clock=clock)
    demo.autoplay()  # play.ipynb's demonstration: bots only
    for seed, guesses in ((21, ["1848"]), (22, ["1848", "1900"])):
        app = play(seed=seed, clock=clock)
        app.start()
        for guess in guesses:
            app.panel.guess_box.value = guess
            for _ in range(200):  # on to the next question the person answers
                clock.advance(0.25)
                if app.panel._accepting and app.game.question is not None and app.game.question.is_guess:
                    break
        app.close()  # played: the file stays
    found = saved_games(folder=journals_dir())
    assert [g.game for g in found] == [22, 21]
    labels = [saved_label(g) for g in found]
    assert len(set(labels)) == 2 and all(" · ConQUIZtador · Your team · game " in label for label in labels)
    assert labels[0].split(" · ")[3:] == ["game 22", f"{found[0].moves} moves"] and found[0].moves > 3


def test_a_single_screen_game_s_journal_is_made_at_start_not_when_the_page_opens(token_home):
    """Issue 24 bug 6: every page open of play.ipynb wrote a journal (deleted
    again on close, but left behind when the kernel died first). The file is
    made at the first move, Start, with the whole game so far; opened and
    closed unplayed, the journals folder stays empty."""
    from triviador_nb.classroom import read_journal
    from triviador_nb.classroom.journal import journals_dir
    from triviador_nb.ui import play

    clock = ManualClock()
    opened = play(seed=11, clock=clock)
    assert opened.journal is None and opened.journal_path.parent == journals_dir()
    assert not journals_dir().exists() or list(journals_dir().iterdir()) == []  # the page is open: no file
    opened.close()
    assert not journals_dir().exists() or list(journals_dir().iterdir()) == []
    app = play(seed=12, clock=clock)
    assert not app.journal_path.exists()
    app.start()
    assert app.journal is not None and app.journal.path == app.journal_path and app.journal_path.exists()
    for _ in range(200):  # the get-ready, then the first question
        clock.advance(0.25)
        if app.panel._accepting and app.game.question is not None and app.game.question.is_guess:
            break
    app.panel.guess_box.value = "1848"
    contents = read_journal(app.journal_path)
    assert contents.header["setup"]["humans"] == ["Your team"] and len(contents.games) == 1
    assert contents.games[0]["seed"] == 12 and contents.games[0]["record"] == [str(e) for e in app.game.record]
    assert any(line.startswith("answer p1 1848") for line in contents.games[0]["record"])
    assert "triviador_nb.resume(" in app.controls.saved.value  # the teacher's box says where, once it is there
    app.close()
    assert [p.name for p in journals_dir().glob("*.journal")] == [app.journal_path.name]


def test_a_journal_named_by_the_teacher_is_refused_at_once_when_its_file_exists(token_home, tmp_path):
    from triviador_nb.ui import play

    taken = tmp_path / "lesson.journal"
    taken.write_text("mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError, match="lesson.journal exists already: a new game is saved to a new file"):
        play(seed=3, clock=ManualClock(), journal=taken)
    assert taken.read_text(encoding="utf-8") == "mine\n"
    fresh = play(seed=3, clock=ManualClock(), journal=tmp_path / "new.journal")
    fresh.close()  # never started: no file, even for a path the teacher chose
    assert not (tmp_path / "new.journal").exists()


def test_a_student_s_own_game_folds_the_teacher_s_box_away_and_undo_ends_with_the_game():
    """Issue 24 bug 6: a student playing alone against bots meets no
    teacher's box in their way (folded at the bottom, closed); after the
    end there is no Undo, Pause, Skip or End, only Save report."""
    import ipywidgets as w

    from triviador_nb.ui import play

    clock = ManualClock()
    app = play(seed=3, clock=clock, journal=False)
    controls = app.controls
    assert isinstance(controls.widget, w.Accordion) and controls.widget.selected_index is None
    assert app.side.children[-1] is controls.widget  # below the log, out of the way
    app.start()
    clock.advance(1.0)
    app.panel.guess_box.value = "1848"
    assert not controls.undo_button.disabled
    controls.end_button.click()
    assert app.game.is_over
    assert controls.undo_button.disabled
    assert [b.layout.display for b in (controls.pause_button, controls.skip_button, controls.undo_button,
                                       controls.end_button, controls.report_button)] == ["none"] * 4 + [None]


def test_the_class_s_shared_screen_keeps_the_teacher_s_box_open_and_shows_options_for_the_room():
    """Where the teacher runs the game (teams at one screen) the box stays
    open under the question; the options are the watching screen's cards."""
    from triviador_nb.ui import play

    app = play(teams=["Foxes", "Owls"], bots=["medium"], seed=11, clock=ManualClock(), journal=False)
    assert app.controls.widget is app.controls.box and app.controls.widget in app.side.children
    assert "tnb-watch" in app.panel.widget._dom_classes


def test_the_projector_has_the_teacher_s_buttons_on_top_and_no_answer_controls(room_setup):
    """Issue 24 bug 7: a room's projector shows no number box and no "You
    watch this one.", folds the rows for entering a student's answer,
    puts the teacher's buttons at the top beside the map, and after End
    shows only what makes sense (Save report here, Play again above)."""
    import ipywidgets as w

    from triviador_nb.ui.student import StudentScreen

    room_host, room, teacher, tclock = room_setup
    aclock = ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    assert settle(tclock, aclock, condition=lambda: anna.client.lobby)
    teacher.start_button.click()
    assert settle(tclock, aclock, condition=lambda: room.code in teacher.controls)
    projector, controls = teacher.screens[room.code], teacher.controls[room.code]
    assert teacher.lobby.layout.display == "none" and teacher.seats_toggle.layout.display is None  # folded
    teacher.seats_toggle.value = True
    assert teacher.lobby.layout.display is None and "Anna" in str([c for c in teacher.lobby.children])
    teacher.seats_toggle.value = False
    assert projector.side.children[0] is controls.widget
    assert "tnb-watch" in projector.panel.widget._dom_classes
    folded = [c for c in controls.entry_box.children if isinstance(c, w.Accordion)]
    assert len(folded) == 1 and folded[0].selected_index is None and list(controls.entries) == [0]
    assert settle(tclock, aclock, step=0.05, condition=lambda: projector.view.question is not None
                  and projector._shown == projector.view.state_id)
    assert projector.panel.guess_row not in projector.panel.controls.children
    assert "You watch this one." not in projector.panel.feedback.value
    if projector.view.question.options:
        assert projector.panel.controls.children == tuple(projector.panel.choice_buttons)
    controls.end_button.click()
    assert settle(tclock, aclock, condition=lambda: projector.view.is_over and controls.undo_button.disabled)
    assert [b.layout.display for b in (controls.pause_button, controls.skip_button, controls.undo_button,
                                       controls.end_button, controls.report_button)] == ["none"] * 4 + [None]
    assert controls.entry_box.layout.display == "none"  # no answers to enter after the end
    assert settle(tclock, condition=lambda: teacher.again_button.layout.display is None)
    anna.close()


def test_the_readme_s_install_gives_the_teacher_the_voila_it_tells_them_to_run():
    """Issue 24 bug 6: the README says ``voila notebooks/classroom.ipynb``;
    its first install command must install Voila."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "voila notebooks/classroom.ipynb" in readme
    first = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    extras = re.search(r'pip install -e "\.\[([a-z,]+)\]"', first).group(1).split(",")
    optional = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(req.startswith("voila") for extra in extras for req in optional[extra])
