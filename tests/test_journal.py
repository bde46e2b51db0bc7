"""Saved games (issue 12 part 3): the journal is written as the game is
played; kill-and-resume at several points of each rule set gives the same
game as an uninterrupted one; a cut-off last line is reported and skipped;
another version, map or bank is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixture_data import grid_board, synthetic_bank
from helpers import snapshot
from triviador_nb.bots import Bot
from triviador_nb.classroom import Journal, JournalError, ManualClock, Table, read_journal, rebuild_games
from triviador_nb.engine import RULE_SETS, Game

SETUP = {"map": "grid", "bank": "synthetic"}


def bot_table(rules, seed: int = 3) -> tuple[Table, ManualClock]:
    clock = ManualClock()
    game = Game(rules, grid_board(), synthetic_bank(guesses=30, choices=30), seed)
    bots = {seat: Bot(seat, ("easy", "medium", "hard")[seat], seed) for seat in range(rules.players)}
    return Table(game, bots, clock, pace=0.2), clock


def ten_seconds_journalled(tmp_path):
    """A bot table playing 10 s (ManualClock) with its journal: (table, path)."""
    table, clock = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    Journal(path, table, SETUP)
    table.start()
    for _ in range(40):
        clock.advance(0.25)
    return table, path


def resumed(path):
    contents = read_journal(path)
    return rebuild_games(contents, grid_board(), synthetic_bank(guesses=30, choices=30)), contents


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
def test_kill_and_resume_at_several_points_gives_the_same_game(rules, tmp_path):
    table, clock = bot_table(rules)
    path = tmp_path / "lesson.journal"
    Journal(path, table, SETUP)
    table.start()
    moments = []  # (the journal's bytes, the game as it stood) at several points, as a kill would find them
    skipped = False
    for step in range(4000):
        if table.game.is_over:
            break
        clock.advance(0.25)
        if step % 23 == 0:
            if step >= 46 and not skipped and table.game.question is not None:
                skipped = table.skip().accepted  # the first question open from step 46 on
            if step == 92:
                table.undo()
            moments.append((path.read_bytes(), snapshot(table.game), table.game.to_dict()))
    assert table.game.is_over and len(moments) >= 3
    moments.append((path.read_bytes(), snapshot(table.game), table.game.to_dict()))
    text = path.read_text(encoding="utf-8")
    assert '{"entry": "skip"}' in text and '{"record": [' in text  # the teacher's skip and undo are in it
    for number, (data, state, plain) in enumerate(moments):
        killed = tmp_path / f"killed{number}.journal"
        killed.write_bytes(data)
        (game,), contents = resumed(killed)
        assert contents.problems == []
        assert game.to_dict() == plain and snapshot(game) == state


def test_a_resumed_journal_carries_on_and_keeps_writing(tmp_path):
    rules = RULE_SETS[0]
    table, clock = bot_table(rules)
    path = tmp_path / "lesson.journal"
    Journal(path, table, SETUP)
    table.start()
    for _ in range(120):
        clock.advance(0.25)
    (game,), contents = resumed(path)  # the kernel restarts here
    again = Table(game, {s: Bot(s, "medium", 9) for s in range(rules.players)}, ManualClock(), pace=0.2)
    Journal(path, again, SETUP, resumed=contents)
    again.start()
    for _ in range(4000):
        if again.game.is_over:
            break
        again.clock.advance(0.25)
    assert again.game.is_over
    (final,), contents = resumed(path)
    assert contents.problems == [] and final.to_dict() == again.game.to_dict()


def test_a_cut_off_last_line_is_reported_and_skipped_and_nothing_before_is_lost(tmp_path):
    table, path = ten_seconds_journalled(tmp_path)
    whole = path.read_bytes()
    lines = whole.count(b"\n")
    path.write_bytes(whole + b'{"entry": "answer p1 18')  # the kernel died mid-line
    (game,), contents = resumed(path)
    assert contents.problems == [f"lesson.journal, line {lines + 1}: cut off or damaged (the kernel may have "
                                 "stopped while writing it); it was skipped; everything before it is kept"]
    assert game.to_dict() == table.game.to_dict()
    again = Table(game, {}, ManualClock())
    Journal(path, again, SETUP, resumed=contents)
    assert path.read_bytes() == whole  # the cut-off piece is gone before anything is appended


def test_a_damaged_line_in_the_middle_keeps_what_came_before(tmp_path):
    table, path = ten_seconds_journalled(tmp_path)
    lines = path.read_bytes().split(b"\n")
    lines[5] = b"\x00\x00garbage"
    path.write_bytes(b"\n".join(lines))
    _, contents = resumed(path)
    after = len(lines) - 1 - 6
    assert contents.problems == [f"lesson.journal, line 6: cut off or damaged (the kernel may have stopped while "
                                 f"writing it); it was skipped, and the {after} lines after it; everything before "
                                 "it is kept"]
    assert len(contents.games[0]["record"]) == 3  # lines 3-5: the record's first entries


def test_a_journal_of_another_version_map_or_bank_is_refused(tmp_path):
    table, clock = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    Journal(path, table, SETUP)
    contents = read_journal(path)
    with pytest.raises(JournalError, match=r"^the map 'grid' is not the one this game was played on \('grid'\): "
                                           r"its territories or borders changed since$"):
        rebuild_games(contents, grid_board(cols=5), synthetic_bank(guesses=30, choices=30))
    with pytest.raises(JournalError, match=r"^the question bank is not the one this game was played with"):
        rebuild_games(contents, grid_board(), synthetic_bank(guesses=31, choices=30))
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    path.write_text("\n".join([json.dumps({**header, "triviador_nb": "9.9"}), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r"^lesson.journal was written by triviador_nb '9.9'; this is 0.1.0, "
                                           "which cannot replay it exactly: resume it with that version$"):
        read_journal(path)
    (tmp_path / "notes.txt").write_text("shopping list\n", encoding="utf-8")
    with pytest.raises(JournalError, match="^notes.txt is not a triviador_nb journal"):
        read_journal(tmp_path / "notes.txt")


def test_a_new_journal_never_overwrites_a_file(tmp_path):
    table, _ = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    path.write_text("keep me", encoding="utf-8")
    with pytest.raises(FileExistsError):
        Journal(path, table, SETUP)
    assert path.read_text(encoding="utf-8") == "keep me"


def test_a_journal_that_cannot_be_written_says_so_and_the_game_goes_on(tmp_path, monkeypatch):
    table, clock = bot_table(RULE_SETS[0])
    journal = Journal(tmp_path / "lesson.journal", table, SETUP)
    fsync_failing(monkeypatch, times=10**6)  # the disk is full for good
    table.start()
    for _ in range(40):
        clock.advance(0.25)
    assert journal.problem == (f"the game could not be saved to {tmp_path / 'lesson.journal'}: "
                               "[Errno 28] No space left on device")
    assert len(table.game.record) > 3


def test_a_failed_write_leaves_no_hole_the_next_write_puts_the_whole_record(tmp_path, monkeypatch):
    """Review: entries that could not be written were never written later."""
    table, clock = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    journal = Journal(path, table, SETUP)
    table.start()
    fsync_failing(monkeypatch, times=1)
    for _ in range(40):
        clock.advance(0.25)
    assert journal.problem == ""  # failed once, then the next write caught up
    (game,), contents = resumed(path)
    assert contents.problems == [] and game.to_dict() == table.game.to_dict()


def fsync_failing(monkeypatch, times: int) -> None:
    """os.fsync raises "No space left on device" ``times`` times (a full disk), then works."""
    import os
    real, left = os.fsync, [times]

    def fsync(fd):
        if left[0]:
            left[0] -= 1
            raise OSError(28, "No space left on device")
        return real(fd)
    monkeypatch.setattr("triviador_nb.classroom.journal.os.fsync", fsync)


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                    max_size=3), max_leaves=8)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=st.integers(0, 6), key=st.sampled_from(["setup", "map", "bank", "journal", "game", "entry", "record",
                                                   "seed", "names", "bases", "rules", "burned", "humans",
                                                   "secret"]),
       value=JSONISH)
def test_a_forged_journal_is_refused_with_a_journal_error_only(tmp_path, line, key, value):
    """Review: forged headers and lines raised KeyError, TypeError, RecursionError."""
    source = tmp_path / "good.journal"
    if not source.exists():
        table, clock = bot_table(RULE_SETS[0])
        Journal(source, table, {"screen": "play", "map": "grid", "bank": "synthetic", "rules": "conquiztador",
                                "humans": [], "teams": False, "bots": ["easy", "medium", "hard"], "pace": 1.0})
        table.start()
        clock.advance(3.0)
    lines = [json.loads(x) for x in source.read_text(encoding="utf-8").splitlines()]
    target = lines[min(line, len(lines) - 1)]
    if "game" in target and key in ("seed", "names", "bases", "rules", "burned", "secret"):
        target["game"][key] = value
    elif line == 0 and key == "humans":
        target["setup"]["humans"] = value
    else:
        target[key] = value
    forged = tmp_path / "forged.journal"
    forged.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    try:
        contents = read_journal(forged)
        rebuild_games(contents, grid_board(), synthetic_bank(guesses=30, choices=30))
    except JournalError:
        pass


@pytest.mark.parametrize("setup", [None, [], {"screen": "play"}, {"screen": "room"},
                                   {"screen": "play", "rules": "duel", "humans": 5, "bots": [], "teams": 1}])
def test_resume_refuses_a_damaged_setup_with_a_journal_error(tmp_path, setup):
    from triviador_nb.ui import play, resume
    path = tmp_path / "lesson.journal"
    app = play(seed=3, journal=path, clock=ManualClock())
    app.start()  # the file is made at Start (issue 24)
    app.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["setup"] = setup
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(JournalError):
        resume(path, clock=ManualClock())


def test_a_line_nested_too_deep_to_read_is_a_damaged_line(tmp_path):
    table, clock = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    Journal(path, table, SETUP)
    with path.open("a", encoding="utf-8") as handle:
        handle.write("[" * 200_000 + "\n")
    (game,), contents = resumed(path)
    assert contents.problems == ["lesson.journal, line 4: cut off or damaged (the kernel may have stopped while "
                                 "writing it); it was skipped; everything before it is kept"]
    assert game.to_dict() == table.game.to_dict()


def test_saved_games_lists_this_version_s_journals_newest_first(tmp_path):
    """What the setup form offers to resume after a kernel restart: the
    single screen's journals, newest first; a room host's, an unplayed game's,
    another version's and a file that is no journal are left out."""
    import os

    from triviador_nb.classroom.journal import saved_games

    def played(path, rules, setup, seconds=10.0):
        table, clock = bot_table(rules)
        Journal(path, table, setup)
        table.start()
        clock.advance(seconds)

    older, newer, room, unplayed = (tmp_path / f"{n}.journal" for n in ("older", "newer", "room", "unplayed"))
    played(older, RULE_SETS[0], {**SETUP, "humans": ["Kékek"]})
    played(newer, RULE_SETS[1], {**SETUP, "humans": ["Pirosak"]})
    played(room, RULE_SETS[0], {**SETUP, "screen": "room"})
    played(unplayed, RULE_SETS[0], SETUP, seconds=0.0)  # a setup form's game nobody moved in
    other = tmp_path / "other.journal"
    other.write_text(json.dumps({"journal": 1, "triviador_nb": "0.0.1", "setup": {}}) + "\n")
    (tmp_path / "junk.journal").write_bytes(b"\xff\xfe not json\n")
    for age, path in enumerate((unplayed, newer, room, other, older)):
        os.utime(path, (1_000_000 - age * 10, 1_000_000 - age * 10))
    found = saved_games(folder=tmp_path)
    assert [g.path.name for g in found] == ["newer.journal", "older.journal"]
    assert found[0].setup["humans"] == ["Pirosak"] and found[0].saved == 999_990
    assert [g.path.name for g in saved_games(limit=1, folder=tmp_path)] == ["newer.journal"]
    assert saved_games(folder=tmp_path / "none") == []


