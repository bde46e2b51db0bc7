"""The teacher's controls as actions in the game's record (issue 12 part 1):
skip a question, end the game now, undo the last action; a replay of the
record gives the same game."""

from __future__ import annotations

import json

import pytest

from fixture_data import grid_board, synthetic_bank
from helpers import answer_guess, new_game, snapshot, standard_game
from triviador_nb.engine import (LONG_CAMPAIGN, Attack, End, Game, GameOverError, GuessAnswer, NothingToUndoError,
                                 NotYourTurnError, Pick, Skip, parse_action)
from triviador_nb.engine.view import view


def replayed(game: Game) -> Game:
    return game.replayed([str(e) for e in game.record])  # from the text form, as a journal holds it


def test_the_teacher_actions_have_a_text_form():
    assert (str(Skip()), str(End())) == ("skip", "end")
    assert (parse_action(" skip "), parse_action("end")) == (Skip(), End())


def test_a_skipped_guess_question_is_replaced_by_another_for_the_same_players():
    game = new_game(seed=4)
    first = game.question
    game.apply(GuessAnswer(0, 1900, 1500))
    events = game.apply(Skip())
    assert [e.code for e in events] == ["teacher.skipped", "question.asked"]
    assert events[0].data == {"question": first.question.id, "kind": "guess", "purpose": "expansion",
                              "seats": [0, 1, 2]}
    now = game.question
    assert now.question.id != first.question.id and now.is_guess
    assert (now.purpose, now.players, now.answers) == (first.purpose, first.players, {})
    assert [str(e) for e in game.record[-3:]] == ["answer p1 1900 1500ms", "skip", f"draw guess {now.question.id}"]
    assert snapshot(replayed(game)) == snapshot(game)


def test_a_skip_never_shows_the_skipped_answer_to_any_seat():
    game = new_game(seed=4)
    skipped = game.question.question
    game.apply(Skip())
    for seat in (None, 0, 1, 2):
        seen = view(game, seat).to_json()
        assert str(skipped.answer) not in seen and skipped.text not in seen
        assert json.loads(seen)["question"]["text"] == game.question.question.text
        assert view(game, seat).log[-1].code == "teacher.skipped"  # the log line, without the answer


def test_a_skipped_battle_question_keeps_the_attacker_and_defender():
    game = standard_game()
    attacker = game.current_players()[0]
    target = next(a for a in game.legal_actions() if isinstance(a, Attack))
    game.apply(target)
    before = game.question
    game.apply(Skip())
    assert game.question.players == before.players and not game.question.is_guess
    assert game.question.question.id != before.question.id
    assert game.attack.attacker == attacker and game.attack.territory == target.territory


def test_skip_without_a_question_is_refused_and_changes_nothing():
    game = new_game(seed=4)
    answer_guess(game, [0, 1, 2])
    assert game.stage == "pick"
    before = snapshot(game)
    with pytest.raises(NotYourTurnError, match="there is no question to skip"):
        game.apply(Skip())
    assert snapshot(game) == before


def test_ending_now_ranks_the_current_scores_and_replays():
    game = new_game(seed=4)
    answer_guess(game, [2, 0, 1])
    game.apply(Pick(game.pick_queue[0], next(t for t in game.legal_picks(2))))
    scores = game.scores()
    events = game.apply(End())
    assert [e.code for e in events] == ["teacher.ended", "ranking.final"]
    assert game.is_over and game.question is None and game.pick_queue == []
    assert list(game.ranking) == sorted(range(3), key=lambda s: (-scores[s], s))
    assert events[1].data["scores"] == scores
    with pytest.raises(GameOverError):
        game.apply(End())
    assert snapshot(replayed(game)) == snapshot(game)


def test_undo_takes_back_the_last_answer_and_the_question_stays_open():
    game = new_game(seed=4)
    game.apply(GuessAnswer(0, 1900, 1500))
    before = snapshot(game)
    game.apply(GuessAnswer(1, 1800, 1600))
    back = game.undone()
    assert snapshot(back) == before
    assert back.question.waiting_for == (1, 2)


def test_undo_of_a_pick_burns_the_question_drawn_after_it():
    game = new_game(seed=4)
    answer_guess(game, [0, 1, 2])
    while game.stage == "pick":
        game.apply(Pick(game.pick_queue[0], game.legal_picks(game.pick_queue[0])[0]))
    seen = game.question.question.id  # the class saw this one: not drawn again in this pass
    back = game.undone()
    assert back.stage == "pick" and seen in back.burned
    back.apply(Pick(back.pick_queue[0], back.legal_picks(back.pick_queue[0])[-1]))
    assert back.question.question.id != seen
    assert snapshot(replayed(back)) == snapshot(back)


