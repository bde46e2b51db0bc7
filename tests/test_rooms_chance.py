"""Chance a student cannot work out (issue 28, points 1 and 2).

A room's games draw every chance outcome from a 128-bit secret the host
never sends (``engine/chance.py``): the correct option's place cannot be
predicted from what the views show, the secret is in no message to anyone,
"Play again" draws a fresh one, and what a bot answered for a person's seat
is kept from that person until the reveal. A game given a number keeps the
number's public streams (D4's recorded draws replay either way).

Played as the other room logic tests are: ``Rooms`` on a ManualClock, with
in-memory peers (no sockets, no sleeps).
"""

from __future__ import annotations

import base64
import io
import json
import random
import shutil
import zipfile
from pathlib import Path

import pytest
from test_rooms_logic import Wire, play

from triviador_nb.banks import load_builtin_bank
from triviador_nb.bots import Bot
from triviador_nb.classroom import ManualClock, Table, read_journal, rebuild_games
from triviador_nb.engine import CONQUIZTADOR, Game
from triviador_nb.engine.bases import draw_bases
from triviador_nb.engine.chance import SECRET_BITS
from triviador_nb.engine.view import view
from triviador_nb.maps import load_builtin_map

BOARD = load_builtin_map("hungary").board
OLD_SEEDS = 1_000_000  # the game numbers a room drew before issue 28 (secrets.randbelow(1_000_000): 20 bits)
PREDICT_FROM = 5  # reveals the attacker waits for before it names an option (the bases leave ~400 numbers)


@pytest.fixture
def wire():
    return Wire()


def room_of(wire, code):
    return wire.rooms.rooms[code.replace("-", "")]


def open_room(wire, teacher, **args) -> str:
    done = wire.op(teacher, "open_room", rules="conquiztador", map="hungary", bank="general_knowledge_en",
                   pace=0.02, **args)
    assert done["status"] == "ok", done
    return done["result"]["room"]


# ---------------------------------------------------------------------- point 1: the attacker


def seeds_with_bases(bases: list[str], seeds: range) -> list[int]:
    """The game numbers in ``seeds`` whose base draw (ConQUIZtador: the first
    draw of ``random.Random(number)``, engine/bases.py) gives ``bases``, seat
    by seat. The set is found with one 9-bit draw per number (as
    ``Random.choice`` makes it), the order checked with ``draw_bases`` itself."""
    sets = BOARD.independent_sets(3)
    wanted = frozenset(bases)
    rng = random.Random()
    seed, bits = rng.seed, rng.getrandbits
    width = len(sets).bit_length()
    found = []
    for number in seeds:
        seed(number)
        k = bits(width)
        while k >= len(sets):
            k = bits(width)
        if frozenset(sets[k]) == wanted and draw_bases(BOARD, 3, random.Random(number)) == bases:
            found.append(number)
    return found


def what_views_show(views: list[dict]) -> tuple[list[str], list[int]]:
    """From one game's views of one seat, in the order they came: the bases
    seat by seat, and the correct option's place of each multiple-choice
    question revealed, in the order they were asked."""
    bases, correct, seen = None, [], set()
    for v in views:
        if bases is None and any(t["base_of"] is not None for t in v["territories"]):
            bases = [t["id"] for s in range(3) for t in v["territories"] if t["base_of"] == s]
        reveal = v["reveal"]
        if reveal is not None and reveal["index"] not in seen:
            seen.add(reveal["index"])
            if reveal["data"]["kind"] == "choice":
                correct.append(reveal["data"]["correct_option"])
    return bases, correct


