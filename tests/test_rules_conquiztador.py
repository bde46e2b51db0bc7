"""ConQUIZtador rules (docs/rules.md: ConQUIZtador, D1-D10, D12, D15): one test per clause.

Positions are scripted on the 3x4 grid board; see ``helpers.py`` for the
standard position (bases A1 / A4 / C1, 1600 points each at the start of the
battle).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import (
    STANDARD_OWNERS,
    advance_to,
    answer_all,
    answer_guess,
    attack,
    expansion_round,
    finish_quietly,
    first_battle,
    kinds,
    new_game,
    owners,
    quiet_turn,
    resolve_battles,
    scores,
    snapshot,
    standard_game,
)

from triviador_nb.words import Names, event_text
from triviador_nb.engine import (
    CONQUIZTADOR,
    AnswerTooLateError,
    Attack,
    ChoiceAnswer,
    Game,
    GuessAnswer,
    IllegalTerritoryError,
    Phase,
    Pick,
    QuestionBank,
    Timeout,
    Timers,
)
from triviador_nb.engine.ranking import rank_guesses
from triviador_nb.engine.state import Purpose

NAMES = ["Anna", "Bela", "Cili"]


def events_of(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


# ----------------------------------------------------------------------------- bases (D12, D15)


def test_rule_set_constants_match_the_rulebook():
    r = CONQUIZTADOR
    (phase,) = r.expansion
    # "The winner of the question may choose 2 territories, and the second-place answerer may choose 1":
    # ranks 0, 0, 1 pick; "Players get 200 points for every territory they take"
    assert (r.players, r.base_value, r.base_towers, phase.sequences, phase.value) == (3, 1000, 3, ((0, 0, 1),), 200)
    assert (r.capture_value, r.defense_bonus, r.ruined_castle_value, r.tiebreak_points) == (400, 100, 1000, 0)
    assert len(r.battle_rounds) == 3
    assert (r.timers.guess_s, r.timers.choice_s, r.timers.territory_s) == (10.0, 15.0, 10.0)


@pytest.mark.parametrize("seed", range(40))
def test_d15_bases_worth_1000_with_3_towers_never_adjacent(seed):
    game = new_game(seed, bases=None)
    bases = [t for t, s in game.territories.items() if s.is_base]
    assert len(bases) == 3
    for t in bases:
        s = game.territories[t]
        assert (s.owner, s.base_of, s.value, s.towers) == (s.base_of, s.owner, 1000, 3)
    assert sorted(game.territories[t].owner for t in bases) == [0, 1, 2]
    assert not any(game.board.borders(a, b) for a in bases for b in bases if a != b)
    assert scores(game) == [1000, 1000, 1000]
    assert game.score_invariant_problems() == []
    assert events_of(game, "bases")[0].data["bases"] == [next(t for t in bases if game.territories[t].owner == s)
                                                          for s in range(3)]


def test_d15_bases_drawn_by_the_seed():
    def draw(seed):
        return events_of(new_game(seed, bases=None), "bases")[0].data["bases"]

    assert all(draw(seed) == draw(seed) for seed in range(10))
    assert len({tuple(draw(seed)) for seed in range(30)}) > 5


def test_d15_placed_bases_must_not_border_each_other():
    with pytest.raises(ValueError, match="must not border"):
        new_game(0, bases=("A1", "A2", "C4"))
    with pytest.raises(ValueError, match="unknown base"):
        new_game(0, bases=("A1", "A4", "Z9"))
    with pytest.raises(ValueError, match="needs 3 bases"):
        new_game(0, bases=("A1", "A4"))


def test_d15_a_board_without_room_for_three_separate_bases_is_refused():
    with pytest.raises(ValueError, match="non-adjacent"):
        new_game(0, bases=None, board=grid_board("A", 4))


# ----------------------------------------------------------------------------- guess ranking (D1)


def test_d1_closest_guess_wins():
    game = new_game()
    c = game.question.question.answer
    answer_all(game, guesses={0: c + 5, 1: c - 3, 2: c + 10})
    assert game.pick_queue == [1, 1, 0]
    assert events_of(game, "answers")[-1].data["order"] == [1, 0, 2]


def test_d1_equal_distance_faster_answer_wins():
    game = new_game()
    c = game.question.question.answer
    answer_all(game, guesses={0: c + 5, 1: c - 5, 2: c + 5}, ms={0: 3000, 1: 2000, 2: 2500})
    assert events_of(game, "answers")[-1].data["order"] == [1, 2, 0]
    assert game.pick_queue == [1, 1, 2]


def test_d1_no_answer_ranks_last_in_seat_order():
    game = new_game()
    c = game.question.question.answer
    answer_all(game, guesses={0: None, 1: c + 900, 2: None})
    assert events_of(game, "answers")[-1].data["order"] == [1, 0, 2]
    assert game.pick_queue == [1, 1]  # D1 (revised): silent p1 is ranked second but picks nothing
    assert rank_guesses(50, {0: GuessAnswer(0, None), 1: GuessAnswer(1, None), 2: GuessAnswer(2, None)}) == [0, 1, 2]


def test_d1_picks_go_to_answerers_only_a_silent_second_place_picks_nothing():
    """conquiztador.txt: "the winner of the question may choose 2 territories,
    and the second-place *answerer* may choose 1" (D1, revised)."""
    game = new_game()
    c = game.question.question.answer
    answer_all(game, guesses={0: c, 1: None, 2: None})
    assert game.pick_queue == [0, 0]
    for territory in ("A2", "B1"):
        game.apply(Pick(0, territory))
    assert game.stage == "answer" and game.question.purpose is Purpose.EXPANSION  # the next question
    assert [e.data["seat"] for e in events_of(game, "pick")] == [0, 0]


