"""The headless game table: its clock, deadlines, response times and acks.

Driven with a ManualClock and no widgets. The first two tests are the timing
bugs issue 10 confirmed in the widget class: ``resume()`` re-asked the open
question with a full timer, and at ``pace < 1`` a bot's answer was recorded
with its unscaled delay (1,956 ms for an answer that came after 0.6 s), so
D1's fastest-answer tie-break could go to the wrong player.
"""

from __future__ import annotations

import threading

import pytest
from fixture_data import grid_board, synthetic_bank

from triviador_nb.bots import Bot
from triviador_nb.classroom import Deadline, ManualClock, Table
from triviador_nb.engine import CONQUIZTADOR, ChoiceAnswer, Game, GuessAnswer, Pick
from triviador_nb.ui import play


class FixedBot(Bot):
    """A bot that answers every guess question with ``value`` after ``ms``."""

    def __init__(self, seat: int, value: int, ms: int):
        super().__init__(seat, "medium", 0)
        self.value, self.ms = value, ms

    def act(self, game):
        if game.stage == "answer" and game.question.is_guess:
            return GuessAnswer(self.seat, self.value, self.ms)
        return super().act(game)


def table_with(bots=None, pace=1.0, seed=4) -> tuple[Table, ManualClock]:
    clock = ManualClock()
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), seed)
    bots = bots if bots is not None else {1: Bot(1, "medium", seed), 2: Bot(2, "hard", seed)}
    return Table(game, bots, clock, pace=pace), clock


def test_resume_keeps_the_time_left_on_the_open_question():
    """Issue 10: 2.0 s left became 9.75 s after resume(); now 2.0 s stay 2.0 s."""
    clock = ManualClock()
    app = play(seed=7, clock=clock)
    app.start()
    assert app.game.stage == "answer" and app.game.question.is_guess  # D3: 10 s for a guess question
    clock.advance(8.0)
    assert app.table.time_left() == pytest.approx(2.0)
    app.resume()
    assert app.table.time_left() == pytest.approx(2.0)
    assert app.panel.timer.value == pytest.approx(2.0)  # the countdown on screen agrees
    question = app.game.question
    clock.advance(2.0)  # the original deadline, not a new one
    assert app.game.question is not question
    assert GuessAnswer(0, None) in app.game.actions  # the human's no answer at 10 s (D3)


def test_a_bots_answer_is_recorded_when_it_arrives_at_any_pace():
    """Issue 10: at pace 0.3 a bot planning 2,000 ms answers after 0.6 s and is
    recorded at 600 ms, so it beats a person who answered the same after 0.7 s (D1)."""
    table, clock = table_with({1: FixedBot(1, 50, 2000), 2: FixedBot(2, 1, 9000)}, pace=0.3)
    table.start()
    clock.advance(0.6)
    clock.advance(0.1)
    ack = table.submit(0, GuessAnswer(0, 50))
    assert (ack.status, ack.ms) == ("accepted", 700)
    clock.advance(3.0)  # bot 2 answers at 2.7 s
    reveal = [e for e in table.game.events if e.kind == "answers"][0]
    times = {a["seat"]: a["ms"] for a in reveal.data["answers"]}
    assert times == {0: 700, 1: 600, 2: 2700}
    assert reveal.data["order"][:2] == [1, 0]  # same guess: the faster bot first (D1)


def test_response_times_are_stamped_by_the_table_not_taken_from_the_intent():
    table, clock = table_with()
    table.start()
    clock.advance(1.234)
    ack = table.submit(0, GuessAnswer(0, 10, ms=1))  # a forged 1 ms
    assert (ack.status, ack.ms) == ("accepted", 1234)
    assert GuessAnswer(0, 10, 1234) in table.game.actions


def test_intents_before_start_are_refused_with_a_code():
    table, _ = table_with()
    ack = table.submit(0, GuessAnswer(0, 10))
    assert (ack.status, ack.code, ack.reason) == ("rejected", "not_started", "Press Start to begin the game.")
    assert table.game.actions == []


def test_a_duplicate_answer_is_acknowledged_and_changes_nothing():
    table, clock = table_with()
    table.start()
    state_id = table.state_id
    assert table.submit(0, GuessAnswer(0, 10), state_id).accepted
    before = list(table.game.record)
    again = table.submit(0, GuessAnswer(0, 99), state_id)  # a double click
    assert (again.status, again.code) == ("duplicate", "already_answered")
    assert table.game.record == before


