"""The headless game table: one game, its bots, its clock and its deadlines.

The table owns what the widget class used to: the countdown of every prompt,
when bots act, the response time of every answer (stamped here, from the
table's own clock, for humans and bots alike), the late-answer policy, the
pause while a result is on screen, and "Play again". Screens only read views
(:meth:`Table.view`) and send intents (:meth:`Table.submit`) quoting the
view's ``state_id``; the single-screen app is this table plus widgets, and a
room host runs the same table on its own thread (every public method takes
the table's lock, and :meth:`~.clock.Clock.call_soon_threadsafe` hands work
to its loop). No widgets here: tests drive it with a
:class:`~.clock.ManualClock`.

Response times (D1's tie-break): a question's clock starts when the table
puts it (after the previous result's pause) and an answer's time is when the
table receives it, minus any time the teacher held the game. A bot's planned
delay is scaled by ``pace`` before it answers, and the time recorded is the
delay it really took, so a bot never looks slower or faster than it was.

Get ready (issue 24): Start (and "Play again") first gives every screen a
short 3-2-1 (:data:`GET_READY_S`, the view's ``get_ready_s``); the first
prompt is hidden and its timer starts only when the get-ready is over, so it
changes no response time and no outcome. A hold during it starts it again on
release.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

from ..bots import Bot
from ..engine import (
    Action,
    AnswerTooLateError,
    Attack,
    ChoiceAnswer,
    End,
    Event,
    Game,
    GuessAnswer,
    IllegalActionError,
    Pick,
    Rebuild,
    Skip,
    Timeout,
)
from ..engine.actions import ActionParseError
from ..engine.view import Prompt, View, prompt_id, view
from .ack import Ack
from .clock import Clock, LoopClock, Timer

NewGame = Callable[[int, frozenset[str]], tuple[Game, Mapping[int, Bot]]]
RecordListener = Callable[[str, Game], None]

#: Seconds of "get ready" after Start before the first prompt's timer runs
#: (a table made with ``get_ready_s=None`` reads it when it is made).
GET_READY_S = 3.0


class Deadline:
    """One prompt's timer: opened at a clock time, ``limit_s`` long; it can be
    held (paused) and extended.

    Args:
        opened_at: clock seconds when the prompt was put.
        limit_s: seconds allowed (D3).
    """

    def __init__(self, opened_at: float, limit_s: float):
        self.opened_at, self.limit_s = opened_at, limit_s
        self.extra_s = 0.0
        self.held_since: float | None = None
        self.held_total = 0.0

    def elapsed(self, now: float) -> float:
        """Seconds the prompt has been open, held time left out."""
        end = self.held_since if self.held_since is not None else now
        return max(0.0, end - self.opened_at - self.held_total)

    def left(self, now: float) -> float:
        """Seconds left (never below 0)."""
        return max(0.0, self.limit_s + self.extra_s - self.elapsed(now))

    def hold(self, now: float) -> None:
        if self.held_since is None:
            self.held_since = now

    def release(self, now: float) -> None:
        if self.held_since is not None:
            self.held_total += now - self.held_since
            self.held_since = None

    def extend(self, seconds: float) -> None:
        self.extra_s += seconds


class Table:
    """A game at the table.

    Args:
        game: a new game.
        bots: seat -> bot; every other seat is a person's.
        clock: the clock (default: the kernel's asyncio loop).
        pace: multiplies every bot delay and the pause after a result
            (1.0 = realistic, 0 = instant).
        reveal_s: seconds a question's result stays before play goes on.
        think_s: seconds a bot takes to choose a territory.
        new_game: makes the next game for "Play again": ``new_game(seed,
            asked_before)`` -> (game, bots); ``seed`` is the next game number
            after a game with a number, None after a game with a secret (the
            new game draws a fresh one: :func:`~.secret.new_secret`); ``asked_before``
            holds the ids of every question asked at this table so far (D4).
        earlier: the games played at this table before ``game`` (a resumed
            journal's), so "Play again" and reports count them.
        get_ready_s: seconds of "get ready" after Start and "Play again"
            before the first prompt (0: none; None: :data:`GET_READY_S`).
        rewrites: the undos and corrections made in ``game`` already (a
            record taken over: its ``record`` lines), so the state ids
            intents quote go on as they were (:attr:`state_id`).

    Attributes:
        game: the game now; games: every game played at this table.
        humans: the seats people play.
        started, paused, held, stopped: Start was pressed; a result is on
            screen; the teacher holds the game; the table is closed.
        getting_ready: Start was pressed and the get-ready runs (the first
            prompt waits).
        fault: the last unexpected error a timer met (the game went on), or "".
    """

    def __init__(self, game: Game, bots: Mapping[int, Bot], clock: Clock | None = None, pace: float = 1.0,
                 reveal_s: float = 3.0, think_s: float = 1.2, new_game: NewGame | None = None,
                 earlier: Sequence[Game] = (), get_ready_s: float | None = None, rewrites: int = 0):
        self.game = game
        self.games = [*earlier, game]
        self.bots = dict(bots)
        self.clock = clock or LoopClock()
        self.pace, self.reveal_s, self.think_s = pace, reveal_s, think_s
        self.get_ready_s = GET_READY_S if get_ready_s is None else max(0.0, float(get_ready_s))
        self._ready_until: float | None = None  # clock time the get-ready ends, while it runs
        self.new_game = new_game
        self.started = self.paused = self.held = self.stopped = False
        self.fault = ""
        self._lock = threading.RLock()
        self._timers: list[Timer] = []
        self._deadline: Deadline | None = None
        self._deadline_for = ""  # the state id the deadline belongs to
        self._plans: dict[int, Action] = {}  # bot seat -> its answer to the open question
        self._extra_next = 0.0  # seconds extend() gave the prompt still to come
        self._listeners: list[Callable[[list[Event]], None]] = []
        self._record_listeners: list[RecordListener] = []
        self._game_no = len(self.games)
        self._rewrites = rewrites  # undos and corrections in this game (part of the state id)
        self._spent: dict[tuple[str, str], float] = {}  # (prompt, question) -> seconds it had run when left
        self._by_bots: set[tuple[tuple[str, str], int]] = set()  # (moment, seat): a bot answered the open question

    @property
    def getting_ready(self) -> bool:
        return self._ready_until is not None and not self.game.is_over and not self.stopped

    def get_ready_left(self) -> float:
        """Seconds of the get-ready still to run (0 when none runs; its whole
        length while the teacher holds it: it starts again on release)."""
        with self._lock:
            if not self.getting_ready:
                return 0.0
            if self.held:
                return self.get_ready_s
            return max(0.0, self._ready_until - self.clock.now())

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.game.players if p.seat not in self.bots)

    # ------------------------------------------------------------------ reading

    def on_change(self, listener: Callable[[list[Event]], None]) -> None:
        """Call ``listener(new_events)`` after every change (a move, a timeout,
        a pause ending, a new game); it then reads :meth:`view`."""
        self._listeners.append(listener)

    def on_record(self, listener: RecordListener) -> None:
        """Call ``listener(what, game)`` whenever the record changes, before the
        screens hear of it: ``"entries"`` (new entries at the end of
        ``game.record``), ``"replace"`` (an undo or a corrected answer:
        ``game`` has a new record and burned questions) or ``"game"`` (a new
        game began). The journal writes from this."""
        self._record_listeners.append(listener)

    @property
    def state_id(self) -> str:
        """The state id intents quote now: ``"<game number>:<prompt>"``, and
        after the teacher rewrote the record (an undo, a correction)
        ``"<game number>.<rewrites>:<prompt>"``, so an intent quoting a moment
        from before the rewrite is stale even where the record's length
        repeats."""
        epoch = f".{self._rewrites}" if self._rewrites else ""
        return f"{self._game_no}{epoch}:{prompt_id(self.game)}"

    def time_left(self) -> float:
        """Seconds left on the open prompt's timer (its full limit before Start; before its timer
        runs, the limit less the time it ran already: an undo, or a room taken over, :meth:`give_back`)."""
        with self._lock:
            if self._deadline is None or self._deadline_for != self.state_id:
                if self.game.is_over:
                    return 0.0
                return max(0.0, float(self.game.time_limit_s()) - self._spent.get(self._moment(), 0.0))
            return self._deadline.left(self.clock.now())

    def clock_point(self) -> tuple[str, str, float] | None:
        """Where the open prompt's timer stands: ``(moment, what, elapsed_s)`` (the game number and
        prompt as the record places them, the question's id or the stage, and the seconds it has
        run, held time left out), or None while no timer runs for it (before Start, a get-ready, a
        result on screen, the game over) and none was given back to it (:meth:`give_back`). A host process writes it to Redis so that another one
        taking the room over gives the prompt back the time it had left (issue 23)."""
        with self._lock:
            if not self.started or self.paused or self.game.is_over or self.stopped:
                return None
            moment, what = self._moment()
            deadline = self._deadline
            if deadline is not None and self._deadline_for == self.state_id and not self.getting_ready:
                return moment, what, deadline.elapsed(self.clock.now())
            spent = self._spent.get((moment, what))  # a prompt given back its time, its timer not running yet
            return None if spent is None else (moment, what, spent)

    def give_back(self, moment: str, what: str, elapsed_s: float) -> None:
        """The prompt at ``moment`` asking ``what`` (:meth:`clock_point`) had run ``elapsed_s`` seconds
        when this table took it over: its timer goes on from there, not from 0 (a room taken over from
        a host process that died, issue 23; answers are timed on from there, D1)."""
        if isinstance(elapsed_s, bool) or not isinstance(elapsed_s, (int, float)) or not 0 <= elapsed_s < math.inf:
            raise ValueError(f"elapsed_s is a finite number of seconds >= 0, not {elapsed_s!r}")
        with self._lock:
            self._spent[(moment, what)] = float(elapsed_s)

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see now (None: the projector), with the table's
        clock: started, paused (a result on screen or held) and time left.
        An answer a bot gave for the seat (handed to a bot, maybe back since)
        is not its ``my_answer`` until the reveal (issue 28: a hard bot's is
        mostly the correct one).

        Raises:
            ValueError: not a seat of this game.
        """
        with self._lock:
            v = view(self.game, seat)
            if v.question is not None and (self._moment(), seat) in self._by_bots:
                v = replace(v, question=replace(v.question, my_answer=None))
            ready = self.get_ready_left()
            if (self.paused or ready) and v.question is not None:  # the next question is put after the pause, not before
                v = replace(v, question=None, prompt=Prompt("wait"))
            elif ready:  # a territory to choose waits for the get-ready too
                v = replace(v, prompt=Prompt("wait"))
            return replace(v, state_id=self.state_id, started=self.started, paused=self.paused or self.held,
                           time_left_s=round(self.time_left(), 3), get_ready_s=round(ready, 3))

    # ------------------------------------------------------------------ control

    def start(self) -> None:
        """Begin play: the get-ready, then the first prompt's timer (at once
        without a get-ready)."""
        with self._lock:
            if not self.started and not self.stopped:
                self.started = True
                self._get_ready([])

    def _get_ready(self, events: list[Event]) -> None:
        """Run the get-ready (``get_ready_s``), then the first prompt; with
        none, the first prompt now."""
        if self.get_ready_s <= 0 or self.game.is_over:
            self._ready_until = None
            self._step(events)
            return
        self._cancel_timers()
        self._ready_until = self.clock.now() + self.get_ready_s
        self._later(self.get_ready_s, self._ready_over(self._game_no))
        self._notify(events)

    def _ready_over(self, game_no: int) -> Callable[[], None]:
        """What ends game ``game_no``'s get-ready: its first prompt, timer running."""
        def ready() -> None:
            if game_no == self._game_no and self._ready_until is not None and not self.held:
                self._ready_until = None
                self._step([])
        return ready

    def hold(self) -> None:
        """The teacher holds the game: the timer stops, bots wait, intents are
        refused until :meth:`release`."""
        with self._lock:
            if self.started and not self.held and not self.stopped:
                self.held = True
                self._cancel_timers()
                if self._deadline is not None:
                    self._deadline.hold(self.clock.now())
                self._notify([])

    def release(self) -> None:
        """Go on after :meth:`hold`, with the time that was left."""
        with self._lock:
            if self.held and not self.stopped:
                self.held = False
                if self._deadline is not None:
                    self._deadline.release(self.clock.now())
                if self.getting_ready:
                    self._get_ready([])
                elif self.paused:
                    self._arm_reveal()
                else:
                    self._step([])

    def extend(self, seconds: float) -> None:
        """Give the open prompt ``seconds`` more (while a result is on screen:
        the next prompt). Answers in the extra time are recorded at the
        question's time limit (D3 keeps the limit).

        Raises:
            ValueError: ``seconds`` is not a finite number > 0.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < math.inf:
            raise ValueError(f"extend takes a finite number of seconds > 0, not {seconds!r}")
        with self._lock:
            if self.stopped:
                return
            if self.paused or self._deadline is None or self._deadline_for != self.state_id:
                self._extra_next += seconds
                return
            self._deadline.extend(seconds)
            if not self.held:
                self._step([])

    def recover(self) -> None:
        """Re-arrange timers and bots from the game as it stands (after an
        error), keeping the open prompt's deadline: the time left stays what
        it was, and bots answer when they planned to. Starts the game if
        Start was not pressed."""
        with self._lock:
            if self.stopped:
                return
            if self.held and self._deadline is not None:
                self._deadline.release(self.clock.now())
            self.started, self.held = True, False
            if self.getting_ready:
                self._get_ready([])
            elif self.paused:
                self._arm_reveal()
            else:
                self._step([])

    def stop(self) -> None:
        """Close the table: every timer is cancelled and nothing acts any more."""
        with self._lock:
            self.stopped = True
            self._cancel_timers()

    def restart(self) -> None:
        """The next game with the same settings ("Play again"): a fresh secret
        after a game with a secret, the next game number after one with a
        number.

        Raises:
            RuntimeError: the table was made without ``new_game``.
        """
        with self._lock:
            if self.stopped:
                return
            if self.new_game is None:
                raise RuntimeError("this table was made without a way to start a new game")
            game, bots = self.new_game(None if self.game.secret is not None else self.game.seed + 1,
                                       self.asked_ids())
            self.game, self.bots = game, dict(bots)
            self.games.append(game)
            self._game_no += 1
            self._rewrites, self._spent = 0, {}
            self._tell_record("game", game)
            self._deadline, self._deadline_for, self._plans = None, "", {}
            self.paused = self.held = False
            self.started = True
            self._get_ready(list(game.events))

    def set_bot(self, seat: int, bot: Bot | None) -> None:
        """Hand ``seat`` to ``bot`` (a silent student's seat), or back to its
        people (``None``). The open prompt keeps its deadline; a bot taking
        over an open question answers after its planned delay, counted from
        when the question was put.

        Raises:
            ValueError: not a seat of this game.
        """
        if type(seat) is not int or not 0 <= seat < len(self.game.players):
            raise ValueError(f"there is no seat {seat!r} at this table")
        with self._lock:
            if bot is None:
                self.bots.pop(seat, None)
            else:
                self.bots[seat] = bot
            self._plans.pop(seat, None)
            if self.started and not self.paused and not self.held and not self.stopped:
                self._step([])
            else:
                self._notify([])

    def autoplay(self, skill: str = "medium") -> Game:
        """Let bots finish the game at once, a bot of ``skill`` standing in for
        every person. Returns the game."""
        with self._lock:
            if self.stopped:
                return self.game
            self._cancel_timers()
            self.started, self.paused, self.held = True, False, False
            self._ready_until = None
            number = self.game.seed if self.game.secret is None else 0  # (a secret game's bots draw from its secret)
            stand_ins = {s: Bot(s, skill, number + 1 + s) for s in range(len(self.game.players))}
            first = len(self.game.events)
            while not self.game.is_over:
                seat = self.game.current_players()[0]
                try:
                    action = (self.bots.get(seat) or stand_ins[seat]).act(self.game)
                    self.game.apply(action)
                except Exception as error:  # noqa: BLE001 - a failing bot: a stand-in plays its move
                    self.fault = f"{type(error).__name__}: {error}"
                    self.game.apply(stand_ins[seat].act(self.game))
            self._tell_record("entries", self.game)
            self._notify(self.game.events[first:])
            return self.game

    def asked_ids(self) -> frozenset[str]:
        """Ids of the questions asked in every game at this table so far."""
        return frozenset(e.data["question"] for g in self.games for e in g.events if e.kind == "answers")

    # ------------------------------------------------------------------ the teacher's controls

    def skip(self) -> Ack:
        """Skip the open question: the same players get another of the same
        type with a fresh timer; the skipped one's answers are dropped
        (:class:`~triviador_nb.engine.Skip`)."""
        with self._lock:
            if self.stopped or self.game.question is None or self.paused:
                return Ack("rejected", "no_question", "there is no open question to skip")
            return self._apply(Skip(), None)

    def end_now(self) -> Ack:
        """End the game now with the current ranking (:class:`~triviador_nb.engine.End`)."""
        with self._lock:
            if self.stopped or self.game.is_over:
                return Ack("rejected", "game_over", "the game is over already")
            self._cancel_timers()
            return self._apply(End(), None)

    def undo(self) -> Ack:
        """Take back the last action (:meth:`~triviador_nb.engine.Game.undone`);
        the prompt it brings back (a question, a pick, an attack) has the time
        it had left when the action was made, and answers to it are timed on
        from there. Works while the game is held; the game stays held."""
        with self._lock:
            if self.stopped:
                return Ack("rejected", "stopped", "this game has been closed")
            try:
                game = self.game.undone()
            except IllegalActionError as error:
                return Ack("rejected", error.code, error.reason)
            self._replace_game(game)
            self._tell_record("replace", game)
            self._step([])
            return Ack("accepted", "ok")

    def enter_answer(self, seat: int, given: int | None, timed: bool = True) -> Ack:
        """The teacher enters (or corrects, while the question is open) a
        seat's answer: an oral answer, or a team's on paper.

        Args:
            seat: a seat people play (not a bot's).
            given: the guess (a whole number >= 0), the option's index 0-3 as
                shown (A-D), or None for no answer.
            timed: the response time is now, as the table stamps it (D1's
                tie-break); False records no time (ranked after every timed
                answer).

        Returns:
            An :class:`Ack`; works while the game is held, not before Start. A
            correction that is refused leaves the earlier answer as it was.
        """
        with self._lock:
            asked = self.game.question
            if not self.started:
                return Ack("rejected", "not_started", "Press Start to begin the game.")
            if self.stopped or asked is None or self.paused or self.getting_ready:
                return Ack("rejected", "no_question", "there is no open question to answer")
            if type(seat) is not int or seat not in asked.players:
                return Ack("rejected", "not_your_seat", f"{_short(seat)} is not asked this question")
            if seat in self.bots:
                return Ack("rejected", "not_your_seat", "a bot plays this seat")
            ms = self._stamp() if timed and given is not None else None
            action = GuessAnswer(seat, given, ms) if asked.is_guess else ChoiceAnswer(seat, given, ms)
            if seat in asked.waiting_for:
                return self._apply(action, ms)
            return self._correct(action, ms)

    def _correct(self, action: GuessAnswer | ChoiceAnswer, ms: int | None) -> Ack:
        """Replace the seat's answer to the open question (it stands after the
        question's draw in the record) by ``action``; nothing changes when the
        new answer is refused."""
        game = self.game
        draw_at = int(prompt_id(game))
        keep = [e for i, e in enumerate(game.record)
                if not (i > draw_at and isinstance(e, (GuessAnswer, ChoiceAnswer)) and e.player == action.player)]
        candidate = game.replayed(keep)
        try:
            events = candidate.apply(action)
        except IllegalActionError as error:  # the earlier answer stays
            return Ack("rejected", error.code, error.reason)
        self._by_bots.discard((self._moment(), action.player))  # the teacher's answer now, not the bot's
        self._replace_game(candidate, keep_deadline=True)
        self._tell_record("replace", candidate)
        self._after(events)
        return Ack("accepted", "ok", "", ms)

    def _replace_game(self, game: Game, keep_deadline: bool = False) -> None:
        sid = self.state_id
        self._rewrites += 1
        if keep_deadline:  # the same prompt goes on: its deadline is the new state id's
            self._deadline_for = self.state_id if self._deadline_for == sid else self._deadline_for
        self.game = self.games[-1] = game
        self.paused = False
        self._cancel_timers()
        if not keep_deadline:
            self._plans = {}

    def _tell_record(self, what: str, game: Game) -> None:
        for listener in list(self._record_listeners):
            listener(what, game)

    # ------------------------------------------------------------------ intents

    def submit(self, seat: int, intent: Action | str, state_id: str | None = None) -> Ack:
        """A person's intent: a pick, an attack, a rebuild or an answer, as an
        action or its text form (``"pick p1 HU-PE"``, ``"answer p2 B"``); any
        response time in it is ignored: the table stamps its own.

        Args:
            seat: the seat sending it (its ``player`` must be this seat).
            intent: the action.
            state_id: the :attr:`View.state_id` the intent answers; None
                skips the check (the single screen, which is never behind).

        Returns:
            An :class:`Ack`; nothing is raised for a bad intent, and the game
            is unchanged unless the ack is accepted or late.
        """
        if type(seat) is not int or not 0 <= seat < len(self.game.players):
            return Ack("rejected", "not_your_seat", f"there is no seat {_short(seat)} at this table")
        if state_id is not None and not isinstance(state_id, str):
            return Ack("stale", "stale_state", "that moment of the game has passed")
        with self._lock:
            problem = self._refusal(seat, state_id)
            if problem is not None:
                return problem
            try:
                action = self.game.parse(intent) if isinstance(intent, str) else intent
            except ActionParseError:
                return Ack("rejected", "unreadable", f"cannot read {_short(intent)} as a pick, attack, rebuild or answer")
            if not isinstance(action, (Pick, Attack, Rebuild, GuessAnswer, ChoiceAnswer)):
                return Ack("rejected", "not_an_intent", "only a pick, an attack, a rebuild or an answer can be sent")
            if getattr(action, "player", None) != seat:
                return Ack("rejected", "not_your_seat", "an intent can only be sent for one's own seat")
            if seat in self.bots:
                return Ack("rejected", "not_your_seat", "a bot plays this seat")
            ms = None
            if isinstance(action, (GuessAnswer, ChoiceAnswer)):
                ms = self._stamp()
                action = replace(action, ms=ms if _given(action) is not None else None)
            return self._apply(action, ms)

    def _refusal(self, seat: int, state_id: str | None) -> Ack | None:
        if self.stopped:
            return Ack("rejected", "stopped", "this game has been closed")
        if not self.started:
            return Ack("rejected", "not_started", "Press Start to begin the game.")
        asked = self.game.question
        if state_id is not None and state_id != self.state_id:
            return Ack("stale", "stale_state", "that moment of the game has passed")
        if asked is not None and seat in asked.players and seat not in asked.waiting_for:
            return Ack("duplicate", "already_answered", "your answer is in already")
        if self.held:
            return Ack("rejected", "held", "the teacher has paused the game")
        if self.getting_ready:
            return Ack("rejected", "get_ready", "get ready: the game begins in a moment")
        if self.paused:
            return Ack("rejected", "paused", "one moment: the result is still on screen")
        return None

    def _stamp(self) -> int:
        """The response time now, in ms, from the open question's deadline;
        answers in extra time count as given at the time limit."""
        deadline = self._deadline
        if deadline is None:
            return 0
        elapsed = deadline.elapsed(self.clock.now())
        if deadline.extra_s and deadline.limit_s < elapsed <= deadline.limit_s + deadline.extra_s:
            elapsed = deadline.limit_s  # in the extra time: at the limit; after it, late as ever
        return round(elapsed * 1000)

    def _moment(self) -> tuple[str, str]:
        """The prompt as the record places it, and what it asks (the question's
        id or the stage): the same after an undo brings it back."""
        game = self.game
        return (f"{self._game_no}:{prompt_id(game)}",
                game.question.question.id if game.question is not None else game.stage)

    def _apply(self, action: Action, ms: int | None) -> Ack:
        if self._deadline is not None and self._deadline_for == self.state_id:
            self._spent[self._moment()] = self._deadline.elapsed(self.clock.now())  # for an undo that comes back
        try:
            events = self.game.apply(action)
        except AnswerTooLateError as error:
            events = self.game.apply(_no_answer(action.player, isinstance(action, GuessAnswer)))  # D3: a late answer is no answer
            self._tell_record("entries", self.game)
            self._after(events)
            return Ack("late", error.code, "too late: the timer had run out, so this counts as no answer", ms)
        except IllegalActionError as error:
            return Ack("rejected", error.code, error.reason)
        self._tell_record("entries", self.game)
        self._after(events)
        return Ack("accepted", "ok", "", ms)

    # ------------------------------------------------------------------ flow

    def _after(self, events: list[Event]) -> None:
        if any(e.kind == "answers" for e in events):
            self.paused = True
            self._cancel_timers()
            self._arm_reveal()
            self._notify(events)
        else:
            self._step(events)

    def _arm_reveal(self) -> None:
        game_no = self._game_no
        self._later(self.reveal_s * self.pace, lambda: self._step([]) if game_no == self._game_no else None)

    def _step(self, events: list[Event]) -> None:
        """Arrange what happens next from the game as it stands: the prompt's
        deadline (kept when the prompt is the same), its expiry, the bots."""
        self.paused = False
        self._cancel_timers()
        game = self.game
        if game.is_over or not self.started or self.held or self.stopped or self.getting_ready:
            if self.getting_ready and not self.held:  # a skip, a hand-over during the get-ready: it runs on
                self._later(self._ready_until - self.clock.now(), self._ready_over(self._game_no))
            self._notify(events)
            return
        now, sid = self.clock.now(), self.state_id
        if self._deadline is None or self._deadline_for != sid:
            spent = self._spent.get(self._moment(), 0.0)  # a prompt an undo brought back keeps the time it had left
            self._deadline, self._deadline_for, self._plans = Deadline(now - spent, game.time_limit_s()), sid, {}
            if self._extra_next:
                self._deadline.extend(self._extra_next)
                self._extra_next = 0.0
        deadline = self._deadline
        self._later(deadline.left(now), lambda: self._expire(sid))
        elapsed = deadline.elapsed(now)
        if game.stage == "answer":
            for seat in game.question.waiting_for:
                if seat in self.bots:
                    if seat not in self._plans:
                        self._plans[seat] = self._bot_plan(seat)
                    plan = self._plans[seat]
                    planned_s = plan.ms / 1000 if plan.ms is not None else deadline.limit_s
                    self._later(planned_s * self.pace - elapsed, lambda s=seat: self._bot_answer(sid, s))
        else:
            seat = game.current_players()[0]
            if seat in self.bots:
                self._later(self.think_s * self.pace - elapsed, lambda: self._bot_turn(sid, seat))
        self._notify(events)

    def _bot_plan(self, seat: int) -> Action:
        """The bot's answer to the open question; a bot that fails gives no
        answer (the fault is kept in :attr:`fault`) and the game goes on."""
        try:
            return self.bots[seat].act(self.game)
        except Exception as error:  # noqa: BLE001 - a broken bot must not stop the class's game
            self.fault = f"{type(error).__name__}: {error}"
            return _no_answer(seat, self.game.question.is_guess)

    def _bot_answer(self, sid: str, seat: int) -> None:
        if sid != self.state_id or self.paused or self.held:
            return
        plan = self._plans[seat]
        ms = self._stamp() if _given(plan) is not None else None
        moment = self._moment()
        self._by_bots = {k for k in self._by_bots if k[0] == moment} | {(moment, seat)}
        self._apply(replace(plan, ms=ms), ms)

    def _bot_turn(self, sid: str, seat: int) -> None:
        """The bot's pick or attack; a bot that fails lets its timer choose (D3)."""
        if sid != self.state_id or self.game.is_over or self.paused or self.held:
            return
        try:
            action = self.bots[seat].act(self.game)
        except Exception as error:  # noqa: BLE001 - a broken bot must not stop the class's game
            self.fault = f"{type(error).__name__}: {error}"
            action = Timeout(seat)
        self._apply(action, None)

    def _expire(self, sid: str) -> None:
        """The prompt's time is up: every answer still missing is no answer
        (D3); a territory choice not made is made at random (D3)."""
        if sid != self.state_id or self.paused or self.held:
            return
        game = self.game
        if game.stage == "answer":
            asked = game.question
            for seat in asked.waiting_for:
                if game.question is asked:
                    self._apply(_no_answer(seat, asked.is_guess), None)
        else:
            self._apply(Timeout(game.current_players()[0]), None)

    # ------------------------------------------------------------------ plumbing

    def _later(self, delay_s: float, callback: Callable[[], None]) -> None:
        def run() -> None:
            with self._lock:
                if self.stopped:
                    return
                try:
                    callback()
                except Exception as error:  # noqa: BLE001 - a timer must never take the table down
                    self.fault = f"{type(error).__name__}: {error}"
                    try:
                        self._notify([])
                    except Exception:  # noqa: BLE001 - a screen that cannot show the fault must not stop play
                        pass
        self._timers.append(self.clock.call_later(delay_s, run))

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []

    def _notify(self, events: list[Event]) -> None:
        for listener in list(self._listeners):
            listener(events)


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a hostile intent can be huge)."""
    text = repr(value) if not isinstance(value, str) else repr(value[: limit + 1])
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _given(action: Action) -> object:
    return action.value if isinstance(action, GuessAnswer) else getattr(action, "option", None)


def _no_answer(seat: int, guess: bool) -> GuessAnswer | ChoiceAnswer:
    """``seat``'s "no answer" to a guess or a multiple-choice question."""
    return GuessAnswer(seat, None) if guess else ChoiceAnswer(seat, None)