def test_a_journal_resumed_in_another_kernel_is_written_by_that_kernel_only(tmp_path):
    """A Voila page reloaded (its old kernel still playing) or a second tab
    resuming the game: the newest writer owns the file, the old one stops
    writing and is told, so two kernels never interleave lines."""
    table, clock = bot_table(RULE_SETS[0])
    path = tmp_path / "lesson.journal"
    lost = []
    old = Journal(path, table, SETUP, on_lost=lambda: lost.append(True))
    table.start()
    clock.advance(5)
    (games, contents) = resumed(path)
    again_clock = ManualClock()  # the other kernel: its table replays the journal's game
    again = Table(games[-1], {seat: Bot(seat, ("easy", "medium", "hard")[seat], 3) for seat in range(3)},
                  again_clock, pace=0.2)
    new = Journal(path, again, SETUP, resumed=contents)
    size = path.stat().st_size
    clock.advance(20)  # the old kernel plays on
    assert old.lost and lost == [True] and "resumed in another kernel" in old.problem
    assert path.stat().st_size == size  # not a line from the old kernel
    again.start()
    again_clock.advance(20)
    assert not new.lost and path.stat().st_size > size
    assert read_journal(path).problems == []
    assert [g["record"] for g in read_journal(path).games] == [[str(e) for e in again.game.record]]


