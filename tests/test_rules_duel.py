"""Duel rules (docs/rules.md: Duel, D11 with D1-D10, D15): one test per clause.

Scripted positions are on the 3x5 grid board (15 territories, so the
15-territory pick table applies); the 19-territory table is checked on
Hungary's 19 counties and the 15-territory one also on ``hungary15``.

The *Duel position* (``duel_game``): bases red (p1, seat 0) A1 and blue
(p2, seat 1) A4, and after the three scripted expansion rounds::

    A1 red base  A2 red  A3 red  A4 blue base  A5 blue
    B1 red       B2 red  B3 blue B4 blue       B5 blue
    C1 red       C2 red  C3 blue C4 blue       C5 blue

red 1000 + 6 x 200 = 2200, blue 1000 + 7 x 200 = 2400 at the start of the battle.
"""

from __future__ import annotations

import dataclasses
import functools

import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import (
    advance_to,
    answer_all,
    answer_guess,
    attack,
    expansion_round,
    kinds,
    new_game,
    owners,
    quiet_turn,
    resolve_battles,
    scores,
    snapshot,
)

from triviador_nb.words import Names, event_text
from triviador_nb.engine import (
    DUEL,
    Attack,
    BattleOrder,
    Game,
    IllegalTerritoryError,
    Phase,
    Pick,
    Targets,
    Timeout,
)
from triviador_nb.engine.state import Purpose

RED, BLUE = 0, 1
NAMES = ["Rita", "Bence"]
DUEL_BASES = ("A1", "A4")
# (guess ranking, picks in the engine's pick order W L W L W / W L W L W / W L W)
DUEL_EXPANSION = (
    ((BLUE, RED), ("A5", "A2", "B4", "B1", "B5")),
    ((RED, BLUE), ("B2", "B3", "C1", "C4", "C2")),
    ((BLUE, RED), ("C5", "A3", "C3")),
)
DUEL_OWNERS = {
    "A1": RED, "A2": RED, "A3": RED, "B1": RED, "B2": RED, "C1": RED, "C2": RED,
    "A4": BLUE, "A5": BLUE, "B3": BLUE, "B4": BLUE, "B5": BLUE, "C3": BLUE, "C4": BLUE, "C5": BLUE,
}


def grid15():
    return grid_board("ABC", 5)


@functools.cache
def hungary(name: str):
    from triviador_nb.maps import load_builtin_map

    return load_builtin_map(name).board


def duel_new(seed: int = 0, bases=DUEL_BASES, board=None) -> Game:
    return new_game(seed, bases, board=board or grid15(), rules=DUEL, names=NAMES)


def duel_game(seed: int = 0) -> Game:
    """The Duel position (module docstring) at the start of battle round 1."""
    game = duel_new(seed)
    for order, picks in DUEL_EXPANSION:
        expansion_round(game, order, picks)
    assert game.phase is Phase.BATTLE and game.battle_round == 1 and game.stage == "attack"
    return game


