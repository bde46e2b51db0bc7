"""The journal: every game of a table, line by line, as it is played, so a
lesson survives a kernel restart (issue 12, "Saved games").

A journal is a text file of JSON lines, each written and flushed to disk
(``fsync``) as it happens:

- line 1, the header: ``{"journal": 1, "triviador_nb": "0.1.0", "setup":
  {...how the screen was set up...}, "map": {"name", "fingerprint"}, "bank":
  {"fingerprint"}}``;
- ``{"game": {...}}`` when a game begins: :meth:`Game.to_dict` without its
  record (rule set, seed, names, bases, questions asked before, burned);
- ``{"entry": "answer p2 1848 4200ms"}`` for each new line of the game's
  record (actions, and the draws between them);
- ``{"record": [...], "burned": [...]}`` when the teacher undid an action or
  corrected an answer: the game's whole record from then on.

:func:`read_journal` reads it back; a cut-off or damaged line (the kernel
died while writing) is reported and skipped, and nothing before it is lost.
:func:`rebuild_games` replays the games on the map and bank, refusing a
journal of another version, map or bank with a message that says which.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .._version import __version__
from ..engine import Board, Game, QuestionBank, RuleSet, find_rule_set

JOURNAL_FORMAT = 1


class JournalError(ValueError):
    """A journal that cannot be resumed: not a journal, another version, or
    another map or bank than the one given. The message says which and what
    to do."""


def named_as(value: object) -> object:
    """How a journal names a map or a bank for :func:`triviador_nb.resume`: a
    built-in name, an absolute path, or a list of them; a loaded map's
    ``loaded_with``; None for anything else loaded in the notebook (resuming
    then needs it again)."""
    if isinstance(value, Path) or (isinstance(value, str) and Path(value).suffix):
        return str(Path(value).resolve())
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, Path)) for v in value):
        return [named_as(v) for v in value]
    again = getattr(value, "loaded_with", None)  # a loaded map that says how it was loaded
    if isinstance(again, dict) and again:
        return dict(again)
    return None


def needed(spec: object, what: str) -> object:
    """A journal's map or bank name (:func:`named_as`), or a clear error when
    the game was given a loaded one (then it must be given again)."""
    if spec is None:
        raise ValueError(f"this game was played with a {what} loaded in the notebook: give it again, "
                         f"e.g. resume(path, {what}=...)")
    return spec


def journals_dir() -> Path:
    """Where journals are written: ``$TRIVIADOR_NB_HOME/journals`` (default
    home ``~/.triviador_nb``)."""
    return Path(os.environ.get("TRIVIADOR_NB_HOME") or Path.home() / ".triviador_nb") / "journals"


def new_journal_path(name: str) -> Path:
    """A new journal's file: ``journals/<date-time>-<name>.journal`` under
    :func:`journals_dir`, never one that exists."""
    stamp = time.strftime("%Y-%m-%d-%H%M%S")
    path = journals_dir() / f"{stamp}-{name}.journal"
    n = 1
    while path.exists():
        n += 1
        path = journals_dir() / f"{stamp}-{name}-{n}.journal"
    return path


@dataclass(frozen=True)
class SavedGame:
    """A journal the setup form offers to resume.

    Attributes:
        path: the journal file; saved: when it was last written (seconds
            since the epoch); setup: its header's setup (``rules``, ``map``,
            ``humans``, ``teams``...).
        moves: the moves and answers made in its last game (draws and
            timed-out answers not counted); game: that game's number (its
            seed), or None when the file does not say.
    """

    path: Path
    saved: float
    setup: dict
    moves: int = 0
    game: int | None = None


#: A move or an answer in a journal's record, and the seat (``p1`` = seat 0) that made it.
_MOVE = re.compile(r"(?:answer|pick|attack|rebuild) p([0-9]+)(?! none)\b")


def saved_games(limit: int = 10, folder: Path | None = None) -> list[SavedGame]:
    """The newest ``limit`` journals in ``folder`` (default :func:`journals_dir`)
    that this version can resume, newest first. Left out: a room host's
    journals, games in which no person has moved yet (every setup form makes
    one; a game of bots only, like play.ipynb's demonstration, has no person
    to move), and files that are not journals of this version (reading one
    with :func:`read_journal` says why)."""
    folder = folder or journals_dir()
    try:
        paths = sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    found = []
    for path in paths:
        try:
            with path.open("rb") as handle:
                header = json.loads(handle.readline())
                humans = header["setup"].get("humans") if isinstance(header, dict) \
                    and isinstance(header.get("setup"), dict) else None
                people = len(humans) if isinstance(humans, list) else 1_000  # a damaged setup: listed, to be explained
                moves, someone_moved, game = 0, False, None
                for line in handle:
                    if line.startswith(b'{"game": '):
                        seed = json.loads(line)["game"].get("seed")
                        moves, game = 0, seed if isinstance(seed, int) else None
                        continue
                    entries = ([json.loads(line)["entry"]] if line.startswith(b'{"entry": "')
                               else json.loads(line)["record"] if line.startswith(b'{"record": ') else [])
                    if line.startswith(b'{"record": '):
                        moves = 0
                    for entry in entries:
                        move = _MOVE.match(str(entry))
                        if move is not None:
                            moves += 1
                            someone_moved = someone_moved or int(move.group(1)) <= people
            saved = path.stat().st_mtime
        except (OSError, ValueError, UnicodeDecodeError, RecursionError, KeyError, TypeError, AttributeError):
            continue
        if not (isinstance(header, dict) and header.get("journal") == JOURNAL_FORMAT
                and header.get("triviador_nb") == __version__ and isinstance(header.get("setup"), dict)
                and header["setup"].get("screen") != "room" and someone_moved):
            continue
        found.append(SavedGame(path, saved, header["setup"], moves, game))
        if len(found) == limit:
            break
    return found


def board_fingerprint(board: Board) -> str:
    """A short digest of the board's territories, names and borders (16 hex digits)."""
    plain = [[t, board.names[t], sorted(board.adjacency[t])] for t in board.territories]
    return hashlib.sha256(json.dumps(plain, ensure_ascii=False).encode()).hexdigest()[:16]


