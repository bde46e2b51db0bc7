"""Several host processes, one Redis (issue 23): what they share so far.

Every test here runs a real ``redis-server`` on a loopback port
(:mod:`redis_helpers`; ``.ci/run`` installs it) and real hosts on 127.0.0.1:
in this process (:class:`RoomHost` with ``redis=``) or as ``triviador-nb host
--redis`` processes. Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
import redis
from redis_helpers import free_port, redis_server, redis_url, start_host, stop  # noqa: F401
from room_helpers import RawClient, move_for, play_to_the_end, play_until, wait_until

from triviador_nb.classroom import read_journal, rebuild_games
from triviador_nb.rooms import RoomClient, RoomHost, codes
from triviador_nb.rooms.guard import FAILED_JOINS_PER_ADDRESS
from triviador_nb.rooms.redis_record import read_record
from triviador_nb.rooms.redis_shared import CODES_AHEAD, LEASE_MS

PROCESS_START_S = 60.0  # the longest a host process may take to print its rooms (a busy 2-core machine)


def keys(url: str):
    return redis.Redis.from_url(url, decode_responses=True, socket_timeout=5)


def record_of(host: RoomHost, code: str) -> list[str]:
    return host._call(host.shared.record_lines, code)


def test_codes_are_claimed_in_redis_so_two_hosts_never_share_one(redis_url, monkeypatch):
    """A code another process holds, or whose record is still kept, is never
    taken again; codes name no port, and each is leased to its process."""
    wanted = ["22-AAAA", "22-AAAB", "22-AAAC", "22-AAAD",  # the first host claims these
              "22-AAAA", "22-AAAB", "22-AAAC", "22-AAAD", "22-BBBA", "22-BBBB", "22-BBBC", "22-BBBD",
              "22-CCCA", "22-CCCB"]  # ...the second host meets them again and skips them
    monkeypatch.setattr(codes, "new_code", lambda host, taken=frozenset(): wanted.pop(0))
    first, second = RoomHost(redis=redis_url), RoomHost(redis=redis_url)
    try:
        assert list(first.shared._ready) == ["22AAAA", "22AAAB", "22AAAC", "22AAAD"]
        assert list(second.shared._ready) == ["22BBBA", "22BBBB", "22BBBC", "22BBBD"]
        assert first.code_port is None and second.code_port is None and first.port != second.port
        with keys(redis_url) as r:
            r.xadd("triviador:record:22CCCA", {"line": "{}"})  # a record kept from a room that closed
            room = first.open_room(seed=5)
            assert room.code == "22-AAAA"
            assert wait_until(lambda: len(first.shared._ready) == CODES_AHEAD)
            assert list(first.shared._ready)[-1] == "22CCCB"  # 22-CCCA has a record: not taken again
            assert r.get("triviador:room:22AAAA") == first.shared.me != second.shared.me
            assert r.get("triviador:room:22BBBA") == second.shared.me
            assert 0 < r.pttl("triviador:room:22AAAA") <= LEASE_MS
    finally:
        first.close(), second.close()
    with keys(redis_url) as r:
        assert r.keys("triviador:room:*") == []  # a host that stops gives its leases up


def test_a_refusal_on_one_host_is_in_every_hosts_log(redis_url):
    """The refusal log is shared: a wrong code tried on one host is in the
    other's log and counted in its ``refused``."""
    first, second = RoomHost(redis=redis_url), RoomHost(redis=redis_url)
    try:
        raw = RawClient(first.port)
        raw.send({"v": 1, "type": "join", "room": "22-XXXX", "name": "Mallory"})
        assert raw.recv_type("error")["code"] == "no_such_room"
        raw.close()
        assert wait_until(lambda: any(e.code == "no_such_room" for e in list(second.log)))
        entry = next(e for e in list(second.log) if e.code == "no_such_room")
        assert entry.text == "a join to room '22-XXXX'" and entry.room == ""
        assert second.refused == 1 and first.refused == 1
        with keys(redis_url) as r:
            (logged,) = [f for _id, f in r.xrange("triviador:log") if f["code"] == "no_such_room"]
        assert logged["host"] == first.shared.me and logged["refusal"] == "1"
    finally:
        first.close(), second.close()


def test_the_record_is_written_to_a_stream_as_it_is_played_line_for_line_the_journal(redis_url, tmp_path):
    """A room's record in Redis is its journal: the same lines as the file,
    and it replays to the game as it stands."""
    host = RoomHost(redis=redis_url)
    path = tmp_path / "room.journal"
    try:
        room = host.open_room(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5, journal=path)
        anna = RoomClient(room.code, "Anna", address=f"127.0.0.1:{host.port}")
        try:
            table = room.start()
            play_until([anna], lambda: len(table.game.record) > 20)
            room.run(table.hold)
            record = room.run(lambda: [str(e) for e in table.game.record])
            file_lines = path.read_text(encoding="utf-8").splitlines()
            assert wait_until(lambda: record_of(host, room.code) == file_lines)
            contents = read_record(record_of(host, room.code), room.code)
            assert contents.header["setup"]["members"][0]["name"] == "Anna"
            games = rebuild_games(contents, room.game_map.board, room.bank)
            assert [str(e) for e in games[-1].record] == record
            assert contents.games == read_journal(path).games
        finally:
            anna.close()
    finally:
        host.close()