def test_undo_of_a_skip_or_an_end_brings_the_question_back():
    game = new_game(seed=4)
    asked = game.question.question.id
    game.apply(Skip())
    back = game.undone()
    assert back.question.question.id == asked and game.question.question.id in back.burned
    back.apply(End())
    again = back.undone()
    assert not again.is_over and again.question.question.id == asked


def test_there_is_nothing_to_undo_at_the_start():
    game = Game(LONG_CAMPAIGN, grid_board(), synthetic_bank(), seed=2)
    with pytest.raises(NothingToUndoError, match="there is nothing to undo yet"):
        game.undone()


# ---------------------------------------------------------------- at the table (ManualClock, no widgets)

def two_team_table(seed: int = 4):
    """Two teams (seats 0 and 1, their answers entered by the teacher) and a bot (seat 2)."""
    from triviador_nb.bots import Bot
    from triviador_nb.classroom import ManualClock, Table
    from triviador_nb.engine import CONQUIZTADOR
    clock = ManualClock()
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed, names=["Foxes", "Owls", "Bot"])
    table = Table(game, {2: Bot(2, "medium", seed)}, clock)
    written: list[str] = []
    table.on_record(lambda what, g: written.append(what))
    return table, clock, written


def test_the_teacher_enters_an_oral_answer_timed_when_entered_while_the_game_is_held():
    table, clock, written = two_team_table()
    table.start()
    clock.advance(2.5)
    table.hold()
    clock.advance(30.0)  # the class discusses; the held time does not count (D1's tie-break)
    ack = table.enter_answer(0, 1848)
    assert (ack.status, ack.ms) == ("accepted", 2500)
    assert table.game.question.answers[0] == GuessAnswer(0, 1848, 2500)
    assert table.enter_answer(1, 1850, timed=False).ms is None
    assert table.game.question.answers[1] == GuessAnswer(1, 1850, None)
    assert written == ["entries", "entries"]


def test_a_correction_replaces_the_teams_answer_while_the_question_is_open():
    table, clock, written = two_team_table()
    table.start()
    clock.advance(1.0)
    table.enter_answer(0, 1700)
    clock.advance(1.0)
    ack = table.enter_answer(0, 1848)
    assert ack.accepted and table.game.question.answers[0] == GuessAnswer(0, 1848, 2000)
    assert [str(a) for a in table.game.actions] == ["answer p1 1848 2000ms"]
    assert table.time_left() == pytest.approx(8.0)  # the question's timer runs on
    assert written == ["entries", "replace"]  # the correction rewrites the record, new answer included


def test_entries_for_a_bot_or_with_no_question_are_refused():
    table, clock, _ = two_team_table()
    table.start()
    assert table.enter_answer(2, 5).code == "not_your_seat"
    assert table.enter_answer(7, 5).code == "not_your_seat"
    table.enter_answer(0, 1)
    table.enter_answer(1, 2)
    for _ in range(101):  # the bot answers within the 10 s limit: then the result is on screen
        if table.paused:
            break
        clock.advance(0.1)
    assert table.paused and table.enter_answer(0, 1).code == "no_question"


def test_skip_puts_another_question_with_a_fresh_timer():
    table, clock, written = two_team_table()
    table.start()
    first = table.game.question.question.id
    clock.advance(6.0)
    assert table.skip().accepted
    assert table.game.question.question.id != first
    assert table.time_left() == pytest.approx(10.0)  # D3: a new guess question's 10 s
    assert written[-1] == "entries" and table.game.record[-2] == Skip()  # then the new draw


def test_undo_takes_back_the_last_answer_and_end_now_ranks_the_game():
    table, clock, written = two_team_table()
    table.start()
    clock.advance(1.0)
    table.enter_answer(0, 1848)
    assert table.undo().accepted
    assert table.game.question.waiting_for == (0, 1, 2) and table.game.actions == []
    assert table.games[-1] is table.game
    assert table.undo().code == "nothing_to_undo"
    assert table.end_now().accepted and table.game.is_over
    assert table.end_now().code == "game_over"
    assert written == ["entries", "replace", "entries"]
    assert table.undo().accepted and not table.game.is_over


# ---------------------------------------------------------------- on the screen (widgets, ManualClock)