def test_d1_when_nobody_answers_nobody_picks_and_the_next_question_is_drawn():
    game = new_game()
    first = game.question
    free = sum(s.owner is None for s in game.territories.values())
    answer_all(game, silent={0, 1, 2})
    assert game.pick_queue == [] and events_of(game, "pick") == []
    assert game.question is not first and game.question.purpose is Purpose.EXPANSION
    assert sum(s.owner is None for s in game.territories.values()) == free  # every territory stays free


def test_d1_exact_answer_beats_a_faster_wrong_one():
    assert rank_guesses(100, {0: GuessAnswer(0, 101, 500), 1: GuessAnswer(1, 100, 9000)}) == [1, 0]


# ----------------------------------------------------------------------------- expansion (D12)


def test_d12_expansion_winner_picks_two_second_picks_one_third_none():
    game = new_game()
    answer_guess(game, (2, 0, 1))
    assert game.pick_queue == [2, 2, 0]
    assert game.current_players() == (2,)
    game.apply(Pick(2, "C2"))
    assert game.current_players() == (2,)
    game.apply(Pick(2, "C3"))
    assert game.current_players() == (0,)
    game.apply(Pick(0, "A2"))
    # the third-placed player picks nothing: a new guess question for all three follows
    assert game.stage == "answer" and game.question.purpose is Purpose.EXPANSION
    assert game.question.players == (0, 1, 2)
    assert [e.data["seat"] for e in events_of(game, "pick")] == [2, 2, 0]


def test_d12_expansion_picks_follow_the_ranking_of_each_question():
    game = new_game()
    expansion_round(game, (0, 1, 2), ("A2", "B1", "A3"))
    answer_guess(game, (1, 2, 0))
    assert game.pick_queue == [1, 1, 2]


def test_d12_adjacent_first_only_free_territories_bordering_your_own():
    game = new_game()
    answer_guess(game, (0, 1, 2))
    assert game.legal_picks(0) == ["A2", "B1"]
    assert game.legal_picks(1) == ["A3", "B4"]
    assert game.legal_picks(2) == ["B1", "C2"]
    with pytest.raises(IllegalTerritoryError, match="does not border your territories"):
        game.apply(Pick(0, "C4"))
    game.apply(Pick(0, "A2"))
    assert game.legal_picks(0) == ["A3", "B1", "B2"]


