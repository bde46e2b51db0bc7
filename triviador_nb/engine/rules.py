"""Rule sets as data: one frozen description per rulebook.

A rule set says how many players take part, how bases are placed, how the
free territories are shared out (the expansion phases), what each battle
round allows, what the points are worth and how the game ends. The
mechanics in ``expansion.py``, ``battle.py``, ``ending.py`` and ``game.py``
read these values; a teacher may change a number (for example
``dataclasses.replace(CONQUIZTADOR, defense_bonus=50)``) without touching
code.

The four rule sets: :data:`DUEL` (duel.txt, D11), :data:`CONQUIZTADOR`
(conquiztador.txt, D12), :data:`DOBYVATEL` (dobyvatel_cs.txt, D13) and
:data:`LONG_CAMPAIGN` (long_campaign.txt, D14).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Mapping

from .plain import from_plain, to_plain


class BattleOrder(str, Enum):
    """How the attack order of a battle round is decided."""

    RANDOM = "random"  # a seeded shuffle of the players still in the game (D12 rounds 1-2)
    SCORE = "score"  # highest score first, ties by seat (D12 last round)
    FIXED = "fixed"  # the round's ``fixed_order`` of seats (Duel: R B, B R, ...)
    ROTATING = "rotating"  # round k starts with seat k mod players (D14)


class Targets(str, Enum):
    """Which territories an attacker may choose in a battle round."""

    ADJACENT_NO_BASES = "adjacent_no_bases"  # D12 round 1
    ADJACENT = "adjacent"  # D12 round 2: neighbouring castles allowed
    ANY = "any"  # D12 last round


class BasePlacement(str, Enum):
    """How bases are placed."""

    DRAW = "draw"  # drawn at random, never adjacent (D11-D13)
    CHOOSE = "choose"  # chosen by the players in colour order red, blue, green (D14)


@dataclass(frozen=True)
class BattleRound:
    """One battle round.

    Attributes:
        order: how the attack order is decided.
        targets: what may be attacked.
        fixed_order: for ``BattleOrder.FIXED``, the attacking seats in order
            (a seat may appear more than once).
        magic_wings: each player may use their single Magic Wings in this
            round to attack one territory or castle that does not border
            them (D11, Duel round 3).
    """

    order: BattleOrder
    targets: Targets
    fixed_order: tuple[int, ...] = ()
    magic_wings: bool = False


@dataclass(frozen=True)
class GuessExpansion:
    """Expansion by guess questions: after each question players pick free
    territories in the order of a *pick sequence* of ranks.

    Attributes:
        name: the phase's name on screen (``"expansion"``, ``"allocation"``).
        value: points per territory taken.
        sequences: pick sequences, one per round, as ranks (0 = the winner,
            1 = second place); the last one repeats until no territory is
            free. ConQUIZtador: ``((0, 0, 1),)`` - winner picks 2, second 1.
        by_territories: pick sequences by the number of territories on the
            map, for rulebooks with a table per map size (Duel: 15 and 19);
            a map of another size uses the table of the nearest size.
        rounds: at most this many guess questions, then the phase ends
            even if territories are free (None = until none is free).
    """

    name: str
    value: int
    sequences: tuple[tuple[int, ...], ...] = ((0, 0, 1),)
    by_territories: Mapping[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    rounds: int | None = None

    def sequence(self, round_index: int, territory_count: int) -> tuple[int, ...]:
        """The pick sequence of 0-based guess round ``round_index``."""
        table = self.sequences
        if self.by_territories:
            nearest = min(self.by_territories, key=lambda n: (abs(n - territory_count), n))
            table = self.by_territories[nearest]
        return table[min(round_index, len(table) - 1)]


@dataclass(frozen=True)
class ClaimExpansion:
    """Expansion by claims (D14): in each round every player in turn picks a
    free territory and answers a multiple-choice question alone; right = the
    territory is theirs, wrong = it stays free. Round k starts with seat
    k mod players.

    Attributes:
        name: the phase's name on screen.
        value: points per territory claimed.
        rounds: number of rounds (the phase also ends when none is free).
        orders: the claiming order of each round (round k uses
            ``orders[k % len(orders)]``); empty: round k starts with seat k
            and goes round the table.
    """

    name: str
    value: int
    rounds: int
    orders: tuple[tuple[int, ...], ...] = ()


ExpansionPhase = GuessExpansion | ClaimExpansion


class WinKinds(str, Enum):
    """Dobyvatel's kinds of victory (D13)."""

    WHOLE_MAP = "whole_map"  # the winner owns every territory
    GREAT = "great"  # the winner's score >= the sum of the others'
    NARROW = "narrow"  # any other win


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
        colours: colour names; seat i plays ``colours[i]`` unless
            ``shuffle_colours`` deals them at random.
        shuffle_colours: colours are assigned at random (D14).
        base_placement: bases drawn at random or chosen in colour order.
        base_value: points a base is worth at the start (1000).
        base_towers: towers of a castle at the start (3).
        expansion: the phases that share out the free territories, in order.
        battle_rounds: the battle rounds in order.
        capture_value: points a taken territory gives and is worth (400, D7).
        defense_bonus: points for a defender winning by a correct
            multiple-choice answer (100, D6).
        ruined_castle_value: what a captured base is worth to its conqueror
            (1000, D9).
        ruin_taken_value: what a ruined castle gives its next taker and is
            worth after (ConQUIZtador 400, Long Campaign 1000; D9).
        capture_ends_game: a captured base ends the game at once (Duel, D9).
        elimination_award: points for eliminating a player (Long Campaign 1000).
        rebuild: a player may rebuild their castle instead of attacking (D14).
        tiebreak_first_only: only a tie for first place is decided by a guess
            question (D13); otherwise every tie is (D11, D12, D14).
        tiebreak_points: points the winner of the final tie-break earns (D13: 10).
        tiebreak_questions: None: one tie-break question, whose silent
            players rank last in seat order (D1). A number (D13: 3): only an
            answerer wins a tie-break; when nobody answers, another question
            is asked, at most this many in all, and then the tied players
            share the place and nobody earns ``tiebreak_points``.
        win_kinds: the result names Dobyvatel's kind of victory (D13).
        timers: time limits (D3).

    Raises:
        ValueError: settings that could not make a game that ends.
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    players: int
    colours: tuple[str, ...]
    base_value: int
    base_towers: int
    expansion: tuple[ExpansionPhase, ...]
    battle_rounds: tuple[BattleRound, ...]
    capture_value: int
    defense_bonus: int
    ruined_castle_value: int
    ruin_taken_value: int
    shuffle_colours: bool = False
    base_placement: BasePlacement = BasePlacement.DRAW
    capture_ends_game: bool = False
    elimination_award: int = 0
    rebuild: bool = False
    tiebreak_first_only: bool = False
    tiebreak_points: int = 0
    tiebreak_questions: int | None = None
    win_kinds: bool = False
    timers: Timers = Timers()

    def __post_init__(self) -> None:
        problems = []
        if len(self.colours) != self.players:
            problems.append(f"{self.players} players but {len(self.colours)} colours")
        if not self.expansion:
            problems.append("needs at least one expansion phase")
        for phase in self.expansion:
            if isinstance(phase, GuessExpansion):
                tables = [phase.sequences, *phase.by_territories.values()]
                if any(not table or any(not seq for seq in table) for table in tables):
                    problems.append(f"{phase.name}: every pick sequence needs at least one pick")
                if any(r < 0 or r >= self.players for table in tables for seq in table for r in seq):
                    problems.append(f"{phase.name}: pick sequences name ranks 0..{self.players - 1}")
            if isinstance(phase, ClaimExpansion) and any(sorted(o) != list(range(self.players))
                                                         for o in phase.orders):
                problems.append(f"{phase.name}: each claiming order names every seat 0..{self.players - 1} once")
        if not self.battle_rounds:
            problems.append("needs at least one battle round")
        for i, spec in enumerate(self.battle_rounds, start=1):
            if spec.order is BattleOrder.FIXED and not spec.fixed_order:
                problems.append(f"battle round {i}: a fixed order needs its seats")
            if any(s < 0 or s >= self.players for s in spec.fixed_order):
                problems.append(f"battle round {i}: fixed order names seats 0..{self.players - 1}")
        if self.tiebreak_questions is not None and (type(self.tiebreak_questions) is not int
                                                    or self.tiebreak_questions < 1):
            problems.append("tiebreak_questions must be a whole number >= 1 (or None)")
        if min(self.timers.guess_s, self.timers.choice_s, self.timers.territory_s) <= 0:
            problems.append("timers must be positive seconds")
        if problems:
            raise ValueError(f"rule set {self.name!r}: " + "; ".join(problems))

    def to_dict(self) -> dict:
        """The rule set as plain data (JSON-clean; enums as their identifiers),
        for a saved game's header."""
        return to_plain(self)

    @classmethod
    def from_dict(cls, data: Mapping) -> "RuleSet":
        """The rule set :meth:`to_dict` gave ``data`` for (equal to it).

        Raises:
            ValueError: missing or misshapen fields, or settings that could
                not make a game that ends (every problem listed).
        """
        return from_plain(cls, dict(data))


