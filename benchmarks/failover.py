"""How long a room is gone when its owner is killed mid-question (issue 23, item 2).

Run: ``.venv/bin/python benchmarks/failover.py [--runs 3]``

Each run starts a real ``redis-server`` (loopback, nothing saved), three
``triviador-nb host --redis`` processes behind one address (the tests' load
balancer, ``tests/lb_helpers.py``, as a hub service's replicas), three
students (one reaching each process) and the teacher. Once a question is
open to all three, it measures:

- **baseline**: one student's connection cut (the network, not the host):
  from the cut to the student back in the seat, the owner alive;
- **failover**: the owner SIGKILLed: from the kill to the room's lease taken
  by another process (``taken``), to every student back in their seat and
  the teacher's client connected again with the room (``back``), and to the
  question running again with the time it had left (``running``: the room
  waits for its players, then a 3 s get-ready).

Each run checks that the clients really came back: every student in their
own seat, on the question asked at the kill, its time left the limit less
what had run; the teacher's client sees the room. The lease (10 s) bounds
``taken``: the kill is noticed only when the lease lapses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import redis  # noqa: E402
from lb_helpers import LoadBalancer  # noqa: E402
from redis_helpers import start_host, start_redis, stop  # noqa: E402
from room_helpers import move_for, wait_until  # noqa: E402

from triviador_nb.rooms import RoomClient, codes  # noqa: E402
from triviador_nb.rooms.teacher_client import TeacherClient  # noqa: E402

WAIT_S = 120.0  # the longest any step may take


def one_run(url: str, folder: Path) -> dict[str, float]:
    owner, owner_port, (code,) = start_host(url, folder / "owner", rooms=1, pace=0.05)
    first, first_port, () = start_host(url, folder / "first", rooms=0, pace=0.05)
    second, second_port, () = start_host(url, folder / "second", rooms=0, pace=0.05)
    balancer = LoadBalancer([owner_port, first_port, second_port])
    clean = codes.normalise(code)
    students, teacher = [], None
    try:
        students = [RoomClient(code, name, address=balancer.address) for name in ("Anna", "Ben", "Cleo")]
        teacher = TeacherClient(f"ws://{balancer.address}", key=owner.teacher_key)
        seen: list[str] = []
        teacher.on_change(lambda _code: seen.append(teacher.status))

        def all_asked() -> bool:
            views = [s.view for s in students]
            return (all(v is not None and not v.paused and v.prompt.kind == "answer" for v in views)
                    and len({v.state_id for v in views}) == 1 and views[0].time_left_s > 4)
        end = time.monotonic() + WAIT_S
        while not all_asked() and time.monotonic() < end:
            for s in students:
                move = move_for(s.view, s.seat)
                if move is not None:
                    s.submit(move, s.view.state_id)
            time.sleep(0.02)
        assert all_asked(), "no question came for all three"
        sid, limit = students[0].view.state_id, students[0].view.question.time_limit_s

        ben = students[1]
        cut = time.monotonic()
        ben.drop_connection()
        assert wait_until(lambda: ben.rejoins == 1 and ben.status == "joined", timeout=WAIT_S)
        baseline = time.monotonic() - cut

        with redis.Redis.from_url(url, decode_responses=True, socket_timeout=10) as r:
            assert wait_until(lambda: (json.loads(r.get(f"triviador:clock:{clean}") or "{}").get("point") or
                                       [0, 0, 0])[2] >= 1.0, timeout=limit)
            owner.kill()
            killed = time.monotonic()
            owner.wait(timeout=30)
            ran = json.loads(r.get(f"triviador:clock:{clean}"))["point"][2]
            pids = ([str(first.pid)], [str(second.pid)])
            assert wait_until(lambda: (r.get(f"triviador:room:{clean}") or "").split(":")[1:2] in pids,
                              timeout=WAIT_S, step=0.02)
            taken = time.monotonic() - killed
        before = [s.rejoins for s in students]
        assert wait_until(lambda: all(s.rejoins > b and s.status == "joined" for s, b in zip(students, before))
                          and "reconnecting" in seen and teacher.status == "connected"
                          and teacher.codes == [code], timeout=WAIT_S, step=0.02)
        back = time.monotonic() - killed
        assert [s.seat for s in students] == [0, 1, 2]
        assert wait_until(lambda: all(s.view is not None and s.view.state_id == sid and not s.view.paused
                                      and not s.held and not s.view.get_ready_s and s.view.prompt.kind == "answer"
                                      for s in students), timeout=WAIT_S, step=0.02)
        running = time.monotonic() - killed
        left = [s.view.time_left_s for s in students]
        assert all(x <= round(limit - ran, 3) for x in left), (left, limit, ran)
        return {"baseline": baseline, "taken": taken, "back": back, "running": running, "left": max(left),
                "limit": limit}
    finally:
        for s in students:
            s.close()
        if teacher is not None:
            teacher.close()
        balancer.close()
        stop(owner), stop(first), stop(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="triviador-failover-") as folder:
        server = start_redis(Path(folder) / "redis")
        try:
            results = []
            for run in range(args.runs):
                server.flush()
                result = one_run(server.url, Path(folder) / str(run))
                results.append(result)
                print(f"run {run + 1}: baseline (a connection cut, owner alive) {result['baseline']:.2f} s; "
                      f"failover: taken {result['taken']:.2f} s, every client back {result['back']:.2f} s, "
                      f"question running {result['running']:.2f} s after the kill, "
                      f"{result['left']:.2f} s of its {result['limit']:.0f} s left", flush=True)
        finally:
            server.stop()
    for key, text in (("baseline", "baseline"), ("taken", "taken over"), ("back", "every client back"),
                      ("running", "question running")):
        values = [r[key] for r in results]
        print(f"median {text}: {statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})")


if __name__ == "__main__":
    main()
