"""Rooms over real loopback connections: a host on its own thread, students'
clients on theirs, and hostile clients that must change nothing (issue 11).

Every server binds 127.0.0.1 on a port the host picks; every wait is bounded
(``room_helpers.WAIT_S``).
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from room_helpers import RawClient, answering, move_for, play_to_the_end, play_until, wait_until
from websockets.exceptions import ConnectionClosed

from triviador_nb.engine import ChoiceAnswer, GuessAnswer
from triviador_nb.rooms import JoinError, RoomClient, RoomHost, room_url
from triviador_nb.rooms import codes
from triviador_nb.rooms.guard import DROPS_BEFORE_CLOSE, FailedJoins, MessageBudget
from triviador_nb.rooms.protocol import MAX_CLIENT_MESSAGE, ProtocolError, intent_action, map_from_plain, \
    map_to_plain, parse_client
from triviador_nb.rooms.store import MemoryStore


@pytest.fixture(autouse=True)
def _keys_in_a_temporary_home(token_home):
    pass


@pytest.fixture
def host():
    room_host = RoomHost()
    yield room_host
    room_host.close()


def fast_room(host, **kwargs):
    options = dict(pace=0.02, reveal_s=0.1, think_s=0.1, seed=5)
    options.update(kwargs)
    return host.open_room(**options)


def test_codes_name_the_port_and_read_as_typed():
    assert codes.port_of("22-2222") == 41000
    assert codes.port_of("zz-2222") == 41000 + 961 - 1
    assert codes.host_part(41000) == "22" and codes.host_part(41960) == "ZZ" and codes.host_part(8765) is None
    assert codes.normalise(" k7 - pq4x ") == "K7PQ4X" and codes.shown("k7pq4x") == "K7-PQ4X"
    assert codes.port_of("K7-PQ4X") == 41000 + codes.ALPHABET.index("K") * 31 + codes.ALPHABET.index("7") == 41532
    with pytest.raises(codes.CodeError, match="'K7-PQ40' is not a room code"):
        codes.normalise("K7-PQ40")  # 0 is not in the alphabet (it looks like O)
    with pytest.raises(codes.CodeError, match="'K7-PQ4' is not a room code"):
        codes.normalise("K7-PQ4")  # five characters


def test_room_url_forms():
    port = codes.port_of("K7PQ45")
    assert room_url("K7-PQ45") == f"ws://127.0.0.1:{port}"
    assert room_url("K7-PQ45", "localhost") == f"ws://localhost:{port}"
    assert room_url("K7-PQ45", "127.0.0.1:8765") == "ws://127.0.0.1:8765"
    assert room_url("K7-PQ45", "wss://localhost/services/triviador/") == "wss://localhost/services/triviador/"
    assert room_url("K7-PQ45", "::1") == f"ws://[::1]:{port}"


def test_a_whole_game_between_two_students_and_a_bot(host):
    room = fast_room(host)
    anna, ben = RoomClient(room.code, "Anna"), RoomClient(room.code, "Ben")
    try:
        assert (anna.seat, ben.seat) == (0, 1)
        assert anna.game_map.title == "Hungary" and len(anna.game_map.board.territories) == 19
        assert wait_until(lambda: anna.lobby["seats"][1]["members"] == ["Ben"]) and anna.view is None
        table = room.start()
        assert table.bots.keys() == {2} and [p.name for p in table.game.players] == ["Anna", "Ben", "Bot 3 (medium)"]
        assert wait_until(lambda: anna.view is not None and ben.view is not None)
        accepted = play_to_the_end([anna, ben])
        assert wait_until(lambda: anna.view.is_over and ben.view.is_over)
        game = table.game
        assert game.is_over and accepted > 10
        assert [p.score for p in anna.view.players] == [game.score(s) for s in range(3)]
        assert anna.view.ranking == tuple(game.ranking)
        assert host.refused == 0
    finally:
        anna.close(), ben.close()


def test_forged_and_broken_messages_are_refused_and_change_nothing(host):
    room = fast_room(host, seed=3)
    raw = RawClient(host.port)
    raw.send("not json at all")
    assert raw.recv_type("error")["code"] == "not_json"
    raw.send(b"\x00\x01binary")
    assert raw.recv_type("error")["code"] == "not_json"
    raw.send({"v": 4, "type": "join", "room": room.code, "name": "X"})
    assert raw.recv_type("error")["code"] == "wrong_version"
    raw.send({"v": 1, "type": "shout"})
    assert raw.recv_type("error")["reason"] == ("unknown message type 'shout': a player sends join, proof, intent or "
                                                 "leave; a teacher also teacher and op")
    raw.send({"v": 1, "type": "intent", "ref": 1, "token": "x", "state_id": "1:0", "intent": {"kind": "pick"}})
    assert raw.recv_type("error")["code"] == "not_joined"
    raw.send({"v": 1, "type": "join", "room": room.code, "name": "\u0007bell"})
    assert raw.recv_type("error")["reason"] == "a name cannot hold control characters"
    welcome = raw.join(room.code, "Mallory")
    ben = RoomClient(room.code, "Ben")
    table = room.start()
    wait_until(lambda: ben.view is not None)
    record = len(table.game.record)
    raw.send({"v": 1, "type": "intent", "ref": 5, "token": ben.token[::-1], "state_id": table.state_id,
              "intent": {"kind": "pick", "territory": "HU-PE"}})
    assert raw.recv_type("error")["code"] == "bad_token"
    raw.send({"v": 1, "type": "intent", "ref": 6, "token": welcome["token"], "state_id": table.state_id,
              "intent": {"kind": "choice", "option": 9}})
    ack = raw.recv_type("ack")
    assert (ack["ref"], ack["status"], ack["reason"]) == (6, "rejected", "option must be 0, 1, 2 or 3")
    raw.send({"v": 1, "type": "intent", "ref": 7, "token": welcome["token"], "state_id": "1:999",
              "intent": {"kind": "pick", "territory": "HU-PE"}})
    assert raw.recv_type("ack")["status"] == "stale"
    people = {welcome["seat"], ben.seat}  # (the bots may answer meanwhile: a loaded machine is slow)
    assert [a for a in table.game.record[record:] if getattr(a, "player", None) in people] == []
    codes_logged = [e.code for e in host.log]
    for code in ("not_json", "wrong_version", "unknown_type", "not_joined", "bad_field", "bad_token"):
        assert code in codes_logged
    raw.close(), ben.close()


def test_an_oversized_message_closes_that_connection_only(host):
    room = fast_room(host)
    ben = RoomClient(room.code, "Ben")
    raw = RawClient(host.port)
    raw.join(room.code, "Mallory")
    raw.send("x" * (MAX_CLIENT_MESSAGE + 1))
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(50):
            raw.recv()
    assert closed.value.rcvd.code == 1009
    assert wait_until(lambda: any(e.code == "too_big" for e in host.log))
    room.start()
    assert wait_until(lambda: ben.view is not None)  # the room goes on
    ben.close()


def test_a_flood_is_throttled_then_closed_and_the_game_is_unchanged(host):
    room = fast_room(host)
    raw = RawClient(host.port)
    welcome = raw.join(room.code, "Mallory")
    table = room.start()
    message = json.dumps({"v": 1, "type": "intent", "ref": 1, "token": welcome["token"], "state_id": "0:0",
                          "intent": {"kind": "pick", "territory": "HU-PE"}})
    try:
        for _ in range(DROPS_BEFORE_CLOSE + 400):
            raw.send(message)
    except ConnectionClosed:  # a busy machine: the host closed the connection while we still sent
        pass
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            raw.recv()  # what the host sent before closing, then the close
    assert closed.value.rcvd.code == 1008
    assert any(m.get("code") == "slow_down" for m in raw.received)
    assert wait_until(lambda: any(e.code == "flood" for e in host.log))
    # the bots play on meanwhile (faster than the flood on a busy machine); Mallory's picks never got in
    assert [str(a) for a in table.game.actions if str(a).startswith("pick p1")] == []


def test_failed_joins_are_rate_limited_even_with_the_right_code(host):
    room = fast_room(host)
    raw = RawClient(host.port)
    wrong = codes.shown(room.code[:2] + ("2222" if room.code[3:] != "2222" else "3333"))
    for _ in range(10):
        raw.send({"v": 1, "type": "join", "room": wrong, "name": "Guesser"})
        assert raw.recv_type("error")["code"] == "no_such_room"
    raw.send({"v": 1, "type": "join", "room": room.code, "name": "Guesser"})
    refused = raw.recv_type("error")
    assert refused["code"] == "too_many_tries" and refused["reason"].startswith("Too many wrong room codes")
    raw.close()


def test_failed_join_window():
    joins = FailedJoins(per_address=3, overall=5, window_s=60)
    for t in range(3):
        joins.failed("student-a", t)
    assert joins.blocked("student-a", 3) == 57 and joins.blocked("student-b", 3) == 0
    assert joins.blocked("student-a", 60.5) == 0  # the first failure left the window
    for address in ("student-b", "student-c", "student-d", "student-e"):
        joins.failed(address, 61)  # with student-a's failure at t=2: five in the window
    assert joins.blocked("student-e", 61.5) == 0.5  # five failures across addresses block each who failed
    # ...but not a student who typed no wrong code: six students who mistyped on purpose locked the class out
    assert joins.blocked("student-z", 61.5) == 0


def test_message_budget():
    budget = MessageBudget(0.0, rate=10, burst=3)
    assert [budget.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert budget.allow(0.1) and not budget.allow(0.1)
    assert budget.dropped == 2 and not budget.flooding


def test_a_second_host_cannot_take_the_port_students_are_given(host):
    with pytest.raises(OSError):
        RoomHost(port=host.port)


def test_a_second_answer_is_a_duplicate_and_the_first_stands(host):
    room = fast_room(host, seed=7, pace=1.0)  # bots that take seconds: the second answer meets an open question
    anna = RoomClient(room.code, "Anna")
    table = room.start()
    try:
        play_until([anna], lambda: answering(anna))
        v = anna.view
        guess = v.question.kind == "guess"
        assert anna.submit(GuessAnswer(0, 1500) if guess else ChoiceAnswer(0, 1), v.state_id).accepted
        again = anna.submit(GuessAnswer(0, 99) if guess else ChoiceAnswer(0, 3), v.state_id)
        asked = table.game.question  # read before the log: if the log has no result, this is the question
        question = table.game.record[int(v.state_id.split(":")[1])].question  # the draw the state id points at
        answers = next((e for e in table.game.events if e.kind == "answers" and e.data["question"] == question), None)
        if again.status == "duplicate":
            assert (again.code, again.reason) == ("already_answered", "your answer is in already")
        else:  # the bots' answers (pace 0.02 x their delay) closed the question before the second came
            assert (again.status, again.code) == ("stale", "stale_state") and answers is not None
        if answers is not None:
            given = next(a["given"] for a in answers.data["answers"] if a["seat"] == 0)
        else:
            given = asked.answers[0].value if guess else asked.answers[0].option
        assert given == (1500 if guess else 1)
    finally:
        anna.close()


def test_response_times_come_from_the_host_and_ignore_what_a_client_claims(host):
    room = fast_room(host, seed=9, pace=1.0)
    raw = RawClient(host.port)
    welcome = raw.join(room.code, "Anna")
    table = room.start()
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            data = raw.recv_type("view")
            view = data["view"]
            prompt = view["prompt"]
            if prompt["kind"] in ("base", "pick", "claim", "attack") and prompt["choices"]:
                kind = "attack" if prompt["kind"] == "attack" else "pick"
                raw.send({"v": 1, "type": "intent", "ref": 1, "token": welcome["token"], "state_id": view["state_id"],
                          "intent": {"kind": kind, "territory": prompt["choices"][0]}})
            elif prompt["kind"] == "answer" and not view["paused"]:
                time.sleep(0.4)
                intent = ({"kind": "guess", "value": 1200, "ms": 1} if view["question"]["kind"] == "guess"
                          else {"kind": "choice", "option": 1, "ms": 1})
                raw.send({"v": 1, "type": "intent", "ref": 2, "token": welcome["token"], "state_id": view["state_id"],
                          "intent": intent, "ms": 1})
                ack = raw.recv_type("ack")
                assert ack["status"] == "accepted" and ack["ms"] >= 400
                recorded = [a for a in table.game.actions if getattr(a, "player", None) == 0
                            and isinstance(a, (GuessAnswer, ChoiceAnswer))][-1]
                assert recorded.ms == ack["ms"]
                return
        raise AssertionError("no question came")
    finally:
        raw.close()


def test_the_host_loop_keeps_time_while_the_teachers_thread_is_busy(host):
    """Two answers sent 0.5 s apart, while this (the teacher's) thread blocks:
    the host's own loop stamps them 0.5 s apart (docs/design.md, "Rooms": one clock per room,
    on the host's thread)."""
    room = fast_room(host, seed=21, pace=1.0)
    anna, ben = RoomClient(room.code, "Anna"), RoomClient(room.code, "Ben")
    room.set_bot(2, "easy")
    room.start()
    try:
        assert wait_until(lambda: anna.view is not None and ben.view is not None)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            for c in (anna, ben):
                v = c.view
                if v is not None and v.prompt.kind in ("base", "pick", "claim") and not v.paused:
                    c.submit(move_for(v, c.seat), v.state_id)
            va, vb = anna.view, ben.view
            if (va.prompt.kind == "answer" and vb.prompt.kind == "answer" and not va.paused
                    and va.state_id == vb.state_id):
                break
            time.sleep(0.01)
        v = anna.view
        acks = {}

        def answer(client, delay):
            time.sleep(delay)
            action = (GuessAnswer(client.seat, 1000) if v.question.kind == "guess"
                      else ChoiceAnswer(client.seat, 0))
            acks[client.seat] = client.submit(action, v.state_id)

        threads = [threading.Thread(target=answer, args=(anna, 0.1)), threading.Thread(target=answer, args=(ben, 0.6))]
        for t in threads:
            t.start()
        time.sleep(1.0)  # the teacher's kernel is busy (a blocking cell)
        for t in threads:
            t.join(5)
        assert acks[0].accepted and acks[1].accepted
        assert 400 <= acks[1].ms - acks[0].ms <= 700
    finally:
        anna.close(), ben.close()


def test_rejoin_after_a_dropped_network_and_after_a_kernel_restart(host, tmp_path, monkeypatch):
    room = fast_room(host)
    anna = RoomClient(room.code, "Anna")
    ben = RoomClient(room.code, "Ben")
    table = room.start()
    try:
        assert wait_until(lambda: anna.view is not None)
        anna.drop_connection()
        assert wait_until(lambda: anna.rejoins == 1 and anna.status == "joined", timeout=5)
        assert anna.seat == 0
        elsewhere = tmp_path / "another-student"
        monkeypatch.setenv("TRIVIADOR_NB_HOME", str(elsewhere))  # another Unix user: no key for Anna
        with pytest.raises(JoinError, match="Someone called Anna is in room"):
            RoomClient(room.code, "anna", join_timeout_s=5)
        monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "home"))
        anna.close()  # the kernel restarts: the client is gone, the token file stays
        t0 = time.monotonic()
        again = RoomClient(room.code, "Anna")
        assert wait_until(lambda: again.view is not None, timeout=5)
        rejoin_s = time.monotonic() - t0
        assert again.seat == 0 and again.view.seat == 0 and rejoin_s < 5  # the issue asks for 2 s (see benchmarks)
        assert wait_until(lambda: again.view.state_id == table.view(0).state_id)
        play_to_the_end([again, ben])
        again.close()
    finally:
        ben.close()