def test_a_stale_state_id_is_acknowledged_and_changes_nothing():
    table, clock = table_with()
    table.start()
    old = table.state_id
    table.submit(0, GuessAnswer(0, 10), old)
    clock.advance(20)  # the bots answer, the result shows, play goes on
    assert table.state_id != old
    before = list(table.game.record)
    ack = table.submit(0, "answer p1 12", old)
    assert (ack.status, ack.code) == ("stale", "stale_state")
    assert table.game.record == before


def test_every_answer_to_one_question_quotes_the_same_state_id():
    table, clock = table_with(bots={2: Bot(2, "hard", 4)})
    table.start()
    sid = table.state_id
    assert table.submit(0, GuessAnswer(0, 10), sid).accepted
    assert table.state_id == sid  # the question is still open: seat 1's answer may quote it too
    assert table.submit(1, GuessAnswer(1, 11), sid).accepted


def test_forged_and_unreadable_intents_are_refused():
    table, clock = table_with()
    table.start()
    assert table.submit(0, GuessAnswer(1, 10)).code == "not_your_seat"  # seat 0 answering for seat 1
    assert table.submit(1, GuessAnswer(1, 10)).code == "not_your_seat"  # a bot's seat
    assert table.submit(0, "answer p1 banana").code == "unreadable"
    assert table.submit(0, ChoiceAnswer(0, 2)).code == "invalid_answer"  # a guess question is open
    assert table.game.actions == []


def test_an_illegal_pick_is_refused_with_the_engines_code_and_reason():
    table, clock = table_with(bots={1: FixedBot(1, 0, 1000), 2: FixedBot(2, 0, 1000)})
    table.start()
    table.submit(0, GuessAnswer(0, table.game.question.question.answer))  # exact: seat 0 picks first
    clock.advance(1.0)
    clock.advance(table.reveal_s)
    assert table.game.stage == "pick" and table.game.current_players() == (0,)
    far = next(t for t in table.game.territories if t not in table.game.legal_picks(0)
               and table.game.territories[t].owner is None)
    ack = table.submit(0, Pick(0, far))
    assert (ack.status, ack.code) == ("rejected", "illegal_territory")
    assert "not next to" in ack.reason or "borders" in ack.reason or "next to" in ack.reason


def test_answers_wait_while_the_result_is_on_screen():
    table, clock = table_with(bots={1: FixedBot(1, 5, 500), 2: FixedBot(2, 6, 500)})
    table.start()
    table.submit(0, GuessAnswer(0, 7))
    clock.advance(0.5)  # the bots answer: the result is on screen for reveal_s
    assert table.paused
    ack = table.submit(0, Pick(0, "A1"))
    assert (ack.status, ack.code) == ("rejected", "paused")
    assert table.view(0).paused


def test_hold_stops_the_clock_and_release_gives_back_the_time_left():
    table, clock = table_with()
    table.start()
    clock.advance(1.0)  # before any bot's answer (the fastest, hard, takes 1.5 s at least)
    table.hold()
    clock.advance(60.0)  # the teacher talks; nobody's timer runs, no bot answers
    assert table.time_left() == pytest.approx(9.0)
    assert table.game.question.answers == {}
    assert table.submit(0, GuessAnswer(0, 3)).code == "held"
    table.release()
    clock.advance(0.5)
    ack = table.submit(0, GuessAnswer(0, 3))
    assert ack.ms == 1500  # the held minute does not count


def test_extend_gives_more_time_and_stamps_extra_time_answers_at_the_limit():
    table, clock = table_with(bots={1: FixedBot(1, 5, 500), 2: FixedBot(2, 6, 500)})
    table.start()
    clock.advance(9.0)
    table.extend(5.0)
    clock.advance(3.0)  # 12 s: past the 10 s limit, within the extension
    assert table.game.question is not None
    ack = table.submit(0, GuessAnswer(0, 7))
    assert (ack.status, ack.ms) == ("accepted", 10_000)  # D3 keeps the limit: counted as at 10 s


class BrokenBot(Bot):
    """A bot whose every move fails."""

    def act(self, game):
        raise RuntimeError("bot broke")


