"""Languages on the screens (issue 12 part 6): the setup form's language
field, play()/host()/join() in a language, and a room's language reaching
its students' screens. A tiny Hungarian catalogue is written for each test
into the teacher's languages folder, where it replaces the project's hu.po.
"""

from __future__ import annotations

import time

import pytest
from room_helpers import RawClient, wait_until

from triviador_nb.classroom import ManualClock
from triviador_nb.i18n import LanguageError, current_language, languages, set_language
from triviador_nb.rooms import RoomClient, RoomHost
from triviador_nb.ui import host, join, play, setup
from triviador_nb.ui.student import StudentScreen
from triviador_nb.ui.teacher import HostScreen

HU_PO = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: hu\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Language"
msgstr "Nyelv"

msgid "Rule set"
msgstr "Szabályok"

msgid "New game"
msgstr "Új játék"

msgid "Your team"
msgstr "A csapatod"

msgid "realistic"
msgstr "valósághű"

msgid "Pause"
msgstr "Szünet"

msgid "Start the game"
msgstr "Indítsd a játékot"

msgid "connected"
msgstr "kapcsolódva"

msgid "Room {code} · {name} · {where} · {state}"
msgstr "{code} szoba · {name} · {where} · {state}"

msgid "seat {n}"
msgstr "{n}. hely"

msgid "{rules} ({n} player)"
msgid_plural "{rules} ({n} players)"
msgstr[0] "{rules} ({n} játékos)"
msgstr[1] "{rules} ({n} játékos)"

msgctxt "map"
msgid "Hungary"
msgstr "Magyarország"