def test_a_wrong_key_for_a_name_is_refused_and_counts_as_a_failed_join(host):
    room = fast_room(host)
    RoomClient(room.code, "Anna").close()
    raw = RawClient(host.port)
    raw.send({"v": 1, "type": "join", "room": room.code, "name": "Anna", "token": "guessed"})
    error = raw.recv_type("error")
    assert error["code"] == "bad_token"
    assert error["reason"] == (f"This computer's key for Anna does not fit room {room.code}: join with another "
                               "name, or ask the teacher.")
    raw.close()


def test_a_team_shares_a_seat_and_the_first_answer_counts(host):
    room = fast_room(host, seed=13)
    anna, ben = RoomClient(room.code, "Anna"), RoomClient(room.code, "Ben")
    room.assign("Ben", 0)
    room.name_seat(0, "Team Red")
    room.set_bot(1, "easy")
    table = room.start()
    try:
        assert [p.name for p in table.game.players][0] == "Team Red"
        assert wait_until(lambda: ben.seat == 0 and ben.view is not None and anna.view is not None)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            v = anna.view
            if v.prompt.kind == "answer" and not v.paused:
                first = GuessAnswer(0, 1848) if v.question.kind == "guess" else ChoiceAnswer(0, 2)
                assert anna.submit(first, v.state_id).accepted
                assert wait_until(lambda: ben.view.question is not None and ben.view.question.my_answer is not None
                                  or ben.view.state_id != v.state_id)
                if ben.view.state_id == v.state_id:
                    assert ben.view.question.my_answer == (1848 if v.question.kind == "guess" else 2)
                    late = ben.submit(GuessAnswer(0, 1) if v.question.kind == "guess" else ChoiceAnswer(0, 0),
                                      v.state_id)
                    assert late.status in ("duplicate", "stale")
                break
            move = move_for(v, 0)
            if move is not None:
                anna.submit(move, v.state_id)
            time.sleep(0.01)
        else:
            raise AssertionError("no question came")
        assert room.roles()[0] == {"kind": "team", "members": ["Anna", "Ben"]}  # roles travel as data
    finally:
        anna.close(), ben.close()


