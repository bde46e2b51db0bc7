"""Long Campaign rules (docs/rules.md: Long Campaign, D14 with D1-D10, D15):
one test per clause.

Positions are on the 3x4 grid board. The *campaign position* (``lc_game``):
bases chosen A1 (p1), A4 (p2), C1 (p3) in colour order, then three claim
rounds in which every claim is answered right (orders p1 p2 p3 / p2 p3 p1 /
p3 p1 p2), which fills the map - the same owners as the ConQUIZtador
standard position, 1000 + 3 x 200 = 1600 points each::

    A1 p1 base   A2 p1   A3 p2   A4 p2 base
    B1 p1        B2 p1   B3 p2   B4 p2
    C1 p3 base   C2 p3   C3 p3   C4 p3
"""

from __future__ import annotations

from collections import Counter

import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import (
    STANDARD_OWNERS,
    advance_to,
    answer_all,
    answer_guess,
    attack,
    finish_quietly,
    kinds,
    owners,
    quiet_turn,
    scores,
    snapshot,
    standard_game,
)

from triviador_nb.engine import (
    CONQUIZTADOR,
    LONG_CAMPAIGN,
    Attack,
    BasePlacement,
    BattleOrder,
    ClaimExpansion,
    Game,
    GuessExpansion,
    IllegalActionError,
    IllegalTerritoryError,
    Phase,
    Pick,
    Rebuild,
    Targets,
    Timeout,
)
from triviador_nb.engine.state import Purpose

NAMES = ["Anna", "Bela", "Cili"]
LC_BASES = ("A1", "A4", "C1")  # seat -> base
# D14 (revised), long_campaign.txt: "for the sake of fairness, the order of play is different for
# every round" - rounds 1-6 of the expansion and of the battle
SIX_ORDERS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]
LC_CLAIMS = (  # per claim round, in the engine's order (rounds 1-3 of SIX_ORDERS)
    ("A2", "A3", "C2"),  # p1 p2 p3
    ("B4", "C3", "B1"),  # p2 p3 p1
    ("C4", "B2", "B3"),  # p3 p1 p2
)


def lc_new(seed: int = 0, board=None) -> Game:
    return Game(LONG_CAMPAIGN, board or grid_board(), synthetic_bank(), seed, names=NAMES)


def choose_bases(game: Game, bases=LC_BASES) -> list[int]:
    """Each seat chooses ``bases[seat]`` when the engine asks it; returns the choosing order."""
    order = []
    while game.stage == "base":
        seat = game.pick_queue[0]
        order.append(seat)
        game.apply(Pick(seat, bases[seat]))
    return order


def claim(game: Game, territory: str, right: bool = True) -> int:
    """The player whose claim turn it is claims ``territory`` and answers right or wrong."""
    seat = game.pick_queue[0]
    game.apply(Pick(seat, territory))
    assert game.question.purpose is Purpose.CLAIM and not game.question.is_guess
    assert game.question.players == (seat,)  # answered alone
    answer_all(game, right={seat} if right else ())
    return seat


def lc_game(seed: int = 0) -> Game:
    """The campaign position (module docstring) at the start of battle round 1."""
    game = lc_new(seed)
    choose_bases(game)
    for territories in LC_CLAIMS:
        for t in territories:
            claim(game, t)
    assert game.phase is Phase.BATTLE and game.battle_round == 1 and game.stage == "attack"
    return game


