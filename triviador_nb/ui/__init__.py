"""The notebook UI: :func:`play` starts a game against bots on a real map."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Sequence

from ..banks import load_bank, load_builtin_bank
from ..bots import Bot
from ..engine import Game, QuestionBank, find_rule_set
from ..maps import GameMap, load_builtin_map, load_map
from .app import GameApp
from .scheduler import LoopScheduler, ManualScheduler, Scheduler

__all__ = ["play", "setup", "GameApp", "GameSetup", "LoopScheduler", "ManualScheduler", "resolve_bank",
           "resolve_map"]


def resolve_bank(bank: str | Path | Sequence[str | Path] | QuestionBank) -> QuestionBank:
    """A question bank from a built-in name, a CSV path, several paths, or a bank.

    Raises:
        BankError: a CSV file has errors (every one is listed).
        FileNotFoundError: a CSV path that does not exist (says where relative paths start).
        ValueError: an unknown built-in name (the known ones are listed).
    """
    if isinstance(bank, QuestionBank):
        return bank
    if isinstance(bank, str) and not bank.strip():
        raise ValueError("no question bank given: a built-in name (e.g. general_knowledge_en) or a file")
    if not isinstance(bank, (list, tuple)) and Path(bank).suffix == "" and not Path(bank).exists():
        return load_builtin_bank(str(bank))
    paths = list(bank) if isinstance(bank, (list, tuple)) else [bank]
    if not paths:
        raise ValueError("no question bank files given")
    missing = [str(p) for p in paths if not Path(p).is_file()]
    if missing:
        raise FileNotFoundError(f"no question bank file {', '.join(missing)} (relative paths start in "
                                f"{Path.cwd()}); give the full path, or e.g. '../question_banks/NAME.csv' "
                                "from the notebooks folder")
    return load_bank(paths if len(paths) > 1 else paths[0])


def resolve_map(game_map: str | Path | GameMap, players: int = 3) -> GameMap:
    """A map from a built-in name (e.g. ``"hungary"``), a GeoJSON path, or a map.

    Args:
        players: the rule set's player count; a teacher's own map must hold
            that many non-adjacent bases (D15).

    Raises:
        MapError: the file breaks the format or the rules (every problem listed).
        OSError: the file cannot be read.
        ValueError: an unknown built-in name (the known ones are listed).
    """
    if isinstance(game_map, GameMap):
        return game_map
    if str(game_map).endswith(".geojson") or Path(game_map).exists():
        return load_map(game_map, players=players)
    return load_builtin_map(str(game_map))


def play(map: str | Path | GameMap = "hungary", bank: object = "general_knowledge_en",
         rules: str = "conquiztador", you: str | None = "Your team", bots: Sequence[str] | None = None,
         seed: int | None = None, pace: float = 1.0, scheduler: Scheduler | None = None) -> GameApp:
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
        scheduler: the clock; the kernel's asyncio loop by default.

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

    def new_game(game_seed: int) -> tuple[Game, dict[int, Bot]]:
        game = Game(rule_set, game_map.board, question_bank, game_seed, names=names)
        return game, {seat: Bot(seat, skill, game_seed) for seat, skill in skills.items()}

    game, seat_bots = new_game(seed if seed is not None else secrets.randbelow(1_000_000))
    return GameApp(game, game_map, human, seat_bots, scheduler=scheduler, pace=pace, new_game=new_game)


from .setup import GameSetup, setup  # noqa: E402 - the form builds on play()
