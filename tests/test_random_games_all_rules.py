"""Random games for every rule set on Hungary's 19- and 15-territory maps.

Bot games and fuzzed random play (random legal choices that favour castles,
Magic Wings and rebuilds, random right/wrong/silent answers, territory
timeouts). A *referee* re-derives from the rulebooks, before every action,
what the player may do, and after every action checks the score invariant
(D10), the turn order of each round, Magic Wings, pick sequences, captures,
tie-breaks and Dobyvatel's win kinds. Every game must end, and the same seed
must give the same game (also when replayed from the actions' text forms).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from itertools import combinations

import pytest
from fixture_data import synthetic_bank
from helpers import random_answer

from triviador_nb.engine import (
    RULE_SETS,
    Attack,
    BattleOrder,
    ClaimExpansion,
    Game,
    GuessExpansion,
    Phase,
    Rebuild,
    Targets,
    Timeout,
    WinKinds,
)
from triviador_nb.simulate import play_bot_game

MAX_ACTIONS = 1500
RULES = {r.name: r for r in RULE_SETS}
BOARD_NAMES = ("hungary", "hungary15")
BOT_SEEDS = range(30)
FUZZ_SEEDS = range(60)


@functools.cache
def board(name: str):
    from triviador_nb.maps import load_builtin_map

    return load_builtin_map(name).board


# ----------------------------------------------------------------------------- the referee


def in_game_at(game: Game, event_index: int) -> list[int]:
    """Seats still in the game when event ``event_index`` happened."""
    return [p.seat for p in game.players if p.eliminated_in is None or p.eliminated_in > event_index]


def adjacent_first(game: Game, seat: int) -> list[str]:
    free = [t for t in game.board.territories if game.territories[t].owner is None]
    own = {t for t, s in game.territories.items() if s.owner == seat}
    near = [t for t in free if game.board.adjacency[t] & own]
    return near or free


def targets(game: Game, seat: int) -> tuple[list[str], list[str]]:
    """(attackable without wings, only with wings) from the round's clause."""
    spec = game.rules.battle_rounds[game.battle.round]
    own = {t for t, s in game.territories.items() if s.owner == seat}
    enemy = [t for t in game.board.territories
             if game.territories[t].owner not in (None, seat) and game.players[game.territories[t].owner].in_game]
    if spec.targets is Targets.ANY:
        plain = enemy
    else:
        plain = [t for t in enemy if game.board.adjacency[t] & own
                 and not (spec.targets is Targets.ADJACENT_NO_BASES and game.territories[t].is_base)]
    winged = [t for t in enemy if t not in plain] if spec.magic_wings and seat not in game.battle.wings_used else []
    return plain, winged


def may_rebuild(game: Game, seat: int) -> bool:
    return game.rules.rebuild and any(s.base_of == seat and s.owner == seat and s.towers in (1, 2)
                                      for s in game.territories.values())


def choosable_bases(game: Game) -> list[str]:
    """D14/D15: not a base, bordering none, and leaving room for the later choosers."""
    chosen = [t for t, s in game.territories.items() if s.is_base]
    later = len(game.pick_queue) - 1
    b = game.board

    def apart(ts):
        return all(not b.borders(x, y) for x, y in combinations(ts, 2))

    out = []
    for t in b.territories:
        if t in chosen or any(b.borders(t, c) for c in chosen):
            continue
        rest = [u for u in b.territories if u != t and u not in chosen
                and not any(b.borders(u, c) for c in [*chosen, t])]
        if later == 0 or any(apart(c) for c in combinations(rest, later)):
            out.append(t)
    return out


# D14 (revised), long_campaign.txt: "the order of play is different for every round" - rounds 1-6
D14_ORDERS = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]


