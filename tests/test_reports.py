"""Reports after play: per question, right answers and how far guesses were off."""

from __future__ import annotations

from fixture_data import grid_board, synthetic_bank
from helpers import answer_all
from triviador_nb.engine import CONQUIZTADOR, Game, GuessAnswer
from triviador_nb.reports import question_reports, report_table
from triviador_nb.simulate import play_bot_game
from triviador_nb.ui import ManualClock, play


def test_a_guess_question_report_counts_exact_answers_and_distances():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed=1)
    asked = game.question
    correct = asked.question.answer
    game.apply(GuessAnswer(0, correct, 1000))
    game.apply(GuessAnswer(1, correct + 10, 2000))
    game.apply(GuessAnswer(2, None))
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
