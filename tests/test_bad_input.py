"""Bad input found by trying to break the game: each gets a clear error and loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixture_data import grid_board, synthetic_bank
from triviador_nb.banks import check_bank_files, load_bank
from triviador_nb.cli import main
from triviador_nb.engine import (
    CONQUIZTADOR,
    ActionParseError,
    Game,
    GuessAnswer,
    IllegalRebuildError,
    InvalidAnswerError,
    NotYourTurnError,
    Rebuild,
)
from triviador_nb.maps import MapError, load_builtin_map, load_map
from triviador_nb.ui import ManualClock, play
from triviador_nb.ui.question_panel import parse_guess

HEADER = "type,question,answer,wrong_1,wrong_2,wrong_3\n"
CHOICE = "choice,Pick one,a,b,c,d\n"


def test_a_guess_answer_longer_than_15_digits_is_an_error_with_its_row(tmp_path):
    bank = tmp_path / "big.csv"
    bank.write_text(HEADER + "guess,How many?," + "9" * 400 + ",,,\n" + CHOICE, encoding="utf-8")
    problems = check_bank_files([bank])
    assert [(p.row, p.column, p.message, p.severity) for p in problems] == [
        (2, "answer", "guess answer has 400 digits; at most 15 fit a guess question", "error")]


def test_two_banks_with_the_same_file_name_in_different_folders_load_together(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "q.csv").write_text(HEADER + "guess,How many?,7,,,\n" + CHOICE, encoding="utf-8")
    bank = load_bank([tmp_path / "a" / "q.csv", tmp_path / "b" / "q.csv"])
    assert [q.id for q in bank.guess] == ["q:2", f"{tmp_path / 'b' / 'q.csv'}:2"]


def write_map(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "m.geojson"
    path.write_text(text, encoding=encoding)
    return path


def hungary_json() -> dict:
    return json.loads(load_builtin_map("hungary").source_path.read_text(encoding="utf-8"))


def test_a_map_saved_with_a_bom_loads(tmp_path):
    path = write_map(tmp_path, json.dumps(hungary_json()), encoding="utf-8-sig")
    assert len(load_map(path).board) == 19


def test_deeply_nested_json_is_a_map_error(tmp_path):
    with pytest.raises(MapError, match="nested too deeply"):
        load_map(write_map(tmp_path, "[" * 100_000 + "]" * 100_000))


def test_a_territory_id_with_a_space_and_a_nan_label_are_reported(tmp_path):
    data = hungary_json()
    data["features"][0]["id"] = data["features"][0]["properties"]["id"] = "HU BA"
    data["features"][1]["properties"]["label"] = [float("nan"), 19.0]
    with pytest.raises(MapError) as info:
        load_map(write_map(tmp_path, json.dumps(data)))
    text = str(info.value)
    assert "id 'HU BA' contains a space" in text and "properties.label missing or not [lat, lon]" in text


def new_game() -> Game:
    return Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed=1)


def test_huge_numbers_in_text_actions_are_parse_errors():
    game = new_game()
    with pytest.raises(ActionParseError):
        game.parse("answer p1 " + "9" * 5000)
    with pytest.raises(ActionParseError):
        game.parse(None)


def test_a_huge_guess_is_refused_and_the_game_goes_on():
    game = new_game()
    with pytest.raises(InvalidAnswerError, match="15 digits at most"):
        game.apply(GuessAnswer(0, 10**5000, 100))
    assert game.actions == [] and game.question.waiting_for == (0, 1, 2)


@pytest.mark.parametrize("action", [None, "answer p1 5", GuessAnswer(0.0, 5), GuessAnswer("0", 5)])
def test_things_that_are_not_actions_are_refused(action):
    game = new_game()
    with pytest.raises(NotYourTurnError):
        game.apply(action)
    assert game.actions == []


def test_an_illegal_rebuild_raises_its_own_error():
    game = new_game()
    with pytest.raises(NotYourTurnError):
        game.apply(Rebuild(0))  # a question is open
    assert issubclass(IllegalRebuildError, ValueError)


def test_a_countdown_that_lands_a_hair_before_zero_still_expires():
    clock = ManualClock()
    app = play(seed=1, clock=clock)
    clock.advance(121.73699999999998)  # float remainders once left 5e-14 s on the timer forever
    app.start()
    clock.advance(12)
    assert [a for a in app.game.actions if a.player == 0] == [GuessAnswer(0, None)]


def test_a_guess_of_5000_digits_typed_in_the_box_is_refused_with_feedback():
    assert parse_guess("9" * 5000) is None
    app = play(seed=1, clock=ManualClock())
    app.start()
    app.panel.guess_box.value = "9" * 5000
    assert app.game.actions == [] and "is not a whole number" in app.panel.feedback.value


def test_an_empty_bank_list_is_a_clear_error():
    with pytest.raises(ValueError, match="no question bank files given"):
        play(bank=[])


def test_the_map_title_is_shown_as_text(tmp_path):
    data = hungary_json()
    data["triviador"]["title"] = "<img src=x onerror=alert(1)>"
    app = play(map=str(write_map(tmp_path, json.dumps(data))), clock=ManualClock())
    assert "<img" not in app.title.value and "&lt;img" in app.title.value


def test_play_again_does_nothing_while_a_game_is_on():
    app = play(seed=1, clock=ManualClock())
    app.play_again.click()
    assert app.game.seed == 1


def test_simulate_on_a_map_without_room_for_bases_exits_2(tmp_path, capsys):
    data = hungary_json()
    keep = {"HU-PE", "HU-NO", "HU-HE"}  # three counties that border each other
    data["features"] = [f for f in data["features"] if f["id"] in keep]
    data["triviador"]["territory_count"] = 3
    for f in data["features"]:
        f["properties"]["neighbours"] = sorted(keep - {f["id"]})
    path = write_map(tmp_path, json.dumps(data))
    assert main(["simulate", "--map", str(path), "--games", "1"]) == 2
    assert "no 3 mutually non-adjacent territories" in capsys.readouterr().err
