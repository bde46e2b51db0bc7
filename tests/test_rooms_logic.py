"""The rooms' logic on a manual clock, with no sockets and no sleeps (issue 22
part 4): players and teachers are in-memory peers that keep what they were
sent; the clock moves only when the test says so.

These play whole rooms in milliseconds: the same lobby, seats, keys, limits
and teacher commands the WebSocket host serves (``rooms/host.py`` only moves
these messages).
"""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace

import pytest
from room_helpers import Wire, fast_open, key_of, move_for

from triviador_nb.engine.view import View
from triviador_nb.rooms import handshake, protocol
from triviador_nb.rooms.rooms import JOIN_WITHIN_S, KEY_OWNER


@pytest.fixture
def wire():
    return Wire()



def play(wire, players, until, seconds=600.0, step=0.05):
    """Every student answers from its own view alone until ``until()`` (bounded in clock time)."""
    moved = 0
    for _ in range(int(seconds / step)):
        if until():
            return moved
        for peer, conn in players:
            views = peer.all("view")
            if not views:
                continue
            v = View.from_dict(views[-1]["view"])
            seat = views[-1]["seat"]
            intent = move_for(v, seat) if seat is not None else None
            if intent is not None and (v.state_id, seat) not in getattr(peer, "done", set()):
                peer.done = getattr(peer, "done", set()) | {(v.state_id, seat)}
                wire.send(conn, type="intent", ref=moved + 1, token=key_of(peer),
                          state_id=v.state_id, intent=protocol.action_intent(intent))
                moved += 1
        wire.clock.advance(step)
    raise AssertionError(f"not reached in {seconds} s of clock time")


def test_a_teacher_with_the_key_runs_a_whole_room_over_the_protocol(wire):
    teacher = wire.teacher()
    assert teacher[0].last("rooms") == {"v": protocol.VERSION, "type": "rooms", "rooms": [], "who": "teacher"}
    code = fast_open(wire, teacher)
    assert teacher[0].last("rooms")["rooms"] == [code]
    state = teacher[0].last("room")
    assert state["room"] == code and state["rules_title"] == "ConQUIZtador" and state["started"] is False
    assert "map" in state  # the map once, with the first state of the room
    anna, ben = wire.student(code, "Anna"), wire.student(code, "Ben")
    assert anna[0].last("welcome")["seat"] == 0 and ben[0].last("welcome")["seat"] == 1
    assert [p["name"] for p in teacher[0].last("room")["people"]] == ["Anna", "Ben"]
    assert "map" not in teacher[0].last("room")
    assert wire.op(teacher, "set_bot", code, seat=2, skill="hard")["status"] == "ok"
    assert wire.op(teacher, "start", code)["status"] == "ok"
    projector = teacher[0].last("view")
    assert projector["room"] == code and projector["seat"] is None
    assert projector["seats"] == {"0": {"kind": "student"}, "1": {"kind": "student"},
                                  "2": {"kind": "bot", "skill": "hard"}}
    # Pause, then Resume: every player's view says so
    assert wire.op(teacher, "hold", code)["status"] == "ok"
    assert anna[0].last("view")["held"] is True and teacher[0].last("room")["held"] is True
    assert wire.op(teacher, "release", code)["status"] == "ok"
    assert anna[0].last("view")["held"] is False
    play(wire, [anna, ben], until=lambda: teacher[0].last("room")["can_undo"])
    undone = wire.op(teacher, "undo", code)
    assert undone["status"] == "ok" and undone["result"]["status"] == "accepted"
    ended = wire.op(teacher, "end", code)
    assert ended["result"]["status"] == "accepted" and teacher[0].last("room")["over"] is True
    assert View.from_dict(anna[0].last("view")["view"]).is_over
    # play again in the same room, with the same code and seats
    assert wire.op(teacher, "play_again", code)["status"] == "ok"
    again = View.from_dict(anna[0].last("view")["view"])
    assert not again.is_over and anna[0].last("view")["seat"] == 0
    assert wire.rooms.rooms[code.replace("-", "")].table.game is not wire.rooms.rooms[code.replace("-", "")].table.games[0]
    report = wire.op(teacher, "report", code)
    files = report["result"]["files"]
    assert sorted(files) == sorted(f for f in files if f.startswith("report"))
    assert any(f.endswith(".xlsx") for f in files) and base64.b64decode(files[next(iter(files))])
    assert wire.op(teacher, "close_room", code)["status"] == "ok"
    assert anna[0].last("closed") == {"v": protocol.VERSION, "type": "closed", "code": "room_closed",
                                      "reason": "The teacher closed the room."}
    assert teacher[0].last("rooms")["rooms"] == []