def test_d12_adjacent_first_any_free_territory_when_none_borders_yours():
    # bases A1 (p1), A3 (p2), C1 (p3): p2 takes A2 and p3 takes B1 - p1 is boxed in
    game = new_game(bases=("A1", "A3", "C1"))
    expansion_round(game, (1, 2, 0), ("A2", "A4", "B1"))
    answer_guess(game, (0, 1, 2))
    free = [t for t, s in game.territories.items() if s.owner is None]
    assert free == ["B2", "B3", "B4", "C2", "C3", "C4"]
    assert game.legal_picks(0) == free
    game.apply(Pick(0, "C4"))  # not adjacent to anything p1 owns, and legal
    assert game.territories["C4"].owner == 0
    assert game.legal_picks(0) == ["B4", "C3"]  # now C4 has free neighbours: adjacent-first again


def test_d12_expansion_territory_worth_200():
    game = new_game()
    answer_guess(game, (0, 1, 2))
    events = game.apply(Pick(0, "A2"))
    assert game.territories["A2"].value == 200 and game.territories["A2"].owner == 0
    assert scores(game) == [1200, 1000, 1000]
    assert [(e.kind, e.data.get("points")) for e in events] == [("pick", 200)]


def test_d12_standard_expansion_gives_1600_each():
    game = standard_game()
    assert owners(game) == STANDARD_OWNERS
    assert scores(game) == [1600, 1600, 1600]
    assert game.phase is Phase.BATTLE
    assert game.score_invariant_problems() == []


def test_d12_expansion_ends_when_no_territory_is_free_picks_stop_mid_queue():
    # 2x4 board, bases A1, A3, B2: 5 free territories; round 2's second-placed pick never comes:
    # only 2 territories are free, so the queue holds the winner's two picks alone
    board = grid_board("AB", 4)
    game = new_game(bases=("A1", "A3", "B2"), board=board)
    expansion_round(game, (0, 1, 2), ("A2", "B1", "A4"))
    answer_guess(game, (2, 1, 0))
    assert game.pick_queue == [2, 2]
    game.apply(Pick(2, "B3"))
    events = game.apply(Pick(2, "B4"))
    assert game.pick_queue == []
    assert game.phase is Phase.BATTLE and game.battle_round == 1
    assert scores(game) == [1400, 1200, 1400]
    assert "phase" in kinds(events) and "round" in kinds(events)
    assert all(s.owner is not None for s in game.territories.values())


# ----------------------------------------------------------------------------- battle order and targets (D12)


def test_d12_battle_order_random_in_rounds_1_and_2_seeded_and_reproducible():
    round1, round2 = [], []
    for seed in range(30):
        game = standard_game(seed)
        round1.append(game.battle.order)
        assert events_of(game, "round")[0].data["order"] == list(game.battle.order)
        assert standard_game(seed).battle.order == game.battle.order
        advance_to(game, game.battle.order[0], 1)
        while game.battle_round == 1:
            quiet_turn(game)
        round2.append(game.battle.order)
    assert all(sorted(o) == [0, 1, 2] for o in round1 + round2)
    assert len(set(round1)) >= 3 and len(set(round2)) >= 3
    assert round1 != round2


def test_d12_last_round_order_by_score_highest_first():
    game = standard_game(3)
    while game.battle_round < 3:
        if game.attacker == 0:
            attack(game, "C2", "defend")  # p3 +100 each time
        else:
            quiet_turn(game)
    assert scores(game) == [1600, 1600, 1800]
    assert game.battle.order == (2, 0, 1)
    assert events_of(game, "round")[-1].data["order"] == [2, 0, 1]


def test_d12_last_round_equal_scores_ordered_by_seat():
    game = standard_game(4)
    while game.battle_round < 3:
        if game.attacker == 0:
            attack(game, "C2", "defend")  # p3 +100
        elif game.attacker == 1:
            attack(game, "B2", "defend")  # p1 +100
        else:
            quiet_turn(game)
    assert scores(game) == [1800, 1600, 1800]
    assert game.battle.order == (0, 2, 1)


def test_d12_round_1_adjacent_non_base_targets_only():
    game = standard_game(names=NAMES)
    assert game.legal_targets(0) == ["A3", "B3", "C2"]
    assert game.legal_targets(1) == ["A2", "B2", "C3", "C4"]
    assert game.legal_targets(2) == ["B1", "B2", "B3", "B4"]
    advance_to(game, 0, 1)
    assert game.why_illegal(0, "C1") == "castles cannot be attacked in battle round 1"
    before = snapshot(game)
    with pytest.raises(IllegalTerritoryError, match="castles cannot be attacked in battle round 1"):
        game.apply(Attack(0, "C1"))
    assert snapshot(game) == before


