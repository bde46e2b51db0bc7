"""Failover (issue 23, item 2): the owner of a playing room is killed mid-question.

A real ``redis-server`` on a loopback port, three ``triviador-nb host --redis``
processes behind one address (:class:`lb_helpers.LoadBalancer`, as a hub
service's replicas or a load balancer), students whose connections reach
different processes. The room's owner is killed with SIGKILL while a question
is open. What is asserted comes from the values the game records and sends
(the record in Redis, the views, the acks), never from how long something
took: the machine may be slow.
"""

from __future__ import annotations

import json
import re
import threading
import time

import redis
from lb_helpers import LoadBalancer
from redis_helpers import redis_server, redis_url, start_host, stop  # noqa: F401
from room_helpers import move_for, wait_until

from triviador_nb.engine import ChoiceAnswer, GuessAnswer
from triviador_nb.rooms import RoomClient, codes
from triviador_nb.rooms.teacher_client import TeacherClient
from triviador_nb.rooms.redis_record import read_record
from triviador_nb.rooms.redis_shared import LEASE_MS, RENEW_S

PACE = 0.05  # results and bots at a twentieth of the real pace: a whole game in a minute or two
BACK_S = LEASE_MS / 1000 + 4 * RENEW_S + 60  # kill -> room taken over and every student back (bounded, generous)
MOVE = re.compile(r"(answer|pick|attack|rebuild) p(\d+)")


class Player:
    """A student's client and every move of theirs the host accepted, as text (no response time)."""

    def __init__(self, code: str, name: str, address: str):
        self.client = RoomClient(code, name, address=address)
        self.accepted: list[str] = []
        self.unsure: list[str] = []  # moves whose ack never came (a machine too busy to answer in 5 s)
        self.views: list = []  # every view received, with whether it came after the failover
        self.after_kill = False
        self.client.on_change(self._changed)

    def _changed(self) -> None:
        view = self.client.view
        if view is not None and (not self.views or self.views[-1][1] is not view):
            self.views.append((self.after_kill, view, self.client.held))

    def play(self, view=None) -> str:
        """Play the move the view asks for, if any; returns the ack's status ("" when nothing to do)."""
        view = view or self.client.view
        move = move_for(view, self.client.seat)
        if move is None:
            return ""
        ack = self.client.submit(move, view.state_id)
        if ack.accepted:
            self.accepted.append(str(move))
        elif ack.code in ("no_answer", "no_connection"):
            self.unsure.append(str(move))
        return ack.status


def play(players, done, timeout: float) -> None:
    """Every player plays their seat until ``done()``; fails after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and not done():
        for player in players:
            player.play()
        time.sleep(0.02)
    assert done()


def moves_in(record: list[str], seat: int) -> list[str]:
    """A seat's moves and answers in a record, without their response times (no answers and timeouts left out)."""
    found = []
    for line in record:
        match = MOVE.match(line)
        if match and int(match.group(2)) == seat + 1 and " none" not in line:
            found.append(re.sub(r" \d+ms$", "", line))
    return found


def same_moves(recorded: list[str], accepted: list[str], unsure: list[str]) -> bool:
    """The record holds every accepted move once, in order, and besides them at most the moves whose
    ack never came (each at most once): with no such move, exactly the accepted ones."""
    if not unsure:
        return recorded == accepted
    extra = list(unsure)
    rest = iter(accepted)
    expected = next(rest, None)
    for move in recorded:
        if move == expected:
            expected = next(rest, None)
        elif move in extra:
            extra.remove(move)
        else:
            return False
    return expected is None


