"""Issue 24, "the lobby, the game, the end": the 3-2-1 after Start, "2 of 3
answered" on the projector, the podium, a player's place, and sound cues.

Headless, on a ManualClock: the table's get-ready (classroom/table.py) and
the widgets that show it (ui/get_ready.py, answered.py, podium.py, place.py,
sound.py) read as the browser would receive them (widget state).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from fixture_data import grid_board, synthetic_bank
from test_table import FixedBot  # answers every guess with a value after a time

from triviador_nb.bots import Bot
from triviador_nb.classroom import ManualClock, Table
from triviador_nb.engine import CONQUIZTADOR, Game, GuessAnswer
from triviador_nb.i18n import speaking
from triviador_nb.ui import play
from triviador_nb.ui.answered import answered_text
from triviador_nb.ui.place import ordinal, place_text, standing
from triviador_nb.ui.podium import podium_html, podium_steps
from triviador_nb.ui.sound import CUES, Sound, cue_file


def table_with(bots, get_ready_s=3.0, seed=4, pace=1.0) -> tuple[Table, ManualClock]:
    clock = ManualClock()
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed)
    return Table(game, bots, clock, pace=pace, get_ready_s=get_ready_s), clock


# ---------------------------------------------------------------------- the get-ready (the table's clock)


def test_start_gives_a_get_ready_before_the_first_question_and_its_timer_starts_after_it():
    table, clock = table_with({1: FixedBot(1, 5, 2000), 2: FixedBot(2, 6, 9000)})
    table.start()
    v = table.view(0)
    assert (v.started, v.get_ready_s, v.question, v.prompt.kind) == (True, 3.0, None, "wait")
    assert table.game.question is not None  # drawn (D4), but no screen shows it yet
    ack = table.submit(0, GuessAnswer(0, 7))
    assert (ack.status, ack.code) == ("rejected", "get_ready")
    clock.advance(2.0)
    assert table.view(None).get_ready_s == pytest.approx(1.0)
    assert table.time_left() == 10.0  # D3: the guess question's 10 s have not begun
    clock.advance(1.0)
    v = table.view(0)
    assert v.get_ready_s == 0.0 and v.question is not None and v.prompt.kind == "answer"
    assert table.time_left() == 10.0
    clock.advance(1.25)
    ack = table.submit(0, GuessAnswer(0, 7))
    assert (ack.status, ack.ms) == ("accepted", 1250)  # timed from the question, not from Start
    clock.advance(1.0)  # bot 1 planned 2,000 ms: it answers 2 s after the question, 5 s after Start
    times = {s: a.ms for s, a in table.game.question.answers.items()}
    assert times == {0: 1250, 1: 2000}


def test_the_get_ready_changes_no_outcome():
    """Three bots, the same seed, with and without the 3-2-1: the same record, times included."""
    records = []
    for get_ready_s in (0.0, 3.0):
        bots = {s: Bot(s, skill, 11) for s, skill in enumerate(("easy", "medium", "hard"))}
        table, clock = table_with(bots, get_ready_s=get_ready_s, seed=11, pace=0.05)
        table.start()
        for _ in range(4000):
            if table.game.is_over:
                break
            clock.advance(0.25)
        assert table.game.is_over
        records.append([str(a) for a in table.game.record])
    assert records[0] == records[1]


def test_a_hold_during_the_get_ready_starts_it_again_on_release():
    table, clock = table_with({1: FixedBot(1, 5, 2000), 2: FixedBot(2, 6, 2000)})
    table.start()
    clock.advance(2.0)
    table.hold()
    clock.advance(30.0)
    v = table.view(None)
    assert (v.paused, v.get_ready_s, v.question) == (True, 3.0, None)
    table.release()
    clock.advance(2.9)
    assert table.view(None).question is None
    clock.advance(0.1)
    assert table.view(None).question is not None and table.time_left() == 10.0


def test_play_again_gets_ready_too_and_end_during_the_get_ready_ends_it():
    table, clock = table_with({1: FixedBot(1, 5, 2000), 2: FixedBot(2, 6, 2000)})
    table.new_game = lambda seed, asked: (Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed), table.bots)
    table.start()
    assert table.end_now().accepted  # D16: End works at any moment
    v = table.view(None)
    assert v.is_over and v.get_ready_s == 0.0
    table.restart()
    assert table.view(None).get_ready_s == 3.0
    clock.advance(3.0)
    assert table.view(None).question is not None


def test_the_screen_shows_the_get_ready_then_the_question(get_ready):
    clock = ManualClock()
    app = play(seed=7, clock=clock, journal=False)
    app.start()
    assert (app.get_ready.seconds, app.get_ready.number, app.get_ready.running) == (get_ready, 3, True)
    assert app.get_ready.title == "Get ready!"
    assert "get ready" in app.status.value
    assert app.panel.controls.children == ()  # no question, no answer box yet
    clock.advance(1.5)
    app._refresh()  # any change during the get-ready sends the seconds left as they are then
    assert (app.get_ready.seconds, app.get_ready.number) == (1.5, 2)
    clock.advance(1.5)
    assert app.get_ready.seconds == 0 and app.get_ready.number == 0
    assert app.panel.controls.children == (app.panel.guess_row,)
    assert "octopus" in app.panel.text.value and app.panel.timer.value == 10.0


# ---------------------------------------------------------------------- "2 of 3 answered"


def test_the_projector_counts_the_answers_and_never_shows_one():
    table, clock = table_with({1: FixedBot(1, 5, 2000), 2: FixedBot(2, 6, 8000)}, get_ready_s=0.0)
    table.start()
    assert answered_text(table.view(None)) == "0 of 3 answered"
    table.submit(0, GuessAnswer(0, 4321))
    clock.advance(2.0)  # bot 1 answers 5
    projector = table.view(None)
    assert answered_text(projector) == "2 of 3 answered"
    data = json.loads(projector.to_json())
    assert data["question"]["answered"] == [0, 1] and data["question"]["my_answer"] is None
    assert "4321" not in projector.to_json()  # who answered, never what
    assert table.view(0).question.my_answer == 4321  # the seat itself sees its own
    clock.advance(6.0)  # the last answer: the result shows, the count goes
    assert table.view(None).paused and answered_text(table.view(None)) == ""


def test_the_count_is_on_the_screen_while_the_question_is_open():
    clock = ManualClock()
    app = play(seed=7, clock=clock, journal=False, pace=1.0)
    app.start()
    assert app.answered.value.endswith(">0 of 3 answered</div>")
    app.panel.guess_box.value = "12"
    assert ">1 of 3 answered<" in app.answered.value
    with speaking("hu"):
        assert answered_text(app.table.view(None)) == "Válaszolt: 1 / 3"
    with speaking("cs"):
        assert answered_text(app.table.view(None)) == "Odpověděli: 1 / 3"


# ---------------------------------------------------------------------- the podium and the place


def ended_view(places=None, ranking=None):
    """A finished bot game's projector view; ``places``/``ranking`` replace the game's (a tie)."""
    table, clock = table_with({s: Bot(s, "medium", 3) for s in range(3)}, get_ready_s=0.0, seed=3)
    table.autoplay()
    v = table.view(None)
    return replace(v, places=places or v.places, ranking=ranking or v.ranking)


def test_the_podium_shows_the_first_three_with_scores_and_colours():
    v = ended_view()
    assert v.places == (1, 2, 3)
    steps = podium_steps(v)
    assert steps == [(1, (v.ranking[0],)), (2, (v.ranking[1],)), (3, (v.ranking[2],))]
    html = podium_html(v)
    for place, seat in zip((1, 2, 3), v.ranking):
        p = v.players[seat]
        assert f"{p.score} points" in html and p.name in html
    first = v.players[v.ranking[0]]
    colours = {"red": "#CC3311", "blue": "#0077BB", "green": "#009988"}
    assert f'tnb-podium-1" style="order:2"' in html  # the winner stands in the middle
    assert f'background:{colours[first.colour]};height:4.2em"><span>1st</span>' in html


def test_players_who_share_a_place_stand_on_one_step():
    """D16: equal scores at End share the place ("1." for both); the next is 3rd."""
    v = ended_view(places=(1, 1, 3))
    assert podium_steps(v) == [(1, (v.ranking[0], v.ranking[1])), (3, (v.ranking[2],))]
    html = podium_html(v)
    assert ">1st<" in html and ">3rd<" in html and ">2nd<" not in html
    colours = {"red": "#CC3311", "blue": "#0077BB", "green": "#009988"}
    first, second = (colours[v.players[seat].colour] for seat in v.ranking[:2])
    assert f"background:linear-gradient(90deg, {first} 0% 50%, {second} 50% 100%)" in html  # both colours
    assert standing(v) == {v.ranking[0]: 1, v.ranking[1]: 1, v.ranking[2]: 3}
    assert place_text(v, v.ranking[1]) == "You are 1st of 3 (a shared place)"
    assert place_text(v, v.ranking[2]) == "You are 3rd of 3"


def test_end_at_once_puts_every_player_on_the_first_step():
    table, clock = table_with({1: Bot(1, "medium", 4), 2: Bot(2, "hard", 4)}, get_ready_s=0.0)
    table.start()
    table.end_now()  # the bases alone: equal scores (D16)
    v = table.view(None)
    assert v.places == (1, 1, 1)
    assert podium_steps(v) == [(1, (0, 1, 2))]


def test_the_podium_is_on_the_screen_at_the_end_only():
    clock = ManualClock()
    app = play(seed=3, clock=clock, journal=False)
    app.start()
    assert app.podium.value == "" and app.podium.widget.layout.display == "none"
    app.autoplay()
    assert 'class="tnb-podium"' in app.podium.value and app.podium.widget.layout.display is None


def test_a_players_place_during_the_game_counts_equal_scores_as_one_place():
    v = ended_view()
    running = replace(v, ranking=None, places=None, stage="attack",
                      players=tuple(replace(p, score=s, in_game=True) for p, s in zip(v.players, (2000, 3000, 2000))))
    assert standing(running) == {0: 2, 1: 1, 2: 2}
    assert place_text(running, 1) == "You are 1st of 3"
    assert place_text(running, 0) == "You are 2nd of 3 (a shared place)"
    out = replace(running, players=tuple(replace(p, in_game=p.seat != 1) for p in running.players))
    assert standing(out) == {0: 1, 2: 1, 1: 3}  # out of the game: after everyone still in it
    assert place_text(running, None) == ""


def test_no_place_before_the_first_reveal_or_the_first_points():
    """Issue 24: equal scores and no question revealed yet: no place line;
    the first points that change hands, or the first reveal, bring it."""
    v = ended_view()
    start = replace(v, ranking=None, places=None, stage="pick", reveal=None,
                    players=tuple(replace(p, score=1000, in_game=True) for p in v.players))
    assert [place_text(start, seat) for seat in range(3)] == ["", "", ""]
    scored = replace(start, players=tuple(replace(p, score=s) for p, s in zip(start.players, (1000, 1200, 1000))))
    assert place_text(scored, 1) == "You are 1st of 3" and place_text(scored, 2) == "You are 2nd of 3 (a shared place)"
    revealed = replace(start, reveal=v.reveal)
    assert v.reveal is not None and place_text(revealed, 0) == "You are 1st of 3 (a shared place)"


@pytest.mark.parametrize("language, expected", [
    ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st"]),
    ("hu", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "23.", "101."]),
    ("cs", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "23.", "101."]),
])
def test_ordinals_in_each_language(language, expected):
    with speaking(language):
        assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101)] == expected


@pytest.mark.parametrize("language, second, shared", [
    ("en", "You are 2nd of 3", "You are 1st of 3 (a shared place)"),
    ("hu", "Helyezésed: 2. (3 játékos közül)", "Helyezésed: 1. (3 játékos közül, holtversenyben)"),
    ("cs", "Tvé pořadí: 2. (hráčů: 3)", "Tvé pořadí: 1. (hráčů: 3, o místo se dělíš)"),
])
def test_the_place_line_in_each_language(language, second, shared):
    v = ended_view()
    tied = ended_view(places=(1, 1, 3))
    with speaking(language):
        assert place_text(v, v.ranking[1]) == second
        assert place_text(tied, tied.ranking[0]) == shared


def test_a_players_screen_shows_their_place_from_the_first_reveal_and_a_watcher_s_does_not():
    """Issue 24: at Start everyone was "1st of 3 (a shared place)", which
    tells a player nothing: no place line through the get-ready and the
    first question, until its reveal; then the standing by score."""
    clock = ManualClock()
    app = play(seed=3, clock=clock, journal=False)
    assert app.place.widget.value == ""  # before Start
    app.start()
    assert app.place.widget.value == ""  # the get-ready: the bases alone, all equal
    for _ in range(200):
        clock.advance(0.25)
        if app.game.question is not None:
            break
    first = app.table.view(0)
    assert first.question is not None and first.reveal is None and len({p.score for p in first.players}) == 1
    assert app.place.widget.value == ""  # the first question is open: nobody has scored
    for _ in range(400):
        clock.advance(0.25)
        if app.table.view(0).reveal is not None:
            break
    revealed = app.table.view(0)
    assert revealed.reveal is not None and revealed.ranking is None
    assert f">You are {ordinal(standing(revealed)[0])} of 3" in app.place.widget.value
    app.autoplay()
    v = app.table.view(0)
    assert f">You are {ordinal(standing(v)[0])} of 3" in app.place.widget.value
    watching = play(seed=3, you=None, clock=ManualClock(), journal=False)
    watching.start()
    assert watching.place.widget.value == ""


# ---------------------------------------------------------------------- sound


def sent_messages(widget):
    sent = []
    widget.send = lambda content, buffers=None: sent.append(content)
    return sent


def test_the_sound_switch_is_off_and_sends_no_cue_and_no_file():
    sound = Sound()
    sent = sent_messages(sound)
    assert sound.on is False and sound.files == {}
    assert sound.play("open") is False
    assert sent == [] and sound.sent == []
    with pytest.raises(ValueError, match="there is no sound cue 'boom': the cues are open, almost, reveal"):
        sound.play("boom")


def test_turning_sound_on_sends_the_package_s_files_once_and_then_cues():
    sound = Sound()
    sent = sent_messages(sound)
    sound.on = True  # the person's click, as the browser sends it
    assert set(sound.files) == set(CUES)
    for name in CUES:
        data = sound.files[name]
        assert data == cue_file(name) and data[:4] == b"RIFF" and data[8:12] == b"WAVE"
        assert 8_000 < len(data) < 40_000
    assert sound.play("almost") is True
    assert sent == [{"play": "almost"}]


def test_a_game_screen_cues_open_almost_and_reveal_only_with_sound_on(get_ready):
    clock = ManualClock()
    quiet = play(seed=7, clock=clock, journal=False)
    quiet_sent = sent_messages(quiet.sound)
    quiet.start()
    clock.advance(30)
    assert quiet_sent == [] and quiet.sound.sent == []

    clock = ManualClock()
    app = play(seed=7, clock=clock, journal=False)
    sent = sent_messages(app.sound)
    app.sound.on = True
    app.start()
    clock.advance(2.9)
    assert app.sound.sent == []  # the 3-2-1: no question yet
    clock.advance(0.1)
    assert app.sound.sent == ["open"]
    clock.advance(4.75)  # 5.25 s left
    assert app.sound.sent == ["open"]
    clock.advance(0.25)  # 5 s left: almost up
    assert app.sound.sent == ["open", "almost"]
    clock.advance(5.0)  # the time is up: the result
    assert app.sound.sent == ["open", "almost", "reveal"]
    assert sent == [{"play": name} for name in app.sound.sent]


def test_the_title_gives_way_to_the_place_line_with_its_content():
    """Issue 24's tryout at 1366x900: the place line ("Helyezésed: 3. (3
    játékos közül)") lay over the title's room code: the title's widget gave
    way but its content (a one-line flex item, as wide as its text) did not.
    The title's content may shrink and is cut with an ellipsis instead."""
    from triviador_nb.ui.styles import CSS
    app = play(seed=3, clock=ManualClock(), journal=False)
    assert "tnb-title-box" in app.title._dom_classes
    assert app.title.layout.min_width == "0"
    rule = CSS.split(".tnb-title-box > .widget-html-content {", 1)[1].split("}", 1)[0]
    assert "min-width: 0" in rule and "overflow: hidden" in rule



def test_a_projectors_scoreboard_line_starts_with_the_territories_when_a_seat_has_no_role():
    """Issue 24's tryout: the projector (no "you", no role for a student's
    seat) showed "· 1 terület" under a name, a separator with nothing before it."""
    import re
    from triviador_nb.engine.view import view
    from triviador_nb.ui.panels import scoreboard_html
    app = play(seed=3, clock=ManualClock(), journal=False)
    html = scoreboard_html(view(app.table.game, None), {2: "bot, medium"})
    assert re.findall(r'<div class="tnb-role">[^<]*</div>', html) == [
        '<div class="tnb-role">1 territory</div>', '<div class="tnb-role">1 territory</div>',
        '<div class="tnb-role">bot, medium · 1 territory</div>']