def events_of(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def adjacent_first(game: Game, seat: int) -> list[str]:
    free = [t for t in game.board.territories if game.territories[t].owner is None]
    own = {t for t, s in game.territories.items() if s.owner == seat}
    near = [t for t in free if any(game.board.borders(t, o) for o in own)]
    return near or free


# ----------------------------------------------------------------------------- the rule set (D14)


def test_d14_rule_set_constants_match_the_rulebook():
    r = LONG_CAMPAIGN
    assert (r.players, r.colours, r.shuffle_colours, r.base_placement) == \
        (3, ("red", "blue", "green"), True, BasePlacement.CHOOSE)
    claims, allocation = r.expansion
    assert isinstance(claims, ClaimExpansion) and (claims.value, claims.rounds) == (200, 6)
    assert [list(o) for o in claims.orders] == SIX_ORDERS
    assert isinstance(allocation, GuessExpansion) and (allocation.value, allocation.sequences) == (300, ((0,),))
    assert allocation.rounds is None  # "until all free territories have been occupied"
    assert [(b.order, list(b.fixed_order), b.targets, b.magic_wings) for b in r.battle_rounds] == \
        [(BattleOrder.FIXED, order, Targets.ADJACENT, False) for order in SIX_ORDERS]
    assert (r.base_value, r.base_towers, r.capture_value, r.defense_bonus) == (1000, 3, 400, 100)
    assert (r.ruined_castle_value, r.ruin_taken_value, r.elimination_award) == (1000, 1000, 1000)
    assert r.rebuild and not r.capture_ends_game and not r.tiebreak_first_only and r.tiebreak_points == 0


# ----------------------------------------------------------------------------- colours and bases (D14, D15)


def test_d14_colours_dealt_at_random_by_the_seed():
    dealt = Counter()
    for seed in range(40):
        game = lc_new(seed)
        assert sorted(game.colours) == ["blue", "green", "red"]
        assert lc_new(seed).colours == game.colours  # seeded
        dealt[game.colours] += 1
    assert len(dealt) == 6  # every deal occurs


@pytest.mark.parametrize("seed", range(12))
def test_d14_bases_chosen_in_order_red_blue_green(seed):
    game = lc_new(seed)
    assert game.stage == "base" and game.phase is Phase.BASES and game.question is None
    assert all(s.owner is None for s in game.territories.values())
    order = choose_bases(game)
    assert [game.colours[s] for s in order] == ["red", "blue", "green"]
    assert [e.data["seat"] for e in events_of(game, "bases")] == order
    for seat, t in enumerate(LC_BASES):
        s = game.territories[t]
        assert (s.owner, s.base_of, s.value, s.towers) == (seat, seat, 1000, 3)
    assert scores(game) == [1000, 1000, 1000]
    assert game.score_invariant_problems() == []
    assert game.phase is Phase.EXPANSION


def test_d14_d15_a_base_never_borders_another_base():
    game = lc_new(0)
    first, second, _ = game.pick_queue
    game.apply(Pick(first, "A1"))
    assert game.legal_picks(second) == ["A3", "A4", "B2", "B3", "B4", "C1", "C2", "C3", "C4"]
    assert "borders one" in game.why_illegal(second, "B1")
    before = snapshot(game)
    with pytest.raises(IllegalTerritoryError, match="is a base or borders one"):
        game.apply(Pick(second, "A2"))
    with pytest.raises(IllegalTerritoryError):
        game.apply(Pick(second, "A1"))
    assert snapshot(game) == before


def test_d14_a_base_choice_that_leaves_no_room_for_a_later_player_is_refused():
    # 2x3 grid:  A1 A2 A3 / B1 B2 B3. After A1, B3 borders no base, but then
    # every remaining territory borders A1 or B3: the third player could not choose
    game = lc_new(0, board=grid_board("AB", 3))
    first, second, third = game.pick_queue
    game.apply(Pick(first, "A1"))
    assert game.legal_picks(second) == ["A3", "B2"]
    assert "no room" in game.why_illegal(second, "B3")
    with pytest.raises(IllegalTerritoryError, match="would leave no room"):
        game.apply(Pick(second, "B3"))
    game.apply(Pick(second, "B2"))
    assert game.legal_picks(third) == ["A3"]


def test_d14_the_first_base_must_leave_room_for_both_later_players():
    # a line A1-A2-A3-A4-A5 holds three separate bases only as A1, A3, A5
    game = lc_new(0, board=grid_board("A", 5))
    assert game.legal_picks(game.pick_queue[0]) == ["A1", "A3", "A5"]
    assert "no room" in game.why_illegal(game.pick_queue[0], "A2")


def test_d14_d15_a_board_without_room_for_three_bases_is_refused():
    with pytest.raises(ValueError, match="non-adjacent"):
        lc_new(0, board=grid_board("A", 4))


def test_d14_d3_base_choice_timeout_chooses_a_legal_base():
    game = lc_new(3)
    seat = game.pick_queue[0]
    legal = game.legal_picks(seat)
    events = game.apply(Timeout(seat))
    assert events[0].kind == "timeout" and events[0].data["territory"] in legal
    assert game.territories[events[0].data["territory"]].base_of == seat


# ----------------------------------------------------------------------------- expansion by claims (D14)


def test_d14_expansion_claim_a_neighbour_and_answer_alone_right_occupied_for_200():
    game = lc_new()
    choose_bases(game)
    assert game.stage == "pick" and game.pick_queue == [0, 1, 2]
    assert game.legal_picks(0) == ["A2", "B1"]
    with pytest.raises(IllegalTerritoryError, match="does not border your territories"):
        game.apply(Pick(0, "B3"))
    events = game.apply(Pick(0, "A2"))
    assert kinds(events) == ["claim", "question"]
    assert game.territories["A2"].owner is None  # not yet: the question decides
    assert game.question.players == (0,) and game.current_players() == (0,)
    assert len(game.question.options) == 4
    answer_all(game, right={0})
    assert (game.territories["A2"].owner, game.territories["A2"].value) == (0, 200)
    assert scores(game) == [1200, 1000, 1000]
    assert game.pick_queue == [1, 2]
    assert game.score_invariant_problems() == []


def test_d14_expansion_claim_answered_wrong_the_territory_stays_free():
    game = lc_new()
    choose_bases(game)
    claim(game, "A2", right=False)
    assert game.territories["A2"].owner is None and scores(game) == [1000, 1000, 1000]
    assert events_of(game, "pick")[-1].data == {"seat": 0, "territory": "A2", "points": 0}
    claim(game, "A3", right=False)
    claim(game, "C2", right=True)
    assert game.pick_queue == [1, 2, 0]  # round 2
    assert game.legal_picks(0) == ["A2", "B1"]  # may claim A2 again


def test_d14_expansion_no_answer_counts_as_wrong():
    game = lc_new()
    choose_bases(game)
    game.apply(Pick(0, "A2"))
    answer_all(game, silent={0})
    assert game.territories["A2"].owner is None


def test_d14_expansion_any_free_territory_when_none_borders_yours():
    game = lc_new()
    choose_bases(game, ("A1", "A3", "C1"))
    claim(game, "A2", right=False)  # p1
    claim(game, "A2")  # p2
    claim(game, "B1")  # p3: p1 is walled in
    claim(game, "A4")  # round 2: p2
    claim(game, "C2")  # p3
    assert game.pick_queue == [0]
    assert game.legal_picks(0) == ["B2", "B3", "B4", "C3", "C4"]
    claim(game, "C4")
    assert game.territories["C4"].owner == 0


def test_d14_expansion_6_rounds_each_in_a_different_order():
    game = lc_new()
    choose_bases(game)
    claimants = []
    while game.phase_name == "expansion":
        seat = game.pick_queue[0]
        assert game.legal_picks(seat) == adjacent_first(game, seat)
        claimants.append(claim(game, game.legal_picks(seat)[0], right=False))
    rounds = [e.data for e in events_of(game, "round") if "order" in e.data and len(e.data["order"]) == 3][:6]
    assert [r["order"] for r in rounds] == SIX_ORDERS  # round 4 is no longer round 1 again
    assert [r["round"] for r in rounds] == [1, 2, 3, 4, 5, 6]
    assert claimants == [0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 2, 1, 2, 1, 0, 1, 0, 2]  # 6 rounds x 3 claims
    for seat in range(3):  # each seat claims first, second and third exactly twice
        assert sorted(order.index(seat) for order in SIX_ORDERS) == [0, 0, 1, 1, 2, 2]
    # then the allocation of the 9 territories still free
    assert game.phase_name == "allocation" and game.question.purpose is Purpose.EXPANSION
    assert game.question.players == (0, 1, 2)
    assert len([s for s in game.territories.values() if s.owner is None]) == 9


def test_d14_expansion_ends_early_when_no_territory_is_free():
    game = lc_game()
    assert owners(game) == STANDARD_OWNERS
    assert scores(game) == [1600, 1600, 1600]
    assert len(events_of(game, "claim")) == 9  # three rounds, not six
    assert not any(e.data.get("purpose") == "expansion" for e in events_of(game, "question"))  # no allocation
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- allocation (D14)


def test_d14_allocation_guess_winner_picks_1_worth_300_adjacent_first_until_none_free():
    game = lc_new()
    choose_bases(game)
    while game.phase_name == "expansion":
        claim(game, game.legal_picks(game.pick_queue[0])[0], right=False)
    rounds = 0
    points = [1000, 1000, 1000]
    while game.phase_name == "allocation":
        rounds += 1
        assert game.question.is_guess and game.question.players == (0, 1, 2)
        winner = rounds % 3
        answer_guess(game, (winner, (winner + 1) % 3, (winner + 2) % 3))
        assert game.pick_queue == [winner]  # the winner alone picks one territory
        legal = game.legal_picks(winner)
        assert legal == adjacent_first(game, winner)
        game.apply(Pick(winner, legal[0]))
        assert game.territories[legal[0]].value == 300
        points[winner] += 300
        assert scores(game) == points
        assert game.score_invariant_problems() == []
    assert rounds == 9 and all(s.owner is not None for s in game.territories.values())
    assert game.phase is Phase.BATTLE


def test_d14_allocation_adjacent_first_any_free_when_none_borders_yours():
    game = lc_new()
    choose_bases(game, ("A1", "A3", "C1"))
    claim(game, "A2", right=False)
    claim(game, "A2")
    claim(game, "B1")
    while game.phase_name == "expansion":
        claim(game, game.legal_picks(game.pick_queue[0])[0], right=False)
    answer_guess(game, (0, 1, 2))
    assert game.legal_picks(0) == ["A4", "B2", "B3", "B4", "C2", "C3", "C4"]


# ----------------------------------------------------------------------------- battle (D14)


def test_d14_battle_6_rounds_in_the_same_six_orders():
    game = lc_game()
    turns = []
    while game.stage == "attack":
        turns.append((game.battle_round, game.attacker))
        quiet_turn(game)
    assert turns == [(r + 1, seat) for r in range(6) for seat in SIX_ORDERS[r]]
    assert [e.data["order"] for e in events_of(game, "round") if "targets" in e.data] == SIX_ORDERS


@pytest.mark.parametrize("battle_round", [1, 6])
def test_d14_battle_adjacent_territories_only_a_base_from_a_bordering_territory(battle_round):
    game = lc_game()
    advance_to(game, 0, battle_round)
    assert game.legal_targets(0) == ["A3", "B3", "C1", "C2"]  # C1 borders B1: a castle from round 1
    assert game.wings_targets(0) == []
    assert "does not border" in game.why_illegal(0, "A4")  # p2's castle borders nothing of p1's
    assert "does not border" in game.why_illegal(0, "C4")
    with pytest.raises(IllegalTerritoryError):
        game.apply(Attack(0, "A4"))


def test_d14_d7_taking_a_territory_defender_loses_its_value_attacker_gets_400():
    game = lc_game()
    attack(game, "A3", "win")
    assert scores(game) == [2000, 1400, 1600]
    assert (game.territories["A3"].owner, game.territories["A3"].value) == (0, 400)
    attack(game, "A3", "win")  # p2 takes it back: p1 loses the current value 400
    assert scores(game) == [1600, 1800, 1600]
    assert game.score_invariant_problems() == []


def test_d14_d6_defense_bonus_100():
    game = lc_game()
    attack(game, "A3", "defend")
    assert scores(game) == [1600, 1700, 1600] and game.players[1].bonuses == 100
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- rebuilding a castle (D14)


@pytest.mark.parametrize(("battles", "towers"), [(("win", "lose"), 2), (("win", "win", "defend"), 1)])
def test_d14_rebuild_instead_of_attacking_with_1_or_2_towers_right_3_again(battles, towers):
    game = lc_game()
    attack(game, "C1", *battles)
    assert game.territories["C1"].towers == towers
    advance_to(game, 2, 1)
    assert game.can_rebuild(2)
    actions = game.legal_actions()
    assert actions[-1] == Rebuild(2) and len(actions) == 4 + 1  # four attacks or the rebuild
    before = scores(game)
    events = game.apply(Rebuild(2))
    assert kinds(events) == ["rebuild", "question"]
    assert game.question.purpose is Purpose.REBUILD and not game.question.is_guess
    assert game.question.players == (2,) and len(game.question.options) == 4
    answer_all(game, right={2})
    assert game.territories["C1"].towers == 3
    assert scores(game) == before  # a rebuild gives no points
    assert game.battle_round == 2 and game.attacker == 1  # the rebuild was p3's turn
    assert game.score_invariant_problems() == []


def test_d14_rebuild_answered_wrong_leaves_the_castle_unchanged():
    game = lc_game()
    attack(game, "C1", "win", "lose")
    advance_to(game, 2, 1)
    game.apply(Rebuild(2))
    answer_all(game)
    assert game.territories["C1"].towers == 2
    assert events_of(game, "rebuild")[-1].data == {"seat": 2, "towers": 2}
    assert game.battle_round == 2


def test_d14_rebuilt_towers_must_all_be_knocked_down_again():
    game = lc_game()
    attack(game, "C1", "win", "win", "lose")
    advance_to(game, 2, 1)
    game.apply(Rebuild(2))
    answer_all(game, right={2})
    advance_to(game, 0, 2)
    asked = len(events_of(game, "question"))
    attack(game, "C1", "win", "win", "win")
    assert len(events_of(game, "question")) == asked + 3
    assert not game.players[2].in_game


def test_d14_no_rebuild_with_3_towers_standing():
    game = lc_game()
    assert not game.can_rebuild(0)
    assert Rebuild(0) not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="only a castle with 1 or 2 towers standing can be rebuilt"):
        game.apply(Rebuild(0))
    assert snapshot(game) == before


