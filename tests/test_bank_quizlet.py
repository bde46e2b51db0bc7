"""Quizlet's export (term TAB definition, one a line): each term a multiple-choice question (D2: 4 options,
one right) whose wrong options are 3 of the set's other terms, drawn with a seeded RNG."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from triviador_nb.banks import BankProblem
from triviador_nb.banks.formats import detect_format, import_file
from triviador_nb.banks.quizlet import QUIZLET_SEED
from triviador_nb.cli import main

SET = ("photosynthesis\tHow plants make food from light\n"
       "mitosis\tCell division into two identical cells\n"
       "osmosis\tWater moving through a membrane\n"
       "diffusion\tParticles spreading from high\n"
       "to low concentration\n"  # a definition over two lines
       "enzyme\tA protein that speeds up a reaction\n"
       "\n"
       "Mitosis\tThe phase before cytokinesis\n"  # the same term again, another spelling
       "ribosome\t\n")


def located(problems: list[BankProblem]) -> list[tuple[int, str, str, str]]:
    return [(problem.row, problem.column, problem.severity, problem.message) for problem in problems]


def test_a_quizlet_set_becomes_multiple_choice_questions(tmp_path: Path) -> None:
    path = tmp_path / "biology.txt"
    path.write_text(SET, encoding="utf-8")

    imported = import_file(path)

    assert detect_format(path) == "quizlet"
    rows = imported.rows
    assert rows.index.tolist() == [1, 2, 3, 4, 6, 8]
    assert rows.loc[4, "question"] == "Particles spreading from high to low concentration"
    terms = ["photosynthesis", "mitosis", "osmosis", "diffusion", "enzyme"]
    for line, row in rows.iterrows():
        others = [term for term in terms if term.casefold() != row["answer"].casefold()]
        assert row["type"] == "choice"
        assert [row["wrong_1"], row["wrong_2"], row["wrong_3"]] == random.Random(
            f"{QUIZLET_SEED}:{row['answer']}").sample(others, 3)  # never the answer, not even as "Mitosis"
    assert rows.loc[1, ["answer", "wrong_1", "wrong_2", "wrong_3"]].tolist() == [
        "photosynthesis", "mitosis", "osmosis", "enzyme"]
    assert located(imported.problems) == [(9, "-", "warning", 'skipped "ribosome": the definition is empty')]
    assert import_file(path).rows.equals(rows)  # the same file, the same questions


def test_a_set_of_three_terms_cannot_make_4_options(tmp_path: Path) -> None:
    path = tmp_path / "small.txt"
    path.write_text("Budapest\tCapital of Hungary\nPrague\tCapital of Czechia\nVienna\tCapital of Austria\n",
                    encoding="utf-8")

    reason = ("the set has 3 different terms; a multiple-choice question takes 3 of the other terms as wrong "
              "options, so a Quizlet set needs at least 4")
    assert located(import_file(path).problems) == [
        (1, "-", "warning", f'skipped "Capital of Hungary": {reason}'),
        (2, "-", "warning", f'skipped "Capital of Czechia": {reason}'),
        (3, "-", "warning", f'skipped "Capital of Austria": {reason}'),
    ]


def test_bank_convert_shows_the_questions_it_made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "biology.txt"
    source.write_text(SET, encoding="utf-8")
    out = tmp_path / "out.csv"

    assert main(["bank", "convert", str(source), str(out)]) == 0

    assert capsys.readouterr().out.splitlines() == [
        f'{source}:9:-: warning: skipped "ribosome": the definition is empty',
        f"{source}:1: \"How plants make food from light\" -> answer 'photosynthesis'; wrong 'mitosis', 'osmosis', "
        "'enzyme'",
        f"{source}:2: \"Cell division into two identical cells\" -> answer 'mitosis'; wrong 'photosynthesis', "
        "'osmosis', 'diffusion'",
        f"{source}:3: \"Water moving through a membrane\" -> answer 'osmosis'; wrong 'photosynthesis', 'enzyme', "
        "'mitosis'",
        f"{source}:4: \"Particles spreading from high to low...\" -> answer 'diffusion'; wrong 'osmosis', 'mitosis', "
        "'enzyme'",
        f"{source}:6: \"A protein that speeds up a...\" -> answer 'enzyme'; wrong 'diffusion', 'photosynthesis', "
        "'mitosis'",
        f"{source}:8: \"The phase before cytokinesis\" -> answer 'Mitosis'; wrong 'diffusion', 'osmosis', 'enzyme'",
        f"{out}: wrote 6 questions (read as a Quizlet export)",
    ]
    assert out.read_text(encoding="utf-8").splitlines()[1] == (
        ",choice,How plants make food from light,photosynthesis,mitosis,osmosis,enzyme,,,")


def test_a_two_column_tab_file_with_a_project_header_is_no_quizlet_set(tmp_path: Path) -> None:
    path = tmp_path / "two.tsv"
    path.write_text("question\tanswer\nLegs of a spider?\t8\nLegs of an insect?\t6\n", encoding="utf-8")

    assert detect_format(path) == "csv"
