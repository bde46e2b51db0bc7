"""Rule sets as data: one frozen description per rulebook.

A rule set says how many players take part, how bases are placed, how
expansion picks are shared out, what each battle round allows and what the
points are worth. The mechanics in ``expansion.py``, ``battle.py`` and
``game.py`` read these values; a teacher may change a number (for example
``dataclasses.replace(CONQUIZTADOR, defense_bonus=50)``) without touching code.

Only ConQUIZtador (D12) is defined so far; the other rulebooks (D11, D13,
D14) become further instances of :class:`RuleSet`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class BattleOrder(str, Enum):
    """How the attack order of a battle round is decided."""

    RANDOM = "random"  # a seeded shuffle of the players still in the game
    SCORE = "score"  # highest score first, ties by seat (D12 last round)


class Targets(str, Enum):
    """Which territories an attacker may choose in a battle round."""

    ADJACENT_NO_BASES = "adjacent, no bases"  # D12 round 1
    ADJACENT = "adjacent"  # D12 round 2: adjacent bases allowed
    ANY = "any"  # D12 last round: anything may be attacked


@dataclass(frozen=True)
class BattleRound:
    """One battle round: who attacks in what order, and what they may attack."""

    order: BattleOrder
    targets: Targets


@dataclass(frozen=True)
class Timers:
    """Answer and choice time limits in seconds (D3)."""

    guess_s: float = 10.0
    choice_s: float = 15.0
    territory_s: float = 10.0


@dataclass(frozen=True)
class RuleSet:
    """A complete, immutable rule set.

    Attributes:
        name: canonical name, e.g. ``"conquiztador"``.
        title: display title, e.g. ``"ConQUIZtador"``.
        aliases: other names :func:`find_rule_set` accepts.
        players: number of players (seats 0..players-1).
        colours: a colour name per seat, in seat order.
        base_value: points a base is worth at the start (1000).
        base_towers: towers of a castle at the start (3).
        expansion_picks: picks per guess-question rank in expansion, e.g.
            ``(2, 1, 0)``: the winner picks 2, second 1, third none.
        expansion_value: points per territory taken in expansion (200).
        battle_rounds: the battle rounds in order.
        capture_value: points a taken territory gives and is worth (400, D7).
        defense_bonus: points for a defender winning by a correct
            multiple-choice answer (100, D6).
        ruined_castle_value: what a captured base is worth to its conqueror
            (1000, D9).
        tiebreak_points: points the winner of a final tie-break earns (0).
        timers: time limits (D3).
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    players: int
    colours: tuple[str, ...]
    base_value: int
    base_towers: int
    expansion_picks: tuple[int, ...]
    expansion_value: int
    battle_rounds: tuple[BattleRound, ...]
    capture_value: int
    defense_bonus: int
    ruined_castle_value: int
    tiebreak_points: int = 0
    timers: Timers = Timers()

    def __post_init__(self) -> None:
        if len(self.colours) != self.players:
            raise ValueError(f"rule set {self.name!r}: {self.players} players but {len(self.colours)} colours")
        if len(self.expansion_picks) != self.players:
            raise ValueError(f"rule set {self.name!r}: expansion_picks needs one entry per rank")
        if sum(self.expansion_picks) <= 0 or min(self.expansion_picks) < 0:
            raise ValueError(f"rule set {self.name!r}: expansion_picks must be >= 0 and give at least one pick")
        if not self.battle_rounds:
            raise ValueError(f"rule set {self.name!r}: needs at least one battle round")
        if min(self.timers.guess_s, self.timers.choice_s, self.timers.territory_s) <= 0:
            raise ValueError(f"rule set {self.name!r}: timers must be positive seconds")


CONQUIZTADOR = RuleSet(
    name="conquiztador",
    title="ConQUIZtador",
    aliases=("classic",),
    players=3,
    colours=("red", "blue", "green"),
    base_value=1000,
    base_towers=3,
    expansion_picks=(2, 1, 0),
    expansion_value=200,
    battle_rounds=(
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT_NO_BASES),
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT),
        BattleRound(BattleOrder.SCORE, Targets.ANY),
    ),
    capture_value=400,
    defense_bonus=100,
    ruined_castle_value=1000,
)
"""ConQUIZtador (conquiztador.txt, D12)."""

RULE_SETS: tuple[RuleSet, ...] = (CONQUIZTADOR,)


def find_rule_set(name: str) -> RuleSet:
    """Look a rule set up by its name or an alias, case-insensitively.

    Raises:
        ValueError: for an unknown name; the message lists the known names.
    """
    key = name.strip().lower()
    for rules in RULE_SETS:
        if key == rules.name or key in rules.aliases:
            return rules
    known = ", ".join(sorted(n for r in RULE_SETS for n in (r.name, *r.aliases)))
    raise ValueError(f"unknown rule set {name!r}; known rule sets: {known}")
