"""Dobyvatel rules (docs/rules.md: Dobyvatel, D13 with D1-D10, D15): one test
per clause.

Positions are the standard position of ``helpers.py`` played with the
Dobyvatel rule set (bases A1 / A4 / C1 on the 3x4 grid, 1600 points each
when the battle begins)::

    A1 p1 base   A2 p1   A3 p2   A4 p2 base
    B1 p1        B2 p1   B3 p2   B4 p2
    C1 p3 base   C2 p3   C3 p3   C4 p3
"""

from __future__ import annotations

import pytest
from fixture_data import synthetic_bank
from helpers import (
    STANDARD_OWNERS,
    advance_to,
    answer_all,
    answer_guess,
    attack,
    expansion_round,
    finish_quietly,
    new_game,
    owners,
    quiet_turn,
    scores,
    standard_game,
)

from triviador_nb.words import Names, event_text
from triviador_nb.engine import (
    CONQUIZTADOR,
    DOBYVATEL,
    BattleOrder,
    Game,
    GuessAnswer,
    GuessQuestion,
    InvalidAnswerError,
    Phase,
    QuestionBank,
    Targets,
    WinKinds,
)
from triviador_nb.engine.ending import win_kind
from triviador_nb.engine.state import PlayerState, Purpose, TerritoryState


def dob_game(seed: int = 0) -> Game:
    return standard_game(seed, rules=DOBYVATEL)