def test_a_silent_seat_handed_to_a_bot_and_back(host):
    room = fast_room(host, seed=17)
    anna, ben = RoomClient(room.code, "Anna"), RoomClient(room.code, "Ben")
    table = room.start()
    try:
        room.hand_to_bot(1, "hard")
        assert 1 in table.bots and room.roles()[1] == {"kind": "bot", "skill": "hard"}
        assert wait_until(lambda: ben.view is not None)
        play_until([anna], lambda: answering(anna))
        v = ben.view
        ack = ben.submit(GuessAnswer(1, 5) if v.question.kind == "guess" else ChoiceAnswer(1, 0), v.state_id)
        if table.game.question is not None and 1 in table.game.question.answers:
            assert (ack.status, ack.code) == ("duplicate", "already_answered")  # the bot was quicker
        else:
            assert (ack.status, ack.code, ack.reason) == ("rejected", "not_your_seat", "a bot plays this seat")
        room.hand_back(1)
        assert 1 not in table.bots
        play_to_the_end([anna, ben])
    finally:
        anna.close(), ben.close()


def test_a_late_joiner_watches_the_projector_view(host):
    room = fast_room(host)
    anna = RoomClient(room.code, "Anna")
    room.start()
    cleo = RoomClient(room.code, "Cleo")
    try:
        assert cleo.seat is None
        assert wait_until(lambda: cleo.view is not None)
        assert cleo.view.seat is None and cleo.view.prompt.kind in ("wait", "over")
        ack = cleo.submit(GuessAnswer(0, 1), cleo.view.state_id)
        assert (ack.status, ack.code) == ("rejected", "not_your_seat")
    finally:
        anna.close(), cleo.close()