# ---------------------------------------------------------------- damaged and forged journals (issue 25)

def played_journal(tmp_path, **settings):
    """A bot game of ``play()`` written to ``tmp_path/lesson.journal`` and moved 10 s in: (path, lines)."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play

    clock = ManualClock()
    path = tmp_path / "lesson.journal"
    app = play(seed=3, journal=path, clock=clock, you=None, pace=0.2, **settings)
    app.start()
    clock.advance(10)
    app.close()
    return path, [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def rewritten(path, lines):
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return path


def test_a_journal_with_a_forged_rule_set_is_refused_on_resume(tmp_path):
    """Issue 25: base_value 999999 resumed silently with scores of a million."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import resume

    path, lines = played_journal(tmp_path)
    lines[1]["game"]["rules"]["base_value"] = 999999
    with pytest.raises(JournalError) as error:
        resume(rewritten(path, lines), clock=ManualClock())
    assert str(error.value) == ("game 1 of the journal was not played by the rule set it names: 'conquiztador' with "
                                "base_value 999999 instead of 1000; a journal edited by hand cannot be resumed "
                                "(start a new game)")
    lines[1]["game"]["rules"]["base_value"] = 1000
    lines[0]["setup"]["rules"] = "duel"
    lines[0]["setup"]["bots"] = ["medium", "hard"]
    with pytest.raises(JournalError, match="^game 1 of the journal was not played by the rule set it names: its "
                                           "setup names 'duel', its game 'conquiztador';"):
        resume(rewritten(path, lines), clock=ManualClock())