def test_d12_round_2_adjacent_bases_allowed():
    game = standard_game(names=NAMES)
    advance_to(game, 0, 2)
    assert game.legal_targets(0) == ["A3", "B3", "C1", "C2"]
    assert game.legal_targets(1) == ["A2", "B2", "C3", "C4"]
    assert game.why_illegal(0, "C1") is None
    assert game.why_illegal(0, "A4") == "A4 does not border your territories (battle round 2 allows neighbours only)"


def test_d12_last_round_anything_may_be_attacked():
    game = standard_game(names=NAMES)
    advance_to(game, 0, 3)
    assert game.legal_targets(0) == ["A3", "A4", "B3", "B4", "C1", "C2", "C3", "C4"]
    assert game.why_illegal(0, "A4") is None and game.why_illegal(0, "C4") is None
    assert game.why_illegal(0, "A2") == "A2 is yours already"


def test_d12_player_with_no_legal_target_skips_the_turn_recorded():
    # 2x4 board, bases A1 (p1), A3 (p2), B2 (p3); p1 ends with A1, A2, B1 whose only
    # foreign neighbours are the castles A3 and B2: nothing to attack in round 1
    board = grid_board("AB", 4)
    game = new_game(bases=("A1", "A3", "B2"), board=board)
    expansion_round(game, (0, 1, 2), ("A2", "B1", "A4"))
    expansion_round(game, (2, 1, 0), ("B3", "B4"))
    assert game.legal_targets(0) == []
    while game.battle_round == 1:
        assert game.attacker != 0
        quiet_turn(game)
    skips = events_of(game, "skip")
    assert [e.data["seat"] for e in skips] == [0]
    assert game.legal_targets(0) == ["A3", "B2"]  # round 2: the castles are allowed


def test_d12_third_player_just_watches_the_battle():
    game = standard_game()
    attacker = game.attacker
    target = game.legal_targets(attacker)[0]
    defender = game.territories[target].owner
    game.apply(Attack(attacker, target))
    watcher = ({0, 1, 2} - {attacker, defender}).pop()
    assert game.question.players == tuple(sorted((attacker, defender)))
    assert watcher not in game.current_players()


# ----------------------------------------------------------------------------- resolution (D5)


def test_d5_attacker_wrong_defender_wins():
    game, a, d, t = first_battle()
    answer_all(game, right=set())
    assert game.territories[t].owner == d
    assert kinds(game.events[-1:]) == ["defend"]


def test_d5_attacker_silent_defender_wins():
    game, a, d, t = first_battle()
    answer_all(game, silent={a}, right={d})
    assert game.territories[t].owner == d


def test_d5_attacker_right_defender_wrong_attacker_wins():
    game, a, d, t = first_battle()
    answer_all(game, right={a})
    assert game.territories[t].owner == a
    assert kinds(game.events[-1:]) == ["take"]


def test_d5_attacker_right_defender_silent_attacker_wins():
    game, a, d, t = first_battle()
    answer_all(game, right={a}, silent={d})
    assert game.territories[t].owner == a


@pytest.mark.parametrize("attacker_first", [True, False])
def test_d5_both_silent_in_the_battle_guess_question_defender_holds(attacker_first):
    # D1 ranks silent players by seat, but D5 never gives a battle to a silent attacker
    # (checked with the attacker in the lower and in the higher seat)
    for seed in range(40):
        game, a, d, t = first_battle(seed)
        if (a < d) == attacker_first:
            break
    else:
        pytest.fail("no seed below 40 gives this seat order")
    answer_all(game, right={a, d})
    answer_all(game, silent={a, d})
    assert game.territories[t].owner == d
    assert game.players[d].bonuses == 0  # D6: no bonus for a win through the guess question


def test_d5_both_right_guess_question_between_the_two_decides():
    game, a, d, t = first_battle()
    answer_all(game, right={a, d})
    assert game.stage == "answer" and game.question.is_guess
    assert game.question.purpose is Purpose.BATTLE_GUESS
    assert game.question.players == tuple(sorted((a, d)))
    assert game.territories[t].owner == d
    answer_guess(game, (a, d))
    assert game.territories[t].owner == a


