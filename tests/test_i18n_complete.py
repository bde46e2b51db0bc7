"""No English left on a translated screen (issue 12 part 6: "every string the
UI shows"). A pseudo-language ``qq`` wraps every message of the template in
``⟦ ⟧``; a lesson is played on it (setup form, two teams and a bot, the
teacher's buttons, to the end, the report) and every text a widget shows is
read: what remains outside the brackets may only be data (names, questions,
numbers), never an English word of ours that skipped the catalogue.
"""

from __future__ import annotations

import html
import re

import ipywidgets as w
import pytest

from triviador_nb.classroom import ManualClock
from triviador_nb.engine import Attack, Pick
from triviador_nb.i18n import catalogues, current_language, languages, set_language
from triviador_nb.ui import setup

OPEN, CLOSE = "⟦", "⟧"
WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def _po(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@pytest.fixture
def pseudo(tmp_path, monkeypatch):
    """``qq.po`` in this test's own languages folder: every message wrapped."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path))
    lines = ['msgid ""', 'msgstr ""', _po("Content-Type: text/plain; charset=UTF-8\n"),
             _po("Plural-Forms: nplurals=2; plural=(n != 1);\n"), ""]
    for message in catalogues.template():
        if not message.id:
            continue
        if message.context:
            lines.append(f"msgctxt {_po(message.context)}")
        if isinstance(message.id, tuple):
            lines += [f"msgid {_po(message.id[0])}", f"msgid_plural {_po(message.id[1])}",
                      f"msgstr[0] {_po(OPEN + message.id[0] + CLOSE)}",
                      f"msgstr[1] {_po(OPEN + message.id[1] + CLOSE)}"]
        else:
            lines += [f"msgid {_po(message.id)}", f"msgstr {_po(OPEN + message.id + CLOSE)}"]
        lines.append("")
    (tmp_path / "languages").mkdir()
    (tmp_path / "languages" / "qq.po").write_text("\n".join(lines), "utf-8")
    yield
    set_language("en")


def shown_texts(widget) -> list[str]:
    """Every text a person can see or hear on ``widget`` and inside it."""
    found: list[str] = []
    seen: set[int] = set()

    def walk(node) -> None:
        if id(node) in seen or not isinstance(node, w.Widget):
            return
        seen.add(id(node))
        layout = getattr(node, "layout", None)
        if layout is not None and getattr(layout, "display", None) == "none":
            return
        for name in ("value", "description", "placeholder", "tooltip"):
            value = getattr(node, name, None)
            if isinstance(value, str) and (name != "value" or isinstance(node, (w.HTML, w.HTMLMath, w.Label))):
                found.append(value)  # a field's value is what was typed or chosen (its label is read below)
        if isinstance(node, (w.Dropdown, w.SelectMultiple, w.Select, w.ToggleButtons)):
            found.extend(str(label) for label, _value in node.options)
        if isinstance(node, w.Combobox):
            found.extend(node.options)
        if isinstance(node, w.Accordion):
            found.extend(t or "" for t in node.titles)
        for child in getattr(node, "children", ()) or ():
            walk(child)

    walk(widget)
    return found


def leftover_english(texts: list[str], data: set[str]) -> set[str]:
    """The words outside every ``⟦ ⟧`` that are not data."""
    words: set[str] = set()
    for text in texts:
        text = re.sub(r"<style>.*?</style>", " ", text, flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
        for datum in sorted(data, key=len, reverse=True):
            text = text.replace(datum, " ")
        while WRAPPED.search(text):
            text = WRAPPED.sub(" ", text)
        words |= {word for word in re.findall(r"[A-Za-z][A-Za-z'’-]+", text)}
    return words


def test_a_lesson_in_a_translated_language_shows_no_english_of_ours(pseudo):
    clock = ManualClock()
    form = setup(clock=clock, language="qq", teams="Foxes, Owls", seed=7)
    app = form.app
    game = app.game
    bank = game.bank
    data = {"Foxes", "Owls", "ConQUIZtador", "Duel", "Dobyvatel", "general_knowledge_en", "geojson", "xlsx",
            "csv", "gift", "Natural Earth"}  # names, files and formats: the same in every language
    data |= set(languages()) | set(languages().values())  # each language is named in its own words
    data |= set(game.board.names.values())
    data |= {q.text for q in bank.guess} | {q.text for q in bank.choice}
    data |= {o for q in bank.choice for o in q.options}
    data |= {c for c in bank.categories() if c} | {d for d in bank.difficulties() if d}
    texts = shown_texts(form.widget)
    app.start()
    controls = app.controls
    for step in range(3000):
        if game is not app.game:
            game = app.game
        if app.game.is_over:
            break
        question = app.game.question
        if question is not None and not app.table.paused:
            for seat in controls.entries:
                if seat in question.waiting_for and not controls.entries[seat].disabled:
                    controls.entries[seat].value = "1848" if question.is_guess else "2"
        seat = app.seat
        if seat is not None and not app.table.paused:
            legal = [a for a in app.game.legal_actions() if isinstance(a, (Pick, Attack)) and a.player == seat]
            if legal:
                app.map_view.click(legal[step % len(legal)].territory)
        if step == 40:
            controls.pause_button.click()
            texts += shown_texts(app.widget)
            controls.pause_button.click()
        if step % 25 == 0:
            texts += shown_texts(app.widget)
        clock.advance(0.5)
    assert app.game.is_over, "the lesson did not end"
    assert len([e for e in app.game.record if "answer" in str(e)]) >= 10 and app.table.games[-1] is app.game
    texts += shown_texts(app.widget)
    app.report_box.selected_index = 0
    texts += shown_texts(app.widget)
    assert leftover_english(texts, data) == set()



def test_a_room_in_a_translated_language_shows_no_english_of_ours(pseudo):
    """The teacher's host screen and a student's screen, in the lobby and in
    play (a room on 127.0.0.1, a port the host picks)."""
    import time

    from room_helpers import wait_until
    from triviador_nb.rooms import RoomHost
    from triviador_nb.ui.student import StudentScreen
    from triviador_nb.ui.teacher import HostScreen

    set_language("qq")
    room_host = RoomHost()
    room = room_host.open_room(pace=0.05, reveal_s=0.2, think_s=0.2, seed=5, language=current_language())
    teacher = HostScreen(room_host, [room], clock=ManualClock())
    anna = StudentScreen(clock=ManualClock())
    try:
        texts = shown_texts(anna.widget)  # the join form
        anna.connect(room.code, "Anna")
        assert wait_until(lambda: anna.client is not None and anna.client.lobby)
        anna._refresh()
        teacher.refresh() if hasattr(teacher, "refresh") else None
        texts += shown_texts(anna.widget) + shown_texts(teacher.widget)
        teacher.start_button.click()
        assert wait_until(lambda: anna.client.view is not None and anna.client.view.started)
        time.sleep(0.5)
        anna._refresh()
        texts += shown_texts(anna.widget) + shown_texts(teacher.widget)
        game = room.table.game
        data = {"Anna", room.code, *game.board.names.values(), *(p.name for p in game.players),
                *(q.text for q in game.bank.guess), *(q.text for q in game.bank.choice),
                *(o for q in game.bank.choice for o in q.options), "ConQUIZtador", "localhost", "ws", "K7-PQ45",
                *languages(), *languages().values()}
        if room.journal is not None:
            data.add(str(room.journal.path.resolve()))  # where the room is saved
        assert leftover_english(texts, data) == set()
    finally:
        anna.close()
        teacher.close()