def bank_fingerprint(bank: QuestionBank) -> str:
    """A short digest of every question's id, text and answers (16 hex
    digits); the order of the rows does not count."""
    plain = sorted(json.dumps([q.id, q.text, str(q.answer), list(getattr(q, "wrong", ()))], ensure_ascii=False)
                   for q in (*bank.guess, *bank.choice))
    return hashlib.sha256("\n".join(plain).encode()).hexdigest()[:16]


class Journal:
    """Writes a table's games to ``path`` as they are played.

    Args:
        path: the journal file. A new journal must not exist yet; with
            ``resumed`` the file is :func:`read_journal`'s and is continued
            (a damaged last line is cut off first).
        table: the table to follow (:meth:`~.table.Table.on_record`).
        setup: how the screen was set up, JSON-clean (map and bank names or
            paths, seat names, bots' skills...), kept in the header for
            :func:`triviador_nb.resume`.
        resumed: the journal's contents when continuing one.
        on_lost: called (once, on the table's thread) when another kernel
            resumed this journal (another tab, or a Voila page reloaded while
            its old kernel still runs): this one stops writing, so two
            kernels never write one file. Its screen should stop the game.

    Ownership: each writer puts a random token in ``<journal>.owner`` when it
    opens the journal, and checks it before every write; the newest writer
    owns the file.

    Attributes:
        problem: the last write that failed (disk full, file removed...), or
            "": the game goes on, and the screen says so.
        lost: another kernel took the journal over; nothing more is written.

    Raises:
        FileExistsError: a new journal's file exists already.
        OSError: the file cannot be created.
    """

    def __init__(self, path: str | Path, table: Any, setup: dict, resumed: "JournalContents | None" = None,
                 on_lost: Callable[[], None] | None = None):
        self.path = Path(path)
        self.problem = ""
        self.lost = False
        self._on_lost = on_lost
        self._token = secrets.token_hex(8)
        self._stopped = False
        self._written = len(table.game.record)
        if resumed is not None:
            with self.path.open("r+b") as handle:
                handle.truncate(resumed.good_bytes)  # a cut-off last line would glue onto the next
            self._file = self.path.open("a", encoding="utf-8")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # the teacher's alone (0600): it holds the seat keys and the games' secrets (issue 28)
            self._file = open(self.path, "x", encoding="utf-8", opener=lambda name, flags: os.open(name, flags, 0o600))
            self._claim()  # before the first line: a stale .owner beside a journal deleted since is not ours
            written = self._write([header_line(table.game, setup)])
            written = written and all(self._write_game(earlier) for earlier in table.games)  # stops at a failure
            if not written:
                self.close()
                self._unlink()  # a new journal that could not be written leaves no file behind
                raise OSError(self.problem)
        self._claim()
        table.on_record(self._record_changed)

    @property
    def owner_path(self) -> Path:
        """The file naming the kernel that writes the journal now."""
        return self.path.with_name(self.path.name + ".owner")

    def _claim(self) -> None:
        """Make this writer the journal's owner (a kernel writing it before stops at its next write)."""
        spare = self.owner_path.with_name(self.owner_path.name + f".{self._token}")
        try:
            spare.write_text(self._token, encoding="ascii")
            os.replace(spare, self.owner_path)
        except OSError:
            pass  # a folder that takes no second file: the journal still works, unguarded

    def _unlink(self) -> None:
        for path in (self.path, self.owner_path):
            try:
                path.unlink()
            except OSError:
                pass  # already gone, or a folder that keeps it: nothing more to do

    def _still_owner(self) -> bool:
        try:
            owner = self.owner_path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            self._claim()  # gone (an older journal, or removed): ours again
            return True
        return owner == self._token

    def _reopen(self, size: int | None) -> None:
        """After a failed write: drop what is buffered, cut the file back to
        ``size`` bytes, and open it again for the next write."""
        try:
            self._file.close()
        except (OSError, ValueError):
            pass  # the buffer that could not be written is dropped with it
        try:
            if size is not None:
                os.truncate(self.path, size)
            self._file = self.path.open("a", encoding="utf-8")
        except OSError:
            pass  # stays closed: every later write says so

    def discard(self) -> None:
        """Stop writing and delete the file and its owner mark (a game nobody
        played: issue 24, the saved-game list is not filled with page opens)."""
        self.close()
        if not self.lost:
            self._unlink()

    def close(self) -> None:
        """Stop writing (the file stays)."""
        self._stopped = True
        if not self._file.closed:
            self._file.close()

    def _record_changed(self, what: str, game: Game) -> None:
        # after a failed write: the whole record again, nothing lost
        if self._write(record_lines(what, game, self._written, whole=bool(self.problem))):
            self._written = len(game.record)

    def _write_game(self, game: Game) -> bool:
        if not self._write(game_lines(game)):
            return False
        self._written = len(game.record)
        return True

    def _write(self, lines: list[dict]) -> bool:
        """Append ``lines`` and flush them to disk; False (and :attr:`problem`
        set) when that failed, with the file cut back to where it was, so a
        half-written line never stands before the next good one."""
        if not lines or self._stopped:
            return True
        if self.lost or not self._still_owner():
            if not self.lost:
                self.lost = True
                self.problem = (f"this game was resumed in another kernel (another tab, or this page reloaded): it is "
                                f"saved there now, not here ({self.path.name})")
                self.close()
                if self._on_lost is not None:
                    self._on_lost()
            return False
        if self._file.closed:
            self._reopen(None)
            if self._file.closed:
                self.problem = self.problem or f"the game could not be saved to {self.path}: it cannot be opened"
                return False
        start = None
        try:
            start = self.path.stat().st_size  # journals only grow at the end
            self._file.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
            self._file.flush()
            os.fsync(self._file.fileno())
        except (OSError, ValueError) as error:  # never stop the class's game for a journal
            self.problem = f"the game could not be saved to {self.path}: {error}"
            self._reopen(start)
            return False
        self.problem = ""
        return True