def attack(games: list[list[dict]], seeds: range) -> tuple[int, int, int]:
    """A student's code against the old seeding, from the views alone: the
    numbers whose base draw fits, kept while their option stream
    (``Random(f"options:{n}")``, one shuffle of 4 per multiple-choice
    question) fits every reveal; from the :data:`PREDICT_FROM`-th reveal on,
    it names the place most of them give before each reveal. "Play again"
    was the number + 1. Returns (right, named, numbers left at the end)."""
    candidates: list[int] = []
    right = named = 0
    for number, views in enumerate(games):
        bases, correct = what_views_show(views)
        candidates = (seeds_with_bases(bases, seeds) if number == 0
                      else [n + 1 for n in candidates if seeds_with_bases(bases, range(n + 1, n + 2))])
        streams = {n: random.Random(f"options:{n}") for n in candidates}
        for k, place in enumerate(correct):
            guesses = {}
            for n, stream in streams.items():
                order = [0, 1, 2, 3]
                stream.shuffle(order)
                guesses[n] = order.index(0)
            if guesses and (k >= PREDICT_FROM or number > 0):
                named += 1
                right += max(range(4), key=list(guesses.values()).count) == place
            streams = {n: rng for n, rng in streams.items() if guesses[n] == place}
        candidates = list(streams)
    return right, named, len(candidates)


def numbered_games(number: int, count: int) -> list[list[dict]]:
    """Seat 1's views of ``count`` bot games of a table given game number
    ``number`` (Play again: the next number), one view after every action."""
    bank = load_builtin_bank("general_knowledge_en")
    games, asked = [], frozenset()
    for n in range(number, number + count):
        game = Game(CONQUIZTADOR, BOARD, bank, n, asked_before=asked)
        bots = [Bot(s, "hard", n) for s in range(3)]
        views = [view(game, 0).to_dict()]
        while not game.is_over:
            game.apply(bots[game.current_players()[0]].act(game))
            views.append(view(game, 0).to_dict())
        asked |= {e.data["question"] for e in game.events if e.kind == "answers"}
        games.append(views)
    return games


def test_the_attacker_predicts_a_numbered_game_so_its_failure_below_means_something():
    """The control: against a game with a (public) number the same attack
    names the correct option every time once the number is found."""
    right, named, left = attack(numbered_games(4242, 2), range(20_000))  # (its number is among the first 20,000)
    assert left == 1 and named >= 10 and right == named


def test_the_correct_option_of_a_room_cannot_be_predicted_from_what_the_views_show(wire):
    """Issue 28 point 1: a student who has read the source brute-forces the
    old 20-bit game numbers against the bases and every reveal of two games
    (Play again included); no number fits the room's games, so nothing it
    names beats chance. (It took 3-10 reveals before the fix.)"""
    teacher = wire.teacher()
    code = open_room(wire, teacher)
    eve = wire.student(code, "Eve")
    for seat in (1, 2):
        wire.op(teacher, "set_bot", code, seat=seat, skill="hard")
    wire.op(teacher, "start", code)
    games = []
    for number in range(2):
        if number:
            wire.op(teacher, "play_again", code)
        first = len(eve[0].sent)
        play(wire, [eve], until=lambda: room_of(wire, code).table.game.is_over)
        games.append([m["view"] for m in eve[0].sent[first:] if m["type"] == "view"])
    assert sum(len(what_views_show(g)[1]) for g in games) >= 12  # reveals enough to pin a 20-bit number thrice over
    right, named, left = attack(games, range(OLD_SEEDS))
    assert right <= 2, f"the attacker named the correct option {right} times of {named} (numbers left: {left})"
    assert left == 0, "an old game number explains every reveal: chance is still the number's"


# ---------------------------------------------------------------------- the secret stays on the host


def every_text(peer) -> str:
    return "\n".join(json.dumps(m, ensure_ascii=False) for m in peer.sent)


def report_texts(files: dict[str, str]) -> str:
    """The report's files as text (an .xlsx is a zip of XML files)."""
    texts = []
    for name, data in files.items():
        raw = base64.b64decode(data)
        if zipfile.is_zipfile(io.BytesIO(raw)):
            with zipfile.ZipFile(io.BytesIO(raw)) as book:
                texts += [book.read(inner).decode("utf-8", "replace") for inner in book.namelist()]
        else:
            texts.append(raw.decode("utf-8", "replace"))
    return "\n".join(texts)


