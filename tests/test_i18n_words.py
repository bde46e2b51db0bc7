"""Words in another language: refusals by code, and every sentence of
:mod:`triviador_nb.words` rendered through a catalogue.

The test language ``xx`` is a teacher's own ``.po`` file under a temporary
``TRIVIADOR_NB_HOME``. The catalogue made from the extracted messages puts
each sentence's fields in reverse order (``"{b} and {a}"`` for ``"{a} and
{b}"``) and marks it ``[xx]``: a ``.format`` call that does not pass the
fields its sentence names, or a sentence that never goes through the
catalogue, shows up as a KeyError or a missing mark.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from test_random_games_all_rules import RULES, board, fuzz_action
from fixture_data import synthetic_bank

from triviador_nb import words
from triviador_nb.engine import Game
from triviador_nb.engine.errors import IllegalActionError
from triviador_nb.engine.events import EVENT_CODES, Event
from triviador_nb.engine.view import view
from triviador_nb.i18n import speaking
from triviador_nb.ui import ManualClock, panels, play
from triviador_nb.words import Names, event_text

ROOT = Path(words.__file__).resolve().parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
CZECH_PLURALS = "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);"
MARK = "[xx] "
FIELD = re.compile(r"\{(\w+)\}")
SCREEN_MODULES = ("words.py", "ui/panels.py", "ui/question_panel.py", "ui/map_view.py", "ui/screen.py",
                  "ui/palette.py", "reports.py")


def _po(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def reordered(msgid: str) -> str:
    """``msgid`` marked, with its fields in reverse order."""
    fields = FIELD.findall(msgid)
    backwards = iter(reversed(fields))
    return MARK + FIELD.sub(lambda _m: "{" + next(backwards) + "}", msgid)


def write_catalogue(home: Path, entries: list[tuple[str | None, str | tuple[str, str], object]]) -> None:
    """``home/languages/xx.po``: ``entries`` are (context, msgid or (singular,
    plural), msgstr or a list of 3 plural msgstrs)."""
    lines = ['msgid ""', 'msgstr ""', _po("Content-Type: text/plain; charset=UTF-8\n"),
             _po(f"Plural-Forms: {CZECH_PLURALS}\n"), ""]
    for context, msgid, msgstr in entries:
        if context is not None:
            lines.append(f"msgctxt {_po(context)}")
        if isinstance(msgid, tuple):
            lines += [f"msgid {_po(msgid[0])}", f"msgid_plural {_po(msgid[1])}"]
            lines += [f"msgstr[{i}] {_po(form)}" for i, form in enumerate(msgstr)]
        else:
            lines += [f"msgid {_po(msgid)}", f"msgstr {_po(msgstr)}"]
        lines.append("")
    folder = home / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "xx.po").write_text("\n".join(lines), encoding="utf-8")


def extracted(*paths: Path) -> list[tuple[str | None, str | tuple[str, str]]]:
    """The messages ``pybabel extract`` finds in ``paths``, as (context, msgid)."""
    found: dict = {}
    for path in paths:
        for _line, message, _comments, context in extract_from_file(
                "python", str(path), keywords=KEYWORDS, strip_comment_tags=True):
            found[(context, message)] = None
    return list(found)


@pytest.fixture
def xx_home(tmp_path, monkeypatch):
    """A home of its own for this test (the suite's shared home must not
    gain a language)."""
    home = tmp_path / "home"
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(home))
    return home


@pytest.fixture
def reordering(xx_home):
    """Language ``xx``: every message of words.py and the game screen's modules, fields reversed."""
    entries = []
    for context, msgid in extracted(*(ROOT / name for name in SCREEN_MODULES)):
        if isinstance(msgid, tuple):
            entries.append((context, msgid, [reordered(msgid[0]), reordered(msgid[1]), reordered(msgid[1])]))
        else:
            entries.append((context, msgid, reordered(msgid)))
    assert len(entries) > 100
    write_catalogue(xx_home, entries)
    return entries


# ----------------------------------------------------------------------------- refusals


def test_a_refusal_in_english_is_the_reason_as_it_came():
    reason = "Baranya is not next to your territories"
    assert words.refusal("illegal_territory", reason) == reason
    assert words.refusal("some_new_code", "the room says no") == "the room says no"


def test_a_refusal_in_another_language_is_the_sentence_for_its_code(xx_home):
    write_catalogue(xx_home, [(None, "it is not your turn", "xx: nem te jössz"),
                              (None, "this territory cannot be chosen now", "xx: ezt most nem választhatod"),
                              (None, "this move is not allowed now", "xx: most nem lehet")])
    with speaking("xx"):
        assert words.refusal("not_your_turn", "the game is waiting for Bot 1") == "xx: nem te jössz"
        assert words.refusal("illegal_territory", "Baranya is not next to yours") == "xx: ezt most nem választhatod"
        assert words.refusal("no_such_code", "whatever the room said") == "xx: most nem lehet"  # the generic one
        # a code with a sentence the catalogue does not translate: the English clause, never the raw reason
        assert words.refusal("held", "the teacher has paused the game") == "the teacher has paused the game"
    assert words.refusal("not_your_turn", "the game is waiting for Bot 1") == "the game is waiting for Bot 1"