def test_d5_both_right_defender_wins_the_guess():
    game, a, d, t = first_battle()
    resolve_battles(game, "guess-lose")
    assert game.territories[t].owner == d


def test_d5_d1_both_right_equal_guess_distance_faster_wins():
    game, a, d, t = first_battle()
    answer_all(game, right={a, d})
    c = game.question.question.answer
    answer_all(game, guesses={a: c + 7, d: c - 7}, ms={a: 4000, d: 3999})
    assert game.territories[t].owner == d


# ----------------------------------------------------------------------------- defense bonus (D6)


def test_d6_defense_bonus_100_when_attacker_wrong_defender_right():
    game, a, d, t = first_battle()
    before = scores(game)
    answer_all(game, right={d})
    expected = list(before)
    expected[d] += 100
    assert scores(game) == expected
    assert game.players[d].bonuses == 100
    assert game.events[-1].data["points"] == 100
    assert game.score_invariant_problems() == []


def test_d6_no_bonus_when_both_wrong():
    game, a, d, t = first_battle()
    before = scores(game)
    answer_all(game)
    assert scores(game) == before and game.players[d].bonuses == 0


def test_d6_no_bonus_for_winning_the_guess_tie_break():
    game, a, d, t = first_battle()
    before = scores(game)
    resolve_battles(game, "guess-lose")
    assert scores(game) == before and game.players[d].bonuses == 0


def test_d6_attackers_never_earn_the_bonus():
    game, a, d, t = first_battle()
    answer_all(game, right={a})
    assert game.players[a].bonuses == 0
    assert game.score(a) == 1600 + 400


def test_d6_failed_castle_attack_still_gives_the_defender_the_bonus():
    game = standard_game()
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "defend")
    assert game.players[2].bonuses == 100 and game.score(2) == 1700
    assert game.territories["C1"].towers == 2


# ----------------------------------------------------------------------------- taking territories (D7)


def test_d7_taking_a_200_territory_defender_minus_200_attacker_plus_400_worth_400():
    game = standard_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    assert scores(game) == [2000, 1400, 1600]
    assert (game.territories["A3"].owner, game.territories["A3"].value) == (0, 400)
    # the rulebook: "attacking a territory worth 200 points can bring a 600-point change in relative scores"
    assert (scores(game)[0] - scores(game)[1]) - (1600 - 1600) == 600
    assert game.score_invariant_problems() == []


def test_d7_taking_a_400_territory_is_an_800_point_difference():
    game = standard_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    gap_before = scores(game)[0] - scores(game)[1]
    while game.attacker != 1:
        quiet_turn(game)
    attack(game, "A3", "win")
    assert scores(game)[:2] == [1600, 1800]
    assert (game.territories["A3"].owner, game.territories["A3"].value) == (1, 400)
    assert gap_before - (scores(game)[0] - scores(game)[1]) == 800
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- castles (D8)


def test_d8_each_won_battle_knocks_down_one_tower_attack_continues_on_the_same_castle():
    game = standard_game()
    advance_to(game, 0, 2)
    turn = game.battle.turn
    attack(game, "C1", "win")
    assert game.territories["C1"].towers == 2 and game.territories["C1"].owner == 2
    assert game.stage == "answer" and game.question.purpose is Purpose.BATTLE
    assert game.question.players == (0, 2)
    assert game.attack.territory == "C1" and game.attack.battles_won == 1
    assert game.battle.turn == turn and game.attacker == 0
    resolve_battles(game, "guess-win")
    assert game.territories["C1"].towers == 1 and game.attack.battles_won == 2
    assert scores(game) == [1600, 1600, 1600]  # no points until the castle falls
    assert [e.data["towers"] for e in events_of(game, "tower")] == [2, 1]


def test_d8_attack_ends_at_the_first_lost_battle():
    game = standard_game()
    advance_to(game, 0, 2)
    where = (game.battle.round, game.battle.turn)
    events = attack(game, "C1", "win", "lose")
    assert game.attack is None and game.territories["C1"].towers == 2
    assert kinds(events)[:7] == ["attack", "question", "answers", "tower", "question", "answers", "defend"]
    assert "question" not in kinds(events)[7:]  # no third battle against C1
    assert (game.battle.round, game.battle.turn) != where and game.stage == "attack"