def test_a_closed_room_tells_its_students(host):
    room = fast_room(host)
    anna = RoomClient(room.code, "Anna")
    host.close()
    assert wait_until(lambda: anna.status == "closed")
    assert anna.message == "The teacher closed the room."
    anna.close()


def test_any_store_with_the_interface_holds_the_rooms():
    class CountingStore(MemoryStore):
        saves = 0

        def save(self, room):
            CountingStore.saves += 1
            super().save(room)

    store = CountingStore()
    room_host = RoomHost(store=store)
    try:
        room = fast_room(room_host)
        anna = RoomClient(room.code, "Anna")
        assert store.get(room.code).member("anna").seat == 0 and CountingStore.saves >= 1
        anna.close()
    finally:
        room_host.close()


def test_protocol_parsing_messages():
    assert parse_client('{"v":1,"type":"join","room":"K7-PQ45","name":"  Anna   Kovacs "}').name == "Anna Kovacs"
    with pytest.raises(ProtocolError, match="ref must be a whole number"):
        parse_client('{"v":1,"type":"intent","ref":1.5,"token":"t","state_id":"1:0","intent":{}}')
    with pytest.raises(ProtocolError, match="the message is not JSON"):
        parse_client('{"v":1,"type":"join","room":"x","name":NaN}')
    with pytest.raises(ProtocolError, match="a name has at most 40 characters"):
        parse_client(json.dumps({"v": 1, "type": "join", "room": "x", "name": "a" * 41}))
    with pytest.raises(ProtocolError, match="unknown intent 'timeout'"):
        intent_action(0, {"kind": "timeout"})
    with pytest.raises(ProtocolError, match="value must be a whole number"):
        intent_action(0, {"kind": "guess", "value": True})
    assert intent_action(2, {"kind": "attack", "territory": "HU-PE", "wings": True}).wings