def header_line(game: Game, setup: dict) -> dict:
    """A journal's first line: its format and version, ``setup``, the map's and the bank's fingerprints."""
    return {"journal": JOURNAL_FORMAT, "triviador_nb": __version__, "setup": setup,
            "map": {"name": game.board.name, "fingerprint": board_fingerprint(game.board)},
            "bank": {"fingerprint": bank_fingerprint(game.bank)}}


def game_lines(game: Game) -> list[dict]:
    """The lines of a whole game: ``{"game": ...}`` (:meth:`Game.to_dict` without its record), then its entries."""
    header = game.to_dict()
    record = header.pop("record")
    return [{"game": header}, *({"entry": line} for line in record)]


def record_lines(what: str, game: Game, written: int, whole: bool = False) -> list[dict]:
    """The lines a table's change adds (:meth:`~.table.Table.on_record`'s ``what``): a new game's
    lines, the whole record after an undo or a correction (or when ``whole``), else the entries
    of ``game.record`` from index ``written`` on."""
    if what == "game":
        return game_lines(game)
    if what == "replace" or whole:
        return [{"record": [str(e) for e in game.record], "burned": sorted(game.burned)}]
    return [{"entry": str(e)} for e in game.record[written:]]


@dataclass
class JournalContents:
    """What :func:`read_journal` found.

    Attributes:
        header: line 1 (setup, map and bank fingerprints, versions).
        games: each game's :meth:`Game.to_dict` data, record included, in
            the order played.
        problems: sentences about lines skipped (file and line number).
        good_bytes: the length of the file up to the last good line.
    """

    header: dict
    games: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    good_bytes: int = 0