def test_three_host_processes_share_codes_and_the_failed_join_limit(redis_url, tmp_path):
    """Three ``host --redis`` processes: six codes, no two alike; failed joins
    spread over the three count as one person's (10 a minute in all, not 30):
    the eleventh try is refused on any of them, even with a right code."""
    processes = []
    try:
        for number in range(3):
            processes.append(start_host(redis_url, tmp_path / str(number), rooms=2))
        codes_seen = [code for _p, _port, found in processes for code in found]
        assert len(codes_seen) == 6 and len(set(codes_seen)) == 6
        ports = [port for _p, port, _c in processes]
        for attempt in range(FAILED_JOINS_PER_ADDRESS):
            raw = RawClient(ports[attempt % 3])
            raw.send({"v": 1, "type": "join", "room": "22-XXXX", "name": "Mallory"})
            assert raw.recv_type("error", timeout=15)["code"] == "no_such_room"
            raw.close()
        with keys(redis_url) as r:  # each process's writer puts its failures in Redis a moment after the refusal
            assert wait_until(lambda: r.zcard("triviador:limit:failed_joins:all") >= FAILED_JOINS_PER_ADDRESS, 15)
        for port, found in [(p, c) for _proc, p, c in processes]:
            raw = RawClient(port)
            raw.send({"v": 1, "type": "join", "room": found[0], "name": "Mallory"})
            refused = raw.recv_type("error", timeout=15)
            raw.close()
            assert refused["code"] == "too_many_tries" and 1 <= refused["wait_s"] <= 60
        with keys(redis_url) as r:
            logged = [f for _id, f in r.xrange("triviador:log")]
        assert sum(f["code"] == "no_such_room" for f in logged) == FAILED_JOINS_PER_ADDRESS
        assert sum(f["code"] == "too_many_tries" for f in logged) == 3
        assert len({f["host"] for f in logged}) == 3
    finally:
        for process, _port, _codes in processes:
            stop(process)


def test_a_host_told_a_redis_that_does_not_answer_says_so_and_stops(tmp_path):
    """No traceback for a teacher: the URL (without its password) and why."""
    port = free_port()
    result = subprocess.run([sys.executable, "-m", "triviador_nb", "host", "--redis",
                             f"redis://:s3cret@127.0.0.1:{port}/0", "--for", "5"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path)})
    assert result.returncode == 2
    assert result.stderr.startswith(f"triviador-nb host: cannot use Redis at "
                                    f"redis://***@127.0.0.1:{port}/0: ")
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr


