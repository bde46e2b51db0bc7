"""Legal-action counts (perft) per rule set on small grid boards.

Like chess perft: at a chosen position, count the legal territory choices
(base choices, picks, claims, attacks with and without Magic Wings,
rebuilds), or the leaves of the tree of such choices ``depth`` choices deep.
Questions on the way are forced moves answered by a fixed policy, so only
territory choices branch. Every expected number is derived by hand in the
comment above it, from the rulebook, not read off the engine.

Grid boards (``fixture_data.grid_board``)::

    3x4:  A1 A2 A3 A4      3x5:  A1 A2 A3 A4 A5      2x3:  A1 A2 A3
          B1 B2 B3 B4            B1 B2 B3 B4 B5            B1 B2 B3
          C1 C2 C3 C4            C1 C2 C3 C4 C5
"""

from __future__ import annotations

import copy

import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import answer_all, answer_guess, attack, expansion_round, new_game, quiet_turn, standard_game

from triviador_nb.engine import (
    CONQUIZTADOR,
    DOBYVATEL,
    DUEL,
    LONG_CAMPAIGN,
    Attack,
    ChoiceAnswer,
    Game,
    GuessAnswer,
    Pick,
    Rebuild,
)

# ----------------------------------------------------------------------------- the perft walker


def settle(game: Game, policy: str) -> None:
    """Answer open questions until a territory choice (or the end) is awaited.

    Guess questions: ranked in seat order (the lowest seat exact).
    Multiple choice: ``"wrong"`` - everyone wrong (claims and rebuilds fail,
    defenders hold without a bonus); ``"right"`` - the claimant / rebuilder
    right; in a battle the attacker right and the defender wrong (the
    attacker wins).
    """
    while game.question is not None:
        asked = game.question
        if asked.is_guess:
            answer_guess(game, asked.players)
        elif policy == "wrong":
            answer_all(game)
        else:
            answer_all(game, right={game.attack.attacker} if game.attack else set(asked.players))


def perft(game: Game, depth: int, policy: str = "wrong") -> int:
    """Leaves of the territory-choice tree ``depth`` choices deep."""
    settle(game, policy)
    if depth == 0 or game.is_over:
        return 1
    actions = game.legal_actions()
    assert actions and not any(isinstance(a, (GuessAnswer, ChoiceAnswer)) for a in actions)
    total = 0
    for action in actions:
        child = copy.deepcopy(game)
        child.apply(action)
        total += perft(child, depth - 1, policy)
    return total


def counts(game: Game) -> tuple[int, int, int]:
    """(plain attacks, Magic Wings attacks, rebuilds) among the legal actions."""
    actions = game.legal_actions()
    plain = sum(isinstance(a, Attack) and not a.wings for a in actions)
    wings = sum(isinstance(a, Attack) and a.wings for a in actions)
    rebuilds = sum(isinstance(a, Rebuild) for a in actions)
    assert plain + wings + rebuilds == len(actions)
    return plain, wings, rebuilds


# ----------------------------------------------------------------------------- Long Campaign: choosing bases (D14, D15)


def lc(board=None, seed: int = 0, bases=None) -> Game:
    return Game(LONG_CAMPAIGN, board or grid_board(), synthetic_bank(), seed, bases=bases)


def test_perft_long_campaign_base_choices_for_each_player_in_turn_3x4():
    game = lc()
    first, second, third = game.pick_queue
    # red chooses first: any of the 12 territories leaves room for two more bases
    # (e.g. after B2, A1 and C4 are free and apart), so all 12
    assert len(game.legal_actions()) == 12
    game.apply(Pick(first, "A1"))
    # blue: not A1 and not its neighbours A2, B1 -> 12 - 3 = 9, each leaving a third
    # territory apart from both (two closed neighbourhoods cover at most 3 + 5 < 12)
    assert [a.territory for a in game.legal_actions()] == ["A3", "A4", "B2", "B3", "B4", "C1", "C2", "C3", "C4"]
    game.apply(Pick(second, "B3"))
    # green: not in {A1, A2, B1} nor {B3, A3, B2, B4, C3} -> A4, C1, C2, C4
    assert [a.territory for a in game.legal_actions()] == ["A4", "C1", "C2", "C4"]
    game.apply(Pick(third, "C4"))
    assert game.stage == "pick"


