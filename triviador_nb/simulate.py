"""Bot-only games, headless: for the CLI, benchmarks and tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .bots import Bot, BotSkill
from .engine import Board, Game, QuestionBank, RuleSet


def play_bot_game(rules: RuleSet, board: Board, bank: QuestionBank, seed: int,
                  skills: Sequence[BotSkill | str] | None = None, max_actions: int = 10_000,
                  after_each: Callable[[Game], None] | None = None) -> Game:
    """Play one game with a bot in every seat and return the finished game.

    Args:
        skills: a skill per seat (default ``"medium"`` for all).
        max_actions: a safety limit; exceeding it raises RuntimeError, since
            every game of the built-in rule sets ends far sooner.
        after_each: called with the game after every action (tests use it
            to check the score invariant D10).
    """
    skills = list(skills) if skills is not None else ["medium"] * rules.players
    bots = [Bot(seat, skill, seed) for seat, skill in enumerate(skills)]
    game = Game(rules, board, bank, seed, names=[f"Bot {i + 1}" for i in range(rules.players)])
    while not game.is_over:
        if len(game.actions) >= max_actions:
            raise RuntimeError(f"game with seed {seed} did not end within {max_actions} actions")
        seat = game.current_players()[0]
        game.apply(bots[seat].act(game))
        if after_each is not None:
            after_each(game)
    return game


@dataclass(frozen=True)
class SimulationSummary:
    """Figures over several bot-only games (the CLI prints these as JSON)."""

    games: int
    finished: int
    wins_by_seat: list[int]
    mean_actions: float
    mean_final_scores: list[float]
    eliminations: int
    seconds: float
    games_per_second: float

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def summarise(games: Sequence[Game], seconds: float) -> SimulationSummary:
    """Summarise finished games; ``seconds`` is the wall time they took."""
    players = games[0].rules.players if games else 0
    wins = [0] * players
    for g in games:
        if g.ranking:
            wins[g.ranking[0]] += 1
    n = len(games)
    return SimulationSummary(
        games=n,
        finished=sum(g.is_over for g in games),
        wins_by_seat=wins,
        mean_actions=round(sum(len(g.actions) for g in games) / n, 2) if n else 0.0,
        mean_final_scores=[round(sum(g.score(s) for g in games) / n, 1) for s in range(players)] if n else [],
        eliminations=sum(not p.in_game for g in games for p in g.players),
        seconds=round(seconds, 3),
        games_per_second=round(n / seconds, 1) if seconds > 0 else float("inf"),
    )
