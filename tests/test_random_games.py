"""Random games on the grid board and the built-in Hungary map.

Bot games and fuzzed random play (territory timeouts, refused actions, tiny
banks that force reshuffles): the score invariant (D10) and structural facts
hold after every action, every game ends, a refused action changes nothing,
and the same seed gives the same actions and events."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from fixture_data import grid_board, synthetic_bank
from helpers import random_answer, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triviador_nb.engine import (
    CONQUIZTADOR,
    ChoiceAnswer,
    Game,
    GuessAnswer,
    IllegalActionError,
    Phase,
    Pick,
    Timeout,
)
from triviador_nb.simulate import play_bot_game

REPO = Path(__file__).resolve().parents[1]
MAX_ACTIONS = 2000

seeds = st.integers(min_value=0, max_value=2**32 - 1)
skills = st.lists(st.sampled_from(["easy", "medium", "hard"]), min_size=3, max_size=3)
SETTINGS = settings(max_examples=200, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _load_hungary():
    from triviador_nb.maps import load_builtin_map

    return load_builtin_map("hungary").board


def hungary_board():
    if not (REPO / "maps" / "hungary.geojson").exists():
        pytest.skip("maps/hungary.geojson is not built yet")
    try:
        return _load_hungary()
    except ImportError as exc:
        pytest.skip(f"triviador_nb.maps is not available: {exc}")


BOARDS = {"grid": grid_board, "hungary": hungary_board}


def check_state(game: Game) -> None:
    """D10 plus the structural facts every position must satisfy."""
    assert game.score_invariant_problems() == [], game.score_invariant_problems()
    for t, s in game.territories.items():
        assert 0 <= s.towers <= game.rules.base_towers
        if s.towers:
            assert s.owner == s.base_of, f"{t}: a castle with towers is held by its builder"
        if s.owner is None:
            assert game.phase is Phase.EXPANSION and s.value == 0
        else:
            assert game.players[s.owner].in_game, f"{t} is held by an eliminated player"
            assert s.value in (200, 400, 1000)
    for p in game.players:
        if not p.in_game:
            assert (game.score(p.seat), p.bonuses, p.awards) == (0, 0, 0)
    assert sum(s.is_base for s in game.territories.values()) == 3
    if game.phase is Phase.EXPANSION and game.pick_queue:
        assert len(game.pick_queue) <= 3


def check_finished(game: Game) -> None:
    assert game.is_over and game.current_players() == () and game.legal_actions() == []
    assert sorted(game.ranking) == [0, 1, 2]
    in_game = [s for s in game.ranking if game.players[s].in_game]
    assert tuple(in_game) == game.ranking[:len(in_game)]
    assert [game.score(s) for s in in_game] == sorted((game.score(s) for s in in_game), reverse=True)
    assert game.events[-1].kind == "ranking"
    assert all(s.owner is not None for s in game.territories.values())
    check_no_repeats(game)


def check_no_repeats(game: Game) -> None:
    """D4: within one pass through a deck no question is asked twice."""
    seen: dict[str, set[str]] = {"guess": set(), "choice": set()}
    for e in game.events:
        if e.kind == "warning" and e.data.get("kind") in seen:
            seen[e.data["kind"]] = set()
        elif e.kind == "question":
            kind = e.data["kind"]
            assert e.data["question"] not in seen[kind]
            seen[kind].add(e.data["question"])


def play(board, seed, skill_names, bank=None):
    return play_bot_game(CONQUIZTADOR, board, bank or synthetic_bank(), seed, skills=skill_names,
                         max_actions=MAX_ACTIONS, after_each=check_state)


@pytest.mark.parametrize("board_name", BOARDS)
@SETTINGS
@given(seed=seeds, skill_names=skills, guesses=st.integers(1, 30), choices=st.integers(1, 60))
def test_d10_random_bot_games_keep_the_score_invariant_and_end(board_name, seed, skill_names, guesses, choices):
    board = BOARDS[board_name]()
    game = play(board, seed, skill_names, synthetic_bank(guesses, choices))
    check_finished(game)


@pytest.mark.parametrize("board_name", BOARDS)
@settings(max_examples=40, deadline=None, database=None)
@given(seed=seeds, skill_names=skills)
def test_same_seed_same_actions_and_events(board_name, seed, skill_names):
    board = BOARDS[board_name]()
    a = play(board, seed, skill_names)
    b = play(board, seed, skill_names)
    assert a.actions == b.actions
    assert a.events == b.events
    again = Game.replay(CONQUIZTADOR, board, synthetic_bank(), seed, [str(x) for x in a.actions],
                        names=[p.name for p in a.players])
    assert again.events == a.events and again.ranking == a.ranking


def test_different_seeds_give_different_games():
    board = grid_board()
    games = [play(board, seed, ["medium"] * 3) for seed in range(8)]
    assert len({tuple(map(str, g.actions)) for g in games}) == 8


def test_hungary_bases_never_adjacent():
    board = hungary_board()
    for seed in range(30):
        game = Game(CONQUIZTADOR, board, synthetic_bank(), seed)
        bases = [t for t, s in game.territories.items() if s.is_base]
        assert len(bases) == 3
        assert not any(board.borders(a, b) for a in bases for b in bases if a != b)


def random_action(game: Game, rng: random.Random):
    """A random legal pick or attack (castles and ruins half the time when
    one is in reach, to visit captures often); answers right or wrong at random."""
    seat = game.current_players()[0]
    if game.stage != "answer":
        legal = game.legal_actions()
        castles = [a for a in legal if game.stage == "attack" and game.territories[a.territory].is_base]
        return rng.choice(castles if castles and rng.random() < 0.5 else legal)
    return random_answer(game, seat, rng)


def play_fuzzed(board, seed: int, bank, check_refusals: bool = True) -> tuple[Game, int]:
    """Random play with territory timeouts (D3) and, when ``check_refusals``,
    actions the rules refuse, each checked to leave the game unchanged."""
    rng = random.Random(seed)
    game = Game(CONQUIZTADOR, board, bank, seed)
    refused = 0
    while not game.is_over:
        assert len(game.actions) < MAX_ACTIONS
        seat = game.current_players()[0]
        roll = rng.random()
        if check_refusals and roll < 0.08:
            bad = _bad_action(game, rng)
            before = snapshot(game)
            with pytest.raises(IllegalActionError):
                game.apply(bad)
            assert snapshot(game) == before
            refused += 1
            continue
        if roll < 0.2 and game.stage in ("pick", "attack"):
            legal = game.legal_picks(seat) if game.stage == "pick" else game.legal_targets(seat)
            events = game.apply(Timeout(seat))
            assert events[0].kind == "timeout" and events[0].data["territory"] in legal
        else:
            game.apply(random_action(game, rng))
        check_state(game)
    check_finished(game)
    return game, refused


@pytest.mark.parametrize("board_name", BOARDS)
@settings(max_examples=100, deadline=None, database=None)
@given(seed=seeds, guesses=st.integers(1, 30), choices=st.integers(1, 60))
def test_fuzzed_games_timeouts_and_refused_actions_change_nothing(board_name, seed, guesses, choices):
    """Random play on small and large banks; sometimes a territory timer runs
    out (D3), sometimes someone tries an action the rules refuse."""
    play_fuzzed(BOARDS[board_name](), seed, synthetic_bank(guesses, choices))


@pytest.mark.parametrize("board_name", BOARDS)
def test_random_play_reaches_every_rule_path(board_name):
    """The invariant checks above are only worth as much as the positions they
    visit: over 150 seeds random play reaches captures, ruined castles taken
    back, double eliminations, tie-breaks and deck reshuffles (D4)."""
    board = BOARDS[board_name]()
    seen = set()
    for seed in range(150):
        game, _ = play_fuzzed(board, seed, synthetic_bank(5, 10), check_refusals=False)
        for e in game.events:
            seen.add(e.kind)
            if e.kind == "take" and e.data["lost"] == 1000:
                seen.add("ruin taken")
            if e.kind == "phase" and e.data.get("phase") == "tiebreak":
                seen.add("tie-break")
        if sum(p.in_game for p in game.players) == 1:
            seen.add("one player left")
    assert {"capture", "tower", "take", "defend", "warning", "tie-break", "ruin taken"} <= seen, seen
    if board_name == "grid":
        assert "one player left" in seen


def _bad_action(game: Game, rng: random.Random):
    stage = game.stage
    waiting = game.current_players()
    idle = [s for s in range(3) if s not in waiting]
    if stage == "answer":
        seat = waiting[0]
        if game.question.is_guess:
            return rng.choice([GuessAnswer(seat, -1), GuessAnswer(seat, 1, 10_001), ChoiceAnswer(seat, 0)])
        return rng.choice([ChoiceAnswer(seat, 0, 15_001), GuessAnswer(seat, 3),
                           ChoiceAnswer(idle[0], 0) if idle else ChoiceAnswer(seat, 0, -1)])
    seat = waiting[0]
    own = next(t for t, s in game.territories.items() if s.owner == seat)
    options = [Pick(seat, own) if stage == "pick" else Timeout(idle[0]), Timeout(idle[0]),
               GuessAnswer(seat, 5)]
    return rng.choice(options)