@pytest.mark.parametrize(("depth", "count"), [(1, 12), (2, 98), (3, 504)])
def test_perft_long_campaign_bases_3x4(depth, count):
    # depth 1: 12 (above).
    # depth 2: ordered pairs of non-adjacent territories, all of which leave room
    #   for a third: 2 x (C(12, 2) - 17 edges) = 2 x 49 = 98.
    # depth 3: ordered triples of mutually non-adjacent territories. Triples
    #   with an edge: 17 edges x 10 third territories = 170, minus the 2-edge
    #   paths counted twice: sum over territories of C(degree, 2) = 4 corners x 1
    #   + 6 border cells x 3 + 2 inner cells x 6 = 34 (no triangles in a grid),
    #   so 136; independent triples 220 - 136 = 84; ordered 84 x 3! = 504.
    assert perft(lc(), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 6), (2, 12), (3, 12)])
def test_perft_long_campaign_bases_2x3_the_no_room_rule_prunes(depth, count):
    # 2x3 holds three separate bases only as {A1, A3, B2} or {B1, B3, A2}.
    # depth 1: every territory is in one of them: 6.
    # depth 2: after any first base, two choices (e.g. after A1: A3 and B2; B3
    #   borders no base but leaves no room for the third, so it is refused): 12.
    # depth 3: the last base is forced: 12 = 2 sets x 3!.
    assert perft(lc(grid_board("AB", 3)), depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 3), (2, 6), (3, 6)])
def test_perft_long_campaign_bases_on_a_line_of_5(depth, count):
    # A1-A2-A3-A4-A5: only {A1, A3, A5} works; A2 and A4 are refused for the first
    # player (after A2 only A4, A5 remain apart from it, and they border each other)
    assert perft(lc(grid_board("A", 5)), depth) == count


# ----------------------------------------------------------------------------- Long Campaign: claims (D14)


@pytest.mark.parametrize(("depth", "count"), [(1, 2), (2, 4), (3, 8)])
def test_perft_long_campaign_claims_all_answered_wrong(depth, count):
    # bases A1 (p1), A4 (p2), C1 (p3); round 1 order p1 p2 p3. A wrong claim
    # changes nothing, so the counts multiply: p1 {A2, B1} x p2 {A3, B4} x p3 {B1, C2}
    game = lc(bases=("A1", "A4", "C1"))
    assert game.pick_queue == [0, 1, 2]
    assert perft(game, depth, "wrong") == count


@pytest.mark.parametrize(("depth", "count"), [(1, 2), (2, 4), (3, 6), (4, 16)])
def test_perft_long_campaign_claims_all_answered_right(depth, count):
    # depth 2: p1 X in {A2, B1}, then p2 Y in {A3, B4}: 4.
    # depth 3: p3 from C1: {B1, C2}, minus B1 when X = B1: X=A2 -> 2 x 2, X=B1 -> 2 x 1: 6.
    # depth 4: round 2 starts with p2 (seat 1), next to {A4, Y}:
    #   X=A2, Y=A3 (Z = B1|C2): {B3, B4} (A2 is p1's)      -> 2 x 2 = 4
    #   X=A2, Y=B4 (Z = B1|C2): {A3, B3, C4}               -> 3 x 2 = 6
    #   X=B1, Y=A3 (Z = C2):    {A2, B3, B4}               -> 3
    #   X=B1, Y=B4 (Z = C2):    {A3, B3, C4}               -> 3      total 16
    game = lc(bases=("A1", "A4", "C1"))
    assert perft(game, depth, "right") == count


def test_legal_picks_after_a_claim_and_in_the_allocation():
    game = lc(bases=("A1", "A4", "C1"))
    game.apply(Pick(0, "A2"))
    answer_all(game, right={0})
    # p2's claim: free neighbours of A4
    assert [a.territory for a in game.legal_actions()] == ["A3", "B4"]
    while game.phase_name == "expansion":  # every later claim fails
        game.apply(game.legal_actions()[0])
        answer_all(game)
    assert game.phase_name == "allocation"
    # allocation: p2 wins the guess and picks 1 of its free neighbours A3, B4
    answer_guess(game, (1, 0, 2))
    assert game.pick_queue == [1]
    assert [a.territory for a in game.legal_actions()] == ["A3", "B4"]


# ----------------------------------------------------------------------------- Long Campaign: battle and rebuild (D14)