class Referee:
    """Checks a game against the rulebooks; call it before the first action and
    after every action."""

    def __init__(self) -> None:
        self.seen = 0
        self.battle_round = 0
        self.attacks: Counter = Counter()
        self.wings: set[int] = set()
        self.tiebreak = False

    def __call__(self, game: Game) -> None:
        self.state(game)
        for event in game.events[self.seen:]:
            self.event(game, event)
        self.seen = len(game.events)
        if game.is_over:
            self.finished(game)
        else:
            self.options(game)

    def state(self, game: Game) -> None:
        r = game.rules
        assert game.score_invariant_problems() == [], game.score_invariant_problems()
        values = {r.base_value, r.capture_value, r.ruined_castle_value, r.ruin_taken_value,
                  *(p.value for p in r.expansion)}
        for t, s in game.territories.items():
            assert 0 <= s.towers <= r.base_towers
            if s.towers:
                assert s.owner == s.base_of, f"{t}: a standing castle is held by its builder"
            if s.owner is None:
                assert game.phase in (Phase.BASES, Phase.EXPANSION) and s.value == 0 and not s.is_base
            else:
                assert game.players[s.owner].in_game and s.value in values
        bases = [s for s in game.territories.values() if s.is_base]
        assert len(bases) == r.players or game.phase is Phase.BASES
        for p in game.players:
            if not p.in_game:
                assert (game.score(p.seat), p.bonuses, p.awards) == (0, 0, 0)
        assert any(p.in_game for p in game.players)

    def options(self, game: Game) -> None:
        """What the awaited player may do, derived from the rules."""
        stage = game.stage
        if stage == "answer":
            return
        seat = game.current_players()[0]
        if stage == "base":
            assert game.legal_picks(seat) == choosable_bases(game)
        elif stage == "pick":
            assert game.legal_picks(seat) == adjacent_first(game, seat)
        else:
            plain, winged = targets(game, seat)
            assert game.legal_targets(seat) == plain
            assert game.wings_targets(seat) == winged
            assert game.can_rebuild(seat) == may_rebuild(game, seat)
            assert plain or winged or may_rebuild(game, seat), "a player with nothing to do is skipped"

    def event(self, game: Game, e) -> None:
        r = game.rules
        n = len(game.players)
        alive = in_game_at(game, e.index)
        if e.kind == "round" and "targets" in e.data:  # a battle round starts
            self.battle_round = e.data["round"]
            self.attacks = Counter()
            spec = r.battle_rounds[self.battle_round - 1]
            order = e.data["order"]
            if spec.order is BattleOrder.FIXED:
                assert order == [s for s in spec.fixed_order if s in alive]
            elif spec.order is BattleOrder.ROTATING:
                k = self.battle_round - 1
                assert order == [(k + i) % n for i in range(n) if (k + i) % n in alive]
            elif spec.order is BattleOrder.RANDOM:
                assert sorted(order) == alive
            else:  # SCORE: scores have not changed since the round began
                assert order == sorted(alive, key=lambda s: (-game.score(s), s))
        elif e.kind == "round":  # a claim round (D14, revised): a different order in each of the 6 rounds
            k = e.data["round"] - 1
            assert isinstance(game.rules.expansion[0], ClaimExpansion) and k < game.rules.expansion[0].rounds
            assert e.data["order"] == D14_ORDERS[k]
        elif e.kind == "attack":
            seat = e.data["seat"]
            self.attacks[seat] += 1
            assert self.attacks[seat] == 1, "one attack per player per round"
            if e.data["wings"]:
                assert r.battle_rounds[self.battle_round - 1].magic_wings and seat not in self.wings
                self.wings.add(seat)
        elif e.kind == "answers" and e.data["purpose"] == "expansion" and e.index == len(game.events) - 1:
            # the guess has just been answered: the picks follow the phase's pick sequence
            spec = game.expansion_phase
            assert isinstance(spec, GuessExpansion)
            seq = spec.sequence(game.expansion_round - 1, len(game.board))
            free = sum(s.owner is None for s in game.territories.values())
            answered = {a["seat"] for a in e.data["answers"] if a["given"] is not None}
            # D1 (revised): picks go to answerers only; a silent player's pick is not made
            assert game.pick_queue == [s for s in (e.data["order"][rank] for rank in seq) if s in answered][:free]
        elif e.kind == "capture":
            following = [x.kind for x in game.events[e.index + 1:e.index + 3]]
            if r.elimination_award:
                assert following[:1] == ["award"] and game.events[e.index + 1].data["points"] == r.elimination_award
            else:
                assert "award" not in following[:1]
            if r.capture_ends_game:
                assert game.is_over and following[-1] == "ranking"
        elif e.kind == "phase" and e.data.get("phase") == "tiebreak":
            self.tiebreak = True
            tied = e.data["seats"]
            assert len({game.score(s) for s in tied}) == 1
            if r.tiebreak_first_only:
                top = max(game.score(s) for s in alive)
                assert game.score(tied[0]) == top

    def finished(self, game: Game) -> None:
        r = game.rules
        assert game.current_players() == () and game.legal_actions() == []
        assert sorted(game.ranking) == list(range(r.players))
        alive = [s for s in game.ranking if game.players[s].in_game]
        assert tuple(alive) == game.ranking[:len(alive)]
        points = [game.score(s) for s in alive]
        assert points == sorted(points, reverse=True)
        if not self.tiebreak:
            if r.tiebreak_first_only:
                assert points.count(points[0]) == 1
            else:
                assert len(set(points)) == len(points)
        assert game.events[-1].kind == "ranking"
        assert all(s.owner is not None for s in game.territories.values())
        if r.win_kinds:
            winner = game.ranking[0]
            if all(s.owner == winner for s in game.territories.values()):
                kind = WinKinds.WHOLE_MAP
            elif game.score(winner) >= sum(game.score(p.seat) for p in game.players if p.seat != winner):
                kind = WinKinds.GREAT
            else:
                kind = WinKinds.NARROW
            assert game.win_kind is kind
        else:
            assert game.win_kind is None


# ----------------------------------------------------------------------------- players


def fuzz_action(game: Game, rng: random.Random):
    """A random action: castles, Magic Wings and rebuilds half the time when
    possible, a territory timeout now and then; answers right 70 %, silent 5 %."""
    seat = game.current_players()[0]
    if game.stage != "answer":
        if rng.random() < 0.1:
            return Timeout(seat)
        legal = game.legal_actions()
        special = [a for a in legal if isinstance(a, Rebuild) or getattr(a, "wings", False)
                   or (isinstance(a, Attack) and game.territories[a.territory].is_base)]
        return rng.choice(special if special and rng.random() < 0.5 else legal)
    return random_answer(game, seat, rng)


