"""Engine mechanics: action text forms, illegal actions, replay, legal-action counts."""

from __future__ import annotations

import copy
import json

import pytest
from fixture_data import grid_board, synthetic_bank
from hypothesis import given
from hypothesis import strategies as st
from helpers import (
    BASES,
    advance_to,
    answer_all,
    answer_guess,
    attack,
    finish_quietly,
    first_battle,
    new_game,
    snapshot,
    standard_game,
)

from triviador_nb.engine import (
    CONQUIZTADOR,
    ActionParseError,
    AnswerTooLateError,
    Attack,
    ChoiceAnswer,
    Game,
    GameOverError,
    GuessAnswer,
    IllegalActionError,
    IllegalTerritoryError,
    InvalidAnswerError,
    NotYourTurnError,
    Pick,
    Timeout,
    parse_action,
)
from triviador_nb.engine.actions import Draw, End, Rebuild, Skip
from triviador_nb.engine.game import MAX_GUESS
from triviador_nb.simulate import play_bot_game

# ----------------------------------------------------------------------------- text forms


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Pick(0, "HU-PE"), "pick p1 HU-PE"),
        (Attack(1, "HU-BA"), "attack p2 HU-BA"),
        (GuessAnswer(2, 1980, 4200), "answer p3 1980 4200ms"),
        (GuessAnswer(0, 0, 0), "answer p1 0 0ms"),
        (GuessAnswer(0, 7), "answer p1 7"),
        (GuessAnswer(1, None), "answer p2 none"),
        (GuessAnswer(0, None, 10000), "answer p1 none 10000ms"),
        (ChoiceAnswer(1, None, 15000), "answer p2 none 15000ms"),
        (ChoiceAnswer(0, 1, 3100), "answer p1 B 3100ms"),
        (ChoiceAnswer(2, 3), "answer p3 D"),
        (Timeout(0), "timeout p1"),
    ],
)
def test_action_text_form_and_round_trip(action, text):
    assert str(action) == text
    none_kind = type(action) if isinstance(action, (GuessAnswer, ChoiceAnswer)) else GuessAnswer
    assert parse_action(text, none_answer=none_kind) == action


def test_no_answer_text_reads_as_the_open_question_kind():
    assert parse_action("answer p2 none") == GuessAnswer(1, None)
    assert parse_action("answer p2 none", none_answer=ChoiceAnswer) == ChoiceAnswer(1, None)
    game = new_game()
    assert game.parse("answer p2 none") == GuessAnswer(1, None)
    game, *_ = first_battle()
    assert game.parse("answer p2 none") == ChoiceAnswer(1, None)


def test_a_timed_no_answer_survives_the_json_round_trip():
    """Issue 26 part 2 (D16: the record replays into the same game; D1: the
    time travels in the answer): ``GuessAnswer(0, None, 10000)`` was saved as
    ``answer p1 none``, and the rebuilt game's answers event said ``ms: None``."""
    game = new_game(seed=4)
    game.apply(GuessAnswer(0, None, 10000))
    game.apply(GuessAnswer(1, 1900, 2000))
    game.apply(GuessAnswer(2, None))
    data = json.loads(json.dumps(game.to_dict()))
    assert data["record"][1:4] == ["answer p1 none 10000ms", "answer p2 1900 2000ms", "answer p3 none"]
    again = Game.from_dict(data, game.board, game.bank)
    answers = next(e for e in again.events if e.kind == "answers").data["answers"]
    assert answers[0] == {"seat": 0, "given": None, "ms": 10000}
    assert again.record == game.record and again.events == game.events


_SEATS = st.integers(0, 99)
_IDS = st.text(st.characters(blacklist_categories=("Cs", "Z", "Cc")), min_size=1, max_size=12)  # no spaces (D15 maps)
_TIMES = st.none() | st.integers(0, MAX_GUESS)
_ACTIONS = st.one_of(
    st.builds(Pick, _SEATS, _IDS),
    st.builds(Attack, _SEATS, _IDS, st.booleans()),
    st.builds(Rebuild, _SEATS),
    st.builds(Timeout, _SEATS),
    st.builds(GuessAnswer, _SEATS, st.none() | st.integers(0, MAX_GUESS), _TIMES),
    st.builds(ChoiceAnswer, _SEATS, st.sampled_from([0, 1, 2, 3, None]), _TIMES),
    st.just(Skip()),
    st.just(End()),
    st.builds(Draw, _IDS | st.from_regex(r"\A\S[^\r\n]*\S\Z"),  # a bank's id may hold spaces
              st.just(()) | st.permutations((0, 1, 2, 3)).map(tuple)),
)


@given(_ACTIONS)
def test_every_action_round_trips_through_its_text_form(action):
    """Issue 26 part 2: every action the engine accepts (seats, 15-digit
    guesses and times, with or without a time, no answer included; D1, D16)
    and every draw is read back from its text form exactly."""
    kind = type(action) if isinstance(action, (GuessAnswer, ChoiceAnswer)) else GuessAnswer
    text = str(action)
    assert parse_action(text, none_answer=kind) == action
    assert parse_action(json.loads(json.dumps(text)), none_answer=kind) == action