def test_d14_no_rebuild_of_a_captured_castle_and_not_on_another_players_turn():
    game = lc_game()
    attack(game, "C1", "win", "lose")
    assert game.attacker == 1 and game.can_rebuild(2)
    with pytest.raises(IllegalActionError):
        game.apply(Rebuild(2))  # p2's turn
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win")
    assert game.territories["C1"].owner == 0 and game.territories["C1"].towers == 0
    assert not game.can_rebuild(0) and not game.can_rebuild(2)  # a ruin is nobody's castle to rebuild


def test_d14_rebuilding_is_long_campaign_only():
    game = standard_game(rules=CONQUIZTADOR)
    with pytest.raises(IllegalActionError, match="ConQUIZtador has no castle rebuilding"):
        game.apply(Rebuild(game.attacker))


# ----------------------------------------------------------------------------- capture (D9, D14)


def capture_c1_in_round_2(seed: int = 0) -> Game:
    """p3 earns two defense bonuses in round 1; p1 captures C1 in round 2."""
    game = lc_game(seed)
    attack(game, "C2", "defend")  # round 1: p1; p3 +100
    attack(game, "C3", "defend")  # p2; p3 +100
    quiet_turn(game)  # p3
    assert scores(game) == [1600, 1600, 1800]
    advance_to(game, 0, 2)
    attack(game, "C1", "win", "win", "win")
    return game


