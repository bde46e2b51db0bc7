"""A Hungarian lesson speaks Hungarian (issue 24, bug 4), with the project's
own hu.po and cs.po: the built-in questions follow the lesson's language
(the form reopened after a Hungarian lesson, ``host(language="hu")``), the
form words the built-in categories, the difficulties and the default team
names, the report's files head their columns in the lesson's language, a
room's bots are named by each screen in its own language from data (a
version-1 client keeps the English label), every screen credits a shipped
map alike, and a student's join form speaks the kernel's environment
language before joining.
"""

from __future__ import annotations

import csv
import json
import time

import ipywidgets as w
import openpyxl
import pytest

from triviador_nb.classroom import ManualClock
from triviador_nb.i18n import environment_language, set_language, speaking
from triviador_nb.maps import load_builtin_map, load_map
from triviador_nb.reports import Report
from triviador_nb.rooms import RoomHost, protocol
from triviador_nb.rooms.rooms import Rooms
from triviador_nb.ui import host, play, setup
from triviador_nb.ui.screen import map_credit
from triviador_nb.ui.setup import team_names
from triviador_nb.ui.student import StudentScreen
from triviador_nb.ui.teacher import HostScreen
from triviador_nb.words import with_bot_names


@pytest.fixture(autouse=True)
def _keys_in_a_temporary_home(token_home):
    pass


def texts(widget: w.Widget) -> str:
    """Every text a widget tree sends to the page (values, descriptions,
    options, placeholders, a log's lines), one per line."""
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, w.Widget):
            for name in node.keys:
                if name.startswith("_") or name == "layout":
                    continue
                value = getattr(node, name, None)
                if isinstance(value, str):
                    found.append(value)
                elif isinstance(value, (list, tuple)):
                    for item in value:
                        if isinstance(item, str):
                            found.append(item)
                        elif isinstance(item, (list, tuple)):
                            found.extend(str(part) for part in item)
                        else:
                            walk(item)
                else:
                    walk(value)

    walk(widget)
    return "\n".join(found)