def test_a_bank_list_holding_a_number_is_a_damaged_setup_not_a_type_error(tmp_path):
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play, resume

    path, lines = played_journal(tmp_path)
    lines[0]["setup"]["bank"] = ["general_knowledge_en", 5]
    with pytest.raises(JournalError) as error:
        resume(rewritten(path, lines), clock=ManualClock())
    assert str(error.value) == ("lesson.journal: its setup is damaged (the bank list holds 5, which is no bank name "
                                "or file), so the screen cannot be rebuilt from it")
    with pytest.raises(ValueError) as error:
        play(bank=["general_knowledge_en", 5], journal=False, clock=ManualClock())
    assert str(error.value) == ("a question bank is a built-in name or a file, not 5 (int); give names and paths, "
                                "e.g. ['general_knowledge_en', 'my_questions.csv']")


@pytest.mark.parametrize("key, value, said", [
    ("rules", 5, "rules 5 is no rule set's name"),
    ("bots", ["superhard", "hard", "easy"], "bots ['superhard', 'hard', 'easy'] is not a list of skills (easy, medium, "
                                            "hard)"),
    ("pace", -1, "pace -1 is not a number above 0"),
    ("categories", 5, "categories 5 is not a list of names"),
    ("map", {"path": 5}, "map {'path': 5} names no map"),
])
def test_every_wrong_shape_of_a_setup_is_said_not_raised_as_another_error(tmp_path, key, value, said):
    """Review: rules 5 raised AttributeError, unknown skills ValueError from the bots, categories 5 TypeError."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import resume

    path, lines = played_journal(tmp_path)
    lines[0]["setup"][key] = value
    with pytest.raises(JournalError) as error:
        resume(rewritten(path, lines), clock=ManualClock())
    assert str(error.value) == f"lesson.journal: its setup is damaged ({said}), so the screen cannot be rebuilt from it"


def test_a_deleted_map_file_is_said_with_what_to_do(tmp_path):
    import shutil

    from triviador_nb.classroom import ManualClock
    from triviador_nb.maps import builtin_map_path
    from triviador_nb.ui import resume

    own = tmp_path / "counties.geojson"
    shutil.copy(builtin_map_path("hungary"), own)
    path, _lines = played_journal(tmp_path, map=str(own))
    own.unlink()
    with pytest.raises(JournalError) as error:
        resume(path, clock=ManualClock())
    assert str(error.value) == (f"lesson.journal was played on the map file {own}, which cannot be read now (No "
                                "such file or directory): put it back there, or give the map again: "
                                "resume(path, map=...)")


def test_a_stale_owner_file_beside_a_deleted_journal_does_not_stop_a_new_one(tmp_path):
    """Issue 25: play(journal=...) refused ("resumed in another kernel") and left a 0-byte file."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play

    path = tmp_path / "lesson.journal"
    (tmp_path / "lesson.journal.owner").write_text("0123456789abcdef", encoding="ascii")  # its journal deleted
    app = play(seed=3, journal=path, clock=ManualClock(), you=None)
    app.start()  # the file is made at Start (issue 24)
    assert app.journal.problem == "" and not app.journal.lost
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["setup"]["rules"] == "conquiztador"
    assert (tmp_path / "lesson.journal.owner").read_text(encoding="ascii") != "0123456789abcdef"
    app.close()