def test_the_owner_killed_mid_question_the_game_goes_on_with_the_time_left(redis_url, tmp_path):
    """SIGKILL to the owner while a question is open, one answer in and one in flight: another
    process takes the room over; every student's client comes back by itself through the one
    address; the question goes on with the time it had left (the views say exactly the limit less
    what the dead owner last wrote it had run, and later answers are timed on from there); the
    answer in flight is applied once (a second try is a duplicate); the game ends with a record
    equal, move for move, to the moves the students were told were accepted."""
    owner, owner_port, (code,) = start_host(redis_url, tmp_path / "owner", rooms=1, pace=PACE)
    first, first_port, () = start_host(redis_url, tmp_path / "first", rooms=0, pace=PACE)
    second, second_port, () = start_host(redis_url, tmp_path / "second", rooms=0, pace=PACE)
    balancer = LoadBalancer([owner_port, first_port, second_port])
    players: list[Player] = []
    teacher = None
    clean = codes.normalise(code)
    try:
        players = [Player(code, name, balancer.address) for name in ("Anna", "Ben", "Cleo")]
        anna, ben, cleo = players
        assert owner.teacher_key == first.teacher_key == second.teacher_key  # the service's one teacher key
        teacher = TeacherClient(f"ws://{balancer.address}", key=owner.teacher_key)
        statuses: list[str] = []
        teacher.on_change(lambda _code: statuses.append(teacher.status))
        assert balancer.chosen == [owner_port, first_port, second_port, owner_port]  # a student on each process,
        assert teacher.codes == [code]  # and the teacher on the owner
        assert [p.client.seat for p in players] == [0, 1, 2]  # three seats taken: the owner starts the room
        play(players, lambda: min(len(p.accepted) for p in players) >= 3, timeout=180)

        def all_asked():  # a question open to all three, its timer running, nobody has answered it
            views = [p.client.view for p in players]
            return (all(v is not None and not v.paused and v.prompt.kind == "answer" and v.question is not None
                        and v.question.my_answer is None for v in views)
                    and len({v.state_id for v in views}) == 1)
        play(players, all_asked, timeout=180)
        asked = anna.client.view
        sid, limit = asked.state_id, asked.question.time_limit_s
        assert anna.play(asked) == "accepted"  # acked: in Redis already
        with redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=10) as r:
            def ran_s() -> float:  # where the owner last wrote the question's clock (every second)
                point = json.loads(r.get(f"triviador:clock:{clean}") or "{}").get("point")
                return point[2] if point and point[0] == f"1:{sid.split(':')[-1]}" else 0.0
            assert wait_until(lambda: ran_s() >= 2.0, timeout=min(limit, 30))  # so the time left is not the limit
        ben_move = move_for(ben.client.view, 1)
        ben_first: list = []
        in_flight = threading.Thread(target=lambda: ben_first.append(ben.client.submit(ben_move, sid)))
        in_flight.start()
        owner.kill()  # SIGKILL, mid-question, Ben's answer in flight
        owner.wait(timeout=30)
        for p in players:
            p.after_kill = True
        in_flight.join(timeout=30)
        with redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=10) as r:
            clock = json.loads(r.get(f"triviador:clock:{clean}"))  # where the dead owner last wrote its clock
            moment, _question, ran = clock["point"]
            assert moment == f"1:{sid.split(':')[-1]}" and 0 <= ran < limit and clock["held"] is False
            stood = read_record([f["line"] for _i, f in r.xrange(f"triviador:record:{clean}")], code)
            anna_ms = [int(m) for m in re.findall(r"^answer p1 \S+ (\d+)ms$", "\n".join(
                stood.games[-1]["record"]), re.M)][-1]
            assert anna_ms <= round(ran * 1000)  # her answer came before the clock was last written

            lease = f"triviador:room:{clean}"
            assert wait_until(lambda: (r.get(lease) or "").split(":")[1:2] in ([str(first.pid)], [str(second.pid)]),
                              timeout=BACK_S)
            assert wait_until(lambda: all(p.client.rejoins >= 1 and p.client.status == "joined" for p in players),
                              timeout=BACK_S)
            assert [p.client.seat for p in players] == [0, 1, 2]
            # the teacher's client too came back by itself, to a process that lives, and sees the room
            assert wait_until(lambda: "reconnecting" in statuses and teacher.status == "connected"
                              and teacher.codes == [code] and teacher.states.get(code, {}).get("started"),
                              timeout=BACK_S)

            # Ben's answer in flight: applied once. Tried again with the same state id, the new owner
            # (which replayed the record) answers "duplicate" if it was in, else takes it now.
            assert ben_first and ben_first[0].status in ("accepted", "rejected")
            again = None
            for _ in range(400):
                again = ben.client.submit(ben_move, sid)
                if again.status in ("accepted", "duplicate") or again.code not in ("held", "get_ready",
                                                                                     "no_connection", "no_answer"):
                    break
                time.sleep(0.1)
            if ben_first[0].accepted:
                assert again.status == "duplicate"
            assert again.status in ("accepted", "duplicate"), again
            ben.accepted.append(str(ben_move))

            # The question goes on with the time it had left: every view of it since the failover shows at
            # most the limit less what had run, and those sent while the room waited show exactly that.
            def resumed():
                v = cleo.client.view
                return (v is not None and v.state_id == sid and not v.paused and not cleo.client.held
                        and not v.get_ready_s and v.prompt.kind == "answer")  # after the get-ready
            assert wait_until(resumed, timeout=BACK_S)
            assert cleo.play() == "accepted"
            for p in players:
                since = [(v, held) for after, v, held in p.views if after and v.state_id == sid]
                assert since, p.client.name
                assert max(v.time_left_s for v, _h in since) == round(limit - ran, 3)
                waiting = [v for v, held in since if held or v.paused]
                assert waiting and all(v.time_left_s == round(limit - ran, 3) for v in waiting)

            play(players, lambda: any(p.client.view is not None and p.client.view.is_over for p in players),
                 timeout=400)
            assert wait_until(lambda: all(p.client.view is not None and p.client.view.is_over for p in players),
                              timeout=30)
            record = read_record([f["line"] for _i, f in r.xrange(f"triviador:record:{clean}")], code)
            game = record.games[-1]["record"]
            assert game[:len(stood.games[-1]["record"])] == stood.games[-1]["record"]  # the record as it stood
            for seat, player in enumerate(players):  # move for move, none twice
                assert same_moves(moves_in(game, seat), player.accepted, player.unsure), player.client.name
            cleo_ms = int(re.search(r"^answer p3 \S+ (\d+)ms$", "\n".join(game[len(stood.games[-1]["record"]):]),
                                    re.M).group(1))
            assert cleo_ms >= round(ran * 1000)  # timed on from where the clock stood, not from 0
            teacher.command("close_room", code)  # the teacher still controls the room, on its new owner
            assert wait_until(lambda: all(p.client.status == "closed" and p.client.notice == "room_closed"
                                          for p in players), timeout=60)
    finally:
        for p in players:
            p.client.close()
        if teacher is not None:
            teacher.close()
        balancer.close()
        stop(owner), stop(first), stop(second)
