"""Reports after play: per question, right answers and how far guesses were off."""

from __future__ import annotations

import openpyxl
import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import answer_all
from triviador_nb.engine import CONQUIZTADOR, Game, GuessAnswer
from triviador_nb.reports import (Report, answers_table, players_table, question_reports, report_table,
                                  scores_table)
from triviador_nb.simulate import play_bot_game
from triviador_nb.ui import ManualClock, play


def test_a_guess_question_report_counts_exact_answers_and_distances():
    game, asked = first_guess_game()
    (report,) = question_reports([game])
    assert (report.question, report.kind, report.asked, report.answers, report.correct) == (
        asked.question.id, "guess", 1, 2, 1)
    assert (report.median_off, report.worst_off, report.correct_rate) == (5.0, 10, 0.5)


def test_a_battle_question_report_counts_right_answers():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed=1, bases=("A1", "A4", "C2"))
    while game.phase.value == "expansion":
        answer_all(game, guesses={0: game.question.question.answer}) if game.stage == "answer" \
            else game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])  # the first attack
    asked = game.question
    answer_all(game, right={asked.players[0]})
    choice = [r for r in question_reports([game]) if r.kind == "choice"]
    assert [(r.question, r.answers, r.correct, r.median_off) for r in choice] == [(asked.question.id, 2, 1, None)]


def test_reports_add_up_over_several_games_and_make_a_table():
    games = [play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(guesses=5, choices=5), seed) for seed in (1, 2)]
    reports = question_reports(games)
    asked = sum(1 for g in games for e in g.events if e.kind == "answers")
    assert sum(r.asked for r in reports) == asked
    table = report_table(games)
    assert list(table.columns) == ["question", "kind", "text", "asked", "answers", "correct", "correct_rate",
                                   "median_off", "worst_off"]
    assert len(table) == len(reports) == len({r.question for r in reports})


def test_the_app_shows_the_report_when_the_game_is_over():
    app = play(seed=3, clock=ManualClock())
    assert app.report_box.layout.display == "none"
    app.autoplay()
    assert app.report_box.layout.display is None
    assert "How did the questions go?" in app.report_box.titles
    first = question_reports([app.game])[0]
    assert first.text.split()[0] in app.report_view.value
    assert len(app.report()) == len(question_reports([app.game]))


def first_guess_game() -> tuple[Game, object]:
    """Seed 1 on the grid: three answers to the first guess question (exact,
    10 over, none) and the picks they earn."""
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed=1)
    asked = game.question
    correct = asked.question.answer
    game.apply(GuessAnswer(0, correct, 1000))
    game.apply(GuessAnswer(1, correct + 10, 2000))
    game.apply(GuessAnswer(2, None))
    return game, asked


def test_the_answers_table_says_who_answered_what_right_or_wrong_time_and_error():
    game, asked = first_guess_game()
    table = answers_table([game])
    correct = asked.question.answer
    cells = table[["seat", "player", "given", "correct", "right", "off", "ms"]]
    assert cells.astype(object).where(cells.notna(), None).values.tolist() == [
        [0, game.players[0].name, correct, correct, True, 0, 1000],
        [1, game.players[1].name, correct + 10, correct, False, 10, 2000],
        [2, game.players[2].name, None, correct, None, None, None],
    ]
    assert set(table["number"]) == {1} and set(table["question"]) == {asked.question.id}


def test_a_choice_answer_is_reported_by_the_option_text():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed=1, bases=("A1", "A4", "C2"))
    while game.phase.value == "expansion":
        answer_all(game, guesses={0: game.question.question.answer}) if game.stage == "answer" \
            else game.apply(game.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    asked = game.question
    answer_all(game, right={asked.players[0]})
    rows = answers_table([game])
    rows = rows[rows["kind"] == "choice"]
    right_text = asked.options[asked.correct_option]
    assert rows["correct"].tolist() == [right_text, right_text]
    assert rows["right"].tolist() == [True, False]
    assert rows["given"].tolist()[0] == right_text and rows["given"].tolist()[1] in asked.options
    assert rows["given"].tolist()[1] != right_text


def test_the_players_table_adds_up_each_players_answers_and_score():
    games = [play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(guesses=5, choices=5), 1)]
    players = players_table(games)
    answers = answers_table(games)
    game = games[0]
    assert players["player"].tolist() == [p.name for p in game.players]
    assert players["score"].tolist() == game.scores()
    assert sorted(players["place"].tolist()) == [1, 2, 3]
    assert players.loc[players["place"] == 1, "seat"].item() == game.ranking[0]
    for seat in range(3):
        mine = answers[(answers["seat"] == seat) & answers["given"].notna()]
        row = players[players["seat"] == seat].iloc[0]
        assert (row["answered"], row["right"]) == (len(mine), int(mine["right"].sum()))


def test_the_score_table_follows_d10_and_ends_at_the_final_scores():
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(guesses=5, choices=5), 2)
    table = scores_table(game)
    names = [p.name for p in game.players]
    assert table.iloc[0][names].tolist() == [CONQUIZTADOR.base_value] * 3  # D12: the bases, 1000 each
    assert table.iloc[-1][names].tolist() == game.scores()
    assert table["question"].is_monotonic_increasing
    assert table["question"].iloc[-1] == sum(1 for e in game.events if e.kind == "answers")