def test_d8_fallen_towers_stay_fallen_in_a_later_attack():
    game = standard_game()
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "lose")
    assert game.territories["C1"].towers == 1
    advance_to(game, 0, 3)
    assert game.territories["C1"].towers == 1
    questions_before = len(events_of(game, "question"))
    attack(game, "C1", "win")  # one battle is enough now
    assert len(events_of(game, "question")) == questions_before + 1
    assert game.territories["C1"].owner == 0 and not game.players[2].in_game


# ----------------------------------------------------------------------------- capturing a base (D9)


def capture_p3_in_round_2(seed: int = 0) -> Game:
    """p3 earns two defense bonuses in round 1 (+200), then p1 captures C1 in round 2."""
    game = standard_game(seed, names=NAMES)
    while game.battle_round == 1:
        if game.attacker == 0:
            attack(game, "C2", "defend")
        elif game.attacker == 1:
            attack(game, "C3", "defend")
        else:
            quiet_turn(game)
    assert scores(game) == [1600, 1600, 1800] and game.players[2].bonuses == 200
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    return game


def test_d9_capture_transfers_all_territories_and_the_whole_score_including_bonuses():
    game = capture_p3_in_round_2()
    assert [t for t, o in owners(game).items() if o == 0] == ["A1", "A2", "B1", "B2", "C1", "C2", "C3", "C4"]
    assert scores(game) == [1600 + 1800, 1600, 0]
    assert game.players[0].bonuses == 200
    assert game.score_invariant_problems() == []
    capture = events_of(game, "capture")[-1]
    assert capture.data == {"seat": 0, "defender": 2, "territory": "C1", "territories": ["C1", "C2", "C3", "C4"],
                            "points": 1800, "revalued": 0}
    assert [e.data["towers"] for e in events_of(game, "tower")] == [2, 1, 0]


def test_d9_captured_defender_has_0_and_is_eliminated():
    game = capture_p3_in_round_2()
    p3 = game.players[2]
    assert (game.score(2), p3.bonuses, p3.in_game) == (0, 0, False)


def test_d9_eliminated_player_skips_all_later_turns():
    game = capture_p3_in_round_2()
    seen = []
    while game.stage == "attack":
        seen.append((game.battle_round, game.attacker))
        quiet_turn(game)
    assert all(seat != 2 for _, seat in seen)
    assert events_of(game, "round")[-1].data["order"] == [0, 1]
    assert 2 not in game.ranking[:2] and game.ranking[-1] == 2


def test_d9_ruined_castle_worth_1000_to_the_conqueror():
    game = capture_p3_in_round_2()
    c1 = game.territories["C1"]
    assert (c1.owner, c1.value, c1.towers, c1.base_of, c1.is_ruin) == (0, 1000, 0, 2, True)


def test_d9_ruined_castle_taken_later_taker_plus_400_loser_minus_1000_worth_400():
    game = capture_p3_in_round_2()
    advance_to(game, 1, 3)
    before = scores(game)
    questions_before = len(events_of(game, "question"))
    attack(game, "C1", "win")
    assert len(events_of(game, "question")) == questions_before + 1  # one battle, no towers
    after = scores(game)
    assert (after[0] - before[0], after[1] - before[1]) == (-1000, 400)
    # the rulebook: "this can mean a 1400-point change in relative scores"
    assert (before[0] - before[1]) - (after[0] - after[1]) == 1400
    c1 = game.territories["C1"]
    assert (c1.owner, c1.value, c1.towers) == (1, 400, 0)
    assert game.players[0].in_game  # taking a ruin eliminates nobody
    assert game.score_invariant_problems() == []


def test_d9_game_ends_when_one_player_remains():
    game = capture_p3_in_round_2()
    while game.battle_round == 2:  # the rest of round 2, if p1's capture was not its last turn
        quiet_turn(game)
    assert game.battle.order == (0, 1)  # p1 leads (3400 vs 1600): attacks first in the last round
    attack(game, "A4", "win", "win", "win")
    assert game.is_over and game.stage == "over"
    assert not game.players[1].in_game
    assert all(s.owner == 0 for s in game.territories.values())
    assert scores(game) == [5000, 0, 0]
    assert game.ranking == (0, 1, 2)  # eliminated later ranks higher
    assert kinds(game.events[-2:]) == ["capture", "ranking"]
    assert game.score_invariant_problems() == []


