"""A game: rule set + board + question bank + seed + actions.

:class:`Game` follows the OpenSpiel shape: :meth:`Game.current_players`,
:meth:`Game.legal_actions`, :meth:`Game.apply`, :attr:`Game.is_over`,
:attr:`Game.ranking`. Chance (base draw, question draws, option order,
battle order, timeouts) comes from one ``random.Random(seed)`` owned by the
game, so ``Game.replay(rules, board, bank, seed, actions)`` rebuilds exactly
the same game.
"""

from __future__ import annotations

import random
from typing import Collection, Iterable, Sequence

from . import battle, ending, expansion
from .actions import Action, Attack, ChoiceAnswer, GuessAnswer, Pick, Rebuild, Timeout, parse_action, seat_text
from .bases import choosable_bases, draw_bases
from .board import Board
from .deck import Deck
from .errors import (
    AnswerTooLateError,
    GameOverError,
    IllegalActionError,
    IllegalRebuildError,
    IllegalTerritoryError,
    InvalidAnswerError,
    NotYourTurnError,
)
from .events import Event
from .questions import QuestionBank
from .ranking import rank_guesses
from .rules import BasePlacement, ClaimExpansion, GuessExpansion, RuleSet, WinKinds
from .state import AskedQuestion, BattleTurns, Phase, PlayerState, Purpose, TerritoryState
from .state import AttackInProgress