def read_journal(path: str | Path) -> JournalContents:
    """Read a journal's header and games.

    A line that is cut off or not a journal line ends the reading there: it
    is reported in ``problems`` (with the lines after it, if any) and
    everything before it is kept.

    Raises:
        JournalError: the file is not a journal, or of another format or
            version of triviador_nb.
        OSError: the file cannot be read.
    """
    path = Path(path)
    return parse_journal(path.read_bytes(), path.name)


def parse_journal(data: bytes, name: str) -> JournalContents:
    """:func:`read_journal` of a journal's bytes (``name`` names it in messages): a file's,
    or the lines of a room's record stream joined with newlines (:mod:`triviador_nb.rooms.redis_record`).

    Raises:
        JournalError: as :func:`read_journal`.
    """
    lines = data.split(b"\n")
    try:
        header = json.loads(lines[0])
    except (ValueError, UnicodeDecodeError, RecursionError):
        header = None
    if not isinstance(header, dict) or "journal" not in header:
        raise JournalError(f"{name} is not a triviador_nb journal (its first line is not a journal header)")
    if not (isinstance(header.get("setup"), dict) and isinstance(header.get("map"), dict)
            and isinstance(header["map"].get("fingerprint"), str) and isinstance(header["map"].get("name"), str)
            and isinstance(header.get("bank"), dict) and isinstance(header["bank"].get("fingerprint"), str)):
        raise JournalError(f"{name}: its header is damaged (the setup, map or bank is missing), so the game "
                           "cannot be rebuilt from it")
    if header["journal"] != JOURNAL_FORMAT or header.get("triviador_nb") != __version__:
        raise JournalError(f"{name} was written by triviador_nb {header.get('triviador_nb')!r}; this is "
                           f"{__version__}, which cannot replay it exactly: resume it with that version")
    contents = JournalContents(header, good_bytes=len(lines[0]) + 1)
    ends = len(lines) - 1 if data.endswith(b"\n") else len(lines)  # the text after the last newline is cut off
    for number in range(1, ends):
        raw = lines[number]
        line = _journal_line(raw) if number < len(lines) - 1 else None  # the last piece has no newline: cut off
        if line is None or (not contents.games and "game" not in line):
            after = ends - number - 1
            contents.problems.append(
                f"{name}, line {number + 1}: cut off or damaged (the kernel may have stopped while writing "
                f"it); it was skipped" + (f", and the {after} line{'s' if after != 1 else ''} after it" if after else "")
                + "; everything before it is kept")
            break
        if "game" in line:
            contents.games.append({**line["game"], "record": []})
        elif "entry" in line:
            contents.games[-1]["record"].append(line["entry"])
        else:
            contents.games[-1]["record"] = list(line["record"])
            contents.games[-1]["burned"] = list(line["burned"])
        contents.good_bytes += len(raw) + 1
    return contents


