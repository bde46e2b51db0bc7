"""Explicit chance and saved games (issue 10).

The question drawn and its options' order are recorded outcomes (``Draw``) in
the game's record, OpenSpiel's chance nodes: a replay of the record is the
same game even when the bank's rows were reordered, a burned question is not
drawn again, and a game and its rule set go to plain data and back.
"""

from __future__ import annotations

import json

import pytest
from fixture_data import grid_board, synthetic_bank

from triviador_nb.engine import (
    CONQUIZTADOR,
    LONG_CAMPAIGN,
    RULE_SETS,
    ActionParseError,
    Game,
    QuestionBank,
    RuleSet,
    parse_action,
)
from triviador_nb.bots import Bot
from triviador_nb.engine.actions import Draw
from triviador_nb.engine.view import view
from triviador_nb.simulate import play_bot_game


def reordered(bank: QuestionBank) -> QuestionBank:
    """The same questions, rows in reverse order (a teacher sorted the sheet)."""
    return QuestionBank(tuple(reversed(bank.guess)), tuple(reversed(bank.choice)), bank.name)


def test_every_question_asked_is_a_draw_in_the_record():
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(), 5)
    draws = [e for e in game.record if isinstance(e, Draw)]
    asked = [e.data for e in game.events if e.kind == "question"]
    assert [d.question for d in draws] == [a["question"] for a in asked]
    for draw, data in zip(draws, asked):
        if data["kind"] == "choice":  # D2: the shown order; the right answer (index 0) where it was shown
            question = next(q for q in synthetic_bank().choice if q.id == draw.question)
            assert data["options"] == [question.options[i] for i in draw.order]
        else:
            assert draw.order == ()
    assert [e for e in game.record if not isinstance(e, Draw)] == game.actions


def test_a_replay_of_the_record_does_not_depend_on_the_banks_row_order():
    game = play_bot_game(LONG_CAMPAIGN, grid_board(), synthetic_bank(), 9)
    names = [p.name for p in game.players]
    again = Game.replay(LONG_CAMPAIGN, grid_board(), reordered(synthetic_bank()), 9,
                        [str(e) for e in game.record], names=names)
    assert again.events == game.events and again.record == game.record
    # without the draws the decks draw from the reordered rows: another game
    plain = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 9)
    other = Game(CONQUIZTADOR, grid_board(), reordered(synthetic_bank()), 9)
    assert other.record[0] != plain.record[0]


def test_a_burned_question_is_not_drawn_again():
    """An undone question: the class has seen it, so the replay asks another,
    and the deck's first pass never comes back to it (D4)."""
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 3)
    seen = game.question.question.id
    again = Game.replay(CONQUIZTADOR, grid_board(), synthetic_bank(), 3, [], burned={seen})
    assert again.question.question.id != seen and again.burned == {seen}
    burned = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 3, burned={seen})
    bots = {seat: Bot(seat, "medium", 3) for seat in range(3)}
    while not burned.is_over:
        burned.apply(bots[burned.current_players()[0]].act(burned))
    first_pass = []
    for e in burned.events:
        if e.kind == "warning":
            break
        if e.kind == "question" and e.data["kind"] == "guess":
            first_pass.append(e.data["question"])
    assert len(first_pass) >= 3 and seen not in first_pass


def test_the_draw_text_form_round_trips():
    assert str(Draw("gk-g-017")) == "draw guess gk-g-017"
    assert str(Draw("gk c 4", (2, 0, 3, 1))) == "draw choice 2031 gk c 4"
    for draw in (Draw("gk-g-017"), Draw("gk c 4", (2, 0, 3, 1))):
        assert parse_action(str(draw)) == draw
    with pytest.raises(ActionParseError, match="each of 0, 1, 2, 3 once"):
        parse_action("draw choice 0012 q1")


def test_a_draw_is_no_players_action():
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 3)
    with pytest.raises(ValueError, match="this is not an action"):
        game.apply(Draw("g1"))


def test_a_record_naming_a_question_the_bank_lacks_is_a_clear_error():
    with pytest.raises(ValueError, match="the record asks guess question 'gone', which this question bank "
                                         "does not have"):
        Game.replay(CONQUIZTADOR, grid_board(), synthetic_bank(), 3, ["draw guess gone"])