def test_a_new_journal_that_cannot_be_written_leaves_no_file(tmp_path, monkeypatch):
    table, _clock = bot_table(RULE_SETS[0])
    fsync_failing(monkeypatch, times=1)
    path = tmp_path / "lesson.journal"
    with pytest.raises(OSError, match="No space left on device"):
        Journal(path, table, SETUP)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_play_in_a_language_brings_its_built_in_questions_and_keeps_a_bank_given(tmp_path):
    """Issue 25: play(language="hu") asked the English questions, unlike the setup form."""
    from triviador_nb.classroom import ManualClock
    from triviador_nb.ui import play

    hungarian = play(seed=3, language="hu", journal=tmp_path / "hu.journal", clock=ManualClock())
    given = play(seed=3, language="hu", bank="geography_en", journal=tmp_path / "given.journal", clock=ManualClock())
    english = play(seed=3, language="en", journal=tmp_path / "en.journal", clock=ManualClock())
    for app in (hungarian, given, english):
        app.start()  # the file is made at Start (issue 24)
    banks = [json.loads((tmp_path / f"{n}.journal").read_text(encoding="utf-8").splitlines()[0])["setup"]["bank"]
             for n in ("hu", "given", "en")]
    assert banks == ["hungarian_hu", "geography_en", "general_knowledge_en"]
    for app in (hungarian, given, english):
        app.close()