def teams_app(clock, **kwargs):
    from triviador_nb.ui import play
    return play(teams=["Foxes", "Owls"], bots=["medium"], seed=11, clock=clock, **kwargs)


def test_two_teams_share_the_screen_and_their_answers_stay_hidden_until_the_reveal():
    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    app = teams_app(clock)
    assert app.teams == {0: "Foxes", 1: "Owls"} and app.seat is None
    assert [p.name for p in app.game.players] == ["Foxes", "Owls", "Bot 1 (medium)"]
    controls = app.controls
    assert [r.children[0].description for r in controls.entry_rows.children] == ["Foxes", "Owls"]
    app.start()
    assert app.game.stage == "answer" and app.game.question.is_guess
    clock.advance(2.0)
    controls.entries[0].value = "1848"  # the teacher types Foxes' answer and presses Enter
    assert controls.entries[0].value == ""  # nothing of it stays on the projector
    assert app.game.question.answers[0] == GuessAnswer(0, 1848, 2000)
    assert controls.entry_status[0].value.endswith("✓ answer in (type again to correct it)</span>")
    assert "waiting…" in controls.entry_status[1].value
    assert "1848" not in app.scoreboard.value + app.panel.feedback.value + app.reveal.value + app.log.value
    controls.entries[1].value = "12x"  # a typo: said, and nothing is entered
    assert "Owls: that is not a whole number; type it again." in controls.message.value
    assert 1 not in app.game.question.answers


def test_the_map_acts_for_the_team_whose_turn_it_is():
    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    app = teams_app(clock)
    app.start()
    controls = app.controls
    controls.timed.value = False
    right = app.game.question.question.answer
    controls.entries[1].value = str(right)  # Owls exact: they pick first (D1)
    controls.entries[0].value = str(right + 100)
    for _ in range(400):
        if app.game.stage == "pick" and not app.table.paused and app.game.pick_queue[0] == 1:
            break
        clock.advance(0.05)
    assert app.seat == 1 and app.panel.header.value.count("Owls: your turn") == 1
    territory = app.game.legal_picks(1)[0]
    app.map_view.click(territory)
    assert app.game.territories[territory].owner == 1


def test_the_buttons_pause_skip_undo_and_end_the_game():
    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    app = teams_app(clock)
    controls = app.controls
    assert controls.pause_button.disabled  # nothing to pause before Start
    app.start()
    clock.advance(3.0)
    controls.pause_button.click()
    assert app.table.held and controls.pause_button.description == "Resume"
    clock.advance(60.0)
    assert app.table.time_left() == pytest.approx(7.0)
    controls.pause_button.click()
    assert not app.table.held and controls.pause_button.description == "Pause"
    asked = app.game.question.question.id
    controls.skip_button.click()
    assert app.game.question.question.id != asked and "Skipped" in controls.message.value
    controls.entries[0].value = "5"
    controls.undo_button.click()
    assert app.game.question.waiting_for[:1] == (0,) and "taken back" in controls.message.value
    controls.end_button.click()
    assert app.game.is_over and controls.end_button.disabled and app.ranking.value != ""


def test_the_note_of_a_resume_is_gone_when_the_game_ends():
    """Issue 24's tryout: "The game goes on." (Resume's note) stayed beside the podium after the game ended."""
    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    app = teams_app(clock)
    controls = app.controls
    app.start()
    clock.advance(3.0)
    controls.pause_button.click()
    controls.pause_button.click()
    assert "The game goes on." in controls.message.value
    app.table.end_now()  # the game ends by itself (its last round), not by the End button's own note
    assert app.game.is_over and "The game goes on." not in controls.message.value


def test_a_single_player_game_has_the_buttons_without_the_entry_rows():
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play
    app = play(seed=3, clock=ManualClock())
    assert app.controls is not None and app.controls.entries == {} and app.seat == 0
    assert app.controls.widget in app.side.children


def test_resume_brings_the_teams_game_back_from_its_journal(tmp_path):
    import triviador_nb
    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    path = tmp_path / "lesson.journal"
    app = teams_app(clock, journal=path)
    app.start()
    app.controls.entries[0].value = "1848"
    clock.advance(1.0)
    before = app.game.to_dict()
    app.close()  # the kernel restarts
    again = triviador_nb.resume(path, clock=ManualClock())
    assert again.game.to_dict() == before and again.teams == {0: "Foxes", 1: "Owls"}
    assert "Resumed from lesson.journal: game 1" in again.message.value
    assert str(path) in again.controls.saved.value
    again.start()
    again.controls.entries[1].value = "1850"
    assert again.game.question.answers[1].value == 1850
    assert read_record(path)[-1] == "answer p2 1850 0ms"