def test_rule_sets_go_to_plain_data_and_back():
    for rules in RULE_SETS:
        data = json.loads(json.dumps(rules.to_dict()))
        assert RuleSet.from_dict(data) == rules
    data = CONQUIZTADOR.to_dict()
    assert data["battle_rounds"][0] == {"order": "random", "targets": "adjacent_no_bases", "fixed_order": [],
                                        "magic_wings": False}
    data["players"] = 5
    with pytest.raises(ValueError, match="5 players but 3 colours"):
        RuleSet.from_dict(data)


def test_a_game_goes_to_plain_data_and_back_mid_question():
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(), 5)
    for cut in (3, 17, len(game.actions) - 1):
        part = Game.replay(CONQUIZTADOR, grid_board(), synthetic_bank(), 5, game.actions[:cut],
                           names=[p.name for p in game.players])
        data = json.loads(json.dumps(part.to_dict()))
        back = Game.from_dict(data, grid_board(), reordered(synthetic_bank()))
        assert back.events == part.events and back.scores() == part.scores()
        assert view(back, 0) == view(part, 0)


def test_a_saved_game_for_another_map_or_version_is_refused():
    data = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 1).to_dict()
    from triviador_nb.maps import load_builtin_map

    with pytest.raises(ValueError, match="the game was played on map 'grid', not 'hungary'"):
        Game.from_dict(data, load_builtin_map("hungary").board, synthetic_bank())
    with pytest.raises(ValueError, match="version 9"):
        Game.from_dict({**data, "version": 9}, grid_board(), synthetic_bank())


def test_a_game_loaded_mid_way_goes_on_exactly_as_the_original():
    """A loaded game's later draws match the original's (the options' stream
    moves on for recorded draws too)."""
    for rules in RULE_SETS:
        game = Game(rules, grid_board(), synthetic_bank(), 2)
        bots = {p.seat: Bot(p.seat, "medium", 2 + p.seat) for p in game.players}
        for _ in range(25):
            game.apply(bots[game.current_players()[0]].act(game))
        loaded = Game.from_dict(game.to_dict(), grid_board(), synthetic_bank())
        while not game.is_over:
            action = bots[game.current_players()[0]].act(game)
            game.apply(action)
            loaded.apply(action)
        assert loaded.record == game.record and loaded.events == game.events, rules.name


def test_a_deck_taking_a_question_drawn_in_this_pass_counts_it_once():
    import random

    from triviador_nb.engine.deck import Deck

    deck = Deck(["a", "b", "c", "d"], random.Random(1))
    first, _ = deck.draw()
    assert deck.take(first) is False
    drawn = [deck.draw()[0] for _ in range(3)]
    assert sorted([first, *drawn]) == ["a", "b", "c", "d"]  # the pass still holds each question once
    assert deck.draw()[1] is True  # and then the deck reshuffles, on time


def test_keyed_draws_are_even_and_independent_of_each_other():
    """Issue 28 (engine/chance.py): with a secret, each option order is its
    own keyed draw: the correct option stands in each place about a quarter
    of the time (D2), and where it stood last time says nothing of the next."""
    from collections import Counter

    from triviador_nb.engine.chance import keyed_rng

    places = []
    for k in range(4000):
        order = [0, 1, 2, 3]
        keyed_rng("5e" * 16, f"options:{k}:q").shuffle(order)
        places.append(order.index(0))
    assert all(850 < n < 1150 for n in Counter(places).values())  # 1000 each, sd 27
    same = sum(a == b for a, b in zip(places, places[1:]))
    assert 850 < same < 1150  # the next place is the last one a quarter of the time, not more
    one, two = keyed_rng("5e" * 16, "options:0:q"), keyed_rng("5e" * 16, "options:0:q")
    assert [one.random() for _ in range(3)] == [two.random() for _ in range(3)]  # the same draw when replayed
    assert keyed_rng("5e" * 16, "options:1:q").random() != keyed_rng("5e" * 16, "options:0:q").random()