def test_the_map_a_student_receives_draws_the_same(host):
    from triviador_nb.maps import load_builtin_map
    game_map = load_builtin_map("world19")
    again = map_from_plain(json.loads(json.dumps(map_to_plain(game_map))))
    assert again.board == game_map.board and again.labels == {t: tuple(p) for t, p in game_map.labels.items()}
    assert again.bounds == game_map.bounds and again.title == game_map.title
    assert all(again.features[t]["geometry"] == game_map.features[t]["geometry"] for t in game_map.board.territories)


def test_a_seats_own_key_rejoins_even_while_wrong_codes_lock_joins_out(host):
    room = fast_room(host)
    anna = RoomClient(room.code, "Anna")
    token = anna.token
    anna.close()
    raw = RawClient(host.port)
    wrong = codes.shown(room.code[:2] + ("2222" if room.code[3:] != "2222" else "3333"))
    for _ in range(10):  # a classmate tries codes: joins from this machine are locked out for a minute
        raw.send({"v": 1, "type": "join", "room": wrong, "name": "Guesser"})
        assert raw.recv_type("error")["code"] == "no_such_room"
    raw.send({"v": 1, "type": "join", "room": room.code, "name": "Cleo"})
    assert raw.recv_type("error")["code"] == "too_many_tries"
    back = RawClient(host.port)
    assert back.join(room.code, "Anna", token)["seat"] == 0  # Anna's key still lets her back in
    raw.close(), back.close()