def play_fuzzed(rules, board_obj, seed: int, bank=None) -> Game:
    rng = random.Random(f"fuzz:{seed}")
    game = Game(rules, board_obj, bank or synthetic_bank(), seed)
    referee = Referee()
    referee(game)
    while not game.is_over:
        assert len(game.actions) < MAX_ACTIONS, f"seed {seed}: the game does not end"
        game.apply(fuzz_action(game, rng))
        referee(game)
    return game


def play_bots(rules, board_obj, seed: int, skills=None) -> Game:
    referee = Referee()
    return play_bot_game(rules, board_obj, synthetic_bank(), seed, skills=skills,
                         max_actions=MAX_ACTIONS, after_each=referee)


# ----------------------------------------------------------------------------- tests


@pytest.mark.parametrize("board_name", BOARD_NAMES)
@pytest.mark.parametrize("rules_name", RULES)
def test_d10_bot_games_of_every_rule_set_follow_the_rules_and_end(rules_name, board_name):
    skills = ["easy", "medium", "hard"]
    for seed in BOT_SEEDS:
        game = play_bots(RULES[rules_name], board(board_name), seed,
                         skills=[skills[(seed + i) % 3] for i in range(RULES[rules_name].players)])
        assert game.is_over


@functools.cache
def fuzzed_game(rules_name: str, board_name: str, seed: int) -> Game:
    """A refereed fuzzed game (cached: the coverage test reads the same games);
    a small bank now and then, so decks run out and reshuffle (D4)."""
    bank = synthetic_bank(4, 8) if seed % 5 == 0 else None
    return play_fuzzed(RULES[rules_name], board(board_name), seed, bank)


@pytest.mark.parametrize("board_name", BOARD_NAMES)
@pytest.mark.parametrize("rules_name", RULES)
def test_d10_fuzzed_games_of_every_rule_set_follow_the_rules_and_end(rules_name, board_name):
    for seed in FUZZ_SEEDS:
        assert fuzzed_game(rules_name, board_name, seed).is_over


@pytest.mark.parametrize("board_name", BOARD_NAMES)
@pytest.mark.parametrize("rules_name", RULES)
def test_same_seed_same_game_for_every_rule_set(rules_name, board_name):
    rules, b = RULES[rules_name], board(board_name)
    for seed in (1, 7, 42):
        first, second = play_bots(rules, b, seed), play_bots(rules, b, seed)
        assert first.actions == second.actions and first.events == second.events
        again = Game.replay(rules, b, synthetic_bank(), seed, [str(a) for a in first.actions],
                            names=[p.name for p in first.players])
        assert again.events == first.events and again.ranking == first.ranking
        assert again.colours == first.colours
        fuzzed = play_fuzzed(rules, b, seed)
        assert play_fuzzed(rules, b, seed).events == fuzzed.events
    games = [play_bots(rules, b, seed) for seed in range(4)]
    assert len({tuple(map(str, g.actions)) for g in games}) == 4  # different seeds, different games


def features(game: Game) -> set[str]:
    found = set()
    for e in game.events:
        if e.kind in ("capture", "tower", "take", "defend", "skip", "timeout", "warning", "award"):
            found.add(e.kind)
        if e.kind == "attack" and e.data["wings"]:
            found.add("wings")
        if e.kind == "take" and e.data["lost"] == game.rules.ruined_castle_value and \
                game.territories[e.data["territory"]].is_base:
            found.add("ruin taken")
        if e.code == "rebuild.done":
            found.add("rebuilt")
        if e.kind == "phase" and e.data.get("phase") == "tiebreak":
            found.add("tie-break")
        if e.kind == "pick" and e.data.get("points") == 300:
            found.add("allocation")
    if game.win_kind is not None:
        found.add(game.win_kind.value)
    return found


COMMON_PATHS = {"capture", "tower", "take", "defend", "timeout", "warning", "tie-break"}
EXPECTED_PATHS = {
    "duel": COMMON_PATHS | {"wings"},
    "conquiztador": COMMON_PATHS | {"ruin taken"},
    "dobyvatel": COMMON_PATHS | {"ruin taken", "award", "whole_map", "great", "narrow"},
    "long-campaign": COMMON_PATHS | {"award", "rebuilt", "allocation", "ruin taken"},
}


@pytest.mark.parametrize("rules_name", RULES)
def test_fuzzed_play_reaches_each_rule_sets_special_rules(rules_name):
    """The referee's checks are worth as much as the positions they visit."""
    seen: set[str] = set()
    for board_name in BOARD_NAMES:
        for seed in FUZZ_SEEDS:
            seen |= features(fuzzed_game(rules_name, board_name, seed))
    assert EXPECTED_PATHS[rules_name] <= seen, EXPECTED_PATHS[rules_name] - seen