def test_the_projector_view_holds_no_answer_before_the_reveal(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    anna = wire.student(code, "Anna")
    wire.op(teacher, "start", code)
    bank = wire.rooms.rooms[code.replace("-", "")].bank
    checked = 0
    for _ in range(400):
        wire.clock.advance(0.05)
        message = teacher[0].last("view")
        v = View.from_dict(message["view"])
        if v.question is not None and v.phase_name != "over":
            question = next(q for q in bank.guess + bank.choice if q.text == v.question.text)
            asked = json.dumps(message["view"]["question"], ensure_ascii=False)
            if v.question.kind == "choice":  # the options are shown; which one is right is not
                assert "correct" not in json.dumps(message) and v.question.my_answer is None
            else:
                assert str(question.answer) not in asked.replace(question.text, "")
            checked += 1
        if checked > 5:
            break
    assert checked > 5


def test_a_student_key_is_never_a_teacher_key_and_a_wrong_key_is_refused(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    anna = wire.student(code, "Anna")
    seat_key = key_of(anna[0])
    for key in (seat_key, "guess", ""):
        peer, conn = wire.teacher(key=key, address="127.0.0.9")
        assert peer.last("error")["code"] == "not_a_teacher"
        done = wire.op((peer, conn), "start", code)
        assert done["status"] == "rejected" and done["code"] == "not_a_teacher"
    # the connection Anna joined with cannot become a teacher either
    wire.send(anna[1], type="teacher", nonce=handshake.nonce())
    assert anna[0].last("error")["code"] == "already_joined"
    assert wire.rooms.rooms[code.replace("-", "")].table is None  # nothing started
    # ten wrong keys from one address lock that address out of the teacher role for a minute
    for _ in range(10):
        wire.teacher(key="wrong", address="127.0.0.11")
    peer, _conn = wire.teacher(address="127.0.0.11")  # even the right key, now
    assert peer.last("error")["code"] == "not_a_teacher"
    wire.clock.advance(61)
    peer, _conn = wire.teacher(address="127.0.0.11")
    assert peer.last("rooms")["rooms"] == [code]


def test_a_hub_teacher_controls_only_their_own_rooms(wire):
    tereza = wire.teacher(key=None, identity=SimpleNamespace(user="tereza", teacher=True), address="hub:tereza")
    olga = wire.teacher(key=None, identity=SimpleNamespace(user="olga", teacher=True), address="hub:olga")
    anna_hub = SimpleNamespace(user="anna", teacher=False)
    not_a_teacher = wire.teacher(key=None, identity=anna_hub, address="hub:anna")
    assert not_a_teacher[0].last("error")["code"] == "not_a_teacher"
    code = fast_open(wire, tereza)
    assert olga[0].last("rooms")["rooms"] == [] and tereza[0].last("rooms") == {
        "v": protocol.VERSION, "type": "rooms", "rooms": [code], "who": "tereza"}
    refused = wire.op(olga, "start", code)
    assert refused["status"] == "rejected" and refused["code"] == "no_such_room"
    assert not any(m.get("room") == code for m in olga[0].all("room"))  # olga never sees tereza's lobby
    # under the hub the name is the hub user's, whatever is typed, and it rejoins by identity
    anna = wire.student(code, "Teacher", identity=anna_hub, address="hub:anna")
    assert anna[0].last("welcome")["name"] == "anna"
    again = wire.student(code, "someone else", identity=anna_hub, address="hub:anna")
    assert again[0].last("welcome")["name"] == "anna" and again[0].last("welcome")["seat"] == 0
    assert len(wire.rooms.rooms[code.replace("-", "")].record.members) == 1


def test_a_version_1_student_is_answered_in_version_1(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    old, new = wire.student(code, "Old", v=1), wire.student(code, "New")
    wire.op(teacher, "set_bot", code, seat=2, skill="easy")
    wire.op(teacher, "start", code)
    assert old[0].last("view")["v"] == 1 and old[0].last("view")["roles"] == {
        "0": "student", "1": "student", "2": "bot · easy"}
    assert "seats" not in old[0].last("view") and "roles" not in new[0].last("view")
    assert new[0].last("view")["seats"]["2"] == {"kind": "bot", "skill": "easy"}
    assert all(m["v"] == 1 for m in old[0].sent)


def test_teacher_commands_are_checked_and_refusals_come_as_codes(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    wire.student(code, "Anna")
    cases = [("assign", {"name": "Nobody", "seat": 0}, "no_such_member"),
             ("set_bot", {"seat": 7, "skill": "hard"}, "bad_seat"),
             ("set_bot", {"seat": 1, "skill": "genius"}, "bad_skill"),
             ("hold", {}, "not_started"),
             ("hand_to_bot", {"seat": 0}, "not_started")]
    for op, args, code_expected in cases:
        done = wire.op(teacher, op, code, **args)
        assert (done["status"], done["code"]) == ("rejected", code_expected), (op, done)
    bad = wire.op(teacher, "open_room", rules="chess", map="hungary", bank="general_knowledge_en")
    assert bad["status"] == "rejected" and "chess" in bad["reason"]
    peer, conn = teacher
    wire.rooms.receive(conn, json.dumps({"v": 2, "type": "op", "ref": 9, "op": "set_bot", "room": code,
                                         "args": {"skill": "hard"}}))
    assert peer.last("error") == {"v": protocol.VERSION, "type": "error", "code": "bad_field", "reason": "seat must be given for set_bot"}
    wire.rooms.receive(conn, json.dumps({"v": 2, "type": "op", "ref": 9, "op": "format_disk", "room": code}))
    assert peer.last("error")["code"] == "bad_field"


def test_a_teachers_own_bank_file_goes_to_the_host_and_never_to_a_student(wire, tmp_path):
    teacher = wire.teacher()
    csv = ("type,question,answer,wrong_1,wrong_2,wrong_3,category,difficulty\n"
           + "".join(f"guess,How many marbles are in jar {i}?,{1000 + i},,,,maths,easy\n" for i in range(40)))
    done = wire.op(teacher, "open_room", rules="conquiztador", map="hungary", bank="my_bank.csv",
                   bank_file={"name": "my_bank.csv", "data": base64.b64encode(csv.encode()).decode()}, seed=1)
    assert done["status"] == "rejected" and done["reason"].startswith(
        "my_bank.csv:1:type: the bank has no choice questions")  # named as the teacher sent it, not a host path
    csv += "".join(f"choice,Which colour is card {i}?,blue {i},red,green,white,art,easy\n" for i in range(40))
    done = wire.op(teacher, "open_room", rules="conquiztador", map="hungary", bank="my_bank.csv",
                   bank_file={"name": "my_bank.csv", "data": base64.b64encode(csv.encode()).decode()}, seed=1)
    assert done["status"] == "ok", done
    code = done["result"]["room"]
    anna = wire.student(code, "Anna")
    wire.op(teacher, "start", code)
    wire.clock.advance(30)
    asked = [m["view"]["question"] for m in anna[0].all("view") if m["view"].get("question")]
    assert any("marbles" in q["text"] for q in asked)  # her screen shows the teacher's questions...
    for question in asked:  # ...and no answer with them
        if "marbles" in question["text"]:
            jar = int(question["text"].split("jar ")[1].rstrip("?"))
            assert str(1000 + jar) not in json.dumps(question)


def test_an_idle_connection_is_dropped_and_a_teacher_is_not(wire):
    idle, _ = wire.connect()
    teacher = wire.teacher()
    wire.clock.advance(JOIN_WITHIN_S + 1)
    assert idle.closed_with == (1008, "join a room first")
    assert teacher[0].closed_with is None


def test_a_forged_op_cannot_reach_rooms_of_the_key_from_a_student_connection(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    anna = wire.student(code, "Anna")
    peer, conn = anna
    wire.rooms.receive(conn, protocol.op(1, "start", code))
    assert peer.last("done") == {"v": protocol.VERSION, "type": "done", "ref": 1, "status": "rejected", "code": "not_a_teacher",
                                 "reason": "Only the teacher can do that.", "result": None}
    assert wire.rooms.rooms[code.replace("-", "")].table is None
    assert wire.rooms.rooms[code.replace("-", "")].owner == KEY_OWNER


def test_no_message_holds_a_correct_answer_or_another_seats_answer_before_the_reveal(wire):
    """The secrecy check of the room, on the manual clock (it ran for 8 s of
    real time over sockets; here in well under a second): while a question is
    open, neither Eve's views nor the teacher's projector hold its answer, nor
    what the bots answered - only that they have."""
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    eve = wire.student(code, "Eve", v=1)
    wire.op(teacher, "set_bot", code, seat=1, skill="hard")
    wire.op(teacher, "set_bot", code, seat=2, skill="hard")
    wire.op(teacher, "start", code)
    table = wire.rooms.rooms[code.replace("-", "")].table
    question_fields = {"kind", "purpose", "text", "options", "players", "answered", "time_limit_s", "my_answer"}
    checked = others_seen = seen = 0
    token = eve[0].last("welcome")["token"]
    for _ in range(20_000):
        if checked >= 8:
            break
        wire.clock.advance(0.02)
        views = eve[0].all("view")
        new = (views[-1:] if len(views) > seen else []) + teacher[0].all("view")[-1:]  # the newest: as things stand
        seen = len(views)
        for data in new:
            view, q, prompt = data["view"], data["view"]["question"], data["view"]["prompt"]
            if q is None:
                if data["seat"] == 0 and prompt["kind"] in ("base", "pick", "claim", "attack") and prompt["choices"]:
                    kind = "attack" if prompt["kind"] == "attack" else "pick"
                    wire.send(eve[1], v=1, type="intent", ref=1, token=token, state_id=view["state_id"],
                              intent={"kind": kind, "territory": prompt["choices"][0]})
                continue
            asked = table.game.question
            if asked is None or asked.question.text != q["text"] or q["my_answer"] is not None:
                continue  # a view from before the question was put, or Eve has answered it
            assert set(q) == question_fields
            shown = json.dumps(q) + json.dumps(prompt)
            assert "correct" not in shown
            if asked.is_guess:
                assert str(asked.question.answer) not in shown
            for seat, answer in asked.answers.items():
                if seat == 0:
                    continue
                assert seat in q["answered"]
                if asked.is_guess and answer.value is not None and len(str(answer.value)) >= 3:
                    assert str(answer.value) not in shown
                others_seen += 1
            if data["seat"] == 0 and 0 in q["players"] and len(q["answered"]) == len(q["players"]) - 1:
                wire.send(eve[1], v=1, type="intent", ref=2, token=token, state_id=view["state_id"],
                          intent={"kind": "guess", "value": 7} if asked.is_guess else {"kind": "choice", "option": 0})
                checked += 1
    assert checked >= 5 and others_seen >= 3


def a_question_for_three(wire):
    """A room whose three students are asked a question (its timer running); the teacher, the room,
    the students."""
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    students = [wire.student(code, name) for name in ("Anna", "Ben", "Cleo")]
    assert wire.op(teacher, "start", code)["status"] == "ok"
    table = wire.rooms.rooms[code.replace("-", "")].table
    play(wire, students, until=lambda: table.game.stage == "answer" and len(table.game.question.waiting_for) == 3
         and not table.paused and not table.getting_ready)
    return teacher, wire.rooms.rooms[code.replace("-", "")], students


def taken_over(room, clock: dict):
    """``room`` brought back by another host process (another :class:`Wire`) from its record, as
    after its owner died (issue 23): the record's lines as Redis holds them, the clock as written."""
    from room_helpers import Wire

    from triviador_nb.banks import resolve_bank
    from triviador_nb.classroom import rebuild_games
    from triviador_nb.classroom.journal import game_lines, header_line
    from triviador_nb.maps import resolve_map
    from triviador_nb.rooms.redis_record import read_record

    table = room.table
    lines = [json.dumps(header_line(table.game, room.journal_setup()))]
    lines += [json.dumps(line) for game in table.games for line in game_lines(game)]
    contents = read_record(lines, room.code)
    game_map, bank = resolve_map("hungary", players=3), resolve_bank("general_knowledge_en")
    other = Wire()
    other.clock.advance(1000.0)  # another process, another clock
    again = other.rooms.take_over(contents.header["setup"], contents, game_map, bank,
                                  rebuild_games(contents, game_map.board, bank), clock)
    return other, again


def test_a_room_taken_over_waits_for_its_players_then_gives_the_question_the_time_it_had_left(wire, get_ready):
    """Issue 23 (failover): the process taking over a room whose owner died holds it until a member
    of every seat is back, then a get-ready, then the question asked at the kill goes on with the
    time it had left (the pause is not the students' fault); the answer given before is in, later
    ones are timed on from there (D1); the teacher controls the room on its new process."""
    _teacher, room, (anna, ben, cleo) = a_question_for_three(wire)
    table = room.table
    limit, sid = table.game.time_limit_s(), table.state_id
    answer = {"kind": "guess", "value": 1000} if table.game.question.is_guess else {"kind": "choice", "option": 1}
    wire.send(anna[1], type="intent", ref=1, state_id=sid, intent=answer)
    assert anna[0].last("ack")["status"] == "accepted"
    wire.clock.advance(4.0)
    point = table.clock_point()
    assert point[0] == sid and 4.0 <= point[2] < 4.1
    other, again = taken_over(room, {"point": list(point), "held": False})
    left = round(limit - point[2], 3)
    assert again.table.held and again.returning and again.owner == KEY_OWNER
    assert other.teacher()[0].last("rooms")["rooms"] == [room.code]

    back = [other.student(room.code, name, token=key_of(peer)) for name, peer in
            (("Anna", anna[0]), ("Ben", ben[0]))]
    for peer, _conn in back:
        view = peer.last("view")
        assert view["held"] is True and view["view"]["time_left_s"] == left and view["view"]["state_id"] == sid
    other.send(back[1][1], type="intent", ref=2, state_id=sid, intent=answer)
    assert back[1][0].last("ack")["code"] == "held"  # not before everyone is back
    cleo_back = other.student(room.code, "Cleo", token=key_of(cleo[0]))
    assert not again.table.held and not again.returning  # every seat has its student back
    view = cleo_back[0].last("view")["view"]
    assert view["get_ready_s"] == get_ready and view["time_left_s"] == left
    other.clock.advance(get_ready)
    assert again.table.time_left() == pytest.approx(limit - point[2])
    other.clock.advance(1.0)
    other.send(back[1][1], type="intent", ref=3, state_id=sid, intent=answer)
    assert back[1][0].last("ack")["ms"] == round((point[2] + 1.0) * 1000)
    other.send(back[0][1], type="intent", ref=4, state_id=sid, intent=answer)
    assert (back[0][0].last("ack")["status"], back[0][0].last("ack")["code"]) == ("duplicate", "already_answered")


def test_a_room_taken_over_goes_on_without_a_student_who_never_comes_back_and_a_held_game_stays_held(wire, get_ready):
    """The wait for the players is bounded (RETURN_WITHIN_S): a student who does not come back does
    not stop the class. A game the teacher held before the owner died stays held until the teacher
    releases it."""
    from triviador_nb.rooms.rooms import RETURN_WITHIN_S

    teacher, room, (anna, _ben, _cleo) = a_question_for_three(wire)
    point = room.table.clock_point()
    other, again = taken_over(room, {"point": list(point), "held": False})
    other.student(room.code, "Anna", token=key_of(anna[0]))
    other.clock.advance(RETURN_WITHIN_S - 0.1)
    assert again.table.held
    other.clock.advance(0.2)
    assert not again.table.held and again.table.getting_ready

    assert wire.op(teacher, "hold", room.code)["status"] == "ok"
    other, again = taken_over(room, {"point": list(room.table.clock_point()), "held": True})
    new_teacher = other.teacher()
    other.student(room.code, "Anna", token=key_of(anna[0]))
    other.clock.advance(RETURN_WITHIN_S + 1.0)
    assert again.table.held and not again.returning
    assert other.op(new_teacher, "release", room.code)["status"] == "ok"
    assert not again.table.held