def test_a_connection_that_never_joins_is_dropped_and_the_host_caps_connections(monkeypatch):
    from triviador_nb.rooms import host as host_module, rooms as rooms_module
    monkeypatch.setattr(rooms_module, "JOIN_WITHIN_S", 0.3)
    monkeypatch.setattr(host_module, "MAX_CONNECTIONS", 2)
    room_host = RoomHost()
    try:
        idle = RawClient(room_host.port)
        with pytest.raises(ConnectionClosed):
            idle.recv(timeout=5)  # dropped after 0.3 s without a join
        first, second = RawClient(room_host.port), RawClient(room_host.port)
        third = RawClient(room_host.port)
        with pytest.raises(ConnectionClosed) as closed:
            third.recv(timeout=5)
        assert closed.value.rcvd.code == 1013
        assert any(e.code == "too_many_connections" for e in room_host.log)
        first.close(), second.close()
    finally:
        room_host.close()


def test_one_connection_joins_once_and_the_teacher_can_remove_a_name(host):
    room = fast_room(host)
    raw = RawClient(host.port)
    raw.join(room.code, "fake0")
    raw.send({"v": 1, "type": "join", "room": room.code, "name": "fake1"})
    assert raw.recv_type("error")["code"] == "already_joined"
    assert [m.name for m in room.members()] == ["fake0"]
    room.remove("fake0")
    assert raw.recv_type("closed")["reason"] == "The teacher took you out of the room."
    assert room.members() == []
    anna = RoomClient(room.code, "Anna")
    assert anna.seat == 0  # the seat fake0 had is free again
    anna.close(), raw.close()