_CLASSIC_TARGETS = (Targets.ADJACENT_NO_BASES, Targets.ADJACENT)

CONQUIZTADOR = RuleSet(
    name="conquiztador",
    title="ConQUIZtador",
    aliases=("classic",),
    players=3,
    colours=("red", "blue", "green"),
    base_value=1000,
    base_towers=3,
    expansion=(GuessExpansion("expansion", value=200, sequences=((0, 0, 1),)),),
    battle_rounds=(
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT_NO_BASES),
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT),
        BattleRound(BattleOrder.SCORE, Targets.ANY),
    ),
    capture_value=400,
    defense_bonus=100,
    ruined_castle_value=1000,
    ruin_taken_value=400,
)
"""ConQUIZtador (conquiztador.txt, D12)."""

DUEL = RuleSet(
    name="duel",
    title="Duel",
    aliases=(),
    players=2,
    colours=("red", "blue"),
    base_value=1000,
    base_towers=3,
    expansion=(GuessExpansion(
        "expansion", value=200,  # 3 rounds fill a 15- or 19-territory map; other maps repeat the last round
        by_territories={
            19: ((0, 1, 0, 1, 0, 1, 0), (0, 1, 0, 1, 0), (0, 1, 0, 1, 0)),  # 7, 5, 5
            15: ((0, 1, 0, 1, 0), (0, 1, 0, 1, 0), (0, 1, 0)),  # 5, 5, 3
        }),),
    battle_rounds=(
        BattleRound(BattleOrder.FIXED, Targets.ADJACENT_NO_BASES, fixed_order=(0, 1)),
        BattleRound(BattleOrder.FIXED, Targets.ADJACENT, fixed_order=(1, 0)),
        BattleRound(BattleOrder.FIXED, Targets.ADJACENT, fixed_order=(0, 1), magic_wings=True),
        BattleRound(BattleOrder.FIXED, Targets.ANY, fixed_order=(1, 0)),
    ),
    capture_value=400,
    defense_bonus=100,
    ruined_castle_value=1000,
    ruin_taken_value=400,
    capture_ends_game=True,
)
"""Duel (duel.txt, D11): 2 players, red (seat 0) and blue (seat 1)."""