def events_of(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def adjacent_first(game: Game, seat: int) -> list[str]:
    """The rulebook's pick rule computed from scratch: free territories bordering
    the player's own, or every free territory when none borders them."""
    free = [t for t in game.board.territories if game.territories[t].owner is None]
    own = {t for t, s in game.territories.items() if s.owner == seat}
    near = [t for t in free if any(game.board.borders(t, o) for o in own)]
    return near or free


def play_expansion(game: Game, winners) -> list[list[int]]:
    """Play the guess rounds with ``winners[i]`` winning round i; every pick is
    checked against the adjacent-first rule. Returns the pick queues."""
    queues = []
    for winner in winners:
        assert game.question is not None and game.question.purpose is Purpose.EXPANSION
        answer_guess(game, (winner, 1 - winner))
        queues.append(list(game.pick_queue))
        while game.stage == "pick":
            seat = game.pick_queue[0]
            legal = game.legal_picks(seat)
            assert legal == adjacent_first(game, seat)
            before = game.score(seat)
            game.apply(Pick(seat, legal[-1]))
            assert game.score(seat) == before + 200
            assert game.score_invariant_problems() == []
    return queues


# ----------------------------------------------------------------------------- players and bases (D11, D15)


def test_d11_rule_set_constants_match_the_rulebook():
    r = DUEL
    assert (r.players, r.colours, r.shuffle_colours) == (2, ("red", "blue"), False)
    assert (r.base_value, r.base_towers, r.capture_value, r.defense_bonus) == (1000, 3, 400, 100)
    (phase,) = r.expansion
    # three rounds by the table fill a 19- or 15-territory map; the project repeats the last round
    # on teachers' maps of other sizes (D15), so no territory stays free
    assert (phase.value, phase.rounds) == (200, None)
    assert [len(seq) for seq in phase.by_territories[19]] == [7, 5, 5]
    assert [len(seq) for seq in phase.by_territories[15]] == [5, 5, 3]
    assert len(r.battle_rounds) == 4
    assert r.capture_ends_game and r.tiebreak_points == 0 and not r.rebuild and not r.win_kinds


def test_d11_two_players_red_and_blue():
    for seed in range(10):
        game = duel_new(seed, bases=None)
        assert game.colours == ("red", "blue")  # not dealt at random in the Duel
        assert len(game.players) == 2
    with pytest.raises(ValueError, match="needs 2 player names"):
        Game(DUEL, grid15(), synthetic_bank(), 0, names=["a", "b", "c"])


@pytest.mark.parametrize("board_name", ["grid15", "hungary", "hungary15"])
def test_d11_d15_bases_drawn_at_random_worth_1000_with_3_towers_never_adjacent(board_name):
    board = grid15() if board_name == "grid15" else hungary(board_name)
    drawn = set()
    for seed in range(25):
        game = Game(DUEL, board, synthetic_bank(), seed)
        bases = [t for t, s in game.territories.items() if s.is_base]
        assert len(bases) == 2
        for t in bases:
            s = game.territories[t]
            assert (s.owner, s.value, s.towers) == (s.base_of, 1000, 3)
        assert sorted(game.territories[t].owner for t in bases) == [RED, BLUE]
        assert not game.board.borders(*bases)
        assert scores(game) == [1000, 1000]
        assert game.score_invariant_problems() == []
        again = Game(DUEL, board, synthetic_bank(), seed)
        assert [t for t, s in again.territories.items() if s.is_base] == bases  # seeded
        drawn.add(tuple(bases))
    assert len(drawn) > 5  # at random


# ----------------------------------------------------------------------------- expansion (D11)


@pytest.mark.parametrize("winners", [(RED, RED, RED), (BLUE, RED, BLUE), (RED, BLUE, BLUE)])
def test_d11_expansion_19_territories_picks_7_5_5_alternating_winner_first(winners):
    game = Game(DUEL, hungary("hungary"), synthetic_bank(), 3, names=NAMES)
    assert len(game.board) == 19
    assert len([s for s in game.territories.values() if s.owner is None]) == 17  # "17 empty territories"
    queues = play_expansion(game, winners)
    expected = []
    for winner, n in zip(winners, (7, 5, 5), strict=True):
        loser = 1 - winner
        expected.append([winner if i % 2 == 0 else loser for i in range(n)])  # 1-2-1-2-1(-2-1)
    assert queues == expected
    assert all(s.owner is not None for s in game.territories.values())
    picked = [sum(q.count(seat) for q in queues) for seat in (RED, BLUE)]
    assert scores(game) == [1000 + 200 * picked[RED], 1000 + 200 * picked[BLUE]]
    assert game.phase is Phase.BATTLE and game.battle_round == 1
    assert game.score_invariant_problems() == []


@pytest.mark.parametrize("board_name", ["grid15", "hungary15"])
@pytest.mark.parametrize("winners", [(RED, RED, RED), (BLUE, RED, BLUE)])
def test_d11_expansion_15_territories_picks_5_5_3_alternating_winner_first(board_name, winners):
    board = grid15() if board_name == "grid15" else hungary(board_name)
    game = Game(DUEL, board, synthetic_bank(), 5, names=NAMES)
    assert len(board) == 15
    assert len([s for s in game.territories.values() if s.owner is None]) == 13  # "13 empty territories"
    queues = play_expansion(game, winners)
    expected = [[w, 1 - w, w, 1 - w, w] for w in winners[:2]] + [[winners[2], 1 - winners[2], winners[2]]]
    assert queues == expected  # 1-2-1-2-1 / 1-2-1-2-1 / 1-2-1
    assert all(s.owner is not None for s in game.territories.values())
    assert game.phase is Phase.BATTLE
    assert game.score_invariant_problems() == []


def test_d11_d1_a_silent_loser_gets_none_of_the_losers_picks():
    """D1 (revised): the 15-territory table's first round is W L W L W (5
    picks); when the loser did not answer, only the winner's 3 are made."""
    game = duel_new()
    answer_all(game, guesses={RED: game.question.question.answer, BLUE: None})
    assert game.pick_queue == [RED, RED, RED]


def test_d11_a_silent_player_leaves_territories_free_further_rounds_with_the_third_rounds_picks():
    """D11 (added, issue 26 part 5): the table assumes both answer. Blue is
    silent in rounds 1-3, so red makes only the winner's picks (D1): 3, 3, 2
    of the 13 free; further guess rounds follow with round 3's W L W until
    none is free (5 rounds here; 6 if blue stays silent)."""
    game = duel_new()
    queues = []
    for round_no, winner in enumerate((RED, RED, RED, BLUE, RED), start=1):
        assert game.question is not None and game.question.purpose is Purpose.EXPANSION, round_no
        if round_no <= 3:
            answer_all(game, guesses={RED: game.question.question.answer, BLUE: None})
        else:
            answer_guess(game, (winner, 1 - winner))
        queues.append(list(game.pick_queue))
        while game.stage == "pick":
            game.apply(Pick(game.pick_queue[0], game.legal_picks(game.pick_queue[0])[0]))
    assert queues == [[RED] * 3, [RED] * 3, [RED] * 2, [BLUE, RED, BLUE], [RED, BLUE]]  # the last: 2 were free
    assert len([e for e in events_of(game, "question") if e.data["purpose"] == "expansion"]) == 5
    assert all(s.owner is not None for s in game.territories.values())
    assert scores(game) == [1000 + 200 * 10, 1000 + 200 * 3]
    assert game.phase is Phase.BATTLE and game.battle_round == 1


def test_d11_a_player_silent_throughout_expansion_six_guess_rounds():
    game = duel_new()
    rounds = 0
    while game.phase is Phase.EXPANSION:
        rounds += 1
        answer_all(game, guesses={RED: game.question.question.answer, BLUE: None})
        while game.stage == "pick":
            game.apply(Pick(RED, game.legal_picks(RED)[0]))
    assert rounds == 6  # 3 + 3 + 2, then 2, 2 and the last 1 of round 3's W L W
    assert scores(game) == [1000 + 200 * 13, 1000]


def test_d11_d3_a_timeout_with_only_magic_wings_passes_the_turn_and_says_the_time_ran_out():
    """D3 (revised): a timeout never spends Magic Wings; the record says the
    time ran out, not that there was nothing to attack."""
    game = duel_game()
    advance_to(game, RED, 3)
    for t, state in game.territories.items():  # blue keeps only its castle A4; its land around is freed
        if state.owner == BLUE and t != "A4":
            state.owner, state.value = None, 0
        elif t in ("A3", "B3", "B4", "A5"):
            state.owner, state.value = None, 0
    assert game.legal_targets(RED) == [] and game.wings_targets(RED) == ["A4"]
    events = game.apply(Timeout(RED))
    assert [(e.kind, e.code) for e in events][:1] == [("skip", "skip.timed_out")]
    assert event_text(events[0], Names.of_game(game)) == "Rita ran out of time; the turn passes"
    assert RED not in game.battle.wings_used  # the wings are still there


def test_d11_expansion_has_three_guess_rounds_for_both_players():
    game = duel_game()
    asked = [e for e in events_of(game, "question") if e.data["purpose"] == "expansion"]
    assert len(asked) == 3
    assert all(e.data["seats"] == [RED, BLUE] and e.data["kind"] == "guess" for e in asked)
    assert owners(game) == DUEL_OWNERS
    assert scores(game) == [2200, 2400]  # 200 points per territory taken
    assert game.score_invariant_problems() == []


def test_d11_d1_expansion_guess_closest_wins_equal_distance_faster_wins():
    game = duel_new()
    c = game.question.question.answer
    answer_all(game, guesses={RED: c + 7, BLUE: c - 7}, ms={RED: 4000, BLUE: 3000})
    assert game.pick_queue == [BLUE, RED, BLUE, RED, BLUE]
    game = duel_new()
    answer_all(game, guesses={RED: c + 8, BLUE: c - 7}, ms={RED: 1000, BLUE: 9000})
    assert game.pick_queue == [BLUE, RED, BLUE, RED, BLUE]


def test_d11_adjacent_first_applies_to_every_pick_winner_and_loser():
    game = duel_new()
    answer_guess(game, (BLUE, RED))
    assert game.legal_picks(BLUE) == ["A3", "A5", "B4"]
    with pytest.raises(IllegalTerritoryError, match="does not border your territories"):
        game.apply(Pick(BLUE, "C5"))
    game.apply(Pick(BLUE, "A5"))
    assert game.legal_picks(RED) == ["A2", "B1"]  # the loser's picks too
    with pytest.raises(IllegalTerritoryError, match="does not border your territories"):
        game.apply(Pick(RED, "C1"))
    game.apply(Pick(RED, "A2"))
    assert game.legal_picks(BLUE) == ["A3", "B4", "B5"]


def test_d11_adjacent_first_any_free_territory_when_none_borders_yours():
    # bases A1 (red) and A3 (blue); blue's picks A2, B2, C2 wall red in (A1, B1, C1)
    game = duel_new(bases=("A1", "A3"))
    expansion_round(game, (BLUE, RED), ("A2", "B1", "B2", "C1", "C2"))
    answer_guess(game, (RED, BLUE))
    free = ["A4", "A5", "B3", "B4", "B5", "C3", "C4", "C5"]
    assert [t for t, s in game.territories.items() if s.owner is None] == free
    assert game.legal_picks(RED) == free
    game.apply(Pick(RED, "C5"))
    assert game.territories["C5"].owner == RED and scores(game)[RED] == 1000 + 3 * 200
    assert game.legal_picks(BLUE) == ["A4", "B3", "C3"]  # next to A3, B2 and C2
    game.apply(Pick(BLUE, "A4"))
    assert game.legal_picks(RED) == ["B5", "C4"]  # adjacent-first again, from C5


# ----------------------------------------------------------------------------- battle order (D11)


def test_d11_battle_4_rounds_order_r_b_b_r_r_b_b_r():
    assert [r.order for r in DUEL.battle_rounds] == [BattleOrder.FIXED] * 4
    game = duel_game()
    turns = []
    while game.stage == "attack":
        turns.append((game.battle_round, game.colours[game.attacker]))
        quiet_turn(game)
    assert turns == [(1, "red"), (1, "blue"), (2, "blue"), (2, "red"),
                     (3, "red"), (3, "blue"), (4, "blue"), (4, "red")]
    assert [e.data["order"] for e in events_of(game, "round")] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert game.stage != "attack" and len(events_of(game, "attack")) == 8  # two attacks a round


# ----------------------------------------------------------------------------- targets per round (D11)


def test_d11_round_1_adjacent_territories_only_no_castles():
    game = duel_game()
    assert game.rules.battle_rounds[0].targets is Targets.ADJACENT_NO_BASES
    assert game.legal_targets(RED) == ["B3", "C3"]  # A4 borders A3, but it is a castle
    assert game.legal_targets(BLUE) == ["A3", "B2", "C2"]
    assert game.wings_targets(RED) == [] and game.wings_targets(BLUE) == []
    assert game.why_illegal(RED, "A4") == "castles cannot be attacked in battle round 1"
    assert "does not border" in game.why_illegal(RED, "B4")
    assert game.why_illegal(RED, "B4", wings=True) == \
        "Magic Wings can be used only in the Magic Wings round, not battle round 1"
    before = snapshot(game)
    with pytest.raises(IllegalTerritoryError, match="castles cannot be attacked in battle round 1"):
        game.apply(Attack(RED, "A4"))
    with pytest.raises(IllegalTerritoryError, match="only in the Magic Wings round"):
        game.apply(Attack(RED, "B4", wings=True))
    assert snapshot(game) == before


def test_d11_round_2_adjacent_castles_allowed():
    game = duel_game()
    advance_to(game, BLUE, 2)
    assert game.legal_targets(BLUE) == ["A3", "B2", "C2"]  # red's castle A1 borders nothing of blue's
    advance_to(game, RED, 2)
    assert game.legal_targets(RED) == ["A4", "B3", "C3"]
    assert game.why_illegal(RED, "A4") is None
    assert "does not border" in game.why_illegal(RED, "A5")
    assert game.wings_targets(RED) == []
    with pytest.raises(IllegalTerritoryError, match="only in the Magic Wings round, not battle round 2"):
        game.apply(Attack(RED, "A5", wings=True))


def test_d11_round_3_magic_wings_reach_a_non_adjacent_territory_or_castle():
    game = duel_game()
    advance_to(game, RED, 3)
    assert game.rules.battle_rounds[2].magic_wings
    assert game.legal_targets(RED) == ["A4", "B3", "C3"]  # still adjacent only without wings
    assert game.wings_targets(RED) == ["A5", "B4", "B5", "C4", "C5"]
    assert game.legal_actions() == ([Attack(RED, t) for t in ("A4", "B3", "C3")]
                                    + [Attack(RED, t, wings=True) for t in ("A5", "B4", "B5", "C4", "C5")])
    events = game.apply(Attack(RED, "C5", wings=True))
    assert events[0].data["wings"] is True and "Magic Wings" in event_text(events[0], Names.of_game(game))
    resolve_battles(game, "win")
    assert (game.territories["C5"].owner, game.territories["C5"].value) == (RED, 400)
    assert scores(game) == [2600, 2200]
    assert game.score_invariant_problems() == []
    # blue's wings reach red's castle A1, which borders nothing of blue's
    assert game.attacker == BLUE
    assert game.wings_targets(BLUE) == ["A1", "A2", "B1", "C1"]
    assert game.territories["A1"].is_base


def test_d11_magic_wings_not_for_a_target_reachable_without_them():
    game = duel_game()
    advance_to(game, RED, 3)
    assert game.why_illegal(RED, "B3", wings=True) == "B3 can be attacked without Magic Wings"
    with pytest.raises(IllegalTerritoryError, match="without Magic Wings"):
        game.apply(Attack(RED, "B3", wings=True))
    with pytest.raises(IllegalTerritoryError, match="does not border"):
        game.apply(Attack(RED, "C5"))  # a non-adjacent target needs the wings


def test_d11_magic_wings_once_per_player():
    # a teacher's variant with Magic Wings in rounds 3 and 4: still one use per player
    rounds = list(DUEL.battle_rounds)
    rounds[3] = dataclasses.replace(rounds[3], targets=Targets.ADJACENT, magic_wings=True)
    rules = dataclasses.replace(DUEL, battle_rounds=tuple(rounds))
    game = new_game(0, DUEL_BASES, board=grid15(), rules=rules, names=NAMES)
    for order, picks in DUEL_EXPANSION:
        expansion_round(game, order, picks)
    advance_to(game, RED, 3)
    game.apply(Attack(RED, "C5", wings=True))
    resolve_battles(game, "lose")
    assert game.battle.wings_used == {RED}
    assert game.wings_targets(BLUE) == ["A1", "A2", "B1", "C1"]  # blue keeps its own wings
    quiet_turn(game)
    advance_to(game, RED, 4)
    assert game.wings_targets(RED) == []
    assert game.why_illegal(RED, "C5", wings=True) == "you have used your Magic Wings already"
    assert all(not a.wings for a in game.legal_actions())


def test_d11_magic_wings_not_in_round_4_which_allows_any_territory():
    game = duel_game()
    advance_to(game, BLUE, 4)
    assert game.wings_targets(BLUE) == []
    assert game.legal_targets(BLUE) == ["A1", "A2", "A3", "B1", "B2", "C1", "C2"]  # everything red holds
    assert game.why_illegal(BLUE, "C1", wings=True) == \
        "Magic Wings can be used only in the Magic Wings round, not battle round 4"
    quiet_turn(game)
    assert game.legal_targets(RED) == ["A4", "A5", "B3", "B4", "B5", "C3", "C4", "C5"]
    assert all(not a.wings for a in game.legal_actions())


def test_d11_unused_wings_do_not_carry_over_to_round_4():
    game = duel_game()
    advance_to(game, RED, 4)
    assert game.battle.wings_used == frozenset()
    assert game.wings_targets(RED) == []


# ----------------------------------------------------------------------------- battles (D5-D8 in the Duel)


def test_d11_d7_taking_a_territory_400_defender_loses_its_value():
    game = duel_game()
    attack(game, "B3", "win")
    assert scores(game) == [2600, 2200]
    assert (game.territories["B3"].owner, game.territories["B3"].value) == (RED, 400)
    assert game.score_invariant_problems() == []


def test_d11_d6_defense_bonus_100_only_for_a_right_answer():
    game = duel_game()
    attack(game, "B3", "defend")
    assert scores(game) == [2200, 2500] and game.players[BLUE].bonuses == 100
    attack(game, "A3", "lose")  # both wrong: red holds, no bonus
    assert scores(game) == [2200, 2500]
    attack(game, "A3", "guess-lose")  # tie-break guess: no bonus either
    assert scores(game) == [2200, 2500]
    assert game.score_invariant_problems() == []


def test_d11_d8_castle_three_towers_fallen_towers_stay_fallen():
    game = duel_game()
    advance_to(game, RED, 2)
    attack(game, "A4", "win", "defend")
    assert game.territories["A4"].towers == 2 and game.territories["A4"].owner == BLUE
    assert scores(game) == [2200, 2500]  # D8: a failed castle attack earns the defense bonus
    advance_to(game, RED, 3)
    asked = len(events_of(game, "question"))
    attack(game, "A4", "win", "win")  # two battles: the fallen tower is not attacked again
    assert len(events_of(game, "question")) == asked + 2
    assert game.is_over


# ----------------------------------------------------------------------------- capture ends the Duel (D9, D11)


def test_d11_d9_captured_castle_ends_the_game_at_once_with_the_full_transfer():
    game = duel_game()
    attack(game, "B3", "defend")  # blue +100 defense bonus
    quiet_turn(game)
    advance_to(game, RED, 3)
    blue_total = scores(game)[BLUE]
    assert blue_total == 2500
    events = attack(game, "A4", "win", "win", "win")
    assert game.is_over and game.stage == "over" and game.phase is Phase.OVER
    assert kinds(events)[-2:] == ["capture", "ranking"]
    assert game.battle_round == 3 and game.battle.turn == 1  # blue never gets its round-3 turn, no round 4
    assert all(s.owner == RED for s in game.territories.values())
    assert scores(game) == [2200 + blue_total, 0]
    assert game.players[RED].bonuses == 100 and game.players[BLUE].bonuses == 0
    assert not game.players[BLUE].in_game
    assert game.territories["A4"].value == 1000
    assert game.ranking == (RED, BLUE)
    assert not any(e.data.get("purpose") == "tiebreak" for e in events_of(game, "question"))
    assert game.score_invariant_problems() == []


def test_d11_d9_castle_taken_on_magic_wings_ends_the_game():
    game = duel_game()
    advance_to(game, BLUE, 3)
    game.apply(Attack(BLUE, "A1", wings=True))
    resolve_battles(game, "win", "guess-win", "win")
    assert game.is_over and game.ranking == (BLUE, RED)
    assert scores(game) == [0, 2400 + 2200]
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- end of the game (D11)


def test_d11_higher_score_wins():
    game = duel_game()
    while game.stage == "attack":
        quiet_turn(game)
    assert game.is_over and scores(game) == [2200, 2400]
    assert game.ranking == (BLUE, RED)
    assert events_of(game, "ranking")[-1].data == {"ranking": [BLUE, RED], "scores": [2200, 2400]}


@pytest.mark.parametrize("tie_winner", [RED, BLUE])
def test_d11_equal_scores_go_to_one_guess_question(tie_winner):
    game = duel_game()
    while game.stage == "attack":
        if game.attacker == BLUE and game.battle_round <= 2:
            attack(game, game.legal_targets(BLUE)[0], "defend")  # red +100 twice
        else:
            quiet_turn(game)
    assert scores(game) == [2400, 2400]
    assert game.phase is Phase.TIEBREAK and not game.is_over
    assert game.question.is_guess and game.question.purpose is Purpose.TIEBREAK
    assert game.question.players == (RED, BLUE)
    answer_guess(game, (tie_winner, 1 - tie_winner))
    assert game.is_over and game.ranking == (tie_winner, 1 - tie_winner)
    assert scores(game) == [2400, 2400]  # no points for the tie-break in the Duel
    assert game.score_invariant_problems() == []


def test_d11_d15_duel_on_a_map_of_another_size_leaves_no_territory_free():
    # a teacher's 21-territory map: the nearest table (19: 7, 5, 5) fills 2 + 17 territories,
    # then the last round's sequence repeats until none is free
    board = grid_board("ABC", 7)
    game = Game(DUEL, board, synthetic_bank(), seed=3)
    while game.phase is Phase.EXPANSION:
        answer_all(game, guesses={0: game.question.question.answer, 1: None}) if game.stage == "answer" \
            else game.apply(game.legal_actions()[0])
    assert all(s.owner is not None for s in game.territories.values())
    assert game.score_invariant_problems() == []