def test_parse_tolerates_extra_spaces():
    assert parse_action("  pick   p1\tA2  ") == Pick(0, "A2")


@pytest.mark.parametrize(
    "text",
    ["", "hello", "pick p1", "pick p0 A1", "pick 1 A1", "attack p1 A1 A2", "answer p1 -5", "answer p1 E",
     "answer p1 b", "answer p1 12 400", "answer p1 12 -4ms", "timeout p1 A1", "Pick p1 A1", "answer p1 1.5"],
)
def test_parse_errors_quote_the_text(text):
    with pytest.raises(ActionParseError) as info:
        parse_action(text)
    assert repr(text) in str(info.value)


def test_every_action_of_a_bot_game_round_trips_through_text():
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(), 11)
    kinds = set()
    replayed = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 11, names=[p.name for p in game.players])
    for action in game.actions:
        parsed = replayed.parse(str(action))
        assert parsed == action
        replayed.apply(parsed)
        kinds.add(type(action).__name__)
    assert {"GuessAnswer", "ChoiceAnswer", "Pick", "Attack"} <= kinds


# ----------------------------------------------------------------------------- illegal actions


def _guess_open():
    return new_game()


def _pick_open():
    game = new_game()
    answer_guess(game, (0, 1, 2))
    return game


def _attack_open():
    game = standard_game()
    advance_to(game, 0, 1)
    return game


def _choice_open():
    game = standard_game()
    advance_to(game, 0, 1)
    game.apply(Attack(0, "A3"))
    return game


def _over():
    game = standard_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    finish_quietly(game)
    assert game.is_over
    return game


ILLEGAL = [
    # (setup, action, error, phrase in the reason)
    (_guess_open, Pick(0, "A2"), NotYourTurnError, "waiting for answers"),
    (_guess_open, Timeout(0), NotYourTurnError, "waiting for answers"),
    (_guess_open, ChoiceAnswer(0, 1), InvalidAnswerError, "takes a guess"),
    (_guess_open, GuessAnswer(0, -1), InvalidAnswerError, ">= 0"),
    (_guess_open, GuessAnswer(0, 5, -3), InvalidAnswerError, "negative"),
    (_guess_open, GuessAnswer(0, 5, 10_001), AnswerTooLateError, "10000 ms"),
    (_guess_open, GuessAnswer(8, 5), NotYourTurnError, "no player p9"),
    (_pick_open, Pick(1, "A3"), NotYourTurnError, "Player 1 to pick"),
    (_pick_open, Pick(0, "A4"), IllegalTerritoryError, "already belongs to Player 2"),
    (_pick_open, Pick(0, "C3"), IllegalTerritoryError, "does not border"),
    (_pick_open, Pick(0, "Q7"), IllegalTerritoryError, "no territory 'Q7'"),
    (_pick_open, Attack(0, "A2"), NotYourTurnError, "to pick a territory"),
    (_pick_open, GuessAnswer(0, 5), NotYourTurnError, "to pick a territory"),
    (_pick_open, Timeout(1), NotYourTurnError, "Player 1 to pick"),
    (_attack_open, Attack(1, "A2"), NotYourTurnError, "Player 1 to choose a territory to attack"),
    (_attack_open, Attack(0, "A2"), IllegalTerritoryError, "yours already"),
    (_attack_open, Attack(0, "C1"), IllegalTerritoryError, "castles cannot be attacked"),
    (_attack_open, Attack(0, "C4"), IllegalTerritoryError, "does not border"),
    (_attack_open, Pick(0, "A3"), NotYourTurnError, "to choose a territory to attack"),
    (_choice_open, GuessAnswer(0, 5), InvalidAnswerError, "options A-D"),
    (_choice_open, ChoiceAnswer(0, 4), InvalidAnswerError, "A, B, C or D"),
    (_choice_open, ChoiceAnswer(2, 0), NotYourTurnError, "answers from Player 1, Player 2"),
    (_choice_open, ChoiceAnswer(0, 0, 15_001), AnswerTooLateError, "15000 ms"),
    (_choice_open, Timeout(0), NotYourTurnError, "waiting for answers"),
    (_over, Attack(0, "A4"), GameOverError, "the game is over"),
    (_over, GuessAnswer(0, 1), GameOverError, "the game is over"),
]


@pytest.mark.parametrize(("setup", "action", "error", "phrase"), ILLEGAL,
                         ids=[f"{s.__name__[1:]}-{a}" for s, a, *_ in ILLEGAL])
def test_illegal_action_raises_and_leaves_the_game_unchanged(setup, action, error, phrase):
    game = setup()
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(action)
    assert isinstance(info.value, IllegalActionError)
    assert phrase in info.value.reason
    assert info.value.action == str(action)
    assert info.value.phase == game.phase.value
    assert str(action) in str(info.value)
    assert snapshot(game) == before


def test_answering_twice_is_refused():
    game = new_game()
    game.apply(GuessAnswer(0, 100, 1000))
    before = snapshot(game)
    with pytest.raises(NotYourTurnError, match="answers from Player 2, Player 3"):
        game.apply(GuessAnswer(0, 101, 1000))
    assert snapshot(game) == before