def _journal_line(raw: bytes) -> dict | None:
    """One journal line after the header, or None when it is not one."""
    try:
        line = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(line, dict) or len(line) not in (1, 2):
        return None
    if set(line) == {"game"} and isinstance(line["game"], dict):
        return line
    if set(line) == {"entry"} and isinstance(line["entry"], str):
        return line
    if set(line) == {"record", "burned"} and all(isinstance(v, list) and all(isinstance(x, str) for x in v)
                                                 for v in line.values()):
        return line
    return None


def rebuild_games(contents: JournalContents, board: Board, bank: QuestionBank) -> list[Game]:
    """Replay every game of a journal on ``board`` with ``bank``.

    Raises:
        JournalError: the map or the bank is not the one the journal was
            written with, the journal holds no game, a game does not
            replay (a record line that is no legal action), or a game's rule
            set is not the built-in one of its name and the setup's (a
            forged ``base_value``: :func:`changed_rules`).
    """
    header = contents.header
    if header["map"]["fingerprint"] != board_fingerprint(board):
        raise JournalError(f"the map {board.name!r} is not the one this game was played on "
                           f"({header['map']['name']!r}): its territories or borders changed since")
    if header["bank"]["fingerprint"] != bank_fingerprint(bank):
        raise JournalError("the question bank is not the one this game was played with: its questions changed "
                           "since (load the bank files as they were when the game was played)")
    if not contents.games:
        raise JournalError("the journal holds no game yet")
    games = []
    for number, data in enumerate(contents.games, start=1):
        try:
            games.append(Game.from_dict(data, board, bank))
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:  # a damaged or forged line
            reason = f"{type(error).__name__} {error}" if not isinstance(error, ValueError) else str(error)
            raise JournalError(f"game {number} of the journal does not replay: {reason}") from None
        changed = changed_rules(games[-1].rules, header["setup"].get("rules"))
        if changed:
            raise JournalError(f"game {number} of the journal was not played by the rule set it names: {changed}; "
                               "a journal edited by hand cannot be resumed (start a new game)")
    return games


def changed_rules(rules: RuleSet, named: object = None) -> str:
    """How ``rules`` (a journal game's) differ from the built-in rule set of
    their name, and from the setup's rule set ``named`` when it names one;
    ``""`` when they are that rule set (the only rule sets a game is played
    with: :func:`~triviador_nb.engine.find_rule_set`)."""
    try:
        builtin = find_rule_set(rules.name)
    except ValueError:
        return f"{rules.name!r} is no rule set of this version"
    if isinstance(named, str):
        try:
            setup = find_rule_set(named)
        except ValueError:
            return f"its setup names {named!r}, which is no rule set of this version"
        if setup.name != builtin.name:
            return f"its setup names {setup.name!r}, its game {builtin.name!r}"
    if rules == builtin:
        return ""
    given, real = rules.to_dict(), builtin.to_dict()
    diffs = [f"{key} {given.get(key)!r} instead of {real[key]!r}" for key in real if given.get(key) != real[key]]
    return f"{builtin.name!r} with " + ", ".join(diffs[:4]) + (f" and {len(diffs) - 4} more" if len(diffs) > 4 else "")
