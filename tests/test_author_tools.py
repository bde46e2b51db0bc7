"""The authors' notebook tools: problems table, question preview, statistics."""

from __future__ import annotations

import matplotlib

from triviador_nb.banks import load_builtin_bank
from triviador_nb.ui.author import QuestionPreview, problems_table, statistics_figure

matplotlib.use("Agg")


def test_problems_table_lists_every_problem_with_its_row(tmp_path):
    bank = tmp_path / "b.csv"
    bank.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\n"
                    "guess,How many?,1 000,,,\nchoice,Pick,a,a,c,d\n", encoding="utf-8")
    table = problems_table([bank])
    assert list(table[["row", "column", "severity"]].itertuples(index=False, name=None)) == [
        (2, "answer", "error"), (3, "wrong_1", "error")]


def test_preview_shows_a_question_in_the_game_panel_and_checks_the_answer():
    bank = load_builtin_bank()
    preview = QuestionPreview(bank)
    choice = bank.choice[0]
    preview.picker.value = choice.id
    labels = [b.description[3:] for b in preview.panel.choice_buttons]
    assert sorted(labels) == sorted(choice.options)
    preview.panel.choice_buttons[labels.index(choice.answer)].click()
    assert "Right: the answer is" in preview.result.value
    guess = bank.guess[0]
    preview.picker.value = guess.id
    preview.panel.guess_box.value = str(guess.answer + 3)
    assert f"The answer is <b>{guess.answer}</b>; you were off by 3." in preview.result.value


def test_statistics_figure_has_three_plots():
    figure = statistics_figure(load_builtin_bank())
    assert [a.get_title() for a in figure.axes[:3]] == ["Questions by category", "By difficulty",
                                                       "Guess answers (log scale)"]