def test_the_charts_draw_a_line_per_player_and_the_hardest_questions():
    games = [play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(guesses=5, choices=5), s) for s in (1, 2)]
    report = Report(games)
    lines = report.score_chart().axes[0].get_lines()
    assert [line.get_label() for line in lines] == [p.name for p in games[-1].players]
    choice_axes, guess_axes = report.hardest_chart(top=3).axes
    assert len(choice_axes.patches) == min(3, sum(report.questions["kind"] == "choice"))
    assert len(guess_axes.patches) == min(3, sum(report.questions["kind"] == "guess"))


def test_the_report_exports_csv_and_xlsx_in_one_call_with_no_live_formula(tmp_path):
    game, asked = first_guess_game()
    game.players[1].name = "=HYPERLINK(\"http://example.invalid\",\"win\")"
    written = Report([game]).export(tmp_path / "lesson.xlsx")
    assert [p.name for p in written] == ["lesson.xlsx", "lesson-players.csv", "lesson-answers.csv",
                                         "lesson-questions.csv", "lesson-scores.csv"]
    book = openpyxl.load_workbook(written[0])
    assert book.sheetnames == ["players", "answers", "questions", "scores"]
    assert [c.coordinate for s in book for row in s.iter_rows() for c in row if c.data_type == "f"] == []
    assert book["players"]["C3"].value == "'" + game.players[1].name
    assert "'=HYPERLINK(" in (tmp_path / "lesson-answers.csv").read_text(encoding="utf-8")


def test_the_app_gives_the_full_report_of_its_games(tmp_path):
    app = play(seed=3, clock=ManualClock())
    app.autoplay()
    report = app.full_report()
    assert report.players["score"].tolist() == app.game.scores()
    assert len(report.answers) == sum(len(e.data["answers"]) for e in app.game.events if e.kind == "answers")
    assert [p.name for p in report.export(tmp_path / "lesson")][0] == "lesson.xlsx"


def test_players_with_the_same_name_get_their_seat_in_the_score_columns(tmp_path):
    """Review: duplicate names (or a player called "event") broke the export."""
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(guesses=5, choices=5), 1)
    for player, name in zip(game.players, ["Foxes", "Foxes", "event"]):
        player.name = name
    assert list(scores_table(game).columns) == ["event", "question", "Foxes (1)", "Foxes (2)", "event (3)"]
    written = Report([game]).export(tmp_path / "lesson")
    assert len(written) == 5
    with pytest.raises(ValueError, match="^there is no game to chart"):
        Report([]).score_chart()


# ---------------------------------------------------------------- control characters, all or nothing (issue 25)

def test_control_characters_in_a_name_and_a_question_are_written_as_visible_symbols(tmp_path):
    """Issue 25: a Word line break (\\x0b) in a team name made Save report fail half-way with openpyxl's
    IllegalCharacterError, leaving a players-only xlsx and CSVs with raw NUL and ESC."""
    game, asked = first_guess_game()
    game.players[0].name = "Fox\x0bes\x00"
    for event in game.events:
        if event.kind == "answers":
            event.data["question_text"] = "How\x1b many?"
    written = Report([game]).export(tmp_path / "lesson")
    book = openpyxl.load_workbook(written[0])
    assert book["players"]["C2"].value == "Fox␋es␀"
    assert book["answers"]["F2"].value == "How␛ many?"
    assert "Fox␋es␀" in [c.value for c in book["scores"][1]]  # a column name too
    text = "".join(p.read_text(encoding="utf-8") for p in written[1:])
    assert "Fox␋es␀" in text and "How␛ many?" in text
    assert not any(c in text for c in "\x00\x0b\x1b")


def test_a_report_that_cannot_be_written_whole_leaves_no_file(tmp_path, monkeypatch):
    import pandas as pd

    game, _asked = first_guess_game()
    real = pd.DataFrame.to_excel

    def disk_full(self, writer, sheet_name, **kwargs):
        if sheet_name == "questions":
            raise OSError(28, "No space left on device")
        return real(self, writer, sheet_name=sheet_name, **kwargs)

    monkeypatch.setattr(pd.DataFrame, "to_excel", disk_full)
    with pytest.raises(OSError, match="No space left on device"):
        Report([game]).export(tmp_path / "lesson")
    assert list(tmp_path.iterdir()) == []


def test_a_second_report_in_the_same_second_gets_its_own_name(tmp_path):
    """Issue 25: Save report clicked twice in one second overwrote the first report."""
    game, _asked = first_guess_game()
    first = Report([game]).export(tmp_path / "report-2026-12-03-101500")
    game.players[0].name = "Later"
    second = Report([game]).export(tmp_path / "report-2026-12-03-101500")
    assert [p.name for p in second] == ["report-2026-12-03-101500-2.xlsx", "report-2026-12-03-101500-2-players.csv",
                                        "report-2026-12-03-101500-2-answers.csv",
                                        "report-2026-12-03-101500-2-questions.csv",
                                        "report-2026-12-03-101500-2-scores.csv"]
    assert openpyxl.load_workbook(first[0])["players"]["C2"].value != "Later"
    assert openpyxl.load_workbook(second[0])["players"]["C2"].value == "Later"
    (tmp_path / "lesson-scores.csv").write_text("someone else's file")  # any one of the five names taken
    assert Report([game]).export(tmp_path / "lesson")[0].name == "lesson-2.xlsx"
    assert (tmp_path / "lesson-scores.csv").read_text() == "someone else's file"
