"""Bank-wide quality warnings (triviador_nb.banks.quality), ``bank stats`` and ``bank simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triviador_nb.banks import check_bank_files, load_bank
from triviador_nb.banks.quality import NEAR_DUPLICATE_SCORE, bank_texts, near_duplicate_pairs, quality_problems
from triviador_nb.banks.usage import bank_stats, bank_usage, percentile
from triviador_nb.cli import main
from triviador_nb.engine import find_rule_set
from triviador_nb.maps import load_builtin_map

HEADER = "id,type,question,answer,wrong_1,wrong_2,wrong_3,category,difficulty\n"
CHOICES = "".join(f"c{i},choice,Choice question number {w}?,A,B,C,D,cat{i % 2},easy\n"
                  for i, w in enumerate("alpha bravo charlie delta echo foxtrot golf hotel india juliet".split()))
GUESSES = "".join(f"g{i},guess,Guess question about {w}?,{i * 10},,,,,hard\n"
                  for i, w in enumerate("kilo lima mike november oscar papa quebec romeo sierra tango".split()))


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def warnings_of(paths: list[Path]) -> list[str]:
    return [str(p) for p in check_bank_files(paths) if not p.is_error]


def test_near_duplicates_across_files_name_both_rows(tmp_path: Path) -> None:
    a = write(tmp_path, "a.csv", HEADER + "x1,guess,What is the capital of France?,1,,,,,\n" + CHOICES)
    b = write(tmp_path, "b.csv", HEADER + GUESSES + "x2,choice,which is the CAPITAL city of France,Paris,Lyon,Nice,Metz,,\n")

    assert warnings_of([a, b]) == [
        f"{b}:12:question: warning: question nearly repeats {a} row 2 (similarity 91%): "
        "'What is the capital of France?'; a game may ask both"
    ]


def test_near_duplicate_in_one_file_names_earlier_row(tmp_path: Path) -> None:
    text = HEADER + CHOICES + GUESSES + "x,guess,How many legs does a spider have?,8,,,,,\ny,guess,how many legs has a spider,8,,,,,\n"
    path = write(tmp_path, "one.csv", text)

    assert warnings_of([path]) == [
        f"{path}:23:question: warning: question nearly repeats row 22 (similarity 92%): "
        "'How many legs does a spider have?'; a game may ask both"
    ]


@pytest.mark.parametrize("first, second", [
    ("How many legs has a spider?", "How many legs has an insect?"),  # score 83 < 90
    ("What is the capital of Australia?", "What is the capital of Austria?"),  # 97, but a substituted word
    ("In which year did WW2 end?", "In which year did WW1 end?"),  # different numbers
    ("What is 7 x 8?", "What is 7 x 9?"),
    ("Which river flows through Prague?", "Which river flows through Prague, Dresden and Hamburg?"),
])
def test_different_questions_are_not_flagged(first: str, second: str) -> None:
    assert NEAR_DUPLICATE_SCORE == 90
    assert near_duplicate_pairs([first, second]) == []


def test_exact_repeat_in_one_file_is_reported_once_by_the_loader(tmp_path: Path) -> None:
    path = write(tmp_path, "rep.csv", HEADER + CHOICES + GUESSES + "x,guess,Days in a week?,7,,,,,\ny,guess,days in a  WEEK?,7,,,,,\n")

    assert warnings_of([path]) == [f"{path}:23:question: warning: same question as row 22"]


def test_guess_answer_warnings(tmp_path: Path) -> None:
    import pandas as pd

    rows = pd.DataFrame({"kind": ["guess"] * 5 + ["choice"],
                         "question": ["In what year will X?", "Year of Y?", "Stars in the sky?", "Code?",
                                      "How many days in a year?", "Which year?"],
                         "answer": ["2061", "1969", "5000000000000", "007", "365", "3000"]}, index=range(2, 8))
    problems = quality_problems(bank_texts([("f.csv", rows)]), current_year=2026)

    assert [str(p) for p in problems] == [
        "f.csv:2:answer: warning: the question asks for a year but the answer 2061 is after 2026",
        "f.csv:4:answer: warning: guess answer 5000000000000 is more than 1,000,000,000,000; "
        "too large to guess in a classroom (use a smaller unit?)",
        "f.csv:5:answer: warning: guess answer '007' has leading zeros; it is read as 7",
    ]


def test_separated_numbers_stay_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "sep.csv", HEADER + CHOICES + "g,guess,Big?,\"1,000\",,,,,\n")
    assert [(p.row, p.column, p.severity) for p in check_bank_files([path])] == [(12, "answer", "error")]


def test_stats(tmp_path: Path) -> None:
    bank = load_bank(write(tmp_path, "s.csv", HEADER + CHOICES + GUESSES))
    stats = bank_stats(bank)

    assert stats.by_type == {"guess": 10, "choice": 10}
    assert stats.by_category == {"(none)": 10, "cat0": 5, "cat1": 5}
    assert stats.by_difficulty == {"easy": 10, "hard": 10}
    assert (stats.guess_min, stats.guess_median, stats.guess_max) == (0, 45, 90)


def test_stats_cli_table_json_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "s.csv", HEADER + CHOICES + GUESSES)
    assert main(["bank", "stats", str(path)]) == 0
    out = capsys.readouterr().out
    assert "s: 20 questions" in out and "guess answers: min 0, median 45, max 90" in out
    assert main(["bank", "stats", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["by_type"] == {"guess": 10, "choice": 10}
    bad = write(tmp_path, "bad.csv", HEADER + "g,guess,Q?,x,,,,,\n")
    assert main(["bank", "stats", str(bad)]) == 1
    assert main(["bank", "stats", str(tmp_path / "missing.csv")]) == 2


def test_percentile_matches_linear_interpolation() -> None:
    assert percentile([1, 2, 3, 4, 5], 95) == pytest.approx(4.8)
    assert percentile([7], 95) == 7


def test_usage_on_a_small_map_is_consistent(tmp_path: Path) -> None:
    bank = load_bank(write(tmp_path, "u.csv", HEADER + CHOICES + GUESSES))
    board = load_builtin_map("hungary15").board
    usage = bank_usage(find_rule_set("conquiztador"), board, bank, games=4, seed=3)

    free = len(board) - 3  # 3 bases; each expansion question hands out 3 territories
    assert all(n >= free // 3 for n in usage.guess.per_game)
    assert all(n > 0 for n in usage.choice.per_game)
    for kind in (usage.guess, usage.choice):
        assert kind.bank_size == 10 and len(kind.per_game) == 4
        assert kind.mean == pytest.approx(sum(kind.per_game) / 4, abs=0.01)
        assert kind.lasts_a_game == (kind.p95 <= 10)
        assert kind.games_without_repeat == int(10 // kind.mean)


def test_simulate_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "u.csv", HEADER + CHOICES + GUESSES)
    assert main(["bank", "simulate", str(path), "--rules", "duel", "--games", "2", "--map", "hungary15", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "duel" and data["games"] == 2 and len(data["guess"]["per_game"]) == 2
    assert main(["bank", "simulate", str(path), "--games", "1", "--map", "hungary15"]) == 0
    assert "LASTS A GAME" in capsys.readouterr().out
    assert main(["bank", "simulate", str(path), "--rules", "nope"]) == 2
    assert main(["bank", "simulate", str(path), "--games", "0"]) == 2


def test_acronyms_tell_questions_apart():
    from triviador_nb.banks.quality import near_duplicate_pairs

    texts = ["In computing, what does CPU stand for?", "What does USB stand for?", "What does CPU stand for?"]
    assert [(i, j) for i, j, _ in near_duplicate_pairs(texts)] == [(0, 2)]