def test_the_people_of_a_seat_a_bot_plays_watch_and_play_again_keeps_the_bot(host):
    room = fast_room(host, seed=19)
    anna, ben = RoomClient(room.code, "Anna"), RoomClient(room.code, "Ben")
    table = room.start()
    try:
        room.hand_to_bot(1, "hard")
        assert wait_until(lambda: ben.view is not None and ben.view.seat is None)  # the projector's view
        play_until([anna], lambda: table.game.is_over, timeout=90)
        room.restart()
        assert 1 in table.bots and table.bots[1].skill.name == "hard" and len(table.games) == 2
    finally:
        anna.close(), ben.close()


def test_a_room_host_restarted_resumes_from_the_journal_and_students_rejoin(tmp_path):
    """Issue 12, saved games: the teacher's kernel restarts mid-game; the
    room comes back on the same code with the game where it stood, held, and
    a student's seat key brings her back to her seat."""
    from triviador_nb.ui.teacher import resume_rooms
    first = RoomHost()
    path = tmp_path / "room.journal"
    room = fast_room(first, journal=path, map="hungary", bank="general_knowledge_en")
    anna = RoomClient(room.code, "Anna")
    token, code = anna.token, room.code
    table = room.start()
    play_until([anna], lambda: len(table.game.record) > 12)  # a few moves into the game
    room.run(table.hold)
    before = room.run(lambda: table.game.to_dict())
    anna.close()
    first.close()  # the teacher's kernel is gone
    screen = resume_rooms([path])
    try:
        (again,) = screen.rooms
        assert again.code == code and again.started and again.table.held
        assert again.run(lambda: again.table.game.to_dict()) == before
        assert [m.name for m in again.members()] == ["Anna"]
        assert "Resumed 1 room: the games are paused." in screen.message.value
        assert str(path) in screen.controls[code].saved.value  # where it goes on being saved
        raw = RawClient(codes.port_of(code))
        assert raw.join(code, "Anna", token)["seat"] == 0  # her seat key still fits
        view = raw.recv_type("view")
        assert view["view"]["paused"] is True and view["view"]["seat"] == 0
        raw.close()
        again.run(again.table.release)
        assert wait_until(lambda: len(again.table.game.record) > len(before["record"]), timeout=30)
        assert read_journal_games(path)[-1]["record"][:len(before["record"])] == before["record"]
    finally:
        screen.close()


def read_journal_games(path):
    from triviador_nb.classroom import read_journal
    return read_journal(path).games


