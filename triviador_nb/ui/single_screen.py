"""The single-screen game: :func:`play` sets up a table - you (or teams of
the class) against bots on a real map - and the widgets that show it;
:func:`resume` brings a game back from its journal after a kernel restart."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

from ..banks import DEFAULT_BANK, language_bank, resolve_bank
from .. import words
from ..bots import Bot
from ..bots.bot import SKILLS
from ..classroom import Clock, JournalError, new_secret, read_journal, rebuild_games
from ..classroom.journal import named_as, needed, new_journal_path
from ..engine import Game, find_rule_set
from ..i18n import N_, RULE_SET, _, ngettext, pgettext, set_language, speaking
from ..maps import GameMap, resolve_map
from .app import GameApp
from .teacher import HostScreen, language_here, resume_rooms

YOUR_TEAM = N_("Your team")  # play()'s name for the person at the screen, in the game's language


def play(map: str | Path | GameMap = "hungary", bank: object = None,
         rules: str = "conquiztador", you: str | None = "Your team", bots: Sequence[str] | None = None,
         seed: int | None = None, pace: float = 1.0, clock: Clock | None = None,
         teams: Sequence[str] | None = None, journal: str | Path | bool = True,
         language: str | None = None, categories: Sequence[str] | None = None,
         difficulties: Sequence[str] | None = None) -> GameApp:
    """Start a game in the notebook: you (or two or three teams) against bots.

    Args:
        map: a built-in map name, a GeoJSON file, or a loaded map.
        bank: a built-in bank name, a CSV path (or a list of them), or a
            bank; None: the built-in bank in the screen's language
            (``hungarian_hu`` for ``language="hu"``, as the setup form
            chooses; :data:`DEFAULT_BANK` for a language with none). A bank
            given is never replaced.
        rules: a rule set: ``"conquiztador"`` (3 players), ``"duel"`` (2),
            ``"dobyvatel"`` (3) or ``"long-campaign"`` (3).
        you: your display name (a team's name when a class plays together);
            None to watch bots play every seat.
        bots: a skill per bot seat: ``"easy"``, ``"medium"`` or ``"hard"``;
            None fills the other seats with a medium and a hard bot.
        seed: the game number (shown in the title); the same number
            replays the same draws, so anyone who knows it can work them
            out, the correct option's place included. None: chance comes
            from a fresh secret that nobody sees (a class cannot predict
            it); such a game replays from its journal (issue 28).
        pace: 1.0 for realistic bot delays, smaller for a faster game.
        clock: the table's clock; the kernel's asyncio loop by default.
        teams: two or three team names sharing the screen (instead of
            ``you``): the teacher enters each team's answer hidden, and clicks
            the map on the team's turn (issue 12).
        journal: where the game is saved as it is played, for :func:`resume`
            after a kernel restart: a file path, True for a new file under
            ``$TRIVIADOR_NB_HOME/journals`` (default ``~/.triviador_nb``), or
            False for none. The file is made at Start (a page opened and
            closed unplayed leaves none: issue 24).
        language: the language of the screen (``"hu"``), made the kernel's
            language (:func:`triviador_nb.i18n.set_language`), so the report
            after the game speaks it too; None: the kernel's. The default
            name "Your team" is said in it.
        categories, difficulties: ask only the bank's questions of these
            categories and difficulties (None: all), as the setup form's lists.

    Returns:
        The :class:`GameApp`; display it (it is the cell's value).

    Raises:
        ValueError: the number of bots does not fill the rule set's seats, or
            fewer than 2 or more than the seats' teams.
        LanguageError: no catalogue for ``language`` (the message lists the
            languages there are).
        FileExistsError: ``journal`` names a file that exists.
    """
    if language is not None:
        language = set_language(language)
    with speaking(language) as language:
        return _play(map, bank, rules, you, bots, seed, pace, clock, teams, journal, language,
                     None if categories is None else list(categories),
                     None if difficulties is None else list(difficulties))


def _play(map: str | Path | GameMap, bank: object, rules: str, you: str | None, bots: Sequence[str] | None,
          seed: int | None, pace: float, clock: Clock | None, teams: Sequence[str] | None,
          journal: str | Path | bool, language: str, categories: list[str] | None,
          difficulties: list[str] | None) -> GameApp:
    if you == YOUR_TEAM:
        you = _(YOUR_TEAM)
    if bank is None:
        bank = language_bank(DEFAULT_BANK, language) or DEFAULT_BANK
    rule_set = find_rule_set(rules)
    title = pgettext(RULE_SET, rule_set.title)
    names = list(teams) if teams is not None else ([you] if you is not None else [])
    if len({n.casefold() for n in names}) != len(names):
        raise ValueError(_("the teams need names that differ: {names}").format(names=", ".join(names)))
    if teams is not None and not 2 <= len(names) <= rule_set.players:
        raise ValueError(ngettext("{rules} is for {players} player: give 2 to {players} team names, not {given}",
                                  "{rules} is for {players} players: give 2 to {players} team names, not {given}",
                                  rule_set.players).format(rules=title, players=rule_set.players, given=len(names)))
    if bots is None:
        bots = ("medium", "hard", "easy")[:rule_set.players - len(names)]
    if len(names) + len(bots) != rule_set.players:
        humans = (ngettext("{n} human", "{n} humans", len(names)).format(n=len(names)) if names
                  else _("no humans"))
        skills = rule_set.players - len(names)
        raise ValueError(ngettext("{rules} is for {players} player: with {humans}, give {skills}, not {given}",
                                  "{rules} is for {players} players: with {humans}, give {skills}, not {given}",
                                  rule_set.players)
                         .format(rules=title, players=rule_set.players, humans=humans, given=len(bots),
                                 skills=ngettext("{n} bot skill", "{n} bot skills", skills).format(n=skills)))
    setup = {"screen": "play", "language": language, "map": named_as(map), "bank": named_as(bank),
             "rules": rule_set.name,
             "humans": names, "teams": teams is not None, "bots": list(bots), "pace": pace}
    if categories is not None or difficulties is not None:
        setup.update(categories=categories, difficulties=difficulties)
    game_map, question_bank = resolve_map(map, players=rule_set.players), _chosen(resolve_bank(bank), setup)
    app = _app(setup, game_map, question_bank, clock, [], seed, language)
    if journal:
        path = Path(journal) if journal is not True else new_journal_path("game" if seed is None else f"game{seed}")
        app.keep_journal(path, setup, discard_unplayed=journal is True)
    return app


def resume(path: str | Path | Sequence[str | Path], map: str | Path | GameMap | None = None, bank: object = None,
           clock: Clock | None = None) -> "GameApp | HostScreen":
    """Bring back the games of a journal (after a kernel restart, mid-battle
    included) and carry on writing it: the same map, bank, teams and bots,
    every game played so far, the current one where it stood. Press Start
    (or Resume) to go on; a line the kernel could not finish writing is
    reported on the screen and skipped.

    A room's journal (or a list of one host's room journals) brings the
    rooms back instead (:func:`~.teacher.resume_rooms`).

    Args:
        path: the journal (its path is shown under the Teacher buttons).
        map, bank: the map and bank, when the game was given loaded ones
            rather than names or files (otherwise read from the journal).
        clock: the table's clock; the kernel's asyncio loop by default.

    Raises:
        JournalError: not a journal, or of another version, map or bank (the
            message says which).
        ValueError, OSError: the map or bank named in the journal cannot be
            loaded (the message says why).
    """
    if not isinstance(path, (str, Path)):
        return resume_rooms(list(path), map=map, bank=bank)
    contents = read_journal(path)
    setup = contents.header["setup"]
    if setup.get("screen") == "room":
        return resume_rooms([path], map=map, bank=bank)
    name = Path(path).name
    damaged = setup_problems(setup)
    if damaged:
        raise JournalError(f"{name}: its setup is damaged ({'; '.join(damaged)}), so the screen cannot be rebuilt "
                           "from it")
    players = find_rule_set(setup["rules"]).players
    given = needed(setup["map"], "map") if map is None else map
    try:
        game_map = resolve_map(given, players=players)
    except OSError as error:  # a map file deleted or moved since the game was played
        where = given.get("path") if isinstance(given, dict) else given
        raise JournalError(_("{file} was played on the map file {map}, which cannot be read now ({error}): put it "
                             "back there, or give the map again: resume(path, map=...)")
                           .format(file=name, map=where, error=error.strerror or error)) from None
    try:
        question_bank = _chosen(resolve_bank(bank if bank is not None else needed(setup["bank"], "bank")), setup)
    except OSError as error:  # a bank file deleted or moved since
        raise JournalError(_("{file} was played with questions that cannot be read now ({error}): put the files "
                             "back, or give the bank again: resume(path, bank=...)")
                           .format(file=name, error=error.strerror or error)) from None
    games = rebuild_games(contents, game_map.board, question_bank)
    with speaking(language_here(setup.get("language"))) as language:  # the journal's, when this kernel has it
        app = _app(setup, game_map, question_bank, clock, games, games[-1].seed, language)
        app.keep_journal(path, setup, resumed=contents)
        skipped = " ".join(contents.problems)
        moves = len(games[-1].actions)
        text = ngettext("Resumed from {file}: game {game}, {n} move in. Press Start to go on.",
                        "Resumed from {file}: game {game}, {n} moves in. Press Start to go on.",
                        moves).format(file=Path(path).name, game=len(games), n=moves)
        app._say(text + (f" {skipped}" if skipped else ""), warn=bool(skipped))
    return app


def setup_problems(setup: object) -> list[str]:
    """What is wrong with a journal's setup (as :func:`play` writes it), one
    clause each, all at once; ``[]`` when :func:`resume` can rebuild the
    screen from it (its map and bank may still be missing)."""
    if not isinstance(setup, dict):
        return [f"it is {type(setup).__name__}, not a table of settings"]
    found = []
    rules, humans, bots = setup.get("rules"), setup.get("humans"), setup.get("bots")
    try:
        players = find_rule_set(rules).players if isinstance(rules, str) else None
    except ValueError:
        players = None
    if players is None:
        found.append(f"rules {rules!r} is no rule set's name")
    if not (isinstance(humans, list) and all(isinstance(h, str) for h in humans)):
        found.append(f"humans {humans!r} is not a list of names")
    if not (isinstance(bots, list) and all(isinstance(b, str) and b in SKILLS for b in bots)):
        found.append(f"bots {bots!r} is not a list of skills ({', '.join(SKILLS)})")
    elif players is not None and isinstance(humans, list) and not found and len(humans) + len(bots) != players:
        found.append(f"{len(humans)} humans and {len(bots)} bots do not fill {rules}'s {players} seats")
    if not isinstance(setup.get("teams"), bool):
        found.append(f"teams {setup.get('teams')!r} is not true or false")
    pace = setup.get("pace")
    if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not (0 < pace and math.isfinite(pace)):
        found.append(f"pace {pace!r} is not a number above 0")
    for key in ("map", "bank"):
        value = setup.get(key)
        if key == "bank" and isinstance(value, list) and value:
            found += [f"the bank list holds {v!r}, which is no bank name or file" for v in value if not isinstance(v, str)]
        elif not (value is None or isinstance(value, str) or isinstance(value, dict)
                  and any(isinstance(value.get(k), str) for k in ("name", "path"))):
            found.append(f"{key} {value!r} names no {key}")
    for key in ("categories", "difficulties"):
        value = setup.get(key)
        if not (value is None or isinstance(value, list) and all(isinstance(v, str) for v in value)):
            found.append(f"{key} {value!r} is not a list of names")
    return found


def _chosen(question_bank: Any, setup: dict) -> Any:
    """The bank cut to the setup's categories and difficulties, if it names any.

    Raises:
        ValueError: they leave no guess or no multiple-choice question.
    """
    if setup.get("categories") is None and setup.get("difficulties") is None:
        return question_bank
    return question_bank.filtered(setup.get("categories"), setup.get("difficulties"))


def _app(setup: dict, game_map: GameMap, question_bank: Any, clock: Clock | None, games: list[Game],
         seed: int | None, language: str) -> GameApp:
    """The app for ``setup`` (see :func:`play`), with ``games`` played
    already, speaking ``language`` (its bots named in it)."""
    rule_set = find_rule_set(setup["rules"])
    humans, skills = list(setup["humans"]), dict(enumerate(setup["bots"], start=len(setup["humans"])))
    with speaking(language):
        names = humans + [words.bot_name(i, s) for i, s in enumerate(setup["bots"], start=1)]

    def new_game(game_seed: int | None, asked_before: frozenset[str] = frozenset()) -> tuple[Game, dict[int, Bot]]:
        game = Game(rule_set, game_map.board, question_bank, game_seed, names=names, asked_before=asked_before,
                    secret=new_secret() if game_seed is None else None)  # no number: a secret nobody sees
        return game, {seat: Bot(seat, skill, game_seed) for seat, skill in skills.items()}

    bots = {seat: Bot(seat, skill, seed) for seat, skill in skills.items()}
    game = games[-1] if games else new_game(seed)[0]
    teams = dict(enumerate(humans)) if setup["teams"] else None
    return GameApp(game, game_map, 0 if humans and not teams else None, bots, clock=clock, pace=setup["pace"],
                   new_game=new_game, teams=teams, earlier=games[:-1], language=language)