def play_moves(clients, accepted: dict, done, timeout: float) -> None:
    """Every client plays its seat, counting its accepted intents in ``accepted`` (by name),
    until ``done()``; fails after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and not done():
        for client in clients:
            view = client.view
            move = move_for(view, client.seat)
            if move is not None:
                accepted[client.name] += client.submit(move, view.state_id).accepted
        time.sleep(0.02)
    assert done(), accepted


def test_students_on_two_host_processes_play_one_room(redis_url, tmp_path):
    """A room lives in the process that opened it; students whose connections
    reach the other process are relayed to it through Redis: all three play
    one game (each has moves accepted, each sees the same game), the record
    in Redis holds every seat's moves, and a relayed student whose connection
    drops comes back to their seat by proving their key, all without a
    socket to the owner."""
    owner, owner_port, (code,) = start_host(redis_url, tmp_path / "owner", rooms=1)
    other, other_port, () = start_host(redis_url, tmp_path / "other", rooms=0)
    clients = []
    try:
        clients = [RoomClient(code, "Anna", address=f"127.0.0.1:{owner_port}"),
                   RoomClient(code, "Ben", address=f"127.0.0.1:{other_port}"),
                   RoomClient(code, "Cleo", address=f"127.0.0.1:{other_port}")]
        assert sorted(c.seat for c in clients) == [0, 1, 2]  # three seats taken: the host starts the room
        accepted = {c.name: 0 for c in clients}
        play_moves(clients, accepted, lambda: min(accepted.values()) >= 3, timeout=90)
        ben = clients[1]
        ben.drop_connection()
        assert wait_until(lambda: ben.rejoins == 1 and ben.status == "joined", timeout=30)
        assert ben.seat == 1 and ben.notice == ""  # the owner proved it holds his key, through the relay
        before = accepted["Ben"]
        play_moves(clients, accepted, lambda: accepted["Ben"] > before, timeout=60)  # back in his seat, playing
        with keys(redis_url) as r:
            lines = [f["line"] for _id, f in r.xrange(f"triviador:record:{codes.normalise(code)}")]
        contents = read_record(lines, code)
        assert [m["name"] for m in sorted(contents.header["setup"]["members"], key=lambda m: m["seat"])] == \
            ["Anna", "Ben", "Cleo"]
        moved = {int(re.match(r"\w+ p(\d)", line).group(1)) for line in contents.games[-1]["record"]
                 if re.match(r"(pick|attack|answer|choice|guess)\w* p\d", line)}
        assert moved == {1, 2, 3}, contents.games[-1]["record"][:12]  # (the record counts seats from 1)
        assert wait_until(lambda: len({c.view.state_id for c in clients if c.view is not None}) == 1, timeout=10)
    finally:
        for client in clients:
            client.close()
        stop(owner), stop(other)


def test_a_whole_game_across_three_host_processes(redis_url, tmp_path):
    """Three hosts, one Redis: the room's owner (here, in this process, at a
    fast pace) and two ``host --redis`` processes; one student on each. The
    game plays to its end; every screen ends on the same view; the record
    in Redis is, move for move, the owner's game; and what the hostile-client
    tests check holds through a relay (a forged key is refused by the owner,
    and said so on the relaying process's socket)."""
    first, first_port, () = start_host(redis_url, tmp_path / "first", rooms=0)
    second, second_port, () = start_host(redis_url, tmp_path / "second", rooms=0)
    host = RoomHost(redis=redis_url)
    clients = []
    try:
        room = host.open_room(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5)
        clients = [RoomClient(room.code, "Anna", address=f"127.0.0.1:{host.port}"),
                   RoomClient(room.code, "Ben", address=f"127.0.0.1:{first_port}"),
                   RoomClient(room.code, "Cleo", address=f"127.0.0.1:{second_port}")]
        assert [c.seat for c in clients] == [0, 1, 2]
        table = room.start()
        mallory = RawClient(second_port)
        assert mallory.join(room.code, "Mallory")["seat"] is None  # a watcher, through the relay
        mallory.send({"v": 1, "type": "intent", "ref": 1, "token": "forged-" + "x" * 20, "state_id": "s",
                      "intent": {"kind": "pick", "territory": "HU-BU"}})
        assert mallory.recv_type("error", timeout=15)["code"] == "bad_token"
        mallory.close()
        assert wait_until(lambda: any(e.code == "bad_token" and e.who == "Mallory" for e in list(host.log)))
        play_to_the_end(clients, timeout=240)
        assert wait_until(lambda: all(c.view is not None and c.view.is_over for c in clients), timeout=15)
        assert len({c.view.state_id for c in clients}) == 1
        game = room.run(lambda: [str(e) for e in table.game.record])
        assert wait_until(lambda: read_record(record_of(host, room.code), room.code).games[-1]["record"] == game)
    finally:
        for client in clients:
            client.close()
        host.close()
        stop(first), stop(second)


def test_a_room_s_lease_is_renewed_while_its_host_runs_and_lapses_when_it_stops_renewing(redis_url, monkeypatch):
    """The lease (here 1 s, renewed every 0.2 s) outlives many of its own
    lifetimes while the host runs; when the host stops renewing (as a killed
    process would) it lapses within one lifetime, and the room's code stays
    taken while its record is kept."""
    from triviador_nb.rooms import redis_shared

    monkeypatch.setattr(redis_shared, "LEASE_MS", 1000)
    monkeypatch.setattr(redis_shared, "RENEW_S", 0.2)
    host = RoomHost(redis=redis_url)
    try:
        room = host.open_room(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5)
        anna = RoomClient(room.code, "Anna", address=f"127.0.0.1:{host.port}")
        room.start()
        anna.close()
        lease = f"triviador:room:{codes.normalise(room.code)}"
        with keys(redis_url) as r:
            time.sleep(3.0)  # three lifetimes of the lease
            assert r.get(lease) == host.shared.me and 0 < r.pttl(lease) <= 1000
            host.loop.call_soon_threadsafe(host.shared.renewing.cancel)  # what a SIGKILL does to the renewing
            assert wait_until(lambda: r.get(lease) is None, timeout=3.0)
            assert r.exists(f"triviador:record:{codes.normalise(room.code)}") == 1
            claim = r.register_script(redis_shared.CLAIM)
            assert claim(keys=[lease, f"triviador:record:{codes.normalise(room.code)}"], args=["another", 1000]) == 0
    finally:
        host.close()


OWNER_SCRIPT = """
import sys, time
from triviador_nb.rooms import RoomHost
host = RoomHost(redis=sys.argv[1])
room = host.open_room(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5)
print(host.port, room.code, flush=True)
end = time.monotonic() + 300
while time.monotonic() < end and len([m for m in room.members() if m.seat is not None]) < 3:
    time.sleep(0.05)
room.start()
print("started", flush=True)
time.sleep(max(0.0, end - time.monotonic()))
"""


def test_the_owner_killed_mid_game_another_process_takes_the_room_over(redis_url, tmp_path):
    """Failover: the room's owner is killed (SIGKILL) mid-game; another host
    process takes the room over from Redis once its lease lapses, with the
    record exactly as it stood; the students (relayed through the other two
    processes) reconnect by themselves, prove their keys to the new owner,
    and play the game to its end."""
    from triviador_nb.rooms.redis_shared import LEASE_MS, RENEW_S

    owner = subprocess.Popen([sys.executable, "-c", OWNER_SCRIPT, redis_url], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path / "owner")})
    first, first_port, () = start_host(redis_url, tmp_path / "first", rooms=0)
    second, second_port, () = start_host(redis_url, tmp_path / "second", rooms=0)
    clients = []
    try:
        _port, code = owner.stdout.readline().split()
        clients = [RoomClient(code, "Anna", address=f"127.0.0.1:{first_port}"),
                   RoomClient(code, "Ben", address=f"127.0.0.1:{second_port}"),
                   RoomClient(code, "Cleo", address=f"127.0.0.1:{first_port}")]
        assert owner.stdout.readline().strip() == "started"
        stream = f"triviador:record:{codes.normalise(code)}"
        with keys(redis_url) as r:
            accepted = {c.name: 0 for c in clients}
            play_moves(clients, accepted, lambda: min(accepted.values()) >= 3, timeout=90)
            owner.kill()  # SIGKILL, mid-game
            owner.wait(timeout=10)
            killed_at = time.monotonic()
            as_it_stood = read_record([f["line"] for _id, f in r.xrange(stream)], code).games[-1]["record"]
            lease = f"triviador:room:{codes.normalise(code)}"
            assert wait_until(lambda: (r.get(lease) or "").split(":")[1:2] in ([str(first.pid)], [str(second.pid)]),
                              timeout=LEASE_MS / 1000 + 2 * RENEW_S + 10)
            taken_after = time.monotonic() - killed_at
            assert taken_after < LEASE_MS / 1000 + 2 * RENEW_S + 10
            assert wait_until(lambda: all(c.rejoins >= 1 and c.status == "joined" for c in clients), timeout=30)
            assert [c.seat for c in clients] == [0, 1, 2]
            play_to_the_end(clients, timeout=240)
            assert wait_until(lambda: all(c.view is not None and c.view.is_over for c in clients), timeout=15)
            after = read_record([f["line"] for _id, f in r.xrange(stream)], code).games[-1]["record"]
            assert after[:len(as_it_stood)] == as_it_stood and len(after) > len(as_it_stood)
    finally:
        for client in clients:
            client.close()
        stop(owner), stop(first), stop(second)


