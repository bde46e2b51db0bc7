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
    return Game.replay(game.rules, game.board, game.bank, game.seed, [str(e) for e in game.record],
                       names=[p.name for p in game.players], bases=game._given_bases,
                       asked_before=game.asked_before, burned=game.burned)


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