def test_every_engine_error_code_has_a_refusal_sentence():
    codes = {cls.code for cls in _subclasses(IllegalActionError)} | {IllegalActionError.code}
    assert codes == {"not_your_turn", "illegal_territory", "invalid_answer", "answer_too_late", "illegal_rebuild",
                     "game_over", "nothing_to_undo", "illegal_action"}
    assert codes <= set(words.REFUSALS)
    table = (ROOT / "classroom" / "table.py").read_text(encoding="utf-8")
    host = (ROOT / "rooms" / "host.py").read_text(encoding="utf-8")
    client = (ROOT / "rooms" / "client.py").read_text(encoding="utf-8")
    acks = set(re.findall(r'Ack\("\w+", "(\w+)"', table + client)) | set(re.findall(r'code = "(\w+)"', host))
    assert acks - {"ok"} <= set(words.REFUSALS)


def _subclasses(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


# ----------------------------------------------------------------------------- every sentence

NAMES = Names(("Anna", "Bot 1", "Bot 2"), ("red", "blue", "green"),
              {"HU-BA": "Baranya", "HU-PE": "Pest", "HU-HE": "Heves"})
ANSWERS = [{"seat": 0, "given": 1, "ms": 4200}, {"seat": 1, "given": None, "ms": None},
           {"seat": 2, "given": 2, "ms": None}]
#: One or more records per event code, through every branch of its sentence.
SAMPLES: dict[str, list[dict]] = {
    "bases.drawn": [{"bases": ["HU-BA", "HU-PE", "HU-HE"]}],
    "bases.placed": [{"bases": ["HU-BA", "HU-PE"]}],
    "bases.chosen": [{"seat": 0, "territory": "HU-BA"}],
    "phase.bases": [{"order": [1, 0, 2]}],
    "phase.expansion": [{"phase": "expansion", "value": 200}, {"phase": "allocation", "value": 1}],
    "phase.battle": [{}],
    "phase.tiebreak": [{"seats": [0, 1], "points": 1200}, {"seats": [0, 1, 2], "points": 3}],
    "round.claim": [{"phase": "claim", "round": 1, "rounds": 3, "order": [0, 1, 2]}],
    "round.battle": [{"round": 1, "rounds": 4, "targets": "adjacent", "magic_wings": True, "order": [2, 1]},
                     {"round": 2, "rounds": 4, "targets": "adjacent_no_bases", "magic_wings": False, "order": [0]}],
    "question.asked": [{"kind": "guess", "seats": [0, 1, 2], "question_text": "When?"},
                       {"kind": "choice", "seats": [0, 1], "question_text": "Which?"}],
    "answers.revealed": [{"kind": "guess", "correct": 1848, "answers": [
                             {"seat": 0, "given": 1850, "ms": 4200}, {"seat": 1, "given": None, "ms": None},
                             {"seat": 2, "given": 1800, "ms": None}]},
                         {"kind": "choice", "correct_option": 1, "options": ["a", "b", "c", "d"], "answers": ANSWERS}],
    "pick.taken": [{"seat": 0, "territory": "HU-PE", "points": 200}],
    "pick.claim_wrong": [{"seat": 1, "territory": "HU-PE"}],
    "claim.made": [{"seat": 2, "territory": "HU-HE"}],
    "attack.started": [{"seat": 0, "defender": 1, "territory": "HU-BA", "towers": towers, "wings": wings}
                       for towers in (0, 1, 3) for wings in (False, True)],
    "battle.both_right": [{}],
    "tower.fallen": [{"territory": "HU-BA", "towers": n} for n in (1, 2, 0)],
    "take.territory": [{"seat": 0, "territory": "HU-BA", "gained": 400, "defender": 1, "lost": 400}],
    "defend.held": [{"seat": 1, "territory": "HU-BA", "points": 100}, {"seat": 1, "territory": "HU-BA", "points": 0}],
    "capture.base": [{"seat": 0, "defender": 2, "territories": ["HU-HE"], "points": 1000},
                     {"seat": 0, "defender": 2, "territories": ["HU-HE", "HU-PE", "HU-BA"], "points": 2600}],
    "award.elimination": [{"seat": 0, "defender": 2, "points": n} for n in (1, 3, 200)],
    "award.tiebreak": [{"seat": 1, "points": 400}],
    "rebuild.tried": [{"seat": 0}],
    "rebuild.done": [{"seat": 0, "towers": n} for n in (1, 3)],
    "rebuild.failed": [{"seat": 0}],
    "skip.nothing_to_attack": [{"seat": 2}],
    "skip.timed_out": [{"seat": 2}],
    "timeout.random_choice": [{"seat": 2, "territory": "HU-PE"}],
    "warning.deck_reshuffled": [{"kind": "guess"}, {"kind": "choice"}],
    "warning.related_question": [{"kind": "guess"}, {"kind": "choice"}],
    "teacher.skipped": [{}],
    "teacher.ended": [{}],
    "ranking.final": [{"ranking": [1, 0, 2], "scores": [3000, 4200, 800], "win_kind": "great"},
                      {"ranking": [0, 1, 2], "scores": [3000, 2000, 800], "win_kind": None},
                      {"ranking": [1, 0, 2], "scores": [2000, 2000, 800], "places": [1, 1, 3]}],  # D16
}


def sample_events():
    for code, records in SAMPLES.items():
        for data in records:
            yield Event(0, code.split(".")[0], code, data)


def test_the_samples_cover_every_event_code():
    assert set(SAMPLES) == {code for codes in EVENT_CODES.values() for code in codes}


def test_reordered_reverses_the_fields():
    assert reordered("{player} takes {territory} (+{points})") == "[xx] {points} takes {territory} (+{player})"
    assert reordered("Ready") == "[xx] Ready"


def test_every_event_sentence_renders_in_a_language_with_its_fields_reordered(reordering):
    english = [event_text(e, NAMES) for e in sample_events()]
    with speaking("xx"):
        translated = [event_text(e, NAMES) for e in sample_events()]  # a KeyError here: a field mismatch
    for event, there, here in zip(sample_events(), english, translated):
        assert here.startswith(MARK), (event.code, here)  # the sentence went through the catalogue
        assert here != there
    assert all(not s.startswith(MARK) for s in english)


def test_the_words_of_played_games_render_in_a_language_with_fields_reordered(reordering):
    """Fuzzed games of every rule set: every event, and every view's status,
    heading, prompt, result and panels (the sentences a view makes)."""
    with speaking("xx"):
        for rules in RULES.values():
            rng = random.Random(f"words:{rules.name}")
            game = Game(rules, board("hungary"), synthetic_bank(4, 8), 3)
            names = Names.of_game(game)
            while not game.is_over:
                for seat in (*range(rules.players), None):
                    v = view(game, seat)
                    phase, what = words.status(v)
                    assert MARK in what, (phase, what)
                    if v.question is not None:
                        assert words.question_title(v).startswith(MARK)
                    if v.prompt.kind in ("base", "pick", "claim", "attack"):
                        assert words.turn_text(v).startswith(MARK)
                    for line in words.outcome_lines(v):
                        assert line.startswith(MARK), line
                    panels.scoreboard_html(v, {0: "you"})
                    panels.reveal_html(v)
                    panels.log_html(v)
                game.apply(fuzz_action(game, rng))
            for e in game.events:
                assert event_text(e, names).startswith(MARK), e.code
            over = view(game, 0)
            assert MARK in panels.ranking_html(over)
            assert words.status(over)[1].startswith(MARK)


def test_a_game_screen_made_in_a_language_plays_a_game_in_it(reordering):
    """Its widgets, its prompts, a refusal and the result, with every
    sentence's fields reversed: no field mismatch stops the screen."""
    clock = ManualClock()
    with speaking("xx"):
        app = play(seed=3, clock=clock, pace=0.1)
    assert app.language == "xx"
    assert all(label.startswith(MARK) for label in (app.start_button.description, app.panel.answer_button.description,
                                                   app.panel.guess_box.placeholder, app.by_name.placeholder))
    app.map_view.click("HU-PE")  # outside the screen's language: its callbacks speak it
    assert MARK + "Press Start to begin the game." in app.message.value
    app.start()
    refused = typed = False
    for step in range(6000):
        game = app.game
        if game.is_over:
            break
        if game.stage == "answer" and 0 in game.question.waiting_for and not app.table.paused:
            if game.question.is_guess and not typed:
                typed, app.panel.guess_box.value = True, "a lot"
                assert MARK in app.panel.feedback.value
            if game.question.is_guess:
                app.panel.guess_box.value = "1848"
            else:
                app.panel.choice_buttons[step % 4].click()
        elif game.stage in ("base", "pick", "attack") and game.current_players() == (0,) and not app.table.paused:
            legal = game.legal_targets(0) if game.stage == "attack" else game.legal_picks(0)
            if not refused:
                refused = True
                app.map_view.click(next(t for t in game.board.territories if t not in legal))
                assert MARK + "You cannot choose" in app.message.value
                assert MARK + "this territory cannot be chosen now" in app.message.value
            app.map_view.click(legal[0])
        else:
            clock.advance(0.5)
        for shown in (app.status, app.message, app.panel.header, app.panel.text, app.scoreboard, app.log, app.reveal):
            assert "went wrong" not in shown.value, shown.value
    assert app.game.is_over and refused and typed
    assert MARK + "Final ranking" in app.ranking.value and MARK in app.status.value