def test_d14_d9_capture_transfers_everything_plus_a_1000_elimination_award():
    game = capture_c1_in_round_2()
    assert [t for t, o in owners(game).items() if o == 0] == ["A1", "A2", "B1", "B2", "C1", "C2", "C3", "C4"]
    assert scores(game) == [1600 + 1800 + 1000, 1600, 0]
    p1, p3 = game.players[0], game.players[2]
    assert (p1.bonuses, p1.awards) == (200, 1000)
    assert (game.score(2), p3.bonuses, p3.awards, p3.in_game) == (0, 0, 0, False)
    assert kinds(game.events).count("award") == 1
    assert events_of(game, "award")[-1].data == {"seat": 0, "defender": 2, "points": 1000}
    assert game.territories["C1"].value == 1000
    assert game.score_invariant_problems() == []


def test_d14_d9_eliminated_player_skips_later_turns():
    game = capture_c1_in_round_2()
    seen = []
    while game.stage == "attack":
        seen.append(game.attacker)
        quiet_turn(game)
    assert 2 not in seen
    assert game.ranking[-1] == 2


def test_d14_d9_ruined_castle_taken_later_worth_1000_to_the_taker_loser_loses_its_current_value():
    game = capture_c1_in_round_2()
    advance_to(game, 1, 3)
    attack(game, "C3", "win")  # p2 now borders C2
    advance_to(game, 1, 4)
    attack(game, "C2", "win")  # p2 now borders the ruin C1
    advance_to(game, 1, 5)
    before = scores(game)
    asked = len(events_of(game, "question"))
    attack(game, "C1", "win")
    assert len(events_of(game, "question")) == asked + 1  # a ruin: one battle
    after = scores(game)
    assert (after[0] - before[0], after[1] - before[1]) == (-1000, 1000)
    assert (game.territories["C1"].owner, game.territories["C1"].value) == (1, 1000)
    assert game.players[0].in_game and events_of(game, "award")[-1].data["seat"] == 0  # no new award
    assert game.score_invariant_problems() == []


