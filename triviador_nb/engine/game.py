"""A game: rule set + board + question bank + seed (or secret) + actions.

:class:`Game` follows the OpenSpiel shape: :meth:`Game.current_players`,
:meth:`Game.legal_actions`, :meth:`Game.apply`, :attr:`Game.is_over`,
:attr:`Game.ranking`. Chance (base draw, question draws, option order,
battle order, timeouts) comes from the game's :class:`~.chance.Chance`, so
``Game.replay(rules, board, bank, seed, actions, secret=...)`` rebuilds
exactly the same game.

With a game number alone, chance comes in three streams of it, so one never
shifts another: the game's own (colours, base draw, battle order, timeouts),
the questions' (the decks, D4) and the options' (the shown order, D2). With
a secret (rooms, and the single screen unless a number is given: issue 28)
each draw is keyed by the secret and its moment instead, so no student can
work it out from what screens show. The question asked and its option order
are also recorded outcomes (:class:`~.actions.Draw`) in :attr:`Game.record`:
replaying the record gives the same game even after the bank's rows were
reordered, and a burned question is never drawn again.

Why the secret is kept in the game's header (:meth:`Game.to_dict`, which the
journal writes) rather than every draw being recorded: the draws that are
not yet outcomes in the record (colours, bases, battle orders, a timer's
territory, the bots' answers) would each need a new kind of record line,
and every journal and golden playthrough written so far would stop
replaying. The header is the teacher's (the journal, on the host); no view,
protocol message or report carries it.
"""

from __future__ import annotations

from typing import Collection, Iterable, Sequence

from . import battle, ending, expansion
from .actions import (Action, Attack, ChoiceAnswer, Draw, End, Entry, GuessAnswer, Pick, Rebuild, Skip, Timeout,
                      parse_action, seat_text)