def read_record(path):
    from triviador_nb.classroom import read_journal
    return read_journal(path).games[-1]["record"]


def test_a_territory_is_chosen_by_typing_its_name():
    """Issue 12 part 7: every action by keyboard - a territory's name and Enter."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play
    clock = ManualClock()
    app = play(seed=3, clock=clock, rules="long-campaign", bots=["medium", "hard"], journal=False)
    app.start()
    assert app.game.stage == "base"
    for _ in range(200):  # the bases are chosen in colour order; wait for ours
        if app.game.pick_queue and app.game.pick_queue[0] == 0:
            break
        clock.advance(0.1)
    choices = app.view.prompt.choices
    names = {t.id: t.name for t in app.view.territories}
    assert app.by_name.layout.visibility == "visible"
    assert app.by_name.options == tuple(sorted(names[t] for t in choices))
    app.by_name.value = names[choices[0]]
    assert app.game.territories[choices[0]].base_of == 0 and app.by_name.value == ""


def test_a_correction_finds_the_open_questions_answer_even_when_an_earlier_one_reads_the_same():
    """Review: the same untimed answer to an earlier question was taken for the open one's."""
    from triviador_nb.classroom import ManualClock, Table
    game = standard_game()
    table = Table(game, {}, ManualClock())
    table.start()
    for _ in range(2):  # two battles: both seats answer B untimed each time
        if table.game.stage == "attack":
            table.submit(table.game.attacker, next(a for a in table.game.legal_actions() if isinstance(a, Attack)))
        for seat in table.game.question.waiting_for:
            assert table.enter_answer(seat, 1, timed=False).accepted
        table.clock.advance(5.0)
    if table.game.stage == "attack":
        table.submit(table.game.attacker, next(a for a in table.game.legal_actions() if isinstance(a, Attack)))
    seat = table.game.question.players[0]
    assert table.enter_answer(seat, 1, timed=False).accepted
    ack = table.enter_answer(seat, 2, timed=False)
    assert ack.accepted and table.game.question.answers[seat].option == 2


def test_a_refused_correction_keeps_the_earlier_answer():
    table, clock, written = two_team_table()
    table.start()
    table.enter_answer(0, 1700)
    ack = table.enter_answer(0, -5)
    assert ack.status == "rejected" and ack.code == "invalid_answer"
    assert table.game.question.answers[0].value == 1700 and written == ["entries"]


def test_undo_after_the_reveal_gives_back_the_time_the_question_had_left():
    table, clock, _ = two_team_table()
    table.start()
    clock.advance(8.0)
    table.enter_answer(0, 5)
    for _ in range(30):  # the bot answers by the limit; then the result is on screen
        if table.paused:
            break
        table.enter_answer(1, 6) if 1 in table.game.question.waiting_for else None
        clock.advance(0.1)
    assert table.paused
    table.undo()
    assert table.game.question is not None and len(table.game.question.waiting_for) == 1
    assert 0 < table.time_left() < 2.1  # what it had left (about 1.9 s), not a fresh 10 s after the reveal


def test_an_intent_from_before_an_undo_is_stale_even_where_the_record_length_repeats():
    table, clock, _ = two_team_table()
    table.start()
    before = table.state_id
    table.enter_answer(0, 5)
    table.undo()
    assert table.state_id != before and table.state_id.startswith("1.1:")
    assert table.submit(1, GuessAnswer(1, 5), before).status == "stale"


def test_no_team_answer_before_start():
    table, clock, _ = two_team_table()
    assert table.enter_answer(0, 1848).code == "not_started"


