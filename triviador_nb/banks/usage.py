"""How far a bank goes: stats of its questions, and questions asked per bot-only game (D4)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import asdict, dataclass

from triviador_nb.engine import Board, QuestionBank, RuleSet
from triviador_nb.engine.questions import difficulty_order
from triviador_nb.engine.related import fact_keys, giveaway_pairs

KINDS = ("guess", "choice")


@dataclass(frozen=True)
class BankStats:
    """Counts of a bank's questions and the range of its guess answers."""

    questions: int
    by_type: dict[str, int]
    by_category: dict[str, int]
    by_difficulty: dict[str, int]
    guess_min: int | None
    guess_median: float | None
    guess_max: int | None
    giveaway_pairs: int = 0  # questions naming another's answer (engine/related.py), keyed or not
    # give-aways no fact key covers: the bank's give-away warnings (banks/giveaways.py), which a bank
    # has when loaded by check_and_load_bank (bank check, bank stats), not by load_bank
    giveaway_pairs_unkeyed: int = 0
    fact_groups: int = 0  # fact keys shared by 2+ questions: never asked together in one game

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def bank_stats(bank: QuestionBank) -> BankStats:
    """Counts by type, category and difficulty (empty as ``"(none)"``), guess answer min/median/max,
    give-away pairs (those the game avoids by itself, and the give-away warnings: the pairs the
    author's check finds that no fact key covers) and shared fact keys."""
    questions = [*bank.guess, *bank.choice]
    answers = sorted(q.answer for q in bank.guess)
    pairs = giveaway_pairs([q.kind for q in questions], [q.text for q in questions], [str(q.answer) for q in questions])
    unkeyed = sum(1 for warning in bank.warnings if "(a give-away;" in warning)
    keys = Counter(key for q in questions for key in fact_keys(q.fact))
    return BankStats(
        questions=len(questions),
        by_type={"guess": len(bank.guess), "choice": len(bank.choice)},
        by_category=dict(sorted(Counter(q.category or "(none)" for q in questions).items())),
        by_difficulty=dict(sorted(Counter(q.difficulty or "(none)" for q in questions).items(),
                                  key=lambda item: difficulty_order(item[0]))),
        guess_min=answers[0] if answers else None,
        guess_median=statistics.median(answers) if answers else None,
        guess_max=answers[-1] if answers else None,
        giveaway_pairs=len(pairs),
        giveaway_pairs_unkeyed=unkeyed,
        fact_groups=sum(1 for n in keys.values() if n > 1),
    )


@dataclass(frozen=True)
class KindUsage:
    """Questions of one kind asked per game."""

    bank_size: int
    per_game: list[int]
    mean: float
    p95: float
    lasts_a_game: bool  # p95 <= bank size: 95% of games ask no question twice
    games_without_repeat: int  # floor(bank size / mean): whole games in a row with no repeat


@dataclass(frozen=True)
class BankUsage:
    """Questions a bank must supply, measured on bot-only games."""

    rules: str
    board: str
    games: int
    seed: int
    guess: KindUsage
    choice: KindUsage

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def percentile(values: list[int], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation (numpy's default)."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def bank_usage(rules: RuleSet, board: Board, bank: QuestionBank, games: int, seed: int = 0) -> BankUsage:
    """Play ``games`` bot-only games (seeds ``seed``..) and count the questions asked per game and kind."""
    from triviador_nb.simulate import play_bot_game

    if games < 1:
        raise ValueError("games must be at least 1")
    counts: dict[str, list[int]] = {kind: [] for kind in KINDS}
    for number in range(games):
        game = play_bot_game(rules, board, bank, seed + number)
        asked = Counter(e.data.get("kind") for e in game.events if e.kind == "question")
        for kind in KINDS:
            counts[kind].append(asked[kind])
    sizes = {"guess": len(bank.guess), "choice": len(bank.choice)}
    usage = {}
    for kind in KINDS:
        per_game = counts[kind]
        mean = sum(per_game) / games
        p95 = percentile(per_game, 95)
        usage[kind] = KindUsage(sizes[kind], per_game, round(mean, 2), round(p95, 2), p95 <= sizes[kind],
                                math.floor(sizes[kind] / mean) if mean else sizes[kind])
    return BankUsage(rules.name, board.name, games, seed, usage["guess"], usage["choice"])