msgctxt "rule set"
msgid "Duel"
msgstr "Párbaj"
'''


@pytest.fixture(autouse=True)
def hungarian(token_home, tmp_path):
    """A Hungarian catalogue in this test's own home; English again after the test."""
    folder = tmp_path / "home" / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hu.po").write_text(HU_PO, encoding="utf-8")
    yield folder
    set_language("en")


@pytest.fixture
def clock():
    return ManualClock()


def settle(*clocks, condition, timeout: float = 10.0) -> bool:
    """Run the widgets' handed-over work until ``condition()`` (bounded)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for c in clocks:
            c.run_pending()
        if condition():
            return True
        time.sleep(0.01)
    return False


# --- the setup form ---------------------------------------------------------------------------


def test_the_setup_form_offers_the_languages_first_and_relabels_itself_in_the_one_chosen(clock):
    form = setup(clock=clock, seed=3)
    try:
        assert form.fold.children[0].children[0].children[0] is form.language_choice  # the first field
        assert list(form.language_choice.options) == [("English", "en"), ("Čeština", "cs"), ("Magyar", "hu")]
        assert form.language_choice.value == "en" and form.new_game.description == "New game"
        assert form.map.label == "Hungary" and form.rules.label == "ConQUIZtador (3 players)"
        form.rules.value = "duel"
        form.language_choice.value = "hu"
        assert form.new_game.description == "Új játék"
        assert form.language_choice.description == "Nyelv" and form.rules.description == "Szabályok"
        assert form.map.label == "Magyarország" and form.map.value == "hungary"  # pgettext(MAP, title)
        assert form.rules.label == "Párbaj (2 játékos)" and form.rules.value == "duel"  # the choice is kept
        assert form.pace.label == "valósághű" and form.pace.value == 1.0
        assert form.you.value == "A csapatod"  # the default name follows; a typed one would stay
        assert form.app.language == "en" and current_language() == "en"  # the game below is the one made before
        form.new_game.click()
        app = form.app
        assert app.language == "hu" and current_language() == "hu"  # the game and the kernel speak it now
        assert app.controls.pause_button.description == "Szünet"
        assert app.game.players[0].name == "A csapatod" and app.game.rules.name == "duel"
        form.language_choice.value = "en"
        assert form.new_game.description == "New game" and form.you.value == "Your team"
    finally:
        form.close()


def test_a_language_file_that_cannot_be_read_is_said_under_the_form(clock, hungarian):
    (hungarian / "de.po").write_text('msgid "Pause"\nPause, not a .po line\n', encoding="utf-8")
    form = setup(clock=clock, seed=3)
    try:
        assert "de" in dict(form.language_choice.options).values()
        form.language_choice.value = "de"
        assert "de.po, line" in form.error.value
        assert form.language_choice.value == "en" and form.language == "en"
        assert form.new_game.description == "New game"
    finally:
        form.close()


def test_setup_in_hungarian_from_the_python_call(clock):
    form = setup(clock=clock, seed=3, language="hu")
    try:
        assert form.language_choice.value == "hu" and form.new_game.description == "Új játék"
        assert form.app.controls.pause_button.description == "Szünet" and current_language() == "hu"
    finally:
        form.close()


# --- play(), host(), join() in a language ------------------------------------------------------


def test_play_in_a_language_speaks_it_and_makes_it_the_kernels(clock):
    app = play(seed=5, clock=clock, language="HU", journal=False)
    try:
        assert app.language == "hu" and current_language() == "hu"
        assert app.controls.pause_button.description == "Szünet"
        assert app.game.players[0].name == "A csapatod"
    finally:
        app.close()
    english = play(seed=5, clock=clock, language="en", journal=False)
    try:
        assert english.controls.pause_button.description == "Pause"
        assert english.game.players[0].name == "Your team"
    finally:
        english.close()


@pytest.mark.parametrize("call", [
    lambda: play(seed=5, clock=ManualClock(), language="xx", journal=False),
    lambda: setup(clock=ManualClock(), language="xx"),
    lambda: host(language="xx"),
    lambda: join(language="xx"),
])
def test_a_language_that_is_not_there_is_refused_with_the_languages_there_are(call):
    with pytest.raises(LanguageError) as refused:
        call()
    assert str(refused.value).startswith("there is no language 'xx'; there are en (English), cs (Čeština), "
                                         "hu (Magyar).")
    assert current_language() == "en"


# --- rooms ------------------------------------------------------------------------------------


@pytest.fixture
def hungarian_room():
    set_language("hu")  # the teacher's kernel speaks Hungarian when the room is opened
    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5, language=current_language())
    tclock = ManualClock()
    teacher = HostScreen(room_host, [room], clock=tclock)
    set_language("en")  # a student's kernel (the same one here) speaks English
    yield room, teacher, tclock
    teacher.close()


def test_the_room_sends_its_language_in_the_welcome(hungarian_room):
    room, teacher, _tclock = hungarian_room
    assert room.language == "hu" and teacher.language == "hu"
    assert teacher.start_button.description == "Indítsd a játékot"
    raw = RawClient(room.rooms.port)
    try:
        welcome = raw.join(room.code, "Raw")
        assert welcome["v"] == 1 and welcome["language"] == "hu"
    finally:
        raw.close()
    client = RoomClient(room.code, "Cili")
    try:
        assert client.language == "hu"
    finally:
        client.close()


def test_a_students_screen_speaks_the_rooms_language_unless_the_student_chose_one(hungarian_room):
    room, teacher, tclock = hungarian_room
    aclock, bclock = ManualClock(), ManualClock()
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    ben = StudentScreen(room.code, "Ben", clock=bclock, language="en")
    try:
        assert anna.client.language == "hu" and anna.language == "hu"
        assert ben.client.language == "hu" and ben.language == "en"
        assert settle(tclock, aclock, bclock, condition=lambda: len(room.members()) == 2)
        room.assign("Anna", 0)
        room.assign("Ben", 1)
        assert settle(aclock, bclock, condition=lambda: "1. hely" in anna.header.value
                      and "seat 2" in ben.header.value)
        assert f"{room.code} szoba · Anna · 1. hely · kapcsolódva" in anna.header.value
        assert f"Room {room.code} · Ben · seat 2 · connected" in ben.header.value
        teacher.start_button.click()
        assert settle(tclock, aclock, bclock, condition=lambda: anna.screen is not None and ben.screen is not None)
        assert anna.screen.language == "hu" and ben.screen.language == "en"
        assert teacher.screens[room.code].language == "hu"
        assert teacher.controls[room.code].pause_button.description == "Szünet"
    finally:
        anna.close()
        ben.close()


def test_a_room_language_this_kernel_does_not_have_leaves_the_students_own(hungarian):
    (hungarian / "de.po").write_text(HU_PO.replace('"Language: hu', '"Language: de'), "utf-8")
    set_language("de")  # a teacher's own German catalogue
    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5, language=current_language())
    teacher = HostScreen(room_host, [room], clock=ManualClock())
    set_language("en")
    (hungarian / "de.po").unlink()  # the student's kernel has no German
    assert "de" not in languages()
    anna = StudentScreen(room.code, "Anna", clock=ManualClock())
    try:
        assert wait_until(lambda: anna.client is not None)
        assert anna.client.language == "de" and anna.language == "en"
    finally:
        anna.close()
        teacher.close()


def test_after_a_kernel_restart_the_form_speaks_the_saved_lesson_s_language(hungarian):
    """The kernel starts in English after a restart; the form comes back in
    the language of the newest saved game, folds away on New game, and the
    resumed game speaks its own language."""
    clock = ManualClock()
    form = setup(clock=clock, language="hu", teams="Kékek, Pirosak", folded=True)
    assert form.fold.selected_index is None and form.app.teams == {0: "Kékek", 1: "Pirosak"}
    form.fold.selected_index = 0
    form.new_game.click()
    assert form.fold.selected_index is None  # the projector shows the new game
    form.app.start()
    form.app.controls.entries[0].value = "1848"
    form.close()
    set_language("en")  # the kernel restarts
    again = setup(clock=clock, folded=True)
    assert again.language == "hu" and again.new_game.description == "Új játék"
    again.resume_button.click()
    assert again.app.language == "hu" and again.app.controls.pause_button.description == "Szünet"
    again.close()


def test_choosing_a_language_brings_the_built_in_questions_in_it(hungarian, tmp_path):
    form = setup(clock=ManualClock())
    assert form.bank.value == "general_knowledge_en"
    form.language_choice.value = "hu"
    assert form.bank.value == "hungarian_hu" and form._bank.guess[0].text.startswith("A hagyomány szerint")
    form.language_choice.value = "cs"
    assert form.bank.value == "czech_cs"
    form.language_choice.value = "en"
    assert form.bank.value == "general_knowledge_en"
    own = tmp_path / "own.csv"
    form.bank.value = str(own)  # a teacher's own file is never replaced
    form.language_choice.value = "hu"
    assert form.bank.value == str(own)
    form.close()