def test_an_owner_that_lost_its_lease_lets_the_room_go_and_its_players_follow(redis_url, monkeypatch):
    """An owner too slow to renew (here: its loop stalled past its lease)
    finds at its next renewal that another process took the room over; it
    stops its copy and closes its players' sockets without a ``closed``
    message, so their clients reconnect by themselves, and the other
    process serves them. Never two owners playing one room."""
    from triviador_nb.rooms import redis_shared

    monkeypatch.setattr(redis_shared, "LEASE_MS", 2000)
    monkeypatch.setattr(redis_shared, "RENEW_S", 0.3)
    slow, other = RoomHost(redis=redis_url), RoomHost(redis=redis_url)
    try:
        room = slow.open_room(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5)
        anna = RoomClient(room.code, "Anna", address=f"127.0.0.1:{other.port}")  # relayed by ``other``
        try:
            table = room.start()
            play_until([anna], lambda: len(table.game.record) > 8)
            clean = codes.normalise(room.code)
            slow.loop.call_soon_threadsafe(time.sleep, 3.0)  # ``slow`` stalls past its lease (2 s)
            assert wait_until(lambda: clean in other.rooms, timeout=10)  # ``other`` took the room over...
            assert wait_until(lambda: clean not in slow.rooms, timeout=10)  # ...and ``slow``, awake, let it go
            assert table.stopped
            assert any(e.code == "redis" and "lease of room" in e.text for e in list(slow.log))
            assert wait_until(lambda: anna.rejoins >= 1 and anna.status == "joined", timeout=20)
            again = other.rooms[clean].table
            before = len(again.game.record)
            play_until([anna], lambda: len(again.game.record) > before + 4)
        finally:
            anna.close()
    finally:
        slow.close(), other.close()