def test_a_broken_bot_is_reported_and_the_game_goes_on():
    table, clock = table_with({1: BrokenBot(1, "medium", 4), 2: Bot(2, "hard", 4)})
    faults = []
    table.on_change(lambda events: faults.append(table.fault))
    table.start()
    assert table.fault == "RuntimeError: bot broke"
    table.submit(0, GuessAnswer(0, 5))
    clock.advance(10.0)  # the broken bot's "no answer" comes at the deadline
    reveal = next(e for e in table.game.events if e.kind == "answers")
    assert {a["seat"]: a["given"] for a in reveal.data["answers"]}[1] is None
    assert "RuntimeError: bot broke" in faults


def test_stop_cancels_every_timer():
    table, clock = table_with()
    table.start()
    assert clock.pending > 0
    table.stop()
    assert clock.pending == 0
    assert table.submit(0, GuessAnswer(0, 1)).code == "stopped"


def test_intents_from_another_thread_are_taken_under_the_tables_lock():
    table, clock = table_with()
    table.start()
    clock.advance(1.0)
    acks = []
    thread = threading.Thread(target=lambda: acks.append(table.submit(0, GuessAnswer(0, 42), table.state_id)))
    thread.start()
    thread.join(timeout=5)
    assert not thread.is_alive() and acks[0].accepted and acks[0].ms == 1000
    handed = []
    clock.call_soon_threadsafe(lambda: handed.append(clock.now()))
    clock.advance(0.5)
    assert handed == [1.0]  # run at the next advance, on the clock's own loop


def test_a_deadline_counts_held_time_out():
    deadline = Deadline(100.0, 10.0)
    assert deadline.left(104.0) == 6.0
    deadline.hold(104.0)
    assert deadline.left(200.0) == 6.0
    deadline.release(200.0)
    assert deadline.elapsed(201.0) == 5.0
    deadline.extend(2.5)
    assert deadline.left(201.0) == 7.5
    assert deadline.left(10_000.0) == 0.0


def test_autoplay_finishes_the_game_with_stand_ins():
    table, clock = table_with()
    table.start()
    game = table.autoplay("easy")
    assert game.is_over and clock.pending == 0
    assert table.view(0).stage == "over"


# ----------------------------------------------------------------------------- found by a hostile review


def test_seats_and_intents_from_a_hostile_kernel_are_refused_without_a_trace():
    table, clock = table_with()
    table.start()
    for seat in ([0], True, 0.0, "0", None, -1, 99):
        assert table.submit(seat, GuessAnswer(0, 3)).code == "not_your_seat", seat
    assert table.submit(0, "timeout p1").code == "not_an_intent"  # the table's own timers time out, no one else
    assert table.submit(0, {"answer": 3}).code == "not_an_intent"
    assert table.submit(0, "draw guess g1").code == "not_an_intent"
    huge = table.submit(0, "x" * 1_000_000)
    assert huge.code == "unreadable" and len(huge.reason) < 120
    assert table.submit(0, GuessAnswer(0, 3), state_id=12).code == "stale_state"
    assert table.game.actions == []
    with pytest.raises(ValueError, match="there is no seat True"):
        table.view(True)


def test_the_next_question_stays_hidden_while_a_result_is_on_screen():
    """Its timer starts after the pause: a seat must not read it before."""
    table, clock = table_with({1: FixedBot(1, 5, 500), 2: FixedBot(2, 5, 500)}, seed=3)
    table.start()
    table.submit(0, GuessAnswer(0, 5))
    clock.advance(0.5)
    for _ in range(400):
        if table.paused and table.game.question is not None:
            break
        if table.game.stage in ("pick", "attack") and table.game.current_players() == (0,):
            table.submit(0, Pick(0, table.game.legal_picks(0)[0]) if table.game.stage == "pick"
                         else f"attack p1 {table.game.legal_targets(0)[0]}")
        elif table.game.question is not None and 0 in table.game.question.waiting_for and not table.paused:
            table.submit(0, GuessAnswer(0, 5) if table.game.question.is_guess else ChoiceAnswer(0, 0))
        clock.advance(0.5)
    assert table.paused and table.game.question is not None  # a result on screen, the next question drawn
    for seat in (None, 0, 1, 2):
        v = table.view(seat)
        assert v.question is None and v.prompt.kind == "wait"
        assert table.game.question.question.text not in v.to_json()


def test_recover_after_hold_goes_on_with_the_time_that_was_left():
    table, clock = table_with()
    table.start()
    clock.advance(3.0)
    table.hold()
    clock.advance(30.0)
    table.recover()
    clock.advance(5.0)
    assert table.time_left() == pytest.approx(2.0)
    assert table.submit(0, GuessAnswer(0, 1)).ms == 8000