from .bases import choosable_bases, draw_bases
from .board import Board
from .chance import Chance
from .deck import Deck
from .errors import (
    AnswerTooLateError,
    GameOverError,
    IllegalActionError,
    IllegalRebuildError,
    IllegalTerritoryError,
    InvalidAnswerError,
    NothingToUndoError,
    NotYourTurnError,
)
from .events import Event
from .questions import QuestionBank
from .related import Avoided
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
        seed: the game number: without ``secret`` it seeds the game's chance
            (public: same number + same actions = same game, and anyone who
            knows the number can compute every draw); with one it is only a
            label, or None.
        secret: hex text of at least 128 bits (:mod:`~.chance`): every draw
            is keyed by it, and nobody without it can predict one. Same
            secret + same actions = same game.
        names: display names per seat (default ``Player 1``...).
        bases: a base territory per seat, instead of the random draw (for
            set-piece lessons and tests); must be mutually non-adjacent.
        asked_before: ids of questions asked in earlier games of the same
            sitting; they are drawn only after every other question of their
            type (D4, "Play again": see :class:`~.deck.Deck`).
        outcomes: recorded draws to use, in order, before drawing from the
            decks (:meth:`replay` passes a record's :class:`~.actions.Draw`
            entries).
        burned: ids of questions the class has seen without them counting
            (skipped or undone): not drawn in the decks' first pass.

    Attributes:
        record: every entry so far, in order: the players' actions and the
            chance outcomes (:class:`~.actions.Draw`) between them.
        actions: the players' actions alone.
        ranking, places: once the game is over, the seats best first, and
            the 1-based place of each, e.g. ``(1, 1, 3)`` when the first two
            share first place (D13, D16); None before.

    Raises:
        ValueError: neither a seed nor a valid secret; when the board cannot hold ``rules.players`` mutually
            non-adjacent bases (D15), or ``bases`` are unknown, too few or
            adjacent; when a recorded draw names a question the bank does not
            have, or of the wrong type.
    """

    def __init__(self, rules: RuleSet, board: Board, bank: QuestionBank, seed: int | None,
                 names: Sequence[str] | None = None, bases: Sequence[str] | None = None,
                 asked_before: Collection[str] = (), outcomes: Sequence[Draw] = (),
                 burned: Collection[str] = (), secret: str | None = None):
        names = list(names) if names is not None else [f"Player {i + 1}" for i in range(rules.players)]
        if len(names) != rules.players:
            raise ValueError(f"{rules.title} needs {rules.players} player names, got {len(names)}")
        self.rules = rules
        self.board = board
        self.bank = bank
        self.seed = seed
        self._chance = Chance(seed, secret)
        self.secret = self._chance.secret
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
        self.record: list[Entry] = []
        self.question: AskedQuestion | None = None
        self.pick_queue: list[int] = []
        self.battle = BattleTurns()
        self.attack: AttackInProgress | None = None
        self.ranking: tuple[int, ...] | None = None
        self.places: tuple[int, ...] | None = None  # the place of each seat of ranking (shared: D13, D16)
        self._tie_groups: list[tuple[int, ...]] = []
        self._tiebreak_place: dict[int, int] = {}
        self._tiebreak_asked = 0  # questions asked for the tie being broken (D13: at most 3)
        self._shared: list[tuple[int, ...]] = []  # tied players who share their place
        self.asked_before = frozenset(asked_before)
        self.burned = frozenset(burned)
        self._outcomes = list(outcomes)
        self._avoid = Avoided(bank.giveaways)  # what belongs with a question asked or seen (give-aways, facts)
        for question in (*bank.guess, *bank.choice):
            if question.id in self.burned or question.id in self.asked_before:
                self._avoid.add(question)
        question_rng = self._chance.rng("questions", "decks")
        self._guess_deck = Deck(bank.guess, question_rng, {q for q in bank.guess if q.id in self.asked_before},
                                {q for q in bank.guess if q.id in self.burned})
        self._choice_deck = Deck(bank.choice, question_rng, {q for q in bank.choice if q.id in self.asked_before},
                                 {q for q in bank.choice if q.id in self.burned})
        self._given_bases = tuple(bases) if bases is not None else None
        self._place_bases(bases)
        self._advance()

    def _deal_colours(self) -> tuple[str, ...]:
        """Seat -> colour name; dealt at random when the rule set says so (D14)."""
        colours = list(self.rules.colours)
        if self.rules.shuffle_colours:
            self._chance.rng("game", "colours").shuffle(colours)
        return tuple(colours)

    @classmethod
    def replay(cls, rules: RuleSet, board: Board, bank: QuestionBank, seed: int | None,
               actions: Iterable[Entry | str], names: Sequence[str] | None = None,
               bases: Sequence[str] | None = None, asked_before: Collection[str] = (),
               burned: Collection[str] = (), secret: str | None = None) -> "Game":
        """Rebuild a game from its seed (or secret) and actions, or from its
        whole :attr:`record` (objects or text forms); pass the same ``bases``,
        ``asked_before``, ``burned`` and ``secret`` as the original game. The record's
        draws are used as recorded; without them the decks draw as they did.

        Raises:
            ActionParseError, IllegalActionError: an entry that cannot be
                read or is not legal where it stands.
            ValueError: a recorded draw of a question the bank lacks.
        """
        entries = [parse_action(a) if isinstance(a, str) and a.lstrip().startswith("draw ") else a for a in actions]
        draws = [e for e in entries if isinstance(e, Draw)]
        game = cls(rules, board, bank, seed, names, bases, asked_before, outcomes=draws, burned=burned,
                   secret=secret)
        for entry in entries:
            if not isinstance(entry, Draw):
                game.apply(game.parse(entry) if isinstance(entry, str) else entry)
        return game

    def to_dict(self) -> dict:
        """The game as plain data: its header (rule set, map name, seed,
        names, given bases, questions asked before and burned, and the
        ``secret`` when it has one) and its whole :attr:`record` in text
        form - everything :meth:`from_dict` needs to rebuild it exactly, as a
        saved game (the teacher's journal) holds it. With a secret this is
        not for a student's eyes before the game is over."""
        data = {"version": SAVE_VERSION, "rules": self.rules.to_dict(), "map": self.board.name, "seed": self.seed,
                "names": [p.name for p in self.players],
                "bases": list(self._given_bases) if self._given_bases is not None else None,
                "asked_before": sorted(self.asked_before), "burned": sorted(self.burned),
                "record": [str(entry) for entry in self.record]}
        if self.secret is not None:  # a game number's game keeps the header it always had
            data["secret"] = self.secret
        return data

    @classmethod
    def from_dict(cls, data: dict, board: Board, bank: QuestionBank) -> "Game":
        """Rebuild a game from :meth:`to_dict`'s data, on the same map and
        with a bank that holds the recorded questions (their row order does
        not matter: the record names each question drawn).

        Raises:
            ValueError: another version or map, a broken rule set, or a
                recorded question the bank does not have.
            ActionParseError, IllegalActionError: a record entry that cannot
                be read or is not legal where it stands.
        """
        if data.get("version") != SAVE_VERSION:
            raise ValueError(f"a saved game of version {data.get('version')!r}; this version reads {SAVE_VERSION}")
        if data.get("map") != board.name:
            raise ValueError(f"the game was played on map {data.get('map')!r}, not {board.name!r}")
        seed = data["seed"]
        return cls.replay(RuleSet.from_dict(data["rules"]), board, bank, None if seed is None else int(seed),
                          data["record"], names=data["names"], bases=data["bases"],
                          asked_before=data["asked_before"], burned=data["burned"], secret=data.get("secret"))

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

    def score(self, seat: int) -> int:
        """D10: a seat's points = the values of the territories it owns + its
        defense bonuses + its awards (derived, never kept by hand)."""
        return self.scores()[seat]

    def scores(self) -> list[int]:
        """Every seat's :meth:`score`, in seat order (one pass over the map)."""
        totals = [p.bonuses + p.awards for p in self.players]
        for state in self.territories.values():
            if state.owner is not None:
                totals[state.owner] += state.value
        return totals

    def score_history(self) -> list[tuple[int, list[int]]]:
        """D10 from the event log alone: ``(event index, every seat's score)``
        after each event that moved a score, in log order (bases, picks,
        takes, defense bonuses, captures, awards). The last entry equals
        :meth:`scores` (see :meth:`score_invariant_problems`); empty before
        any base is placed."""
        tally = [0] * len(self.players)
        history: list[tuple[int, list[int]]] = []
        for e in self.events:
            d = e.data
            if e.code in ("bases.drawn", "bases.placed"):
                for seat in range(len(d["bases"])):
                    tally[seat] += self.rules.base_value
            elif e.code == "bases.chosen":
                tally[d["seat"]] += self.rules.base_value
            elif e.code in ("pick.taken", "defend.held", "award.elimination", "award.tiebreak"):
                tally[d["seat"]] += d["points"]
            elif e.code == "take.territory":
                tally[d["seat"]] += d["gained"]
                tally[d["defender"]] -= d["lost"]
            elif e.code == "capture.base":
                tally[d["seat"]] += tally[d["defender"]] + d["revalued"]
                tally[d["defender"]] = 0
            else:
                continue
            history.append((e.index, list(tally)))
        return history

    def score_invariant_problems(self) -> list[str]:
        """D10 checked against the event log: the points each seat gained and
        lost in the log's events (:meth:`score_history`) add up to its
        :meth:`score`.

        Returns one sentence per player whose tally differs (an independent
        referee for tests; an empty list when every score agrees).
        """
        history = self.score_history()
        tally = history[-1][1] if history else [0] * len(self.players)
        return [f"{p.name}: score {self.score(p.seat)} != {tally[p.seat]} from the event log"
                for p in self.players if self.score(p.seat) != tally[p.seat]]

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
        first_new, mark = len(self.events), len(self.record)
        self._check(action)
        self.actions.append(action)
        self.record.append(action)
        try:
            self._perform(action)
        except Exception:
            self._restore(self.record[:mark])
            raise
        return self.events[first_new:]

    def _perform(self, action: Action) -> None:
        if isinstance(action, Skip):
            self._skip_question()
        elif isinstance(action, End):
            self._end_now()
        elif isinstance(action, (GuessAnswer, ChoiceAnswer)):
            self._answer(action)
        elif isinstance(action, Rebuild):
            self._start_rebuild(action.player)
        elif isinstance(action, Timeout):
            options = [a for a in self.legal_actions() if isinstance(a, (Pick, Attack)) and not getattr(a, "wings", False)]
            if not options:  # D3: only a rebuild or Magic Wings were possible: the turn passes
                self._skip_turn(action.player, "skip.timed_out")
                return
            chosen = self._chance.rng("game", f"timeout:{len(self.record)}").choice(options)
            self._log("timeout", "timeout.random_choice", seat=action.player, territory=chosen.territory)
            self._perform(chosen)
        elif isinstance(action, Attack):
            self._start_attack(action.player, action.territory, action.wings)
            self._advance()
        else:
            self._pick(action.player, action.territory)
            self._advance()

    def replayed(self, record: Sequence[Entry], burned: Collection[str] | None = None) -> "Game":
        """This game's start (rule set, board, bank, seed, secret, names,
        bases, questions asked before) replayed with another ``record``: an undo, a
        corrected answer. ``burned`` defaults to this game's.

        Raises:
            IllegalActionError: an entry of ``record`` is not legal where it stands.
        """
        return Game.replay(self.rules, self.board, self.bank, self.seed, record,
                           names=[p.name for p in self.players], bases=self._given_bases,
                           asked_before=self.asked_before, burned=self.burned if burned is None else burned,
                           secret=self.secret)

    def _restore(self, record: list[Entry]) -> None:
        """Rebuild this game from its seed (or secret) and ``record`` after a fault, so an
        unexpected error never leaves a half-applied action behind."""
        self.__dict__.update(self.replayed(record).__dict__)

    def undone(self) -> "Game":
        """This game without its last action: the teacher's undo. Replays the
        record up to that action; a question drawn after it (the class saw it)
        is burned, so the decks do not put it again in their first pass. An
        undone answer leaves its question open; an undone :class:`End` or
        :class:`Skip` brings the question back.

        Raises:
            NothingToUndoError: there is no action to undo (only the game's start).
        """
        last = max((i for i, e in enumerate(self.record) if not isinstance(e, Draw)), default=None)
        if last is None:
            raise NothingToUndoError("undo", self.phase.value, "there is nothing to undo yet")
        seen = {e.question for e in self.record[last + 1:] if isinstance(e, Draw)}
        return self.replayed(self.record[:last], burned=self.burned | seen)

    def _check(self, action: Action) -> None:
        phase = self.phase.value
        if isinstance(action, (Skip, End)):
            if self.is_over:
                raise GameOverError(action, phase, "the game is over")
            if isinstance(action, Skip) and self.question is None:
                raise NotYourTurnError(action, phase, "there is no question to skip")
            return
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
            self._log("phase", "phase.expansion", phase=spec.name, value=spec.value)

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
            if spec.orders:  # D14: a different order in every round
                self.pick_queue = list(spec.orders[self.expansion_round % len(spec.orders)])
            else:  # round k starts with seat k
                self.pick_queue = [(self.expansion_round + i) % n for i in range(n)]
            self.expansion_round += 1
            self._log("round", "round.claim", phase=spec.name, round=self.expansion_round, rounds=spec.rounds,
                      order=list(self.pick_queue))

    def _start_battle(self) -> None:
        self.phase = Phase.BATTLE
        self.pick_queue = []
        self._log("phase", "phase.battle", phase="battle")
        self._start_round(0)

    def _start_round(self, index: int) -> None:
        spec = self.rules.battle_rounds[index]
        order = battle.attack_order(spec, index, self.players, self.scores(),
                                    self._chance.rng("game", f"round:{index}"))
        self.battle = BattleTurns(round=index, order=order, turn=0, wings_used=self.battle.wings_used)
        self._log("round", "round.battle", round=index + 1, rounds=len(self.rules.battle_rounds),
                  order=list(order), targets=spec.targets.value, magic_wings=spec.magic_wings)

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
                self._log("skip", "skip.nothing_to_attack", seat=seat)
            self.battle.turn += 1

    def _pick(self, seat: int, territory: str) -> None:
        self.pick_queue.pop(0)
        if self.phase is Phase.BASES:
            self._set_base(seat, territory)
            self._log("bases", "bases.chosen", seat=seat, territory=territory)
            return
        spec = self.expansion_phase
        if isinstance(spec, ClaimExpansion):
            self.claim = (seat, territory)
            self._log("claim", "claim.made", seat=seat, territory=territory)
            self._ask(Purpose.CLAIM, (seat,))
            return
        self._occupy(seat, territory, spec.value)

    def _occupy(self, seat: int, territory: str, value: int) -> None:
        state = self.territories[territory]
        state.owner, state.value = seat, value
        self._log("pick", "pick.taken", seat=seat, territory=territory, points=value)

    def _start_attack(self, seat: int, territory: str, wings: bool) -> None:
        defender = self.territories[territory].owner
        self.attack = AttackInProgress(seat, defender, territory)
        if wings:
            self.battle.wings_used = self.battle.wings_used | {seat}
        state = self.territories[territory]
        self._log("attack", "attack.started", seat=seat, defender=defender, territory=territory,
                  towers=state.towers, wings=wings)
        self._ask(Purpose.BATTLE, tuple(sorted((seat, defender))))

    def _start_rebuild(self, seat: int) -> None:
        self._log("rebuild", "rebuild.tried", seat=seat)
        self._ask(Purpose.REBUILD, (seat,))

    def _skip_turn(self, seat: int, code: str = "skip.nothing_to_attack") -> None:
        self._log("skip", code, seat=seat)
        self.battle.turn += 1
        self._advance()

    # ------------------------------------------------------------------ questions

    def _ask(self, purpose: Purpose, seats: tuple[int, ...]) -> None:
        choice = purpose in (Purpose.BATTLE, Purpose.CLAIM, Purpose.REBUILD)
        deck = self._choice_deck if choice else self._guess_deck
        if self._outcomes:
            draw = self._outcomes.pop(0)
            question = self._recorded_question(draw, choice)
            if self._avoid(question):  # the original draw had only related questions left: it said so
                self._log("warning", "warning.related_question", kind=question.kind, question=question.id)
            reshuffled = deck.take(question)
            order = list(draw.order)
            if choice and self._chance.streamed:  # the stream moves on as if it had drawn, as the original did
                self._chance.rng("options").shuffle([0, 1, 2, 3])
        else:  # README "Questions that belong together": not one a question asked already gives away
            question, reshuffled = deck.draw(self._avoid)
            order = [0, 1, 2, 3] if choice else []
            if choice:
                self._chance.rng("options", f"{len(self.record)}:{question.id}").shuffle(order)
            if deck.avoided_all:
                self._log("warning", "warning.related_question", kind=question.kind, question=question.id)
        self._avoid.add(question)
        self.record.append(Draw(question.id, tuple(order)))
        if choice:
            options = tuple(question.options[i] for i in order)
            asked = AskedQuestion(question, purpose, seats, options, order.index(0))
        else:
            asked = AskedQuestion(question, purpose, seats)
        if reshuffled:
            self._log("warning", "warning.deck_reshuffled", kind=question.kind)
        self.question = asked
        self._log("question", "question.asked", question=question.id, question_text=question.text,
                  kind=question.kind, purpose=purpose.value, seats=list(seats), options=list(asked.options))

    def _skip_question(self) -> None:
        """The teacher's :class:`Skip`: the same players get a new question of
        the same type; the skipped one's answers are dropped and its correct
        answer is not shown (the deck has taken it: it is not drawn again in
        this pass)."""
        asked, self.question = self.question, None
        self._log("teacher", "teacher.skipped", question=asked.question.id, kind=asked.question.kind,
                  purpose=asked.purpose.value, seats=list(asked.players))
        self._ask(asked.purpose, asked.players)

    def _end_now(self) -> None:
        """The teacher's :class:`End`: no more questions or turns; the ranking
        of the current scores (D10); equal scores that no tie-break has
        separated share the place, with no tie-break question and no points
        for one (D16)."""
        self.question, self.attack, self.pick_queue, self._tie_groups = None, None, [], []
        self._shared += [g for g in ending.tie_groups(self.players, self.scores(), first_only=False)
                         if not any(seat in self._tiebreak_place for seat in g)]
        self._log("teacher", "teacher.ended", scores=self.scores())
        self._declare_ranking()

    def _recorded_question(self, draw: Draw, choice: bool):
        """The question a recorded draw names (D2: a choice draw orders four options)."""
        found = next((q for q in (self.bank.choice if choice else self.bank.guess) if q.id == draw.question), None)
        kind = "multiple-choice" if choice else "guess"
        if found is None:
            raise ValueError(f"the record asks {kind} question {draw.question!r}, which this question bank does not have")
        if choice != bool(draw.order):
            raise ValueError(f"the record's draw {str(draw)!r} does not fit a {kind} question")
        return found

    def _answer(self, action: GuessAnswer | ChoiceAnswer) -> None:
        self.question.answers[action.player] = action
        if not self.question.waiting_for:
            asked, self.question = self.question, None
            self._resolve(asked)
            self._advance()

    def _resolve(self, asked: AskedQuestion) -> None:
        if asked.is_guess:
            order = rank_guesses(asked.question.answer, asked.answers)
            answered = {s for s, a in asked.answers.items() if a.value is not None}
            self._log_answers(asked, order)
            if asked.purpose is Purpose.BATTLE_GUESS:
                self._after_battle_guess(order, answered)
            elif asked.purpose is Purpose.EXPANSION:
                self._after_expansion_guess(order, answered)
            else:
                self._after_tiebreak(asked.players, order, answered)
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
        """Reveal the correct answer and each player's answer and time.

        ``answers`` lists ``{"seat", "given", "ms"}`` in seat order (``given``:
        the guess, or the option index in ``options``; None for no answer);
        ``order`` is D1's ranking of the seats for a guess question and the
        seats that answered right for a multiple-choice one.
        """
        q = asked.question
        answers = [{"seat": seat, "given": (asked.answers[seat].value if asked.is_guess
                                             else asked.answers[seat].option),
                    "ms": asked.answers[seat].ms} for seat in asked.players]
        self._log("answers", "answers.revealed", question=q.id, question_text=q.text, kind=q.kind,
                  purpose=asked.purpose.value, options=list(asked.options), correct_option=asked.correct_option,
                  correct=q.answer, order=list(order), answers=answers)

    def _after_expansion_guess(self, order: list[int], answered: set[int]) -> None:
        """Picks by the phase's pick sequence (D11, D12, D14), to answerers only
        (D1): a pick falling to a silent player is not made. They stop when
        none is free."""
        free = len(expansion.free_territories(self.board, self.territories))
        sequence = self.expansion_phase.sequence(self.expansion_round - 1, len(self.board))
        self.pick_queue = expansion.pick_queue(order, sequence, free, answered)

    def _after_claim(self, right: bool) -> None:
        """D14: right = the claimed territory is occupied; wrong = it stays free."""
        (seat, territory), self.claim = self.claim, None
        if right:
            self._occupy(seat, territory, self.expansion_phase.value)
        else:
            self._log("pick", "pick.claim_wrong", seat=seat, territory=territory, points=0)

    def _after_rebuild(self, seat: int, right: bool) -> None:
        """D14: right = all towers of the castle stand again."""
        base = next(s for s in self.territories.values() if s.base_of == seat and s.owner == seat)
        if right:
            base.towers = self.rules.base_towers
            self._log("rebuild", "rebuild.done", seat=seat, towers=base.towers)
        else:
            self._log("rebuild", "rebuild.failed", seat=seat, towers=base.towers)
        self.battle.turn += 1

    def _after_battle_choice(self, right: set[int]) -> None:
        attack = self.attack
        outcome = battle.choice_outcome(attack.attacker in right, attack.defender in right)
        if outcome is battle.Outcome.GUESS_DECIDES:
            self._log("battle", "battle.both_right", seat=attack.attacker, defender=attack.defender,
                      territory=attack.territory)
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
        defender.bonuses += points
        self._log("defend", "defend.held", seat=defender.seat, attacker=attack.attacker, territory=attack.territory,
                  points=points)
        self.battle.turn += 1

    def _attacker_wins(self) -> None:
        attack = self.attack
        state = self.territories[attack.territory]
        if state.towers:
            state.towers -= 1
            attack.battles_won += 1
            self._log("tower", "tower.fallen", seat=attack.attacker, defender=attack.defender,
                      territory=attack.territory, towers=state.towers)
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
        state.owner, state.value = attack.attacker, gained
        self._log("take", "take.territory", seat=attack.attacker, defender=attack.defender, territory=attack.territory,
                  gained=gained, lost=lost)

    def _capture_base(self, attack: AttackInProgress) -> None:
        """D9: everything of the defender passes to the attacker; the defender is out."""
        winner, loser = self.players[attack.attacker], self.players[attack.defender]
        taken = [t for t, s in self.territories.items() if s.owner == loser.seat]
        base = self.territories[attack.territory]
        moved = self.score(loser.seat)  # the points that pass to the winner
        revalued = self.rules.ruined_castle_value - base.value  # 0 unless a rule set changes it (D10)
        base.value = self.rules.ruined_castle_value
        for t in taken:
            self.territories[t].owner = winner.seat
        winner.bonuses += loser.bonuses
        winner.awards += loser.awards
        loser.bonuses = loser.awards = 0
        loser.eliminated_in = len(self.events)
        self._log("capture", "capture.base", seat=winner.seat, defender=loser.seat, territory=attack.territory,
                  territories=taken, points=moved, revalued=revalued)
        award = self.rules.elimination_award
        if award:
            winner.awards += award
            self._log("award", "award.elimination", seat=winner.seat, defender=loser.seat, points=award)

    # ------------------------------------------------------------------ end

    def _finish(self) -> None:
        self.pick_queue = []
        self._tie_groups = ending.tie_groups(self.players, self.scores(), self.rules.tiebreak_first_only)
        if self._tie_groups:
            self.phase = Phase.TIEBREAK
            self._next_tiebreak()
        else:
            self._declare_ranking()

    def _next_tiebreak(self) -> None:
        group = self._tie_groups.pop(0)
        self._log("phase", "phase.tiebreak", phase="tiebreak", seats=list(group), points=self.score(group[0]))
        self._ask(Purpose.TIEBREAK, group)

    def _after_tiebreak(self, group: tuple[int, ...], order: list[int], answered: set[int]) -> None:
        """D12: the tie-break's order places the tied players. D13: only an
        answerer wins it; when nobody answered, another is asked, up to
        ``rules.tiebreak_questions`` in all; then the tied players share the
        place and nobody gets the points."""
        tries = self.rules.tiebreak_questions
        if not answered and tries is not None:
            self._tiebreak_asked += 1
            if self._tiebreak_asked < tries:
                self._tie_groups.insert(0, group)
                self._next_tiebreak()
                return
            self._shared.append(group)
        else:
            self._place_tie(order)
        self._tiebreak_asked = 0
        if self._tie_groups:
            self._next_tiebreak()
        else:
            self._declare_ranking()

    def _place_tie(self, order: list[int]) -> None:
        """The tie-break's order places the tied players; its winner earns the points (D13)."""
        for place, seat in enumerate(order):
            self._tiebreak_place[seat] = place
        points = self.rules.tiebreak_points
        if points:
            winner = self.players[order[0]]
            winner.awards += points
            self._log("award", "award.tiebreak", seat=winner.seat, points=points)

    def _declare_ranking(self) -> None:
        """The final ranking and :attr:`places`; the event carries ``places``
        only when a place is shared (D13, D16)."""
        self.ranking = ending.final_ranking(self.players, self.scores(), self._tiebreak_place)
        self.places = ending.places(self.ranking, self._shared)
        self.phase = Phase.OVER
        if self.rules.win_kinds:
            self.win_kind = ending.win_kind(self.ranking[0], self.scores(), self.territories)
        shared = len(set(self.places)) < len(self.places)
        self._log("ranking", "ranking.final", ranking=list(self.ranking),
                  scores=self.scores(), **({"places": list(self.places)} if shared else {}),
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
            self._log("phase", "phase.bases", phase="bases", order=list(order))  # a copy: the queue empties
            return
        code = "bases.drawn" if bases is None else "bases.placed"
        if bases is None:
            bases = draw_bases(self.board, self.rules.players, self._chance.rng("game", "bases"))
        else:
            self._check_bases(bases)
        for seat, territory in enumerate(bases):
            self._set_base(seat, territory)
        self._log("bases", code, bases=list(bases))

    def _set_base(self, seat: int, territory: str) -> None:
        state = self.territories[territory]
        state.owner, state.base_of = seat, seat
        state.value, state.towers = self.rules.base_value, self.rules.base_towers

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

    def _log(self, kind: str, code: str, /, **data: object) -> None:
        self.events.append(Event(len(self.events), kind, code, data))


SAVE_VERSION = 1  # the version of Game.to_dict's data
MAX_GUESS = 10**15 - 1  # the largest guess (and bank answer): 15 digits


def _is_whole(value: object) -> bool:
    """True for an ``int`` that is not a ``bool`` (answers and times are whole numbers)."""
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["Game", "IllegalActionError"]