def test_every_owned_territory_carries_its_owners_number_as_well_as_its_colour():
    """Issue 12 part 7: a second cue that needs no colour, the same number as on the scoreboard."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play
    app = play(seed=3, clock=ManualClock(), journal=False)
    icons_before = len(app.map_view._icons)
    for territory, state in app.game.territories.items():
        html = app.map_view.labels[territory].icon.html
        if state.owner is None:
            assert "tnb-mark" not in html
        else:
            assert f'aria-label="player {state.owner + 1}">{state.owner + 1}</span>' in html
    assert len(app.map_view._icons) == icons_before  # preloaded: a change only re-points a marker
    assert '<span class="tnb-swatch" style="background:#CC3311">1</span>' in app.scoreboard.value


def test_the_credit_under_the_map_is_natural_earth_only_for_the_built_maps(tmp_path):
    from triviador_nb.maps import load_builtin_map
    from triviador_nb.ui.screen import map_credit
    assert map_credit(load_builtin_map("hungary")) == "Map: Made with Natural Earth"
    from dataclasses import replace
    mine = replace(load_builtin_map("hungary"), source_path=tmp_path / "my_counties.geojson")  # a teacher's own
    assert map_credit(mine) == "Map: my_counties.geojson"


def test_save_report_writes_the_lesson_s_spreadsheet_into_the_notebook_s_folder(tmp_path):
    """Issue 12 part 4 from the teacher's buttons: one click, an xlsx (read
    back with openpyxl) and the CSV files, named on screen."""
    import openpyxl

    from triviador_nb.classroom import ManualClock
    clock = ManualClock()
    app = teams_app(clock)
    controls = app.controls
    controls.report_folder = tmp_path
    app.start()
    controls.entries[0].value = "=1+2"  # not a number: refused, never in a cell
    controls.entries[0].value = "1848"
    controls.entries[1].value = "1900"
    clock.advance(30)
    controls.report_button.click()
    xlsx, *csvs = controls.last_report
    assert xlsx.parent == tmp_path and xlsx.name.startswith("report-") and xlsx.suffix == ".xlsx"
    assert [c.name[len(xlsx.stem):] for c in csvs] == ["-players.csv", "-answers.csv", "-questions.csv",
                                                       "-scores.csv"]
    assert controls.message.value.endswith(f"Report saved: {xlsx.name} and 4 CSV files in {tmp_path}</span>")
    book = openpyxl.load_workbook(xlsx)
    assert book.sheetnames == ["players", "answers", "questions", "scores"]
    rows = list(book["answers"].values)
    column = rows[0].index("given")
    assert {r[column] for r in rows[1:] if r[rows[0].index("player")] in ("Foxes", "Owls")} >= {1848, 1900}
    assert not any(isinstance(v, str) and v.startswith("=") for r in rows for v in r)


def test_save_report_says_when_the_folder_cannot_be_written(tmp_path):
    from triviador_nb.classroom import ManualClock
    app = teams_app(ManualClock())
    app.controls.report_folder = tmp_path / "no" / "such" / "folder"
    app.controls.report_button.click()
    assert "The report could not be saved: Cannot save file into a non-existent directory" in app.controls.message.value
    assert app.controls.last_report == []


def test_save_report_clicked_twice_in_one_second_keeps_both_reports(tmp_path, monkeypatch):
    """Issue 25: the second click overwrote the first report (names are to the second)."""
    import time

    from triviador_nb.classroom import ManualClock
    app = teams_app(ManualClock())
    app.controls.report_folder = tmp_path
    monkeypatch.setattr(time, "strftime", lambda form, *a: "report-2026-12-03-101500")
    app.controls.report_button.click()
    first = app.controls.last_report
    app.controls.report_button.click()
    second = app.controls.last_report
    assert [p.name for p in (first[0], second[0])] == ["report-2026-12-03-101500.xlsx", "report-2026-12-03-101500-2.xlsx"]
    assert len(list(tmp_path.iterdir())) == 10
    assert app.controls.message.value.endswith(f"Report saved: report-2026-12-03-101500-2.xlsx and 4 CSV files in "
                                               f"{tmp_path}</span>")


# ---------------------------------------------------------------- D16: an undo never changes the bots' answers

def bots_table(bots: tuple[int, ...], seed: int = 3):
    """ConQUIZtador on the grid, medium bots in ``bots``, people in the other seats."""
    from triviador_nb.bots import Bot
    from triviador_nb.classroom import ManualClock, Table
    from triviador_nb.engine import CONQUIZTADOR
    clock = ManualClock()
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed)
    return Table(game, {s: Bot(s, "medium", seed) for s in bots}, clock), clock


def run_to_the_end(table, clock) -> list[str]:
    """Let the clock run until the game is over (people's timers run out, D3)."""
    for _ in range(5000):
        if table.game.is_over:
            return [str(e) for e in table.game.record]
        clock.advance(1.0)
    raise AssertionError("the game did not end")


def test_d16_an_answer_undone_and_made_again_gives_the_game_without_the_undo():
    """Issue 26 part 1: seed 3, bots in seats 1 and 2; seat 0 answers at 1.0 s,
    the teacher undoes it and enters the same answer at the same moment. The
    bots' planned answers (values and times) stay (D16), so the whole game is
    the one that follows without the undo (before, the bots drew new answers
    and the winners of questions 1-12 changed)."""
    games = []
    for undo in (False, True):
        table, clock = bots_table(bots=(1, 2))
        table.start()
        clock.advance(1.0)
        guess = table.game.question.question.answer + 5
        assert table.enter_answer(0, guess).accepted
        if undo:
            assert table.undo().accepted and table.game.question.waiting_for == (0, 1, 2)
            assert table.enter_answer(0, guess).accepted
        games.append(run_to_the_end(table, clock))
    without, with_undo = games
    assert with_undo[:4] == without[:4]  # the draw, then p1's answer and the bots' at their planned times
    assert with_undo == without


def test_d16_a_bots_move_undone_is_made_again_the_same():
    """Undo a bot's pick: the bot picks the same territory again when its turn
    comes back, and the game goes on as it would have without the undo."""
    games = []
    for undo in (False, True):
        table, clock = bots_table(bots=(0, 1, 2), seed=5)
        table.start()
        while not any(isinstance(a, Pick) for a in table.game.actions):
            clock.advance(0.1)
        if undo:
            picked, at = table.game.actions[-1], len(table.game.actions) - 1
            assert table.undo().accepted and not any(isinstance(a, Pick) for a in table.game.actions)
            clock.advance(0.01)  # its turn comes back with the time it had used: it picks at once
            assert table.game.actions[at:] == [picked]
        games.append(run_to_the_end(table, clock))
    assert games[1] == games[0]


def test_d16_a_bots_answer_depends_only_on_the_seed_and_the_question():
    """Asked again at the same moment, a bot gives the same answer and time
    (before, each call drew on from the bot's one stream)."""
    from triviador_nb.bots import Bot
    game = new_game(seed=3)
    bot = Bot(1, "medium", 3)
    first = bot.act(game)
    assert [bot.act(game) for _ in range(3)] == [first] * 3
    assert Bot(1, "medium", 3).act(game) == first  # a new bot of the same seat and seed
    assert Bot(1, "medium", 4).act(game) != first  # another game's seed, another answer


# ---------------------------------------------------------------- D16: End with equal scores shares the place

def test_d16_end_with_equal_scores_shares_first_place_without_a_tie_break():
    """Issue 26 part 3: the Duel ended at 1000:1000 gave seat 0 the win."""
    from triviador_nb.engine import DUEL
    from triviador_nb.ui import panels
    from triviador_nb.words import Names, event_text, status
    game = Game(DUEL, grid_board(), synthetic_bank(), 2, names=["Foxes", "Owls"])
    events = game.apply(End())
    assert game.is_over and game.scores() == [1000, 1000]
    assert (game.ranking, game.places) == ((0, 1), (1, 1))
    assert [e.code for e in events] == ["teacher.ended", "ranking.final"]  # no tie-break question, no award
    assert events[-1].data == {"ranking": [0, 1], "scores": [1000, 1000], "places": [1, 1]}
    assert event_text(events[-1], Names.of_game(game)) == "Game over. Final ranking: 1. Foxes 1000; 1. Owls 1000"
    seen = view(game, None)
    assert seen.places == (1, 1) and type(seen).from_json(seen.to_json()) == seen
    assert status(seen)[1] == "Game over: Foxes, Owls share first place with 1000 points"
    assert panels.ranking_html(seen).count('<li value="1">') == 2


def test_d16_end_shares_only_equal_places_and_the_next_place_counts_them():
    from helpers import attack
    from triviador_nb.reports import players_table
    game = standard_game()  # 1600 each
    defender = 1 if game.attacker != 1 else 2
    attack(game, next(t for t in game.legal_targets(game.attacker) if game.territories[t].owner == defender),
           "defend")  # D6: the defender +100
    game.apply(End())
    scores = game.scores()
    assert sorted(scores) == [1600, 1600, 1700] and game.ranking[0] == defender
    assert game.places == (1, 2, 2)
    assert list(players_table([game]).sort_values("seat")["place"]) == [
        dict(zip(game.ranking, game.places))[seat] for seat in range(3)]


def test_d16_end_during_a_tie_break_shares_the_place_without_it():
    """ConQUIZtador breaks every tie by a question (D12); End stops it: the
    tied players share the place."""
    from helpers import finish_quietly
    game = standard_game()
    finish_quietly(game)
    assert game.scores() == [1600, 1600, 1600] and game.question.players == (0, 1, 2)
    game.apply(End())
    assert game.places == (1, 1, 1) and game.ranking == (0, 1, 2)