def test_d9_d10_changed_ruined_castle_value_keeps_the_score_invariant():
    """A teacher's rule set with a different ruin value: the conqueror's score
    must still equal its territories + bonuses (D10)."""
    rules = dataclasses.replace(CONQUIZTADOR, ruined_castle_value=600)
    game = standard_game(rules=rules)
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    assert game.territories["C1"].value == 600
    assert game.score_invariant_problems() == []
    assert game.score(0) == 1600 + 1600 - 1000 + 600


# ----------------------------------------------------------------------------- end of the game (D12)


def test_d12_final_ranking_by_score():
    game = standard_game()
    advance_to(game, 0, 1)
    attack(game, "A3", "win")
    finish_quietly(game)
    assert game.is_over and scores(game) == [2000, 1400, 1600]
    assert game.ranking == (0, 2, 1)
    assert not any(e.data.get("purpose") == "tiebreak" for e in events_of(game, "question"))
    assert events_of(game, "ranking")[-1].data == {"ranking": [0, 2, 1], "scores": [2000, 1400, 1600]}


def test_d12_equal_scores_ordered_by_one_guess_question_no_points():
    game = standard_game()
    finish_quietly(game)
    assert scores(game) == [1600, 1600, 1600]
    assert game.phase is Phase.TIEBREAK and not game.is_over
    assert game.question.purpose is Purpose.TIEBREAK and game.question.players == (0, 1, 2)
    answer_guess(game, (2, 0, 1))
    assert game.is_over and game.ranking == (2, 0, 1)
    assert scores(game) == [1600, 1600, 1600]  # tiebreak_points = 0 in ConQUIZtador
    assert game.score_invariant_problems() == []


def test_d12_tie_break_only_among_the_tied_players():
    game = standard_game()
    while game.stage == "attack":
        if game.attacker == 0 and game.battle_round == 1:
            attack(game, "C2", "defend")  # p3 1700
        else:
            quiet_turn(game)
    assert scores(game) == [1600, 1600, 1700]
    assert game.question.purpose is Purpose.TIEBREAK and game.question.players == (0, 1)
    answer_guess(game, (1, 0))
    assert game.ranking == (2, 1, 0)


# ----------------------------------------------------------------------------- questions (D2, D3, D4)


def tiny_bank(guesses: int, choices: int) -> QuestionBank:
    return synthetic_bank(guesses, choices)


def test_d4_no_repeats_until_the_deck_runs_out_then_a_warning():
    game = standard_game(bank=tiny_bank(3, 60))
    asked = [e.data["question"] for e in events_of(game, "question")]
    assert sorted(asked) == ["g0", "g1", "g2"]
    assert events_of(game, "warning") == []
    first_battle_events = []
    attacker = game.attacker
    first_battle_events += game.apply(Attack(attacker, game.legal_targets(attacker)[0]))
    first_battle_events += answer_all(game, right={0, 1, 2})  # both right: a 4th guess question
    assert kinds(first_battle_events)[-3:] == ["battle", "warning", "question"]
    warning = first_battle_events[-2]
    assert warning.data == {"kind": "guess"} and "D4" in event_text(warning, Names.of_game(game))
    assert first_battle_events[-1].data["question"] in asked


def test_d4_choice_questions_do_not_repeat_within_the_deck():
    game = standard_game(bank=tiny_bank(30, 4))
    ids = []
    while len(ids) < 5:
        game.apply(Attack(game.attacker, game.legal_targets(game.attacker)[0]))
        ids.append(game.question.question.id)
        if len(ids) == 5:
            break
        answer_all(game)
    assert sorted(ids[:4]) == ["c0", "c1", "c2", "c3"]
    assert kinds(game.events[-2:]) == ["warning", "question"]
    assert game.events[-2].data == {"kind": "choice"}


def test_d2_exactly_4_options_shuffled_per_question():
    game = standard_game(7)
    positions = Counter()
    orders = set()
    for _ in range(12):
        if game.stage != "attack":
            break
        game.apply(Attack(game.attacker, game.legal_targets(game.attacker)[0]))
        asked = game.question
        q = asked.question
        assert len(asked.options) == 4 and sorted(asked.options) == sorted(q.options)
        assert asked.options[asked.correct_option] == q.answer
        assert sum(o == q.answer for o in asked.options) == 1
        positions[asked.correct_option] += 1
        orders.add(tuple(q.options.index(o) for o in asked.options))
        answer_all(game)
    assert len(positions) >= 3 and len(orders) >= 4