def lc_battle(seed: int = 0) -> Game:
    """The campaign position of test_rules_long_campaign (standard owners, 1600 each)."""
    game = lc(bases=("A1", "A4", "C1"), seed=seed)
    for territory in ("A2", "A3", "C2", "B4", "C3", "B1", "C4", "B2", "B3"):
        game.apply(Pick(game.pick_queue[0], territory))
        answer_all(game, right=set(game.question.players))
    assert game.battle_round == 1 and game.battle.order == (0, 1, 2)
    return game


def test_perft_long_campaign_battle_round_1_attack_counts_and_rebuild():
    game = lc_battle()
    # adjacent targets, castles included from round 1:
    # p1 {A3, B3, C1, C2}; p2 {A2, B2, C3, C4}; p3 {B1, B2, B3, B4}
    assert counts(game) == (4, 0, 0)
    # p1 knocks one tower of C1 down, then loses
    attack(game, "C1", "win", "lose")
    assert counts(game) == (4, 0, 0)
    quiet_turn(game)
    # p3: the same 4 attacks, or rebuild the 2-tower castle
    assert counts(game) == (4, 0, 1)


@pytest.mark.parametrize(("depth", "count"), [(1, 4), (2, 16), (3, 64)])
def test_perft_long_campaign_battle_failed_attacks(depth, count):
    # every attack fails at once (both wrong), so nothing changes: 4 x 4 x 4
    assert perft(lc_battle(), depth, "wrong") == count


def test_perft_long_campaign_battle_with_a_rebuild_choice():
    game = lc_battle()
    attack(game, "C1", "win", "lose")
    # p2: 4 failed attacks, each followed by p3's 4 attacks + 1 rebuild
    assert perft(game, 2, "wrong") == 4 * 5


# ----------------------------------------------------------------------------- Duel: expansion (D11)


def duel(seed: int = 0) -> Game:
    return new_game(seed, ("A1", "A4"), board=grid_board("ABC", 5), rules=DUEL)


@pytest.mark.parametrize(("depth", "count"), [(1, 2), (2, 6), (3, 17)])
def test_perft_duel_expansion_red_wins_the_first_guess(depth, count):
    # 3x5 grid, bases A1 (red) and A4 (blue); picks red, blue, red, ...
    # depth 1: red next to A1: {A2, B1}.
    # depth 2: blue next to A4: {A3, A5, B4} whatever red took: 2 x 3 = 6.
    # depth 3: red again, next to {A1, X}:
    #   X=A2: {B1, A3, B2} minus blue's pick: Y=A3 -> 2, Y=A5 -> 3, Y=B4 -> 3  (8)
    #   X=B1: {A2, B2, C1}, untouched by blue: 3 x 3                           (9)  total 17
    game = duel()
    answer_guess(game, (0, 1))
    assert game.pick_queue == [0, 1, 0, 1, 0]
    assert perft(game, depth) == count


@pytest.mark.parametrize(("depth", "count"), [(1, 3), (2, 6), (3, 23)])
def test_perft_duel_expansion_blue_wins_the_first_guess(depth, count):
    # depth 1: blue next to A4: {A3, A5, B4}; depth 2: red {A2, B1}: 3 x 2 = 6.
    # depth 3: blue again, next to {A4, Y}:
    #   Y=A3: {A2, A5, B3, B4} minus A2 when red took it: 3 + 4   (7)
    #   Y=A5: {A3, B4, B5}: 3 + 3                                  (6)
    #   Y=B4: {A3, A5, B3, B5, C4}: 5 + 5                          (10)  total 23
    game = duel()
    answer_guess(game, (1, 0))
    assert perft(game, depth) == count


# ----------------------------------------------------------------------------- Duel: battle (D11)


DUEL_EXPANSION = (
    ((1, 0), ("A5", "A2", "B4", "B1", "B5")),
    ((0, 1), ("B2", "B3", "C1", "C4", "C2")),
    ((1, 0), ("C5", "A3", "C3")),
)


def duel_battle(seed: int = 0) -> Game:
    """The Duel position of test_rules_duel::

        A1 red base  A2 red  A3 red  A4 blue base  A5 blue
        B1 red       B2 red  B3 blue B4 blue       B5 blue
        C1 red       C2 red  C3 blue C4 blue       C5 blue
    """
    game = duel(seed)
    for order, picks in DUEL_EXPANSION:
        expansion_round(game, order, picks)
    return game