def test_the_secret_is_in_no_message_of_a_whole_room_nor_in_the_report(wire, tmp_path):
    """Every message a student (and the projector) got in two whole games,
    and the teacher's report, scanned for each game's secret, as hex and as
    a number; the secrets have 128 bits, and only the teacher's journal
    holds them (to replay the games)."""
    teacher = wire.teacher()
    code = open_room(wire, teacher)
    room = room_of(wire, code)
    room.journal_path = tmp_path / "room.journal"
    anna, ben = wire.student(code, "Anna"), wire.student(code, "Ben", v=1)
    wire.op(teacher, "set_bot", code, seat=2, skill="easy")
    wire.op(teacher, "start", code)
    play(wire, [anna, ben], until=lambda: room.table.game.is_over)
    wire.op(teacher, "play_again", code)
    play(wire, [anna, ben], until=lambda: room.table.game.is_over)
    secrets_ = [g.secret for g in room.table.games]
    assert room.seed is None and len(secrets_) == 2
    assert all(s is not None and len(s) * 4 >= SECRET_BITS for s in secrets_)
    report = wire.op(teacher, "report", code)["result"]["files"]
    sent = {"Anna": every_text(anna[0]), "Ben": every_text(ben[0]), "the teacher": every_text(teacher[0]),
            "the report": report_texts(report)}
    assert min(len(sent[who]) for who in ("Anna", "Ben", "the teacher")) > 10_000  # whole games
    assert len(sent["the report"]) > 1_000
    for secret in secrets_:
        for form in (secret, secret.upper(), str(int(secret, 16))):
            assert [who for who, text in sent.items() if form in text] == []
    journal = read_journal(room.journal_path)  # the teacher's file: the games replay from it
    assert [g.get("secret") for g in journal.games] == secrets_


def test_play_again_draws_an_unrelated_secret(wire):
    teacher = wire.teacher()
    code = open_room(wire, teacher)
    wire.student(code, "Anna")
    wire.op(teacher, "start", code)
    room = room_of(wire, code)
    room.table.autoplay("hard")
    secrets_ = []
    for _ in range(4):
        secrets_.append(room.table.game.secret)
        wire.op(teacher, "play_again", code)
        room.table.autoplay("hard")
    numbers = [int(s, 16) for s in secrets_]
    assert len(set(numbers)) == 4 and all(g.seed is None for g in room.table.games)
    for a, b in zip(numbers, numbers[1:]):
        assert abs(b - a) > 2 ** 64 and bin(a ^ b).count("1") > 20  # not "the number + 1", not a neighbour


def test_a_room_given_a_number_keeps_it_and_its_reproducible_draws(wire):
    """A teacher's number (tests, a set piece) still makes the room's game
    the numbered one, and Play again the next number."""
    teacher = wire.teacher()
    code = open_room(wire, teacher, seed=7)
    wire.student(code, "Anna")
    wire.op(teacher, "start", code)
    room = room_of(wire, code)
    game = room.table.game
    assert (game.seed, game.secret) == (7, None)
    same = Game(CONQUIZTADOR, BOARD, room.bank, 7, names=[p.name for p in game.players])
    assert same.record[:1] == game.record[:1] and same.events[:2] == game.events[:2]
    room.table.autoplay("hard")
    wire.op(teacher, "play_again", code)
    assert (room.table.game.seed, room.table.game.secret) == (8, None)


# ---------------------------------------------------------------------- point 2: a hand-back


def open_guess_for(table, seat: int, wire, after: int = -1, steps: int = 10_000):
    """Advance the clock until a guess question awaits ``seat`` (not the one at record position ``after``)."""
    for _ in range(steps):
        asked = table.game.question
        if (asked is not None and asked.is_guess and seat in asked.waiting_for and not table.paused
                and table.state_id.split(":")[1] != str(after)):
            return asked
        wire.clock.advance(0.02)
    raise AssertionError("no guess question for the seat")