def settle(*clocks, condition, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for c in clocks:
            c.run_pending()
        if condition():
            return True
        time.sleep(0.01)
    return False


# --- the questions follow the lesson's language -------------------------------------------------


def test_the_form_reopened_after_a_hungarian_lesson_brings_the_hungarian_questions():
    """classroom.ipynb before issue 24 passed bank="general_knowledge_en": the
    form reopened in Hungarian asked English questions."""
    clock = ManualClock()
    lesson = setup(clock=clock, language="hu", teams=2, folded=True)
    assert lesson.bank.value == "hungarian_hu"
    lesson.app.start()
    lesson.app.controls.entries[0].value = "1848"  # a lesson played: its journal is a saved game
    lesson.close()
    set_language("en")  # the kernel restarts
    again = setup(clock=clock, teams="Team A, Team B", bank="general_knowledge_en", folded=True)
    try:
        assert again.language == "hu" and again.bank.value == "hungarian_hu"
        assert again.app.game.bank.guess[0].text.startswith("A hagyomány szerint")
        assert again.teams.value == "A csapat, B csapat"  # the English defaults in the lesson's language
    finally:
        again.close()


def test_a_teachers_own_file_or_an_explicit_pairing_keeps_its_bank(tmp_path):
    own = tmp_path / "own.csv"
    own.write_text("id,type,question,answer,wrong_1,wrong_2,wrong_3\n"
                   "g1,guess,How many?,3,,,\nc1,choice,Which?,A,B,C,D\n", encoding="utf-8")
    clock = ManualClock()
    mine = setup(clock=clock, language="hu", bank=str(own))
    english = setup(clock=clock, language="hu", bank="general_knowledge_en")  # both chosen: kept as given
    try:
        assert mine.bank.value == str(own) and english.bank.value == "general_knowledge_en"
    finally:
        mine.close()
        english.close()


def test_host_in_hungarian_opens_rooms_with_the_hungarian_questions():
    screen = host(language="hu", seed=3)
    try:
        room = screen.rooms[0]
        assert room.language == "hu" and room.specs["bank"] == "hungarian_hu"
        assert room.bank.guess[0].text.startswith("A hagyomány szerint")
    finally:
        screen.close()
    set_language("en")
    english = host(seed=3)
    try:
        assert english.rooms[0].specs["bank"] == "general_knowledge_en"
    finally:
        english.close()


def _host_command_rooms(monkeypatch, capsys, *arguments):
    """The rooms ``triviador-nb host --rooms 1 --for 0 ARGUMENTS`` opened (on 127.0.0.1), its exit status and stderr."""
    from triviador_nb.cli import main

    opened = []
    open_room = RoomHost.open_room

    def recording(self, *args, **kwargs):
        opened.append(open_room(self, *args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(RoomHost, "open_room", recording)
    status = main(["host", "--rooms", "1", "--for", "0", *arguments])
    return opened, status, capsys.readouterr().err


def test_the_host_command_in_hungarian_opens_rooms_with_the_hungarian_questions(monkeypatch, capsys):
    """``triviador-nb host --language hu`` as ``host(language="hu")``: the
    room speaks Hungarian and asks the built-in Hungarian bank; a bank given
    is kept; without --language the room is English, with the English bank."""
    rooms, status, _err = _host_command_rooms(monkeypatch, capsys, "--language", "HU")
    assert status == 0 and len(rooms) == 1
    assert rooms[0].language == "hu" and rooms[0].specs["bank"] == "hungarian_hu"
    assert rooms[0].bank.guess[0].text.startswith("A hagyomány szerint")
    rooms, status, _err = _host_command_rooms(monkeypatch, capsys, "--language", "hu", "--bank",
                                              "general_knowledge_en")
    assert status == 0 and (rooms[0].language, rooms[0].specs["bank"]) == ("hu", "general_knowledge_en")
    rooms, status, _err = _host_command_rooms(monkeypatch, capsys)
    assert status == 0 and (rooms[0].language, rooms[0].specs["bank"]) == ("en", "general_knowledge_en")


def test_the_host_command_refuses_a_language_it_has_no_catalogue_for(monkeypatch, capsys):
    rooms, status, err = _host_command_rooms(monkeypatch, capsys, "--language", "xx")
    assert (rooms, status) == ([], 2)
    assert err.startswith("triviador-nb host: --language: there is no language 'xx'; there are en (English), "
                          "cs (Čeština), hu (Magyar).")
    assert "Traceback" not in err


# --- the form's words ---------------------------------------------------------------------------


def test_the_form_words_the_built_in_categories_difficulties_and_team_names():
    form = setup(clock=ManualClock(), language="hu", teams=2)
    try:
        categories = dict(form.categories.options)  # label -> value
        assert categories["Művészet és irodalom"] == "Arts & Literature" and categories["Történelem"] == "History"
        assert set(form.difficulties.options) == {("könnyű", "easy"), ("közepes", "medium"), ("nehéz", "hard")}
        assert form.teams.value == "A csapat, B csapat"
        form.language_choice.value = "cs"
        assert ("Dějepis", "History") in form.categories.options and ("snadná", "easy") in form.difficulties.options
        assert form.teams.value == "Tým A, Tým B" and form.bank.value == "czech_cs"
        form.teams.value = "Lišky, Sovy"  # the teacher's own names stay
        form.language_choice.value = "en"
        assert form.teams.value == "Lišky, Sovy" and ("easy", "easy") in form.difficulties.options
    finally:
        form.close()
    with speaking("en"):
        assert team_names(3) == "Team A, Team B, Team C"
    with pytest.raises(ValueError, match="2 or 3"):
        team_names(4)


def test_the_form_labels_are_wide_enough_for_the_hungarian_and_czech_words():
    """"Szabályrendszer" and "nebo soubor mapy" were cut at 90 px (issue 24)."""
    from triviador_nb.ui.setup import LABEL_WIDTH

    assert int(LABEL_WIDTH.removesuffix("px")) >= 8 * len("nebo soubor mapy")  # 8 px a character at 14 px
    form = setup(clock=ManualClock(), language="hu")
    try:
        assert form.rules.style.description_width == LABEL_WIDTH and form.map_file.description == "vagy térképfájl"
    finally:
        form.close()


# --- the report -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bots_game():
    app = play(you=None, bots=("easy", "medium", "hard"), seed=7, clock=ManualClock(), journal=False)
    game = app.autoplay()
    app.close()
    return game


def test_the_reports_files_head_their_columns_in_the_lessons_language(bots_game, tmp_path):
    report = Report([bots_game])
    with speaking("hu"):
        files = report.export(tmp_path / "hu")
    with open(files[1], encoding="utf-8", newline="") as handle:  # hu-players.csv
        header = next(csv.reader(handle))
    assert header == ["játék", "hely", "játékos", "helyezés", "pontszám", "feltéve", "megválaszolt", "jó",
                      "jó_arány", "eltérés_medián", "idő_medián_ms"]
    sheets = openpyxl.load_workbook(files[0], read_only=True)
    assert [c.value for c in next(sheets["answers"].iter_rows(max_row=1))][:8] == [
        "játék", "sorszám", "kérdés", "típus", "cél", "szöveg", "hely", "játékos"]
    scores = [c.value for c in next(sheets["scores"].iter_rows(max_row=1))]
    assert scores[:2] == ["esemény", "kérdés"] and scores[2:] == [p.name for p in bots_game.players]
    assert list(report.players.columns)[:3] == ["game", "seat", "player"]  # in code they stay data
    # a room host writes the room's language, whatever its own kernel speaks
    files = report.export(tmp_path / "cs", language="cs")
    with open(files[1], encoding="utf-8", newline="") as handle:
        assert next(csv.reader(handle))[:3] == ["hra", "místo", "hráč"]
    files = report.export(tmp_path / "xx", language="xx")  # a language this kernel has not: its own
    with open(files[1], encoding="utf-8", newline="") as handle:
        assert next(csv.reader(handle))[:3] == ["game", "seat", "player"]


# --- the bots' names --------------------------------------------------------------------------------


class Peer:
    def __init__(self):
        self.address, self.identity, self.sent = "127.0.0.1", None, []

    def send(self, text):
        self.sent.append(json.loads(text))

    def close(self, code, reason):
        pass

    def last(self, kind):
        return next(m for m in reversed(self.sent) if m["type"] == kind)


def test_a_room_sends_its_bots_number_and_skill_as_data_and_a_version_1_client_its_label():
    rooms = Rooms(ManualClock(), host_part="22", teacher_key="k", journals=False)
    teacher, new, old = Peer(), Peer(), Peer()
    tconn = rooms.connect(teacher)
    rooms.receive(tconn, json.dumps({"v": 2, "type": "teacher", "key": "k"}))
    rooms.receive(tconn, protocol.op(1, "open_room", "", {"rules": "conquiztador", "map": "hungary",
                                                          "bank": "general_knowledge_en", "seed": 5}))
    code = teacher.last("done")["result"]["room"]
    for peer, version, name in ((new, 2, "Anna"), (old, 1, "Old")):
        rooms.receive(rooms.connect(peer), json.dumps({"v": version, "type": "join", "room": code, "name": name,
                                                       "map": False}))
    rooms.receive(tconn, protocol.op(2, "set_bot", code, {"seat": 2, "skill": "hard"}))
    rooms.receive(tconn, protocol.op(3, "start", code))
    view = new.last("view")
    assert view["bot_names"] == {"2": {"number": 3, "skill": "hard"}}
    assert teacher.last("view")["bot_names"] == {"2": {"number": 3, "skill": "hard"}}
    assert "bot_names" not in old.last("view") and old.last("view")["roles"]["2"] == "bot · hard"
    from triviador_nb.engine.view import View

    players = View.from_dict(old.last("view")["view"]).players
    assert players[2].name == "Bot 3 (hard)"  # what a version-1 screen shows, as before
    worded = with_bot_names(View.from_dict(view["view"]), protocol.bot_names(view))
    with speaking("hu"):
        worded = with_bot_names(View.from_dict(view["view"]), protocol.bot_names(view))
    assert [p.name for p in worded.players] == ["Anna", "Old", "3. gép (nehéz)"]
    assert protocol.bot_names({"bot_names": {"2": {"number": "3", "skill": "hard"}, "x": {}}}) == {}


def test_a_hungarian_rooms_screens_name_the_bots_in_hungarian():
    set_language("hu")
    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5, language="hu")
    tclock, aclock = ManualClock(), ManualClock()
    teacher = HostScreen(room_host, [room], clock=tclock)
    set_language("en")  # the student's kernel speaks English; the screen follows the room
    anna = StudentScreen(room.code, "Anna", clock=aclock)
    try:
        assert settle(tclock, aclock, condition=lambda: len(room.members()) == 1)
        teacher.start_button.click()
        assert settle(tclock, aclock, condition=lambda: anna.screen is not None and teacher.screens)
        assert settle(tclock, aclock, condition=lambda: "3. gép (közepes)" in texts(anna.widget)
                      and "3. gép (közepes)" in texts(teacher.widget))
        for screen in (anna.widget, teacher.widget):
            assert "Bot 2" not in texts(screen) and "Bot 3" not in texts(screen)
        assert room.table.game.players[2].name == "Bot 3 (medium)"  # the record (journal, report) keeps its name
    finally:
        anna.close()
        teacher.close()


# --- the map's credit, the join form's language ---------------------------------------------------


def test_a_shipped_map_sent_to_a_student_is_credited_as_on_the_projector(tmp_path):
    shipped = load_builtin_map("hungary")
    sent = protocol.map_from_plain(json.loads(json.dumps(protocol.map_to_plain(shipped))))
    assert map_credit(sent) == map_credit(shipped) == "Map: Made with Natural Earth"
    own = tmp_path / "school.geojson"
    own.write_bytes((shipped.source_path).read_bytes())
    mine = load_map(own)
    assert map_credit(protocol.map_from_plain(protocol.map_to_plain(mine))) == "Map: school.geojson"


def test_the_environment_names_the_join_forms_language_before_joining(monkeypatch):
    assert environment_language({"LANG": "hu_HU.UTF-8"}) == "hu"
    assert environment_language({"LANGUAGE": "xx:cs_CZ", "LANG": "hu_HU.UTF-8"}) == "cs"
    assert environment_language({"LC_ALL": "C.UTF-8", "LANG": "hu_HU.UTF-8"}) == "en"
    assert environment_language({"LANG": "de_DE.UTF-8"}) is None and environment_language({}) is None
    for name in ("TRIVIADOR_NB_LANGUAGE", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "hu_HU.UTF-8")
    form = StudentScreen(clock=ManualClock())
    try:
        assert form.language == "hu" and form.join_button.description == "Belépés"
        assert form.name_box.placeholder != "your name"
    finally:
        form.close()
    set_language("cs")  # a kernel told a language speaks it
    form = StudentScreen(clock=ManualClock())
    try:
        assert form.language == "cs"
    finally:
        form.close()