class Game:
    """One game in progress.

    Args:
        rules: the rule set (e.g. ``CONQUIZTADOR``).
        board: the map's territories and adjacency.
        bank: the questions.
        seed: seeds the game's own RNG; same seed + same actions = same game.
        names: display names per seat (default ``Player 1``...).
        bases: a base territory per seat, instead of the random draw (for
            set-piece lessons and tests); must be mutually non-adjacent.
        asked_before: ids of questions asked in earlier games of the same
            sitting; they are drawn only after every other question of their
            type (D4, "Play again": see :class:`~.deck.Deck`).

    Raises:
        ValueError: when the board cannot hold ``rules.players`` mutually
            non-adjacent bases (D15), or ``bases`` are unknown, too few or
            adjacent.
    """

    def __init__(self, rules: RuleSet, board: Board, bank: QuestionBank, seed: int,
                 names: Sequence[str] | None = None, bases: Sequence[str] | None = None,
                 asked_before: Collection[str] = ()):
        names = list(names) if names is not None else [f"Player {i + 1}" for i in range(rules.players)]
        if len(names) != rules.players:
            raise ValueError(f"{rules.title} needs {rules.players} player names, got {len(names)}")
        self.rules = rules
        self.board = board
        self.bank = bank
        self.seed = seed
        self._rng = random.Random(seed)
        self.players = [PlayerState(seat, name) for seat, name in enumerate(names)]
        self.territories = {t: TerritoryState() for t in board.territories}
        self.colours = self._deal_colours()
        self.phase = Phase.BASES
        self.expansion_index = 0  # which of rules.expansion runs now
        self.expansion_round = 0  # guess questions asked / claim rounds done in it
        self.claim: tuple[int, str] | None = None  # (seat, territory) awaiting a claim answer
        self.win_kind: WinKinds | None = None
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self.question: AskedQuestion | None = None
        self.pick_queue: list[int] = []
        self.battle = BattleTurns()
        self.attack: AttackInProgress | None = None
        self.ranking: tuple[int, ...] | None = None
        self._tie_groups: list[tuple[int, ...]] = []
        self._tiebreak_place: dict[int, int] = {}
        self.asked_before = frozenset(asked_before)
        self._guess_deck = Deck(bank.guess, self._rng, {q for q in bank.guess if q.id in self.asked_before})
        self._choice_deck = Deck(bank.choice, self._rng, {q for q in bank.choice if q.id in self.asked_before})
        self._given_bases = tuple(bases) if bases is not None else None
        self._place_bases(bases)
        self._advance()

    def _deal_colours(self) -> tuple[str, ...]:
        """Seat -> colour name; dealt at random when the rule set says so (D14)."""
        colours = list(self.rules.colours)
        if self.rules.shuffle_colours:
            self._rng.shuffle(colours)
        return tuple(colours)

    @classmethod
    def replay(cls, rules: RuleSet, board: Board, bank: QuestionBank, seed: int,
               actions: Iterable[Action | str], names: Sequence[str] | None = None,
               bases: Sequence[str] | None = None, asked_before: Collection[str] = ()) -> "Game":
        """Rebuild a game from its seed and actions (objects or text forms);
        pass the same ``bases`` and ``asked_before`` as the original game."""
        game = cls(rules, board, bank, seed, names, bases, asked_before)
        for action in actions:
            game.apply(game.parse(action) if isinstance(action, str) else action)
        return game

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def stage(self) -> str:
        """What the game awaits: ``"answer"``, ``"base"`` (choose a base),
        ``"pick"``, ``"attack"`` (or rebuild) or ``"over"``."""
        if self.is_over:
            return "over"
        if self.question is not None:
            return "answer"
        if self.pick_queue:
            return "base" if self.phase is Phase.BASES else "pick"
        return "attack"

    @property
    def expansion_phase(self) -> GuessExpansion | ClaimExpansion | None:
        """The expansion phase running now, or None outside expansion."""
        return self.rules.expansion[self.expansion_index] if self.phase is Phase.EXPANSION else None

    @property
    def phase_name(self) -> str:
        """The phase as players call it: ``"bases"``, ``"expansion"``,
        ``"allocation"``, ``"battle"``, ``"tie-break"`` or ``"game over"``."""
        return self.expansion_phase.name if self.phase is Phase.EXPANSION else self.phase.value

    def current_players(self) -> tuple[int, ...]:
        """Seats that must act now (several while a question is open)."""
        stage = self.stage
        if stage == "answer":
            return self.question.waiting_for
        if stage in ("base", "pick"):
            return (self.pick_queue[0],)
        if stage == "attack":
            return (self.attacker,)
        return ()

    @property
    def attacker(self) -> int:
        """The seat whose battle turn it is."""
        return self.battle.order[self.battle.turn]

    @property
    def battle_round(self) -> int:
        """The 1-based battle round (0 before the battle phase)."""
        return self.battle.round + 1 if self.phase not in (Phase.BASES, Phase.EXPANSION) else 0

    def time_limit_s(self) -> float:
        """Seconds allowed for what the game awaits now (D3)."""
        timers = self.rules.timers
        if self.stage == "answer":
            return timers.guess_s if self.question.is_guess else timers.choice_s
        return timers.territory_s

    def legal_picks(self, seat: int) -> list[str]:
        """Territories ``seat`` may pick if it were their pick: while choosing
        bases, the choosable bases (D14); else the adjacent-first rule."""
        if self.phase is Phase.BASES:
            return choosable_bases(self.board, self._bases(), len(self.pick_queue))
        return expansion.legal_picks(self.board, self.territories, seat)

    def legal_targets(self, seat: int) -> list[str]:
        """Territories ``seat`` may attack in the current battle round (without Magic Wings)."""
        targets = self.rules.battle_rounds[self.battle.round].targets
        return battle.legal_targets(self.board, self.territories, self.players, seat, targets)

    def wings_targets(self, seat: int) -> list[str]:
        """Territories ``seat`` can reach only with Magic Wings now: empty unless
        this round allows them and the seat has not used its wings (D11)."""
        spec = self.rules.battle_rounds[self.battle.round]
        if self.phase is not Phase.BATTLE or not spec.magic_wings or seat in self.battle.wings_used:
            return []
        return battle.wings_targets(self.board, self.territories, self.players, seat, spec.targets)

    def can_rebuild(self, seat: int) -> bool:
        """D14: a player whose castle has 1 or 2 towers standing may rebuild it
        instead of attacking (on their battle turn)."""
        if not self.rules.rebuild or self.phase is not Phase.BATTLE:
            return False
        return any(s.base_of == seat and s.owner == seat and 0 < s.towers < self.rules.base_towers
                   for s in self.territories.values())

    def legal_actions(self) -> list[Action]:
        """Every legal action now.

        Picks and attacks are listed one per territory. For an open question,
        each waiting player's answers are listed without a response time:
        the four options (multiple choice) or only "no answer" (guess
        questions accept any whole number >= 0, which cannot be listed).
        """
        stage = self.stage
        if stage in ("base", "pick"):
            seat = self.pick_queue[0]
            return [Pick(seat, t) for t in self.legal_picks(seat)]
        if stage == "attack":
            seat = self.attacker
            return ([Attack(seat, t) for t in self.legal_targets(seat)]
                    + [Attack(seat, t, wings=True) for t in self.wings_targets(seat)]
                    + ([Rebuild(seat)] if self.can_rebuild(seat) else []))
        if stage == "answer":
            if self.question.is_guess:
                return [GuessAnswer(p, None) for p in self.question.waiting_for]
            return [ChoiceAnswer(p, o) for p in self.question.waiting_for for o in (0, 1, 2, 3, None)]
        return []

    def why_illegal(self, seat: int, territory: str, wings: bool = False) -> str | None:
        """Why a click by ``seat`` on ``territory`` is not a legal base choice,
        pick or attack now (with Magic Wings when ``wings``), as a sentence for
        the player; None when it is legal."""
        stage = self.stage
        if stage not in ("base", "pick", "attack") or seat not in self.current_players():
            return "it is not your turn to choose a territory"
        names = [p.name for p in self.players]
        if stage == "base":
            if territory in self.legal_picks(seat):
                return None
            if territory not in self.territories:
                return f"there is no territory {territory!r} on this map"
            return (f"{self.board.names[territory]} is a base or borders one, or would leave no room "
                    "for the other players' bases")
        if stage == "pick":
            return expansion.pick_problem(self.board, self.territories, seat, territory, names)
        if wings:
            if territory in self.wings_targets(seat):
                return None
            if not self.rules.battle_rounds[self.battle.round].magic_wings:
                return f"Magic Wings can be used only in the Magic Wings round, not battle round {self.battle_round}"
            if seat in self.battle.wings_used:
                return "you have used your Magic Wings already"
            if territory in self.legal_targets(seat):
                return f"{self.board.names[territory]} can be attacked without Magic Wings"
        targets = self.rules.battle_rounds[self.battle.round].targets
        return battle.target_problem(self.board, self.territories, self.players, seat, territory,
                                     targets, self.battle_round)

    def score_invariant_problems(self) -> list[str]:
        """D10: each score = owned territory values + bonuses + awards.

        Returns one sentence per player whose score breaks the invariant.
        """
        problems = []
        for p in self.players:
            owned = sum(s.value for s in self.territories.values() if s.owner == p.seat)
            expected = owned + p.bonuses + p.awards
            if p.score != expected:
                problems.append(f"{p.name}: score {p.score} != territories {owned} + bonuses {p.bonuses}"
                                f" + awards {p.awards}")
        return problems

    def parse(self, text: str) -> Action:
        """Read an action's text form; ``answer pN none`` is read as the kind of
        answer the open question takes.

        Raises:
            ActionParseError: unreadable text.
        """
        kind = ChoiceAnswer if self.question is not None and not self.question.is_guess else GuessAnswer
        return parse_action(text, none_answer=kind)

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return the events it caused.

        Raises:
            GameOverError: the game has ended.
            NotYourTurnError: the player is not one the game awaits, or the
                action is not the kind the game awaits.
            IllegalTerritoryError: an illegal pick or attack (the reason says why).
            InvalidAnswerError: an answer of the wrong kind or out of range.
            AnswerTooLateError: a response time over the question's timer.

        On any error the game is unchanged.
        """
        first_new = len(self.events)
        self._check(action)
        self.actions.append(action)
        try:
            self._perform(action)
        except Exception:
            self._restore(self.actions[:-1])
            raise
        return self.events[first_new:]

    def _perform(self, action: Action) -> None:
        if isinstance(action, (GuessAnswer, ChoiceAnswer)):
            self._answer(action)
        elif isinstance(action, Rebuild):
            self._start_rebuild(action.player)
        elif isinstance(action, Timeout):
            options = [a for a in self.legal_actions() if isinstance(a, (Pick, Attack)) and not getattr(a, "wings", False)]
            if not options:
                self._skip_turn(action.player)  # only a rebuild or Magic Wings were possible: the turn passes
                return
            chosen = self._rng.choice(options)
            self._log("timeout", f"{self._name(action.player)} ran out of time; chosen at random: "
                                 f"{self.board.names[chosen.territory]}", seat=action.player,
                      territory=chosen.territory)
            self._perform(chosen)
        elif isinstance(action, Attack):
            self._start_attack(action.player, action.territory, action.wings)
            self._advance()
        else:
            self._pick(action.player, action.territory)
            self._advance()

    def _restore(self, actions: list[Action]) -> None:
        """Rebuild this game from its seed and ``actions`` after a fault, so an
        unexpected error never leaves a half-applied action behind."""
        fresh = Game.replay(self.rules, self.board, self.bank, self.seed, actions,
                            names=[p.name for p in self.players], bases=self._given_bases,
                            asked_before=self.asked_before)
        self.__dict__.update(fresh.__dict__)

    def _check(self, action: Action) -> None:
        phase = self.phase.value
        if not isinstance(action, (Pick, Attack, Rebuild, GuessAnswer, ChoiceAnswer, Timeout)):
            raise NotYourTurnError(repr(action), phase, "this is not an action (see triviador_nb.engine.actions)")
        if not _is_whole(action.player):
            raise NotYourTurnError(repr(action), phase, "a player is a seat number (0, 1, 2)")
        if self.is_over:
            raise GameOverError(action, phase, "the game is over")
        if not 0 <= action.player < len(self.players):
            raise NotYourTurnError(action, phase, f"there is no player {seat_text(action.player)}")
        stage = self.stage
        expected = {"answer": (GuessAnswer, ChoiceAnswer), "base": (Pick, Timeout), "pick": (Pick, Timeout),
                    "attack": (Attack, Rebuild, Timeout)}
        if not isinstance(action, expected[stage]):
            raise NotYourTurnError(action, phase, f"the game is waiting for {self._awaited()}")
        if action.player not in self.current_players():
            raise NotYourTurnError(action, phase, f"the game is waiting for {self._awaited()}")
        if isinstance(action, (Pick, Attack)):
            reason = self.why_illegal(action.player, action.territory, getattr(action, "wings", False))
            if reason:
                raise IllegalTerritoryError(action, phase, reason)
        elif isinstance(action, Rebuild) and not self.can_rebuild(action.player):
            raise IllegalRebuildError(action, phase, "only a castle with 1 or 2 towers standing can be rebuilt"
                                     if self.rules.rebuild else f"{self.rules.title} has no castle rebuilding")
        elif isinstance(action, (GuessAnswer, ChoiceAnswer)):
            self._check_answer(action, phase)

    def _check_answer(self, action: GuessAnswer | ChoiceAnswer, phase: str) -> None:
        question = self.question
        if isinstance(action, GuessAnswer) != question.is_guess:
            kind = "a guess (a whole number)" if question.is_guess else "one of the options A-D"
            raise InvalidAnswerError(action, phase, f"this question takes {kind}")
        given = action.value if isinstance(action, GuessAnswer) else action.option
        if given is not None and not _is_whole(given):
            raise InvalidAnswerError(action, phase, "an answer must be a whole number")
        if isinstance(action, GuessAnswer) and given is not None and not 0 <= given <= MAX_GUESS:
            raise InvalidAnswerError(action, phase, "a guess must be a whole number >= 0 (15 digits at most)")
        if isinstance(action, ChoiceAnswer) and given not in (0, 1, 2, 3, None):
            raise InvalidAnswerError(action, phase, "the option must be A, B, C or D")
        if action.ms is not None and not _is_whole(action.ms):
            raise InvalidAnswerError(action, phase, "a response time must be a whole number of milliseconds")
        if action.ms is not None and action.ms < 0:
            raise InvalidAnswerError(action, phase, "a response time cannot be negative")
        if action.ms is not None and action.ms > MAX_GUESS:
            raise InvalidAnswerError(action, phase, "a response time that long cannot be right")
        if action.ms is not None and given is not None:  # a late "no answer" is still no answer
            limit_ms = round(self.time_limit_s() * 1000)
            if action.ms > limit_ms:
                raise AnswerTooLateError(action, phase, f"answered after {action.ms} ms; the timer allows {limit_ms} ms")

    def _awaited(self) -> str:
        seats = ", ".join(self._name(s) for s in self.current_players())
        return {"answer": f"answers from {seats}", "base": f"{seats} to choose a base",
                "pick": f"{seats} to pick a territory",
                "attack": f"{seats} to choose a territory to attack"}[self.stage]

    # ------------------------------------------------------------------ flow

    def _advance(self) -> None:
        """Move on until the game awaits a player (or is over)."""
        if self.phase is Phase.EXPANSION and not expansion.free_territories(self.board, self.territories):
            self.pick_queue = []  # picks and claims stop when none is free
        while not self.is_over and self.question is None and not self.pick_queue:
            if self.phase is Phase.BASES:
                self._start_expansion_phase(0)
            elif self.phase is Phase.EXPANSION:
                self._expansion_step()
            elif self.phase is Phase.BATTLE:
                if self._next_attacker():
                    return
            else:
                return

    def _start_expansion_phase(self, index: int) -> None:
        if index >= len(self.rules.expansion):
            self._start_battle()
            return
        self.phase, self.expansion_index, self.expansion_round = Phase.EXPANSION, index, 0
        spec = self.rules.expansion[index]
        if index > 0 or self.rules.base_placement is BasePlacement.CHOOSE:
            self._log("phase", f"{spec.name.capitalize()}: {spec.value} points a territory", phase=spec.name)

    def _expansion_step(self) -> None:
        """Start the next guess question or claim round, or end the phase."""
        spec = self.expansion_phase
        free = expansion.free_territories(self.board, self.territories)
        if not free or (spec.rounds is not None and self.expansion_round >= spec.rounds):
            self._start_expansion_phase(self.expansion_index + 1)
        elif isinstance(spec, GuessExpansion):
            self.expansion_round += 1
            self._ask(Purpose.EXPANSION, tuple(p.seat for p in self.players if p.in_game))
        else:
            n = len(self.players)
            self.pick_queue = [(self.expansion_round + i) % n for i in range(n)]  # D14: round k starts with seat k
            self.expansion_round += 1
            self._log("round", f"{spec.name.capitalize()} round {self.expansion_round} of {spec.rounds}; order: "
                               + ", ".join(self._name(s) for s in self.pick_queue),
                      round=self.expansion_round, order=list(self.pick_queue))

    def _start_battle(self) -> None:
        self.phase = Phase.BATTLE
        self.pick_queue = []
        self._log("phase", "Expansion is over: the battle begins", phase="battle")
        self._start_round(0)

    def _start_round(self, index: int) -> None:
        spec = self.rules.battle_rounds[index]
        order = battle.attack_order(spec, index, self.players, self._rng)
        self.battle = BattleTurns(round=index, order=order, turn=0, wings_used=self.battle.wings_used)
        wings = "; Magic Wings allowed" if spec.magic_wings else ""
        self._log("round", f"Battle round {index + 1} of {len(self.rules.battle_rounds)} "
                           f"({spec.targets.value}{wings}); order: {', '.join(self._name(s) for s in order)}",
                  round=index + 1, order=list(order), targets=spec.targets.value)

    def _next_attacker(self) -> bool:
        """Find the next player in this round who can act; True if one awaits.

        Players out of the game are passed over; a player with nothing to
        attack (and no castle to rebuild) skips the turn, recorded (D12).
        Ends the game after the last round or when one player remains.
        """
        while True:
            if sum(p.in_game for p in self.players) <= 1:
                self._finish()
                return False
            if self.battle.turn >= len(self.battle.order):
                if self.battle.round + 1 >= len(self.rules.battle_rounds):
                    self._finish()
                    return False
                self._start_round(self.battle.round + 1)
                continue
            seat = self.attacker
            if self.players[seat].in_game:
                if self.legal_targets(seat) or self.wings_targets(seat) or self.can_rebuild(seat):
                    return True
                self._log("skip", f"{self._name(seat)} has nothing to attack and skips the turn", seat=seat)
            self.battle.turn += 1

    def _pick(self, seat: int, territory: str) -> None:
        self.pick_queue.pop(0)
        if self.phase is Phase.BASES:
            self._set_base(seat, territory)
            self._log("bases", f"{self._name(seat)} chooses {self.board.names[territory]} as base",
                      seat=seat, territory=territory)
            return
        spec = self.expansion_phase
        if isinstance(spec, ClaimExpansion):
            self.claim = (seat, territory)
            self._log("claim", f"{self._name(seat)} claims {self.board.names[territory]}: a multiple-choice "
                               "question decides", seat=seat, territory=territory)
            self._ask(Purpose.CLAIM, (seat,))
            return
        self._occupy(seat, territory, spec.value)

    def _occupy(self, seat: int, territory: str, value: int) -> None:
        state = self.territories[territory]
        state.owner, state.value = seat, value
        self.players[seat].score += value
        self._log("pick", f"{self._name(seat)} takes {self.board.names[territory]} (+{value})",
                  seat=seat, territory=territory, points=value)

    def _start_attack(self, seat: int, territory: str, wings: bool) -> None:
        defender = self.territories[territory].owner
        self.attack = AttackInProgress(seat, defender, territory)
        if wings:
            self.battle.wings_used = self.battle.wings_used | {seat}
        state = self.territories[territory]
        what = f"the castle of {self.board.names[territory]} ({state.towers} towers standing)" \
            if state.towers else self.board.names[territory]
        flying = " on Magic Wings" if wings else ""
        self._log("attack", f"{self._name(seat)} attacks {self._name(defender)}{flying}: {what}",
                  seat=seat, defender=defender, territory=territory, towers=state.towers, wings=wings)
        self._ask(Purpose.BATTLE, tuple(sorted((seat, defender))))

    def _start_rebuild(self, seat: int) -> None:
        self._log("rebuild", f"{self._name(seat)} tries to rebuild the castle: a multiple-choice question decides",
                  seat=seat)
        self._ask(Purpose.REBUILD, (seat,))

    def _skip_turn(self, seat: int) -> None:
        self._log("skip", f"{self._name(seat)} has nothing to attack and skips the turn", seat=seat)
        self.battle.turn += 1
        self._advance()

    # ------------------------------------------------------------------ questions

    def _ask(self, purpose: Purpose, seats: tuple[int, ...]) -> None:
        if purpose in (Purpose.BATTLE, Purpose.CLAIM, Purpose.REBUILD):
            question, reshuffled = self._choice_deck.draw()
            options = list(question.options)
            self._rng.shuffle(options)
            asked = AskedQuestion(question, purpose, seats, tuple(options), options.index(question.answer))
        else:
            question, reshuffled = self._guess_deck.draw()
            asked = AskedQuestion(question, purpose, seats)
        if reshuffled:
            self._log("warning", f"every {question.kind} question has been asked; "
                                 "used questions are shuffled and asked again (D4)", kind=question.kind)
        self.question = asked
        who = ", ".join(self._name(s) for s in seats)
        self._log("question", f"{'Guess' if asked.is_guess else 'Multiple-choice'} question for {who}: "
                              f"{question.text}", question=question.id, kind=question.kind, purpose=purpose.value,
                  seats=list(seats))

    def _answer(self, action: GuessAnswer | ChoiceAnswer) -> None:
        self.question.answers[action.player] = action
        if not self.question.waiting_for:
            asked, self.question = self.question, None
            self._resolve(asked)
            self._advance()

    def _resolve(self, asked: AskedQuestion) -> None:
        if asked.is_guess:
            order = rank_guesses(asked.question.answer, asked.answers)
            self._log_answers(asked, order)
            if asked.purpose is Purpose.BATTLE_GUESS:
                self._after_battle_guess(order, {s for s, a in asked.answers.items() if a.value is not None})
            elif asked.purpose is Purpose.EXPANSION:
                self._after_expansion_guess(order)
            else:
                self._after_tiebreak(order)
            return
        right = {s for s, a in asked.answers.items() if a.option == asked.correct_option}
        self._log_answers(asked, [s for s in asked.players if s in right])
        if asked.purpose is Purpose.CLAIM:
            self._after_claim(bool(right))
        elif asked.purpose is Purpose.REBUILD:
            self._after_rebuild(asked.players[0], bool(right))
        else:
            self._after_battle_choice(right)

    def _log_answers(self, asked: AskedQuestion, order: list[int]) -> None:
        """Reveal the correct answer and each player's answer and time."""
        q = asked.question
        correct = str(q.answer) if asked.is_guess else f"{'ABCD'[asked.correct_option]}) {q.answer}"
        parts = []
        for seat in asked.players:
            a = asked.answers[seat]
            given = a.value if asked.is_guess else a.option
            shown = "no answer" if given is None else (str(given) if asked.is_guess else
                                                        f"{'ABCD'[given]}) {asked.options[given]}")
            timing = "" if a.ms is None or given is None else f" in {a.ms / 1000:.1f} s"
            parts.append(f"{self._name(seat)}: {shown}{timing}")
        self._log("answers", f"Correct answer: {correct}. " + "; ".join(parts),
                  question=q.id, question_text=q.text, kind=q.kind, purpose=asked.purpose.value,
                  options=list(asked.options), correct_option=asked.correct_option,
                  correct=q.answer, order=order,
                  answers={s: (getattr(a, "value", None) if asked.is_guess else a.option, a.ms)
                           for s, a in asked.answers.items()})

    def _after_expansion_guess(self, order: list[int]) -> None:
        """Picks by the phase's pick sequence (D11, D12, D14); they stop when none is free."""
        free = len(expansion.free_territories(self.board, self.territories))
        sequence = self.expansion_phase.sequence(self.expansion_round - 1, len(self.board))
        self.pick_queue = expansion.pick_queue(order, sequence, free)

    def _after_claim(self, right: bool) -> None:
        """D14: right = the claimed territory is occupied; wrong = it stays free."""
        (seat, territory), self.claim = self.claim, None
        if right:
            self._occupy(seat, territory, self.expansion_phase.value)
        else:
            self._log("pick", f"{self._name(seat)} answered wrong: {self.board.names[territory]} stays free",
                      seat=seat, territory=territory, points=0)

    def _after_rebuild(self, seat: int, right: bool) -> None:
        """D14: right = all towers of the castle stand again."""
        base = next(s for s in self.territories.values() if s.base_of == seat and s.owner == seat)
        if right:
            base.towers = self.rules.base_towers
            self._log("rebuild", f"{self._name(seat)} rebuilds the castle: {base.towers} towers stand again",
                      seat=seat, towers=base.towers)
        else:
            self._log("rebuild", f"{self._name(seat)} answered wrong: the castle stays as it was",
                      seat=seat, towers=base.towers)
        self.battle.turn += 1

    def _after_battle_choice(self, right: set[int]) -> None:
        attack = self.attack
        outcome = battle.choice_outcome(attack.attacker in right, attack.defender in right)
        if outcome is battle.Outcome.GUESS_DECIDES:
            self._log("battle", "Both answered right: a guess question decides")
            self._ask(Purpose.BATTLE_GUESS, tuple(sorted((attack.attacker, attack.defender))))
        elif outcome is battle.Outcome.ATTACKER_WINS:
            self._attacker_wins()
        else:
            self._defender_wins(bonus=outcome is battle.Outcome.DEFENDED_WITH_BONUS)

    def _after_battle_guess(self, order: list[int], answered: set[int]) -> None:
        """D5: the closer guess wins; an attacker who did not answer never wins
        (both silent: the defender holds, as D5 gives a silent attacker's battle
        to the defender)."""
        if order[0] == self.attack.attacker and self.attack.attacker in answered:
            self._attacker_wins()
        else:
            self._defender_wins(bonus=False)  # D6: no bonus for a tie-break win

    def _defender_wins(self, bonus: bool) -> None:
        attack, self.attack = self.attack, None
        defender = self.players[attack.defender]
        points = self.rules.defense_bonus if bonus else 0
        defender.score += points
        defender.bonuses += points
        extra = f" and earns the defense bonus (+{points})" if points else ""
        self._log("defend", f"{defender.name} holds {self.board.names[attack.territory]}{extra}",
                  seat=defender.seat, territory=attack.territory, points=points)
        self.battle.turn += 1

    def _attacker_wins(self) -> None:
        attack = self.attack
        state = self.territories[attack.territory]
        if state.towers:
            state.towers -= 1
            attack.battles_won += 1
            self._log("tower", f"A tower of {self.board.names[attack.territory]} falls "
                               f"({state.towers} left)", territory=attack.territory, towers=state.towers)
            if state.towers:
                self._ask(Purpose.BATTLE, tuple(sorted((attack.attacker, attack.defender))))
                return
            self._capture_base(attack)
        else:
            self._take(attack)
        self.attack = None
        self.battle.turn += 1
        if self.rules.capture_ends_game and not all(p.in_game for p in self.players):
            self._finish()  # D9, Duel: a captured base ends the game at once

    def _take(self, attack: AttackInProgress) -> None:
        """D7: the defender loses the value, the attacker gains 400, worth 400 now;
        a ruined castle gives ``ruin_taken_value`` instead (D9)."""
        state = self.territories[attack.territory]
        lost = state.value
        gained = self.rules.ruin_taken_value if state.is_ruin else self.rules.capture_value
        self.players[attack.defender].score -= lost
        self.players[attack.attacker].score += gained
        state.owner, state.value = attack.attacker, gained
        self._log("take", f"{self._name(attack.attacker)} takes {self.board.names[attack.territory]} "
                          f"(+{gained}); {self._name(attack.defender)} loses {lost}",
                  seat=attack.attacker, defender=attack.defender, territory=attack.territory,
                  gained=gained, lost=lost)

    def _capture_base(self, attack: AttackInProgress) -> None:
        """D9: everything of the defender passes to the attacker; the defender is out."""
        winner, loser = self.players[attack.attacker], self.players[attack.defender]
        taken = [t for t, s in self.territories.items() if s.owner == loser.seat]
        for t in taken:
            self.territories[t].owner = winner.seat
        base = self.territories[attack.territory]
        revalued = self.rules.ruined_castle_value - base.value  # 0 unless a rule set changes it (D10)
        base.value = self.rules.ruined_castle_value
        moved = loser.score
        winner.score += loser.score + revalued
        winner.bonuses += loser.bonuses
        winner.awards += loser.awards
        loser.score = loser.bonuses = loser.awards = 0
        loser.eliminated_in = len(self.events)
        self._log("capture", f"{winner.name} captures the base of {loser.name} and takes all "
                             f"{len(taken)} territories and {moved} points; {loser.name} is out of the game",
                  seat=winner.seat, defender=loser.seat, territory=attack.territory, territories=taken)
        award = self.rules.elimination_award
        if award:
            winner.score += award
            winner.awards += award
            self._log("award", f"{winner.name} earns {award} points for eliminating {loser.name}",
                      seat=winner.seat, points=award)

    # ------------------------------------------------------------------ end

    def _finish(self) -> None:
        self.pick_queue = []
        self._tie_groups = ending.tie_groups(self.players, self.rules.tiebreak_first_only)
        if self._tie_groups:
            self.phase = Phase.TIEBREAK
            self._next_tiebreak()
        else:
            self._declare_ranking()

    def _next_tiebreak(self) -> None:
        group = self._tie_groups.pop(0)
        names = " and ".join(self._name(s) for s in group)
        self._log("phase", f"{names} have {self.players[group[0]].score} points each: "
                           "a guess question decides their order", phase="tie-break", seats=list(group))
        self._ask(Purpose.TIEBREAK, group)

    def _after_tiebreak(self, order: list[int]) -> None:
        for place, seat in enumerate(order):
            self._tiebreak_place[seat] = place
        points = self.rules.tiebreak_points
        if points:
            winner = self.players[order[0]]
            winner.score += points
            winner.awards += points
            self._log("award", f"{winner.name} wins the tie-break: +{points}", seat=winner.seat, points=points)
        if self._tie_groups:
            self._next_tiebreak()
        else:
            self._declare_ranking()

    def _declare_ranking(self) -> None:
        self.ranking = ending.final_ranking(self.players, self._tiebreak_place)
        self.phase = Phase.OVER
        kind = ""
        if self.rules.win_kinds:
            self.win_kind = ending.win_kind(self.ranking[0], self.players, self.territories)
            kind = f" ({self.win_kind.value})"
        lines = "; ".join(f"{i + 1}. {self._name(s)} {self.players[s].score}" for i, s in enumerate(self.ranking))
        self._log("ranking", f"Game over{kind}. Final ranking: {lines}", ranking=list(self.ranking),
                  scores=[p.score for p in self.players],
                  **({"win_kind": self.win_kind.value} if self.win_kind else {}))

    # ------------------------------------------------------------------ helpers

    def _bases(self) -> list[str]:
        """Bases placed so far."""
        return [t for t, s in self.territories.items() if s.is_base]

    def _place_bases(self, bases: Sequence[str] | None) -> None:
        """Drawn (D11-D13), given, or to be chosen in colour order (D14); bases
        are worth 1000 with 3 towers each and never border each other (D15)."""
        if bases is None and self.rules.base_placement is BasePlacement.CHOOSE:
            order = sorted(range(len(self.players)), key=lambda s: self.rules.colours.index(self.colours[s]))
            if not choosable_bases(self.board, [], len(order)):
                raise ValueError(f"map {self.board.name!r} has no {len(order)} mutually non-adjacent "
                                 "territories for the bases (D15)")
            self.pick_queue = order
            self._log("phase", "Bases: each player chooses a base, in the order "
                               + ", ".join(f"{self._name(s)} ({self.colours[s]})" for s in order),
                      phase="bases", order=order)
            return
        how = "drawn" if bases is None else "placed"
        if bases is None:
            bases = draw_bases(self.board, self.rules.players, self._rng)
        else:
            self._check_bases(bases)
        for seat, territory in enumerate(bases):
            self._set_base(seat, territory)
        listing = ", ".join(f"{self._name(s)}: {self.board.names[t]}" for s, t in enumerate(bases))
        self._log("bases", f"Bases {how} - {listing}", bases=list(bases))

    def _set_base(self, seat: int, territory: str) -> None:
        state = self.territories[territory]
        state.owner, state.base_of = seat, seat
        state.value, state.towers = self.rules.base_value, self.rules.base_towers
        self.players[seat].score += state.value

    def _check_bases(self, bases: Sequence[str]) -> None:
        if len(bases) != self.rules.players:
            raise ValueError(f"{self.rules.title} needs {self.rules.players} bases, got {len(bases)}")
        unknown = [b for b in bases if b not in self.territories]
        if unknown:
            raise ValueError(f"unknown base territories: {', '.join(unknown)}")
        touching = [f"{a}-{b}" for i, a in enumerate(bases) for b in bases[i + 1:]
                    if a == b or self.board.borders(a, b)]
        if touching:
            raise ValueError(f"bases must not border each other (D15): {', '.join(touching)}")

    def _name(self, seat: int) -> str:
        return self.players[seat].name

    def _log(self, kind: str, text: str, /, **data: object) -> None:
        self.events.append(Event(len(self.events), kind, text, data))


MAX_GUESS = 10**15 - 1  # the largest guess (and bank answer): 15 digits


def _is_whole(value: object) -> bool:
    """True for an ``int`` that is not a ``bool`` (answers and times are whole numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["Game", "IllegalActionError"]