def test_d14_d9_a_later_capture_passes_on_the_earlier_award_and_earns_a_new_one():
    game = capture_c1_in_round_2()
    assert scores(game) == [4400, 1600, 0]
    advance_to(game, 1, 3)
    attack(game, "A2", "win")  # p2 now borders p1's castle A1
    assert scores(game) == [4200, 2000, 0]
    advance_to(game, 1, 4)
    attack(game, "A1", "win", "win", "win")
    assert game.is_over and game.ranking == (1, 0, 2)  # one player left: the game ends
    assert all(s.owner == 1 for s in game.territories.values())
    assert scores(game) == [0, 2000 + 4200 + 1000, 0]
    assert (game.players[1].bonuses, game.players[1].awards) == (200, 2000)
    assert game.score_invariant_problems() == []


# ----------------------------------------------------------------------------- the end (D14)


def test_d14_most_points_wins():
    game = lc_game()
    attack(game, "A3", "win")
    finish_quietly(game)
    assert game.is_over and scores(game) == [2000, 1400, 1600]
    assert game.ranking == (0, 2, 1)
    assert game.win_kind is None


def test_d14_equal_scores_go_to_one_guess_question():
    game = lc_game()
    finish_quietly(game)
    assert scores(game) == [1600, 1600, 1600]
    assert game.phase is Phase.TIEBREAK and game.question.purpose is Purpose.TIEBREAK
    assert game.question.is_guess and game.question.players == (0, 1, 2)
    answer_guess(game, (1, 2, 0))
    assert game.is_over and game.ranking == (1, 2, 0)
    assert scores(game) == [1600, 1600, 1600]  # no tie-break points in the Long Campaign
    assert game.score_invariant_problems() == []


def test_d14_a_tie_for_second_place_is_decided_too():
    game = lc_game()
    attack(game, "C2", "defend")  # p3 1700
    finish_quietly(game)
    assert scores(game) == [1600, 1600, 1700]
    assert game.question.purpose is Purpose.TIEBREAK and game.question.players == (0, 1)
    answer_guess(game, (1, 0))
    assert game.ranking == (2, 1, 0)