def events_of(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def play_battle(game: Game, plan) -> None:
    """Play the battle to its end: ``plan(game)`` returns ``(territory, outcomes)``
    for the current attacker's turn, or None for a quiet turn (no change)."""
    while game.stage == "attack":
        move = plan(game)
        if move is None:
            quiet_turn(game)
        else:
            attack(game, move[0], *move[1])
        assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- the rule set (D13)


def test_d13_rule_set_constants_match_the_rulebook():
    r = DOBYVATEL
    (phase,) = r.expansion
    assert (r.players, r.base_value, r.base_towers) == (3, 1000, 3)
    assert (phase.value, phase.sequences, phase.rounds) == (200, ((0, 0, 1),), None)
    assert (r.capture_value, r.defense_bonus, r.ruined_castle_value, r.ruin_taken_value) == (400, 100, 1000, 400)
    assert [(b.order, b.targets) for b in r.battle_rounds] == [
        (BattleOrder.RANDOM, Targets.ADJACENT_NO_BASES),
        (BattleOrder.RANDOM, Targets.ADJACENT),
        (BattleOrder.RANDOM, Targets.ADJACENT),
        (BattleOrder.SCORE, Targets.ANY),
    ]
    assert (r.tiebreak_first_only, r.tiebreak_points, r.win_kinds) == (True, 10, True)


@pytest.mark.parametrize("seed", range(20))
def test_d13_d15_bases_drawn_at_random_worth_1000_with_3_towers_never_adjacent(seed):
    game = new_game(seed, bases=None, rules=DOBYVATEL)
    bases = [t for t, s in game.territories.items() if s.is_base]
    assert sorted(game.territories[t].owner for t in bases) == [0, 1, 2]
    assert all((game.territories[t].value, game.territories[t].towers) == (1000, 3) for t in bases)
    assert not any(game.board.borders(a, b) for a in bases for b in bases if a != b)
    assert scores(game) == [1000, 1000, 1000]


# ----------------------------------------------------------------------------- guess answers may be 0 (D1, D13)


def zero_bank() -> QuestionBank:
    """Guess questions whose correct answer is 0 (Dobyvatel banks allow it)."""
    base = synthetic_bank()
    return QuestionBank(guess=tuple(GuessQuestion(f"z{i}", f"How many {i}?", 0) for i in range(30)),
                        choice=base.choice, name="zero")


def test_d13_d1_an_answer_of_0_is_legal():
    game = new_game(rules=DOBYVATEL)
    c = game.question.question.answer
    game.apply(GuessAnswer(0, 0, 2000))  # "celé kladné číslo, nebo 0"
    assert game.question.answers[0] == GuessAnswer(0, 0, 2000)
    with pytest.raises(InvalidAnswerError, match=">= 0"):
        game.apply(GuessAnswer(1, -1, 2000))
    answer_all(game, guesses={1: c + 1, 2: 2 * c + 1})
    # 0 is c away, 2c + 1 is c + 1 away: the 0 ranks second, by distance
    assert events_of(game, "answers")[-1].data["order"] == [1, 0, 2]
    assert game.pick_queue == [1, 1, 0]


def test_d13_d1_a_correct_answer_of_0_ranks_by_distance_then_time():
    game = new_game(rules=DOBYVATEL, bank=zero_bank())
    assert game.question.question.answer == 0
    answer_all(game, guesses={0: 2, 1: 0, 2: 0}, ms={0: 100, 1: 5000, 2: 4000})
    order = events_of(game, "answers")[-1].data["order"]
    assert order == [2, 1, 0]  # both exact: the faster first; 2 is 2 away
    assert events_of(game, "answers")[-1].data["correct"] == 0
    assert game.pick_queue == [2, 2, 1]


# ----------------------------------------------------------------------------- expansion (D13 = D12)


def test_d13_expansion_winner_picks_2_second_picks_1_worth_200_until_none_free():
    game = new_game(rules=DOBYVATEL)
    answer_guess(game, (1, 2, 0))
    assert game.pick_queue == [1, 1, 2]
    assert game.legal_picks(1) == ["A3", "B4"]  # adjacent-first
    game = dob_game()
    assert owners(game) == STANDARD_OWNERS and scores(game) == [1600, 1600, 1600]
    expansion_questions = [e for e in events_of(game, "question") if e.data["purpose"] == "expansion"]
    assert len(expansion_questions) == 3 and all(e.data["seats"] == [0, 1, 2] for e in expansion_questions)
    assert game.phase is Phase.BATTLE
    assert game.score_invariant_problems() == []


def test_d13_expansion_any_free_territory_when_none_borders_yours():
    game = new_game(bases=("A1", "A3", "C1"), rules=DOBYVATEL)
    expansion_round(game, (1, 2, 0), ("A2", "A4", "B1"))
    answer_guess(game, (0, 1, 2))
    assert game.legal_picks(0) == ["B2", "B3", "B4", "C2", "C3", "C4"]


# ----------------------------------------------------------------------------- battle rounds (D13)


def test_d13_four_battle_rounds_each_player_attacks_once_a_round():
    game = dob_game()
    turns = []
    while game.stage == "attack":
        turns.append((game.battle_round, game.attacker))
        quiet_turn(game)
    assert [r for r, _ in turns] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    for r in (1, 2, 3, 4):
        assert sorted(s for rr, s in turns if rr == r) == [0, 1, 2]


def test_d13_order_random_in_rounds_1_to_3_seeded():
    orders = []
    for seed in range(30):
        game = dob_game(seed)
        per_round = []
        while game.battle_round <= 3 and game.stage == "attack":
            if game.battle.turn == 0:
                per_round.append(game.battle.order)
            quiet_turn(game)
        assert len(per_round) == 3 and all(sorted(o) == [0, 1, 2] for o in per_round)
        orders.append(tuple(per_round))
        replay = dob_game(seed)
        assert replay.battle.order == per_round[0]  # same seed, same order
    for r in range(3):
        assert len({o[r] for o in orders}) >= 4, f"round {r + 1} order is hardly random"


def test_d13_round_4_order_by_score_highest_first_ties_by_seat():
    game = dob_game(2)

    def plan(g):
        if g.battle_round <= 3 and g.attacker == 0:
            return ("C2", ("defend",))  # p3 +100 three times
        if g.battle_round <= 3 and g.attacker == 2:
            return ("B3", ("defend",)) if g.battle_round == 1 else None  # p2 +100 once
        return None

    while game.battle_round <= 3:
        move = plan(game)
        if move is None:
            quiet_turn(game)
        else:
            attack(game, move[0], *move[1])
    assert scores(game) == [1600, 1700, 1900]
    assert game.battle.order == (2, 1, 0)
    assert events_of(game, "round")[-1].data["order"] == [2, 1, 0]

    game = dob_game(5)
    advance_to(game, 0, 4)
    assert scores(game) == [1600, 1600, 1600] and game.battle.order == (0, 1, 2)


def test_d13_round_1_adjacent_territories_no_castles():
    game = dob_game()
    assert game.legal_targets(0) == ["A3", "B3", "C2"]
    assert game.legal_targets(2) == ["B1", "B2", "B3", "B4"]
    assert game.wings_targets(0) == []


@pytest.mark.parametrize("battle_round", [2, 3])
def test_d13_rounds_2_and_3_adjacent_castles_allowed(battle_round):
    game = dob_game()
    advance_to(game, 0, battle_round)
    assert game.legal_targets(0) == ["A3", "B3", "C1", "C2"]
    assert "does not border" in game.why_illegal(0, "A4")


def test_d13_round_4_anything_may_be_attacked():
    game = dob_game()
    advance_to(game, 0, 4)
    assert game.legal_targets(0) == ["A3", "A4", "B3", "B4", "C1", "C2", "C3", "C4"]


# ----------------------------------------------------------------------------- battles, castles (D5-D9 in Dobyvatel)


def test_d13_d7_taking_a_territory_gives_400_defender_loses_its_value():
    game = dob_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    assert scores(game) == [2000, 1400, 1600]
    assert game.territories["A3"].value == 400
    assert game.score_invariant_problems() == []


def test_d13_d9_ruined_castle_1000_then_400_when_taken_a_1400_point_swing():
    game = dob_game()
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    assert not game.players[2].in_game and scores(game) == [3200, 1600, 0]
    assert (game.territories["C1"].value, game.territories["C1"].towers) == (1000, 0)
    advance_to(game, 1, 4)
    before = scores(game)
    attack(game, "C1", "win")
    after = scores(game)
    assert (after[0] - before[0], after[1] - before[1]) == (-1000, 400)
    assert (before[0] - before[1]) - (after[0] - after[1]) == 1400  # "rozdíl až 1400 bodů"
    assert (game.territories["C1"].owner, game.territories["C1"].value) == (1, 400)
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- the end: tie for first (D13)


def tied_for_first() -> Game:
    """The battle played to [1700, 1700, 1600]: p1 and p2 tied for first."""
    game = dob_game()

    def plan(g):
        if g.battle_round == 1 and g.attacker == 0:
            return ("A3", ("defend",))  # p2 +100
        if g.battle_round == 1 and g.attacker == 1:
            return ("A2", ("defend",))  # p1 +100
        return None

    play_battle(game, plan)
    return game


def test_d13_tie_for_first_place_one_guess_question_winner_gets_10():
    game = tied_for_first()
    assert scores(game) == [1700, 1700, 1600]
    assert game.phase is Phase.TIEBREAK and game.question.purpose is Purpose.TIEBREAK
    assert game.question.is_guess and game.question.players == (0, 1)  # p3 (third) is not asked
    answer_guess(game, (1, 0))
    assert game.is_over and game.ranking == (1, 0, 2)
    assert scores(game) == [1700, 1710, 1600]
    assert game.players[1].awards == 10
    assert [e.data for e in events_of(game, "award")] == [{"seat": 1, "points": 10}]
    assert game.score_invariant_problems() == []
    assert len([e for e in events_of(game, "question") if e.data["purpose"] == "tiebreak"]) == 1


def test_d13_three_way_tie_for_first_one_question_among_all_three():
    game = dob_game()
    finish_quietly(game)
    assert scores(game) == [1600, 1600, 1600]
    assert game.question.purpose is Purpose.TIEBREAK and game.question.players == (0, 1, 2)
    answer_guess(game, (2, 0, 1))
    assert game.is_over and game.ranking == (2, 0, 1)
    assert scores(game) == [1600, 1600, 1610]
    assert len([e for e in events_of(game, "question") if e.data["purpose"] == "tiebreak"]) == 1
    assert game.win_kind is WinKinds.NARROW  # 1610 < 1600 + 1600
    assert game.score_invariant_problems() == []


def test_d13_a_tie_for_second_place_is_not_decided_by_a_question():
    game = dob_game()
    play_battle(game, lambda g: ("C2", ("defend",)) if g.battle_round == 1 and g.attacker == 0 else None)
    assert scores(game) == [1600, 1600, 1700]
    assert game.is_over and game.phase is Phase.OVER  # no tie-break question
    assert not any(e.data.get("purpose") == "tiebreak" for e in events_of(game, "question"))
    assert game.ranking == (2, 0, 1)  # the tied second and third stay in seat order
    assert events_of(game, "award") == []
    assert scores(game) == [1600, 1600, 1700]


def test_d13_conquiztador_by_contrast_decides_a_tie_for_second():
    game = standard_game(rules=CONQUIZTADOR)
    play_battle(game, lambda g: ("C2", ("defend",)) if g.battle_round == 1 and g.attacker == 0 else None)
    assert game.question is not None and game.question.players == (0, 1)


# ----------------------------------------------------------------------------- the end: kinds of victory (D13)


def test_d13_whole_map_victory_the_winner_owns_every_territory():
    game = dob_game()
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    advance_to(game, 0, 3)
    attack(game, "A3", "win")  # A4 borders A3 now
    advance_to(game, 0, 4)
    attack(game, "A4", "win", "guess-win", "win")
    assert game.is_over and all(s.owner == 0 for s in game.territories.values())
    assert scores(game) == [4800 + 200, 0, 0]  # A3 was taken for 400 before the capture
    assert game.win_kind is WinKinds.WHOLE_MAP
    assert game.ranking == (0, 1, 2)
    assert events_of(game, "ranking")[-1].data["win_kind"] == "whole_map"
    assert "(whole-map victory)" in event_text(events_of(game, "ranking")[-1], Names.of_game(game))
    assert game.score_invariant_problems() == []


def test_d13_great_victory_the_winner_has_at_least_the_others_together_equal_counts():
    game = dob_game(1)
    stolen, defended = [], set()

    def plan(g):
        if g.attacker == 0 and len(stolen) < 3:
            target = next(t for t in ("A3", "B3", "C2") if t not in stolen)
            stolen.append(target)
            return (target, ("win",))
        if g.attacker in (1, 2) and g.attacker not in defended:
            other = 3 - g.attacker
            target = next((t for t in g.legal_targets(g.attacker) if g.territories[t].owner == other), None)
            if target is not None:
                defended.add(g.attacker)
                return (target, ("defend",))
        return None

    play_battle(game, plan)
    assert len(stolen) == 3 and defended == {1, 2}
    assert scores(game) == [2800, 1300, 1500]  # 2800 == 1300 + 1500: "at least"
    assert game.is_over and game.ranking == (0, 2, 1)
    assert game.win_kind is WinKinds.GREAT


def test_d13_great_victory_after_an_elimination():
    game = dob_game()
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    finish_quietly(game)
    assert scores(game) == [3200, 1600, 0]
    assert game.win_kind is WinKinds.GREAT and game.ranking == (0, 1, 2)


def test_d13_narrow_victory_any_other_win():
    game = dob_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    finish_quietly(game)
    assert scores(game) == [2000, 1400, 1600]  # 2000 < 1400 + 1600
    assert game.is_over and game.ranking == (0, 2, 1)
    assert game.win_kind is WinKinds.NARROW
    assert events_of(game, "ranking")[-1].data == {"ranking": [0, 2, 1], "scores": [2000, 1400, 1600],
                                                   "win_kind": "narrow"}


def test_d13_win_kind_boundaries():
    def players(*points):  # the scores by seat
        return list(points)

    board = {"X": TerritoryState(owner=0), "Y": TerritoryState(owner=1)}
    assert win_kind(0, players(3000, 1500, 1500), board) is WinKinds.GREAT
    assert win_kind(0, players(2999, 1500, 1500), board) is WinKinds.NARROW
    assert win_kind(0, players(100, 0, 0), {"X": TerritoryState(owner=0)}) is WinKinds.WHOLE_MAP
    assert win_kind(0, players(100, 5000, 0), {"X": TerritoryState(owner=0)}) is WinKinds.WHOLE_MAP


def test_d13_other_rule_sets_report_no_win_kind():
    game = standard_game(rules=CONQUIZTADOR)
    finish_quietly(game)
    answer_guess(game, (0, 1, 2))
    assert game.is_over and game.win_kind is None
    assert "win_kind" not in events_of(game, "ranking")[-1].data


# ----------------------------------------------------------------------------- the tie-break nobody answers (D13)


def tiebreak_questions(game: Game) -> list[str]:
    return [e.data["question"] for e in events_of(game, "question") if e.data["purpose"] == "tiebreak"]


def test_d13_nobody_answers_three_tie_breaks_the_place_is_shared_and_nobody_gets_10():
    """Issue 26 part 4: before, seat 0 won the unanswered tie-break, the +10
    and the game."""
    game = tied_for_first()
    assert scores(game) == [1700, 1700, 1600] and game.question.purpose is Purpose.TIEBREAK
    for asked in (1, 2, 3):
        assert len(tiebreak_questions(game)) == asked and game.question.players == (0, 1)
        answer_all(game, silent=(0, 1))
    assert game.is_over and len(set(tiebreak_questions(game))) == 3  # three different questions
    assert (game.ranking, game.places) == ((0, 1, 2), (1, 1, 3))
    assert scores(game) == [1700, 1700, 1600] and events_of(game, "award") == []
    assert events_of(game, "ranking")[-1].data["places"] == [1, 1, 3]
    assert game.score_invariant_problems() == []


def test_d13_only_an_answerer_wins_the_tie_break_the_second_one_decides():
    game = tied_for_first()
    answer_all(game, silent=(0, 1))  # nobody: another question
    assert not game.is_over and len(tiebreak_questions(game)) == 2
    game.apply(GuessAnswer(0, None))
    game.apply(GuessAnswer(1, game.question.question.answer + 500, 9000))  # far off, but an answer
    assert game.is_over and (game.ranking, game.places) == ((1, 0, 2), (1, 2, 3))
    assert scores(game) == [1700, 1710, 1600]
    assert [e.data for e in events_of(game, "award")] == [{"seat": 1, "points": 10}]


def test_d13_the_tie_break_limit_is_rule_set_data():
    assert DOBYVATEL.tiebreak_questions == 3 and CONQUIZTADOR.tiebreak_questions is None
    assert DOBYVATEL.from_dict(DOBYVATEL.to_dict()) == DOBYVATEL
    with pytest.raises(ValueError, match="tiebreak_questions must be a whole number >= 1"):
        DOBYVATEL.from_dict({**DOBYVATEL.to_dict(), "tiebreak_questions": 0})