def test_a_seat_handed_to_a_bot_and_back_does_not_see_the_bots_answer_before_the_reveal(wire):
    """Issue 28 point 2: "Bot plays it", then "Hand back" while the question
    is open: the seat's views never carry the bot's answer as ``my_answer``
    until the reveal shows everyone's; two hand-offs' guesses are off by
    errors drawn afresh for each question."""
    teacher = wire.teacher()
    code = open_room(wire, teacher)
    eve, ben = wire.student(code, "Eve"), wire.student(code, "Ben")  # Ben never answers: questions stay open
    wire.op(teacher, "set_bot", code, seat=2, skill="hard")
    wire.op(teacher, "start", code)
    table = room_of(wire, code).table
    errors, after = [], -1
    for _ in range(2):
        asked = open_guess_for(table, 0, wire, after)
        after = int(table.state_id.split(":")[1])
        first = len(eve[0].sent)
        assert wire.op(teacher, "hand_to_bot", code, seat=0, skill="hard")["status"] == "ok"
        for _ in range(2000):
            if 0 in asked.answers:
                break
            wire.clock.advance(0.02)
        bots_guess = asked.answers[0].value
        assert bots_guess is not None and table.game.question is asked  # answered; the question is still open
        assert wire.op(teacher, "hand_back", code, seat=0)["status"] == "ok"
        shown = [m["view"]["question"] for m in eve[0].sent[first:] if m["type"] == "view"]
        assert shown and all(q is None or q["my_answer"] is None for q in shown)
        assert shown[-1]["text"] == asked.question.text and 0 in shown[-1]["answered"]  # answered, not what
        for _ in range(2000):  # Ben's time runs out: the reveal shows every answer, the bot's for Eve too
            if table.game.question is not asked:
                break
            wire.clock.advance(0.02)
        reveal = eve[0].last("view")["view"]["reveal"]
        assert reveal["data"]["question"] == asked.question.id
        assert reveal["data"]["answers"][0]["given"] == bots_guess
        errors.append(bots_guess / asked.question.answer)
    assert errors[0] != errors[1]


def test_a_bots_guess_is_drawn_from_the_games_secret():
    """The same game, the same moment, another secret: the bot's guesses
    differ (its error is the secret's draw, not the seat's or the number's);
    the same secret gives the same guesses (D16: an undo brings them back)."""
    bank = load_builtin_bank("general_knowledge_en")

    def guesses(secret: str) -> list[int | None]:
        game = Game(CONQUIZTADOR, BOARD, bank, None, secret=secret)
        bots = [Bot(s, "hard", 0) for s in range(3)]
        found = []
        for _ in range(2000):
            if len(found) == 5 or game.is_over:
                break
            asked = game.question
            if asked is not None and asked.is_guess and not asked.answers and 0 in asked.waiting_for:
                found.append(bots[0].act(game).value)
            game.apply(bots[game.current_players()[0]].act(game))
        assert len(found) == 5
        return found

    one, other = "0123456789abcdef" * 2, "fedcba9876543210" * 2
    assert guesses(one) == guesses(one)
    assert guesses(one) != guesses(other)


def test_a_game_with_a_secret_replays_from_its_header_and_record():
    """The journal's way back: ``to_dict`` holds the secret, ``from_dict``
    rebuilds the same game and it goes on the same (bots included)."""
    bank = load_builtin_bank("general_knowledge_en")
    secret = "5ec7e7" * 6
    game = Game(CONQUIZTADOR, BOARD, bank, None, secret=secret)
    bots = {s: Bot(s, "medium", None) for s in range(3)}
    for _ in range(40):
        game.apply(bots[game.current_players()[0]].act(game))
    data = game.to_dict()
    assert data["secret"] == secret and data["seed"] is None
    again = Game.from_dict(json.loads(json.dumps(data)), BOARD, bank)
    assert again.events == game.events and again.record == game.record
    while not game.is_over:
        action = bots[game.current_players()[0]].act(game)
        assert bots[again.current_players()[0]].act(again) == action
        game.apply(action)
        again.apply(action)
    assert again.events == game.events


@pytest.mark.parametrize("secret", ["", "abc", "G" * 32, "0123456789ABCDEF" * 2, 12345, "ab" * 200])
def test_a_secret_that_is_not_one_is_refused(secret):
    with pytest.raises(ValueError, match="a game's secret is 32 to 256 lowercase hex digits"):
        Game(CONQUIZTADOR, BOARD, load_builtin_bank("general_knowledge_en"), None, secret=secret)