def test_perft_duel_attack_counts_in_each_battle_round():
    # (round, attacker) -> (plain attacks, Magic Wings attacks), every battle failing:
    # red's neighbours: A4 (castle, from A3), B3, C3; blue's: A3, B2, C2 (red's castle
    # A1 borders nothing of blue's).
    #   round 1 (no castles):     red {B3, C3} = 2;          blue {A3, B2, C2} = 3
    #   round 2 (castles):        blue 3;                     red {A4, B3, C3} = 3
    #   round 3 (+ Magic Wings):  red 3 + {A5, B4, B5, C4, C5} = 5;
    #                             blue 3 + {A1, A2, B1, C1} = 4 (castle A1 included)
    #   round 4 (anything):       blue all 7 of red's; red all 8 of blue's; no wings
    expected = [((1, 0), (2, 0)), ((1, 1), (3, 0)), ((2, 1), (3, 0)), ((2, 0), (3, 0)),
                ((3, 0), (3, 5)), ((3, 1), (3, 4)), ((4, 1), (7, 0)), ((4, 0), (8, 0))]
    game = duel_battle()
    seen = []
    while game.stage == "attack":
        plain, wings, rebuilds = counts(game)
        assert rebuilds == 0
        seen.append(((game.battle_round, game.attacker), (plain, wings)))
        quiet_turn(game)
    assert seen == expected


def test_perft_duel_round_3_with_and_without_wings():
    game = duel_battle()
    while game.battle_round < 3:
        quiet_turn(game)
    # red 8 choices (3 plain + 5 winged) x blue 7 (3 + 4): a failed winged attack
    # spends red's wings but does not touch blue's
    assert perft(game, 1) == 8
    assert perft(game, 2) == 56
    game.apply(Attack(0, "C5", wings=True))
    answer_all(game)
    assert counts(game) == (3, 4, 0)


def test_perft_duel_round_1_attacker_wins_every_battle():
    # red takes B3 or C3 (2 choices). Then blue (round 1, no castles):
    #   after B3: red borders blue at A3 (A4), B3 (B4, C3), C2 (C3) -> 3
    #   after C3: A3 (A4, B3), B2 (B3), C3 (B3, C4) -> 3      total 6
    game = duel_battle()
    assert perft(game, 2, "right") == 6


# ----------------------------------------------------------------------------- ConQUIZtador and Dobyvatel (D12, D13)


@pytest.mark.parametrize("rules", [CONQUIZTADOR, DOBYVATEL], ids=["conquiztador", "dobyvatel"])
@pytest.mark.parametrize(("depth", "count"), [(1, 2), (2, 5), (3, 9)])
def test_perft_expansion_winner_2_second_1(rules, depth, count):
    # bases A1, A4, C1 on 3x4; p1 wins (2 picks), p2 second (1 pick):
    # p1: {A2, B1}; then after A2: {A3, B1, B2}, after B1: {A2, B2} (C1 is a base) -> 5;
    # p2 next to A4: {A3, B4}, only {B4} once p1 took A3 -> 1 + 2 + 2 + 2 + 2 = 9
    game = new_game(rules=rules)
    answer_guess(game, (0, 1, 2))
    assert game.pick_queue == [0, 0, 1]
    assert perft(game, depth) == count


def test_perft_dobyvatel_attack_counts_per_round():
    # standard position (helpers.py): round 1 p1 {A3, B3, C2}, p2 {A2, B2, C3, C4},
    # p3 {B1, B2, B3, B4}; rounds 2-3 add the neighbouring castle C1 for p1 only
    # (A1 and A4 border none of p3's, C1 and A1 none of p2's); round 4 anything:
    # the 8 territories of the two others
    game = standard_game(rules=DOBYVATEL)
    expected = {1: {0: 3, 1: 4, 2: 4}, 2: {0: 4, 1: 4, 2: 4}, 3: {0: 4, 1: 4, 2: 4}, 4: {0: 8, 1: 8, 2: 8}}
    seen: dict[int, dict[int, int]] = {}
    while game.stage == "attack":
        seen.setdefault(game.battle_round, {})[game.attacker] = counts(game)[0]
        assert counts(game)[1:] == (0, 0)
        quiet_turn(game)
    assert seen == expected


@pytest.mark.parametrize("rules", [CONQUIZTADOR, DOBYVATEL], ids=["conquiztador", "dobyvatel"])
def test_perft_battle_round_1_depth_3(rules):
    # failed attacks change nothing: 3 x 4 x 4 = 48 in any order of the three
    assert perft(standard_game(rules=rules), 3) == 48
