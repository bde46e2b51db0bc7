"""The per-seat view: secrecy, JSON round trips, and what a seat is asked.

The secrecy property (issue 10): while a question is open, a seat's view must
not depend on the question's correct answer nor on another seat's answer. So
for fuzzed games of every rule set we change exactly those - the correct
option or number, every other seat's answer - and check that each seat's
serialised view stays byte for byte the same.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

import pytest
from fixture_data import grid_board, synthetic_bank
from test_random_games_all_rules import RULES, board, fuzz_action

from triviador_nb.engine import CONQUIZTADOR, ChoiceAnswer, Game, GuessAnswer
from triviador_nb.engine.events import EVENT_CODES, EVENT_KINDS, Event
from triviador_nb.engine.view import View, view
from triviador_nb.ui import panels
from triviador_nb.words import Names, event_text, outcome_lines


def tampered(game: Game, seat: int | None) -> Game:
    """A copy of ``game`` whose open question has another correct answer and
    whose other seats answered otherwise: what ``seat`` must not be able to tell."""
    other = copy.deepcopy(game)
    asked = other.question
    if asked.is_guess:
        asked.question = dataclasses.replace(asked.question, answer=asked.question.answer + 7919)
    else:
        asked.correct_option = (asked.correct_option + 1) % 4
    for s, answer in list(asked.answers.items()):
        if s == seat:
            continue
        if isinstance(answer, GuessAnswer):
            asked.answers[s] = GuessAnswer(s, (answer.value or 0) + 13, (answer.ms or 0) + 1)
        else:
            asked.answers[s] = ChoiceAnswer(s, ((answer.option or 0) + 1) % 4, (answer.ms or 0) + 1)
    return other


def check_views(game: Game) -> None:
    for seat in (None, *range(len(game.players))):
        v = view(game, seat)
        text = v.to_json()
        assert View.from_json(text) == v
        if game.question is not None:
            assert view(tampered(game, seat), seat).to_json() == text, f"seat {seat} can tell the answer"
            assert "correct" not in json.dumps(v.to_dict()["question"])


@pytest.mark.parametrize("rules_name", RULES)
def test_no_seat_can_see_an_answer_before_the_reveal(rules_name):
    """Every state of fuzzed games of every rule set, every seat and the projector."""
    for seed in (3, 8):
        rng = random.Random(f"secrecy:{seed}")
        game = Game(RULES[rules_name], board("hungary"), synthetic_bank(), seed)
        answering = 0
        check_views(game)
        while not game.is_over:
            game.apply(fuzz_action(game, rng))
            answering += game.question is not None
            check_views(game)
        assert answering > 20  # the property was checked on many open questions


def test_a_seat_sees_its_own_answer_and_who_else_has_answered():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 2)
    game.apply(GuessAnswer(1, 1234, 800))
    mine, others, projector = view(game, 1).question, view(game, 0).question, view(game, None).question
    assert (mine.my_answer, mine.answered) == (1234, (1,))
    assert (others.my_answer, others.answered) == (None, (1,))
    assert projector.my_answer is None
    assert "1234" not in view(game, 0).to_json() and "1234" not in view(game, None).to_json()
    assert view(game, 1).prompt.kind == "wait" and view(game, 0).prompt.kind == "answer"


def test_the_prompt_lists_the_seats_choices_only_on_its_turn():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 2)
    answer = game.question.question.answer
    for seat, off in ((0, 0), (1, 50), (2, 90)):
        game.apply(GuessAnswer(seat, answer + off, 1000))
    assert game.stage == "pick" and game.current_players() == (0,)
    mine = view(game, 0).prompt
    assert mine.kind == "pick" and set(mine.choices) == set(game.legal_picks(0)) and mine.time_limit_s == 10.0
    assert view(game, 1).prompt.kind == "wait" and view(game, 1).prompt.choices == ()


def test_the_reveal_renders_after_a_json_round_trip():
    """Issue 10: the ``answers`` event was keyed by int seats; after JSON the
    reveal raised KeyError. Now answers are a list and both render alike."""
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 2)
    for seat in range(3):
        game.apply(GuessAnswer(seat, 100 + seat, 1000 + seat))
    v = view(game, 0)
    again = View.from_json(v.to_json())
    assert panels.reveal_html(again) == panels.reveal_html(v) != ""
    assert outcome_lines(again) == outcome_lines(v)


def test_the_state_id_stays_while_a_question_is_open_and_moves_after():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 2)
    first = view(game, 0).state_id
    game.apply(GuessAnswer(0, 5, 100))
    assert view(game, 1).state_id == first  # the others' answers quote the same question
    game.apply(GuessAnswer(1, 5, 100))
    game.apply(GuessAnswer(2, 5, 100))
    assert view(game, 0).state_id != first


def test_a_view_from_a_bad_seat_or_bad_json_is_a_clear_error():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 2)
    with pytest.raises(ValueError, match="there is no seat 3"):
        view(game, 3)
    with pytest.raises(ValueError, match="not a view"):
        View.from_json("{}")
    with pytest.raises(ValueError, match="not a view"):
        View.from_json("not json")


# ----------------------------------------------------------------------------- events


def test_every_event_of_every_rule_set_round_trips_through_json_and_has_words():
    seen = set()
    for rules_name, rules in RULES.items():
        for seed in (1, 5):
            rng = random.Random(f"events:{seed}")
            game = Game(rules, board("hungary"), synthetic_bank(4, 8), seed)
            while not game.is_over:
                game.apply(fuzz_action(game, rng))
            names = Names.of_game(game)
            for e in game.events:
                assert Event.from_json(e.to_json()) == e
                assert event_text(e, names)
                seen.add(e.kind)
    assert seen <= set(EVENT_KINDS)
    assert {"question", "answers", "attack", "take", "defend", "ranking", "warning"} <= seen


def test_the_event_list_names_the_20_kinds_and_their_codes():
    assert len(EVENT_KINDS) == 20 and EVENT_KINDS[-2:] == ("teacher", "ranking")
    assert all(code.split(".")[0] == kind for kind, codes in EVENT_CODES.items() for code in codes)
    with pytest.raises(ValueError, match="unknown event"):
        Event(0, "take", "pick.taken", {})
    with pytest.raises(ValueError, match="not an event record"):
        Event.from_json('{"kind": "take"}')


def test_the_battle_event_says_who_fights_where():
    """Issue 10: the "battle" event carried no data."""
    from helpers import attack, standard_game

    game = standard_game(0)
    events = attack(game, game.legal_targets(game.attacker)[0], "guess-win")
    battle = next(e for e in events if e.kind == "battle")
    attack_event = next(e for e in events if e.kind == "attack")
    assert battle.data == {"seat": attack_event.data["seat"], "defender": attack_event.data["defender"],
                           "territory": attack_event.data["territory"]}