def test_game_continues_normally_after_an_illegal_action():
    a = standard_game(5)
    b = standard_game(5)
    for bad in (Pick(0, "A2"), Attack(a.attacker, "ZZ"), GuessAnswer(0, 3)):
        with pytest.raises(IllegalActionError):
            a.apply(bad)
    finish_quietly(a)
    finish_quietly(b)
    assert a.events == b.events and a.actions == b.actions


# ----------------------------------------------------------------------------- replay determinism


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_replay_from_actions_rebuilds_the_same_game(seed):
    game = play_bot_game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed)
    names = [p.name for p in game.players]
    for actions in (game.actions, [str(a) for a in game.actions]):
        again = Game.replay(CONQUIZTADOR, grid_board(), synthetic_bank(), seed, actions, names=names)
        assert again.events == game.events
        assert again.ranking == game.ranking
        assert again.scores() == game.scores()
        assert again.territories == game.territories


def test_replay_with_placed_bases():
    game = standard_game(9)
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "guess-win", "defend")
    again = Game.replay(CONQUIZTADOR, grid_board(), synthetic_bank(), 9, game.actions, bases=BASES)
    assert again.events == game.events and again.territories == game.territories


def test_same_seed_and_actions_same_questions_and_option_order():
    a, b = standard_game(21), standard_game(21)
    for game in (a, b):
        advance_to(game, 0, 1)
        game.apply(Attack(0, "A3"))
    assert a.question == b.question
    assert standard_game(21).events == standard_game(21).events


def test_a_deep_copied_game_plays_on_independently():
    game = standard_game(3)
    twin = copy.deepcopy(game)
    finish_quietly(game)
    assert twin.battle_round == 1 and not twin.is_over
    finish_quietly(twin)
    assert twin.events == game.events


# ----------------------------------------------------------------------------- legal-action counts (perft)


def perft(game: Game, depth: int) -> int:
    """Leaf count of the pick/attack decision tree ``depth`` choices deep.

    Questions on the way are answered by a fixed script (seat order ranks the
    guesses; every multiple-choice answer is wrong), so only territory choices
    branch - like chess perft counts, with the questions as forced moves.
    """
    if depth == 0 or game.is_over:
        return 1
    while game.question is not None:
        if game.question.is_guess:
            answer_guess(game, game.question.players)
        else:
            answer_all(game)
        if game.is_over:
            return 1
    total = 0
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def test_legal_actions_at_the_start_are_the_three_no_answers():
    game = new_game()
    assert game.legal_actions() == [GuessAnswer(0, None), GuessAnswer(1, None), GuessAnswer(2, None)]
    game.apply(GuessAnswer(1, 5, 100))
    assert game.legal_actions() == [GuessAnswer(0, None), GuessAnswer(2, None)]


def test_legal_actions_first_picks():
    game = new_game()
    answer_guess(game, (0, 1, 2))
    assert game.legal_actions() == [Pick(0, "A2"), Pick(0, "B1")]


@pytest.mark.parametrize(("depth", "count"), [(1, 2), (2, 5), (3, 9)])
def test_perft_expansion_round_1(depth, count):
    # p1 picks A2|B1, then a neighbour; p2 then picks next to A4 (A3 may be gone)
    game = new_game()
    answer_guess(game, (0, 1, 2))
    assert perft(game, depth) == count


def test_legal_actions_battle_round_counts_standard_position():
    game = standard_game()
    counts = {1: {0: 3, 1: 4, 2: 4}, 2: {0: 4, 1: 4, 2: 4}, 3: {0: 8, 1: 8, 2: 8}}
    seen = {}
    while game.stage == "attack":
        seen[(game.battle_round, game.attacker)] = len(game.legal_actions())
        assert all(isinstance(a, Attack) and a.player == game.attacker for a in game.legal_actions())
        answer = game.legal_targets(game.attacker)[0]
        game.apply(Attack(game.attacker, answer))
        assert len(game.legal_actions()) == 10  # two answering seats x (A, B, C, D, none)
        answer_all(game)
    assert seen == {(r, s): n for r, by_seat in counts.items() for s, n in by_seat.items()}


def test_perft_battle_round_1_first_attacker_depth_2():
    # after any round-1 attack that fails (both wrong), the next attacker's options are unchanged
    game = standard_game(0)
    first, second = game.battle.order[:2]
    per_seat = {0: 3, 1: 4, 2: 4}
    assert perft(game, 1) == per_seat[first]
    assert perft(game, 2) == per_seat[first] * per_seat[second]


def test_legal_actions_empty_when_over():
    game = standard_game()
    finish_quietly(game)
    answer_guess(game, (0, 1, 2))
    assert game.is_over and game.legal_actions() == [] and game.current_players() == ()


def test_all_listed_legal_actions_are_accepted():
    game = standard_game(6)
    for stage_game in (new_game(), _pick_open(), _attack_open(), _choice_open(), game):
        for action in stage_game.legal_actions():
            played = copy.deepcopy(stage_game)
            played.apply(action)
            assert played.actions[-1] == action and len(played.actions) == len(stage_game.actions) + 1