def test_a_table_without_a_number_hands_its_next_game_a_fresh_secret():
    clock = ManualClock()
    bank = load_builtin_bank("general_knowledge_en")
    made = []

    def new_game(seed, asked_before=frozenset()):
        made.append(seed)
        return Game(CONQUIZTADOR, BOARD, bank, seed, secret="ab" * 16 if seed is None else None), {}

    table = Table(Game(CONQUIZTADOR, BOARD, bank, None, secret="cd" * 16), {}, clock, new_game=new_game)
    table.autoplay("hard")
    table.restart()
    numbered = Table(Game(CONQUIZTADOR, BOARD, bank, 41), {}, clock, new_game=new_game)
    numbered.autoplay("hard")
    numbered.restart()
    assert made == [None, 42]


def test_a_room_journal_written_before_secrets_still_resumes_and_plays_on(wire, tmp_path):
    """A journal of a room from before issue 28 (``tests/fixtures``, written
    by commit 97992df: a 20-bit game number, no secret) brings its room back
    where it stood; the game goes on to its end on the number's streams, and
    Play again continues from the next number, as that room would have."""
    path = tmp_path / "room.journal"
    shutil.copy(Path(__file__).parent / "fixtures" / "room-before-secrets.journal", path)
    contents = read_journal(path)
    assert contents.problems == [] and "secret" not in contents.games[0]
    bank = load_builtin_bank("general_knowledge_en")
    games = rebuild_games(contents, BOARD, bank)
    assert [str(e) for e in games[0].record] == contents.games[0]["record"]
    room = wire.rooms.resume_room(contents.header["setup"], contents, path, load_builtin_map("hungary"), bank,
                                  games, "en")
    assert (room.code, room.seed, room.table.game.seed, room.table.game.secret) == ("22-5R2H", 561012, 561012, None)
    anna = wire.student(room.code, "Anna", token=contents.header["setup"]["members"][0]["token"])
    assert anna[0].last("welcome")["seat"] == 0
    room.table.release()
    play(wire, [anna], until=lambda: room.table.game.is_over)
    assert read_journal(path).games[0]["record"] == [str(e) for e in room.table.game.record]
    room.table.restart()
    assert (room.table.game.seed, room.table.game.secret) == (561013, None)


def test_a_single_screen_game_without_a_number_has_a_secret_that_its_journal_keeps(tmp_path):
    """The single screen (issue 28): no number given, no number shown (it
    would not replay the game); the journal brings the same game back, and
    Play again draws a fresh secret. A number given is shown and replays."""
    import triviador_nb
    from triviador_nb.ui import play
    path = tmp_path / "lesson.journal"
    app = play(you=None, bots=["hard", "medium", "easy"], clock=ManualClock(), pace=0.1, journal=path)
    secret = app.game.secret
    assert app.game.seed is None and len(secret) * 4 == SECRET_BITS
    assert "game " not in app.title.value
    app.start()
    app.clock.advance(30)
    before = app.game.to_dict()
    app.close()
    again = triviador_nb.resume(path, clock=ManualClock())
    assert again.game.to_dict() == before and again.game.secret == secret
    again.autoplay()
    again.restart()
    assert again.game.secret not in (None, secret) and again.game.seed is None
    again.close()
    numbered = play(seed=123, clock=ManualClock(), journal=False)
    assert numbered.game.secret is None and "game 123" in numbered.title.value
    numbered.close()


def test_a_journal_is_readable_by_the_teacher_alone(tmp_path):
    """It holds the seat keys and the games' secrets: on a shared machine
    (every student a Unix user) nobody else may read it."""
    from triviador_nb.classroom import Journal
    bank = load_builtin_bank("general_knowledge_en")
    table = Table(Game(CONQUIZTADOR, BOARD, bank, None, secret="ab" * 16), {}, ManualClock())
    Journal(tmp_path / "lesson.journal", table, {"screen": "play"})
    assert (tmp_path / "lesson.journal").stat().st_mode & 0o777 == 0o600