def test_a_teacher_on_the_wire_runs_a_room_of_a_host_it_holds_no_object_of(host):
    """The teacher's connection (issue 22): only the host's URL and teacher
    key; the bank goes to the host as a file and never to the student."""
    from triviador_nb.rooms.teacher_client import RoomRefused, TeacherClient

    with pytest.raises(RoomRefused) as refused:
        TeacherClient(host.url(), key="not-the-key")
    assert refused.value.code == "not_a_teacher"
    teacher = TeacherClient(host.url(), key=host.teacher_key)
    try:
        assert teacher.codes == [] and teacher.status == "connected"
        code = teacher.open_room("conquiztador", "hungary", "general_knowledge_en", seed=5, pace=0.02, journal=False)
        assert teacher.codes == [code] and teacher.maps[code].board.name == "hungary"
        anna = RoomClient(code, "Anna")
        try:
            assert wait_until(lambda: [p["name"] for p in teacher.states[code]["people"]] == ["Anna"])
            assert teacher.states[code]["people"][0]["connected"] is True
            with pytest.raises(RoomRefused) as refused:
                teacher.command("hold", code)
            assert refused.value.code == "not_started"
            teacher.command("start", code)
            assert wait_until(lambda: teacher.views.get(code) is not None and anna.view is not None)
            teacher.command("hold", code)
            assert wait_until(lambda: anna.held and teacher.held[code] and teacher.states[code]["held"])
            teacher.command("release", code)
            assert wait_until(lambda: not anna.held)
            teacher.command("end", code)
            assert wait_until(lambda: anna.view.is_over and teacher.views[code].is_over)
            teacher.command("play_again", code)
            assert wait_until(lambda: not anna.view.is_over and anna.seat == 0)
            teacher.command("close_room", code)
            assert wait_until(lambda: anna.status == "closed" and teacher.codes == [])
        finally:
            anna.close()
    finally:
        teacher.close()


def test_a_host_process_stopped_with_sigterm_tells_every_student_and_teacher(tmp_path):
    """``triviador-nb host`` as a service (issue 22): SIGTERM closes every
    room cleanly; a student's screen is told (not "reconnecting" for good),
    and a teacher can open a room from a notebook with the printed key."""
    import os
    import re
    import signal
    import subprocess
    import sys

    from triviador_nb.rooms.teacher_client import TeacherClient

    env = {**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "triviador_nb", "host", "--rooms", "1", "--for", "60",
                                "--start-after", "600"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        url, key = re.search(r'teach\("([^"]+)", key="([^"]+)"\)', lines[1]).groups()
        code = re.search(r"room (\S+):", lines[2]).group(1)
        teacher = TeacherClient(url, key=key)
        anna = RoomClient(code, "Anna")
        try:
            assert teacher.codes == [code]
            assert wait_until(lambda: [p["name"] for p in teacher.states[code]["people"]] == ["Anna"])
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=60) == 0  # (a bound: a busy machine takes long to shut down)
            assert wait_until(lambda: anna.status == "closed")
            assert anna.message == "The room service stopped: the games are saved; the teacher can bring them back."
            assert wait_until(lambda: teacher.status in ("closed", "reconnecting"))
        finally:
            anna.close(), teacher.close()
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        process.stdout.close()


def test_a_host_process_stops_on_sigint_even_when_started_with_sigint_ignored(tmp_path):
    """JupyterHub stops a managed service with SIGINT first; a service started
    in the background inherits SIGINT ignored, and then waited for SIGTERM
    (13-31 s of "Cleaning up services" behind a real hub)."""
    import os
    import signal
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "triviador_nb", "host", "--rooms", "1", "--for", "60"],
                               stdout=subprocess.PIPE, text=True, env={**os.environ, "TRIVIADOR_NB_HOME": str(tmp_path)},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert process.stdout.readline().startswith("serving 1 room(s)")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0  # (a bound: a busy machine takes long to shut down)
        assert process.stdout.read().strip().endswith("rooms closed")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        process.stdout.close()