def test_d2_no_answer_counts_as_wrong():
    game, a, d, t = first_battle()
    answer_all(game, silent={a, d})
    assert game.territories[t].owner == d and game.players[d].bonuses == 0


@pytest.mark.parametrize("stage", ["guess", "choice"])
def test_d3_answer_after_the_timer_raises_and_changes_nothing(stage):
    if stage == "guess":
        game = new_game()
        limit = 10_000
        late = GuessAnswer(0, 100, limit + 1)
        on_time = GuessAnswer(0, 100, limit)
    else:
        game, a, d, t = first_battle()
        limit = 15_000
        late = ChoiceAnswer(game.question.players[0], 0, limit + 1)
        on_time = ChoiceAnswer(game.question.players[0], 0, limit)
    before = snapshot(game)
    with pytest.raises(AnswerTooLateError, match=f"timer allows {limit} ms"):
        game.apply(late)
    assert snapshot(game) == before
    game.apply(on_time)  # exactly at the limit is in time
    assert len(game.actions) == len(before[3]) + 1


def test_d3_timers_are_settings():
    rules = dataclasses.replace(CONQUIZTADOR, timers=Timers(guess_s=5.0))
    game = new_game(rules=rules)
    assert game.time_limit_s() == 5.0
    with pytest.raises(AnswerTooLateError):
        game.apply(GuessAnswer(0, 1, 5001))


def test_d3_territory_choice_timeout_picks_a_legal_territory_at_random_seeded():
    chosen = []
    for seed in range(20):
        game = new_game(seed)
        answer_guess(game, (0, 1, 2))
        legal = game.legal_picks(0)
        events = game.apply(Timeout(0))
        warning = events[0]
        assert warning.kind == "timeout" and warning.data["seat"] == 0
        t = warning.data["territory"]
        assert t in legal and game.territories[t].owner == 0 and game.score(0) == 1200
        chosen.append(t)
        again = new_game(seed)
        answer_guess(again, (0, 1, 2))
        again.apply(Timeout(0))
        assert again.territories[t].owner == 0
    assert set(chosen) == {"A2", "B1"}


def test_d3_attack_choice_timeout_attacks_a_legal_target():
    game = standard_game(2)
    attacker = game.attacker
    legal = game.legal_targets(attacker)
    events = game.apply(Timeout(attacker))
    assert kinds(events)[:2] == ["timeout", "attack"]
    assert events[1].data["territory"] in legal and game.attack.territory in legal


# ----------------------------------------------------------------------------- illegal clicks read well


def test_why_illegal_messages_read_well():
    game = new_game(names=NAMES)
    assert game.why_illegal(0, "A2") == "it is not your turn to choose a territory"  # a question is open
    answer_guess(game, (0, 1, 2))
    assert game.why_illegal(0, "A2") is None
    assert game.why_illegal(1, "A3") == "it is not your turn to choose a territory"
    assert game.why_illegal(0, "A4") == "A4 already belongs to Bela"
    assert game.why_illegal(0, "C4") == "C4 does not border your territories; pick a free territory next to yours"
    assert game.why_illegal(0, "Z9") == "there is no territory 'Z9' on this map"
    with pytest.raises(IllegalTerritoryError) as info:
        game.apply(Pick(0, "A4"))
    assert info.value.reason == "A4 already belongs to Bela"
    assert info.value.action == "pick p1 A4" and info.value.phase == "expansion"


def test_why_illegal_battle_messages_read_well():
    game = standard_game(names=NAMES)
    advance_to(game, 1, 1)
    assert game.why_illegal(1, "A3") == "A3 is yours already"
    assert game.why_illegal(1, "A1") == "castles cannot be attacked in battle round 1"
    assert game.why_illegal(1, "B1") == "B1 does not border your territories (battle round 1 allows neighbours only)"
    assert game.why_illegal(0, "A3") == "it is not your turn to choose a territory"
    assert game.why_illegal(1, "B2") is None