def test_an_answer_after_the_extended_deadline_is_late():
    table, clock = table_with()
    table.start()
    table.extend(5.0)
    clock._now = 54.0  # a kernel too busy to run the expiry timer in time
    ack = table.submit(0, GuessAnswer(0, 1))
    assert (ack.status, ack.ms) == ("late", 54_000)
    assert GuessAnswer(0, None) in table.game.actions


def test_extend_takes_finite_seconds_and_during_a_result_gives_them_to_the_next_prompt():
    table, clock = table_with({1: FixedBot(1, 5, 500), 2: FixedBot(2, 6, 500)})
    for bad in (float("inf"), float("nan"), -1, 0, "5", True):
        with pytest.raises(ValueError, match="extend takes a finite number of seconds > 0"):
            table.extend(bad)
    table.start()
    table.submit(0, GuessAnswer(0, 5))
    clock.advance(0.5)
    assert table.paused
    table.extend(30)
    clock.advance(table.reveal_s)
    assert table.game.stage == "pick" and table.time_left() == pytest.approx(40.0)  # 10 s (D3) + 30 s


def test_autoplay_does_nothing_once_the_table_is_stopped():
    table, clock = table_with()
    table.start()
    table.stop()
    assert not table.autoplay().is_over and table.game.actions == []


def test_a_loop_clock_takes_intents_from_another_thread():
    """A room host's thread submits while the table's timers run on an asyncio
    loop in another thread: the reveal after the last answer still ends on time."""
    import asyncio
    import time

    from triviador_nb.classroom import LoopClock

    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 4)
        table = Table(game, {1: FixedBot(1, 5, 100), 2: FixedBot(2, 6, 100)}, LoopClock(loop), reveal_s=0.2)
        loop.call_soon_threadsafe(table.start)
        time.sleep(0.4)  # the bots answer at 0.1 s on the loop's thread
        assert table.submit(0, GuessAnswer(0, 7)).accepted  # from this thread: the reveal's timer is handed over
        deadline = time.monotonic() + 3.0
        while table.paused and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not table.paused and table.game.stage == "pick"
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(timeout=5)
        loop.close()


def test_a_table_taking_a_game_over_gives_the_open_question_the_time_it_had_left():
    """Issue 23 (failover): the process that takes over a room whose owner died replays its record
    and gives the open question back the time it had left (the pause is not the students' fault):
    10 s for a guess question (D3), 4 s had run, so 6 s are left, after a get-ready; the answer
    given before is in (a second one is a duplicate) and later answers are timed on from 4 s (D1)."""
    clock = ManualClock()
    game = Game(CONQUIZTADOR, grid_board(), synthetic_bank(), 4)
    table = Table(game, {}, clock, get_ready_s=0)
    table.start()
    assert game.stage == "answer" and game.question.is_guess
    clock.advance(2.5)
    assert table.submit(0, GuessAnswer(0, 3)).ms == 2500
    clock.advance(1.5)
    point = table.clock_point()
    assert point == (table.state_id, game.question.question.id, pytest.approx(4.0))

    later = ManualClock()  # another process: another clock
    later.advance(500.0)
    again = Table(Game.from_dict(game.to_dict(), grid_board(), synthetic_bank()), {}, later, get_ready_s=3.0)
    again.give_back(*point)
    again.start()
    assert again.state_id == table.state_id
    assert again.view(1).time_left_s == 6.0 and again.view(1).get_ready_s == 3.0  # shown during the get-ready
    assert again.clock_point() == point  # (written again as it stood, should this process die too)
    later.advance(3.0)
    assert again.time_left() == pytest.approx(6.0)
    later.advance(1.0)
    assert again.submit(1, GuessAnswer(1, 5)).ms == 5000
    assert again.submit(0, GuessAnswer(0, 7)).status == "duplicate"
    later.advance(4.999)
    assert again.game.question is not None and 2 in again.game.question.waiting_for
    later.advance(0.002)  # the question's 10 s are up: seat 3 gave no answer (D3)
    assert GuessAnswer(2, None) in again.game.actions


def test_give_back_refuses_a_time_that_is_not_one():
    table, _clock = table_with()
    for bad in (-1.0, float("inf"), float("nan"), True, "4"):
        with pytest.raises(ValueError, match="elapsed_s is a finite number of seconds >= 0"):
            table.give_back("1:1", "q", bad)
