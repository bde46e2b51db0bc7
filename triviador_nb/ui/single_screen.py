"""The single-screen game: :func:`play` sets up a table - you against bots on
a real map - and the widgets that show it."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Sequence

from ..banks import resolve_bank
from ..bots import Bot
from ..classroom import Clock
from ..engine import Game, find_rule_set
from ..maps import GameMap, resolve_map
from .app import GameApp


def play(map: str | Path | GameMap = "hungary", bank: object = "general_knowledge_en",
         rules: str = "conquiztador", you: str | None = "Your team", bots: Sequence[str] | None = None,
         seed: int | None = None, pace: float = 1.0, clock: Clock | None = None) -> GameApp:
    """Start a game in the notebook: you against bots.

    Args:
        map: a built-in map name, a GeoJSON file, or a loaded map.
        bank: a built-in bank name, a CSV path (or a list of them), or a bank.
        rules: a rule set: ``"conquiztador"`` (3 players), ``"duel"`` (2),
            ``"dobyvatel"`` (3) or ``"long-campaign"`` (3).
        you: your display name (a team's name when a class plays together);
            None to watch bots play every seat.
        bots: a skill per bot seat: ``"easy"``, ``"medium"`` or ``"hard"``;
            None fills the other seats with a medium and a hard bot.
        seed: the game number; the same number replays the same draws.
            None picks one at random (shown in the title).
        pace: 1.0 for realistic bot delays, smaller for a faster game.
        clock: the table's clock; the kernel's asyncio loop by default.

    Returns:
        The :class:`GameApp`; display it (it is the cell's value).

    Raises:
        ValueError: the number of bots does not fill the rule set's seats.
    """
    rule_set = find_rule_set(rules)
    humans = 0 if you is None else 1
    if bots is None:
        bots = ("medium", "hard", "easy")[:rule_set.players - humans]
    if humans + len(bots) != rule_set.players:
        raise ValueError(f"{rule_set.title} is for {rule_set.players} players: with "
                         f"{'you' if humans else 'no human'}, give {rule_set.players - humans} bot skills, "
                         f"not {len(bots)}")
    game_map = resolve_map(map, players=rule_set.players)
    question_bank = resolve_bank(bank)
    human = 0 if you is not None else None
    skills = dict(enumerate(bots, start=humans))
    names = ([you] if you is not None else []) + [f"Bot {i} ({s})" for i, s in enumerate(bots, start=1)]

    def new_game(game_seed: int, asked_before: frozenset[str] = frozenset()) -> tuple[Game, dict[int, Bot]]:
        game = Game(rule_set, game_map.board, question_bank, game_seed, names=names, asked_before=asked_before)
        return game, {seat: Bot(seat, skill, game_seed) for seat, skill in skills.items()}

    game, seat_bots = new_game(seed if seed is not None else secrets.randbelow(1_000_000))
    return GameApp(game, game_map, human, seat_bots, clock=clock, pace=pace, new_game=new_game)
