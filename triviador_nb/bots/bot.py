"""Computer players with a skill level.

A bot reads the game (including the correct answer, which it "knows" with the
probability its skill gives), and returns one legal action. Every decision
draws from a ``random.Random`` of its own, named by the bot's seat and the
moment it decides (the record position of the open question's draw and the
question's id, or the record's length and the stage), never from a stream
that earlier decisions moved on: so a bot-only game is fully determined by
its chance, and a bot asked again after the teacher's undo answers the same
question with the same value and time, and makes the same move (D16).

In a game with a secret (a room, issue 28) that RNG is keyed by the game's
secret (:func:`~triviador_nb.engine.chance.keyed_rng`): a guess's error is
drawn afresh for every question and nobody without the secret can work it
out, so a bot's answer shown to anyone tells nothing of the correct one. In
a game with a number alone it is seeded from the bot's ``seed``, as always.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import Action, Attack, ChoiceAnswer, Game, GuessAnswer, Pick, Rebuild
from ..engine.chance import keyed_rng
from ..engine.view import prompt_id


@dataclass(frozen=True)
class BotSkill:
    """How well a bot plays.

    Attributes:
        name: ``"easy"``, ``"medium"`` or ``"hard"``.
        choice_accuracy: probability (0-1) of picking the correct option of a
            multiple-choice question; otherwise a wrong option at random.
        guess_spread: standard deviation of a guess relative to the correct
            answer (0.1 = 10 %); for answers that look like years
            (1000-2100) it is scaled to 250 years (0.1 = 25 years).
        response_ms: (fastest, slowest) response time in milliseconds,
            drawn uniformly; always within the question's timer.
        silent_rate: probability of not answering at all.
    """

    name: str
    choice_accuracy: float
    guess_spread: float
    response_ms: tuple[int, int]
    silent_rate: float = 0.0


EASY = BotSkill("easy", choice_accuracy=0.45, guess_spread=0.35, response_ms=(4000, 9000), silent_rate=0.05)
MEDIUM = BotSkill("medium", choice_accuracy=0.65, guess_spread=0.18, response_ms=(2500, 7000))
HARD = BotSkill("hard", choice_accuracy=0.85, guess_spread=0.07, response_ms=(1500, 5000))
SKILLS = {s.name: s for s in (EASY, MEDIUM, HARD)}


class Bot:
    """A computer player for one seat.

    Args:
        seat: the 0-based seat it plays.
        skill: a :class:`BotSkill` or its name.
        seed: the game's seed (combined with the seat and the moment for the
            RNG of each decision, D16); not used in a game with a secret,
            whose secret keys every decision instead.

    Raises:
        ValueError: an unknown skill name (the known ones are listed).
    """

    def __init__(self, seat: int, skill: BotSkill | str = MEDIUM, seed: int | None = 0):
        if isinstance(skill, str) and skill not in SKILLS:
            raise ValueError(f"unknown bot skill {skill!r}; known skills: {', '.join(SKILLS)}")
        self.seat = seat
        self.skill = SKILLS[skill] if isinstance(skill, str) else skill
        self.seed = seed
        self._rng = random.Random(f"bot:{seed}:{seat}")

    def act(self, game: Game) -> Action:
        """Return this bot's action for the game's current stage: the same
        action whenever it is asked at the same moment of a game with the same
        seed or secret, however many undos came before (D16).

        Raises:
            ValueError: when the game does not await this bot's seat.
        """
        if self.seat not in game.current_players():
            raise ValueError(f"the game does not await seat {self.seat + 1} ({game.stage})")
        moment = game.question.question.id if game.question is not None else game.stage
        if game.secret is not None:
            self._rng = keyed_rng(game.secret, f"bot:{self.seat}:{prompt_id(game)}:{moment}")
        else:
            self._rng = random.Random(f"bot:{self.seed}:{self.seat}:{prompt_id(game)}:{moment}")
        if game.stage == "answer":
            return self._answer(game)
        if game.stage in ("base", "pick"):
            return Pick(self.seat, self._choose_pick(game))
        return self._battle_turn(game)

    def response_ms(self, game: Game) -> int:
        """A response time for the open question, within its timer (drawn from
        the RNG of the decision :meth:`act` is making)."""
        low, high = self.skill.response_ms
        limit = int(game.time_limit_s() * 1000)
        return min(self._rng.randint(low, high), limit)

    def _answer(self, game: Game) -> Action:
        asked = game.question
        ms = self.response_ms(game)
        silent = self._rng.random() < self.skill.silent_rate
        if asked.is_guess:
            return GuessAnswer(self.seat, None if silent else self._guess(asked.question.answer), None if silent else ms)
        if silent:
            return ChoiceAnswer(self.seat, None)
        if self._rng.random() < self.skill.choice_accuracy:
            return ChoiceAnswer(self.seat, asked.correct_option, ms)
        wrong = [i for i in range(4) if i != asked.correct_option]
        return ChoiceAnswer(self.seat, self._rng.choice(wrong), ms)

    def _guess(self, correct: int) -> int:
        scale = 250 if 1000 <= correct <= 2100 else max(correct, 10)
        return max(0, round(correct + self._rng.gauss(0, self.skill.guess_spread * scale)))

    def _choose_pick(self, game: Game) -> str:
        """Prefer territories that border many free ones (room to grow)."""
        options = game.legal_picks(self.seat)
        free = {t for t, s in game.territories.items() if s.owner is None}
        best = max(len(game.board.adjacency[t] & free) for t in options)
        return self._rng.choice([t for t in options if len(game.board.adjacency[t] & free) == best])

    def _battle_turn(self, game: Game) -> Action:
        """Attack the most appealing target (with Magic Wings when that reaches a
        better one); rebuild a damaged castle now and then (D14)."""
        if game.can_rebuild(self.seat) and (self._rng.random() < 0.5 or not game.legal_targets(self.seat)):
            return Rebuild(self.seat)
        normal, winged = game.legal_targets(self.seat), game.wings_targets(self.seat)
        if not normal and not winged:
            return Rebuild(self.seat)
        last_chance = self._last_chance(game)
        best_normal = self._choose_target(game, normal, last_chance) if normal else None
        best_winged = self._choose_target(game, winged, last_chance) if winged else None
        if best_normal is None or (best_winged is not None and self._appeal(game, best_winged, last_chance)
                                   > self._appeal(game, best_normal, last_chance)):
            return Attack(self.seat, best_winged, wings=True)
        return Attack(self.seat, best_normal)

    def _last_chance(self, game: Game) -> bool:
        """Behind the leader in the last battle round."""
        scores = game.scores()
        return game.battle_round == len(game.rules.battle_rounds) and scores[self.seat] < max(scores)

    def _appeal(self, game: Game, territory: str, last_chance: bool) -> tuple[int, int]:
        """Prefer a castle down to its last tower, then ordinary territories
        (and ruins) by value, then castles with more towers standing; a bot
        behind the leader in the last round (``last_chance``) goes for the
        weakest castle."""
        s = game.territories[territory]
        if s.towers and last_chance:
            return (3, -s.towers)
        tier = 2 if s.towers == 1 else 1 if s.towers == 0 else 0
        return (tier, s.value)

    def _choose_target(self, game: Game, options: list[str], last_chance: bool) -> str:
        appeal = {t: self._appeal(game, t, last_chance) for t in options}
        best = max(appeal.values())
        return self._rng.choice([t for t in options if appeal[t] == best])