DOBYVATEL = replace(
    CONQUIZTADOR,  # D13: "As D12, except" -
    name="dobyvatel",
    title="Dobyvatel",
    aliases=(),
    battle_rounds=(  # 4 rounds: random order in rounds 1-3, score order in round 4
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT_NO_BASES),
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT),
        BattleRound(BattleOrder.RANDOM, Targets.ADJACENT),
        BattleRound(BattleOrder.SCORE, Targets.ANY),
    ),
    tiebreak_first_only=True,  # a tie for first place is settled by one guess question
    tiebreak_points=10,  # whose winner gets +10
    tiebreak_questions=3,  # only an answerer wins it; nobody answers three: the place is shared, no +10
    win_kinds=True,
)
"""Dobyvatel (dobyvatel_cs.txt, D13)."""

SIX_ORDERS: tuple[tuple[int, ...], ...] = ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
"""D14 (revised): long_campaign.txt, "for the sake of fairness, the order of play is
different for every round" - the six orders of three seats, one per round of the
expansion and of the battle; each seat is first, second and third exactly twice."""

LONG_CAMPAIGN = RuleSet(
    name="long-campaign",
    title="Long Campaign",
    aliases=("long_campaign", "longcampaign", "campaign"),
    players=3,
    colours=("red", "blue", "green"),
    shuffle_colours=True,
    base_placement=BasePlacement.CHOOSE,
    base_value=1000,
    base_towers=3,
    expansion=(
        ClaimExpansion("expansion", value=200, rounds=6, orders=SIX_ORDERS),
        GuessExpansion("allocation", value=300, sequences=((0,),)),
    ),
    battle_rounds=tuple(BattleRound(BattleOrder.FIXED, Targets.ADJACENT, fixed_order=order) for order in SIX_ORDERS),
    capture_value=400,
    defense_bonus=100,
    ruined_castle_value=1000,
    ruin_taken_value=1000,
    elimination_award=1000,
    rebuild=True,
)
"""Long Campaign (long_campaign.txt, D14)."""

RULE_SETS: tuple[RuleSet, ...] = (DUEL, CONQUIZTADOR, DOBYVATEL, LONG_CAMPAIGN)


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
