"""The ``triviador-nb`` command line.

``build_parser`` assembles the parser from one small function per command;
each command sets ``run`` (a function of the parsed arguments returning the
exit status) with ``set_defaults``. To add a command, write its
``_add_..._parser`` function and call it from its parent's.

Exit status: 0 success, 1 the checked files have errors, 2 usage errors and
unreadable files (message on stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
from pathlib import Path
import csv
import io
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence

PROG = "triviador-nb"
PROGRESS_AFTER_S = 2.0  # `maps check` tells what it is doing once a check has taken this long


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits after --help (0) and usage errors (2)
        return int(exc.code or 0)
    return args.run(args)


def build_parser() -> argparse.ArgumentParser:
    """The parser for every command."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A trivia-conquest game for classrooms: command line tools."
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _add_bank_parser(commands)
    _add_simulate_parser(commands)
    _add_maps_parser(commands)
    _add_host_parser(commands)
    return parser


def _add_simulate_parser(commands: argparse._SubParsersAction) -> None:
    simulate = commands.add_parser(
        "simulate",
        help="play bot-only games headless and print figures",
        description="Play N games with a bot in every seat; print wins by seat, mean actions and speed.",
    )
    _add_game_arguments(simulate)
    _add_map_options(simulate)
    simulate.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    simulate.add_argument("--skills", nargs="+", default=None, metavar="SKILL",
                          help="bot skill per seat: easy, medium or hard (default: medium for all)")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(run=_run_simulate)


def _run_simulate(args: argparse.Namespace) -> int:
    from triviador_nb.bots import Bot
    from triviador_nb.engine import find_rule_set
    from triviador_nb.simulate import play_bot_game, summarise
    from triviador_nb.banks import resolve_bank

    try:
        rules = find_rule_set(args.rules)
        game_map = _resolve_map(args, rules.players)
        bank = resolve_bank(args.bank[0] if len(args.bank) == 1 else args.bank)
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.skills is not None and len(args.skills) != rules.players:
            raise ValueError(f"--skills needs {rules.players} skills for {rules.title}, got {len(args.skills)}")
        for skill in args.skills or ():
            Bot(0, skill)  # an unknown skill name raises here, listing the known ones
    except (ValueError, OSError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        games = [play_bot_game(rules, game_map.board, bank, args.seed + i, args.skills) for i in range(args.games)]
    except ValueError as exc:  # e.g. a map with no room for non-adjacent bases (D15)
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    summary = summarise(games, time.perf_counter() - start).as_dict()
    summary = {"rules": rules.name, "map": game_map.board.name, **summary}
    if args.json:
        print(json.dumps(summary))
    else:
        for key, value in summary.items():
            print(f"{key}: {value}")
    return 0


def _add_bank_parser(commands: argparse._SubParsersAction) -> None:
    bank = commands.add_parser("bank", help="work with question banks (CSV files)")
    actions = bank.add_subparsers(title="actions", metavar="ACTION", required=True)
    _add_bank_check_parser(actions)
    _add_bank_convert_parser(actions)
    _add_bank_stats_parsers(actions)


def _add_bank_check_parser(actions: argparse._SubParsersAction) -> None:
    check = actions.add_parser(
        "check",
        help="check question bank files",
        description="Check question bank CSV files meant to be loaded together; "
        "print every problem as FILE:ROW:COLUMN: message, then a summary.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="a question bank CSV file")
    check.set_defaults(run=_run_bank_check)


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: checking a big bank allocates
    millions of acyclic objects, which would trigger many useless full
    collections (7 % of a 100,000-question check). A process-wide switch, so
    only this short-lived command uses it, never the library (a room host's
    thread would freeze with it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _run_bank_check(args: argparse.Namespace) -> int:
    from triviador_nb.banks import check_and_load_bank
    from triviador_nb.banks.problems import capped_lines

    try:
        args.files = _bank_paths(args.files)
        with _gc_paused():
            problems, bank = check_and_load_bank(args.files)  # one pass: checked and, if clean, loaded
    except OSError as exc:
        print(f"{PROG}: error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:  # an unknown built-in bank name
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    for line in capped_lines(problems):  # at most 20 of a kind, then how many more
        print(line)
    errors = sum(problem.is_error for problem in problems)
    warnings = len(problems) - errors
    label = args.files[0] if len(args.files) == 1 else f"{len(args.files)} files"
    if errors:
        print(f"{label}: {_count(errors, 'error')}, {_count(warnings, 'warning')}")
        return 1
    summary = f"{label}: OK, {_count(len(bank.choice) + len(bank.guess), 'question')}"
    summary += f" ({len(bank.choice)} choice, {len(bank.guess)} guess)"
    print(summary + (f", {_count(warnings, 'warning')}" if warnings else ""))
    return 0


def _add_bank_stats_parsers(actions: argparse._SubParsersAction) -> None:
    stats = actions.add_parser("stats", help="count a bank's questions by type, category and difficulty",
                               description="Print counts by type, category and difficulty and the guess answer "
                               "range (min, median, max) of bank files loaded together.")
    stats.add_argument("files", nargs="+", metavar="FILE", help="a question bank CSV file")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.set_defaults(run=_run_bank_stats)
    simulate = actions.add_parser("simulate", help="how many questions bot-only games ask (D4)",
                                  description="Play N bot-only games with the bank; print the guess and "
                                  "multiple-choice questions asked per game (mean, 95th percentile) and "
                                  "how many games the bank lasts without repeating a question.")
    simulate.add_argument("files", nargs="+", metavar="FILE", help="a question bank CSV file")
    simulate.add_argument("--rules", default="conquiztador", help="rule set name (default: conquiztador)")
    simulate.add_argument("--games", type=_positive_int, default=100, help="number of games (default: 100)")
    simulate.add_argument("--map", default="hungary", help="built-in map name or a GeoJSON file (default: hungary)")
    _add_map_options(simulate)
    simulate.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(run=_run_bank_simulate)


def _bank_paths(files: list[str]) -> list[str]:
    """The files, with a built-in bank's name (e.g. general_knowledge_en) turned into its file and
    ``a,b`` split (see ``bank_files``). Raises ValueError for an unknown built-in name."""
    from triviador_nb.banks.csv_bank import bank_files

    paths: list[Path] = bank_files(files)
    return [str(path) for path in paths]


def _load_for_command(files: list[str]):
    """``(bank, 0)``, or ``(None, status)`` after printing why it cannot be loaded (1 errors, 2 unreadable)."""
    from triviador_nb.banks import BankError, check_and_load_bank

    try:
        problems, bank = check_and_load_bank(_bank_paths(files))  # checked as bank check does: stats count give-aways
        if bank is None:
            raise BankError([problem for problem in problems if problem.is_error])
        return bank, 0
    except BankError as exc:
        print(exc, file=sys.stderr)
        print(f"{PROG}: error: the bank has errors; run '{PROG} bank check' for details", file=sys.stderr)
        return None, 1
    except OSError as exc:
        print(f"{PROG}: error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return None, 2
    except ValueError as exc:  # an unknown built-in bank name
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return None, 2


def _run_bank_stats(args: argparse.Namespace) -> int:
    from triviador_nb.banks.usage import bank_stats

    bank, status = _load_for_command(args.files)
    if bank is None:
        return status
    stats = bank_stats(bank)
    if args.json:
        print(json.dumps(stats.as_dict()))
        return 0
    print(f"{bank.name}: {_count(stats.questions, 'question')}")
    for title, counts in (("TYPE", stats.by_type), ("CATEGORY", stats.by_category),
                          ("DIFFICULTY", stats.by_difficulty)):
        width = max(len(title), *(len(k) for k in counts))
        print()
        print(f"{title:<{width}}  {'COUNT':>6}  {'SHARE':>6}")
        for key, number in counts.items():
            print(f"{key:<{width}}  {number:>6}  {number / stats.questions:>6.0%}")
    print()
    print(f"guess answers: min {stats.guess_min}, median {stats.guess_median:g}, max {stats.guess_max}")
    print(f"give-aways: {_count(stats.giveaway_pairs, 'pair')} of questions where one names the other's answer "
          f"({stats.giveaway_pairs_unkeyed} warned of by bank check: no fact key shared); "
          f"{_count(stats.fact_groups, 'fact key')} "
          "shared; a game never asks both of a pair or two questions of one key")
    return 0


def _run_bank_simulate(args: argparse.Namespace) -> int:
    from triviador_nb.banks.usage import bank_usage
    from triviador_nb.engine import find_rule_set

    try:
        rules = find_rule_set(args.rules)
        game_map = _resolve_map(args, rules.players)
    except (ValueError, OSError) as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    bank, status = _load_for_command(args.files)
    if bank is None:
        return status
    try:
        usage = bank_usage(rules, game_map.board, bank, args.games, args.seed)
    except ValueError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(usage.as_dict()))
        return 0
    print(f"{bank.name} with {rules.title} on {usage.board}, {_count(usage.games, 'game')} (seed {usage.seed}):")
    print(f"{'TYPE':<7} {'IN BANK':>7} {'MEAN/GAME':>9} {'P95/GAME':>8} {'LASTS A GAME':>12} {'GAMES IN A ROW':>14}")
    for kind in ("guess", "choice"):
        k = getattr(usage, kind)
        print(f"{kind:<7} {k.bank_size:>7} {k.mean:>9.1f} {k.p95:>8.1f} {'yes' if k.lasts_a_game else 'NO':>12} "
              f"{k.games_without_repeat:>14}")
    return 0


def _add_bank_convert_parser(actions: argparse._SubParsersAction) -> None:
    convert = actions.add_parser(
        "convert",
        help="convert a Kahoot, Quizizz, Blooket, Gimkit, GIFT, Aiken, Moodle XML, QTI, Quizlet or CSV bank to "
             "the project CSV",
        description="Read IN (its format is recognised by content) and write OUT as the project's CSV "
        "(UTF-8, comma-separated). When IN has errors, print every problem and write nothing.",
    )
    convert.add_argument("input", metavar="IN", help="a question bank file in any supported format")
    convert.add_argument("output", metavar="OUT", help="the CSV file to write (replaced if it exists)")
    convert.set_defaults(run=_run_bank_convert)


def _run_bank_convert(args: argparse.Namespace) -> int:
    from triviador_nb.banks.convert import FORMAT_NAMES, convert_bank
    from triviador_nb.banks.problems import capped_lines

    try:
        converted = convert_bank(args.input)
        text, problems = converted.text, converted.problems
    except OSError as exc:
        print(f"{PROG}: error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    for line in capped_lines(problems):  # at most 20 of a kind, then how many more
        print(line)
    errors = sum(problem.is_error for problem in problems)
    if text is None:
        print(f"{args.input}: {_count(errors, 'error')}, {_count(len(problems) - errors, 'warning')}; "
              f"{args.output} not written")
        return 1
    try:
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            out.write(text)
    except OSError as exc:
        print(f"{PROG}: error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 2
    for line in capped_lines(converted.made):  # a Quizlet set's questions, wrong options chosen from other terms
        print(line)
    rows = sum(1 for _ in csv.reader(io.StringIO(text))) - 1
    read = "" if converted.format == "csv" else f" (read as {FORMAT_NAMES[converted.format]})"
    print(f"{args.output}: wrote {_count(rows, 'question')}{read}")
    return 0


def _add_maps_parser(commands: argparse._SubParsersAction) -> None:
    maps = commands.add_parser("maps", help="list the built-in maps; check a map file")
    actions = maps.add_subparsers(title="actions", metavar="ACTION", required=True)
    listing = actions.add_parser(
        "list",
        help="list the built-in maps",
        description="Print each built-in map's name, title, territory count and file size.",
    )
    listing.set_defaults(run=_run_maps_list)
    check = actions.add_parser(
        "check",
        help="check a map file (a built map or your own GeoJSON)",
        description="Check a GeoJSON map: a built map, or your own FeatureCollection of Polygon/"
        "MultiPolygon features, whose borders are computed (in longitude/latitude; a projected CRS that the "
        'file names, or Web Mercator, is converted). Print every problem as FILE: features[INDEX] "NAME": '
        "message, then a summary and how much the map sends to the browser to draw it.",
    )
    check.add_argument("file", metavar="FILE", help="a .geojson file")
    _add_map_options(check)
    check.add_argument("--players", type=_positive_int, default=3, choices=range(1, 7), metavar="N",
                       help="players needing bases that do not border each other (default: 3; 2 for duel)")
    check.set_defaults(run=_run_maps_check)


class _LinkAction(argparse.Action):
    """The links of one ``--link``, appended as ``(A, B)`` pairs:

    * ``--link A=B C=D``: each word holding one "=" with a name on both sides is a link (the form
      the help shows); a name of several words is quoted: ``--link "Isle of Wight=Hampshire"``;
    * ``--link Isle of Wight=Hampshire``: one "=" in all, names of several words unquoted;
    * ``--link A B``: the two names.
    """

    def __call__(self, parser, namespace, values, option_string=None):
        text = " ".join(values)
        whole = [value.partition("=") for value in values]
        if len(values) > 1 and all(a.strip() and b.strip() and "=" not in b for a, _, b in whole):
            pairs = [(a, b) for a, _, b in whole]
        elif text.count("=") == 1:
            a, _, b = text.partition("=")
            pairs = [(a, b)]
        elif "=" not in text and len(values) == 2:
            pairs = [tuple(values)]
        elif "=" in text:
            parser.error(f"{option_string} {text!r}: give each link as A=B, e.g. {option_string} A=B C=D, and "
                         f'quote a name of several words: {option_string} "Isle of Wight=Hampshire"')
        else:
            parser.error(f"{option_string} takes A=B, two territories' names or ids (or the two as A B), "
                         f"not {text!r}")
        for a, b in pairs:
            if not a.strip() or not b.strip():
                parser.error(f"{option_string} {text!r}: both territories must be named, as A=B")
        links = [(a.strip(), b.strip()) for a, b in pairs]
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), *links])


def _add_map_options(parser: argparse.ArgumentParser) -> None:
    """--name-property, --link and --merge-by-name: how a teacher's own map file is read."""
    parser.add_argument("--name-property", metavar="P", default=None,
                        help='for your own map: the property naming the territories '
                        '(default: "name", "NAME", "Name" or "name_en")')
    parser.add_argument("--link", nargs="+", action=_LinkAction, metavar="A=B", default=None,
                        help="connect territories A and B (names or ids), e.g. an island and the coast; several as "
                        "--link A=B C=D; quote a name with spaces")
    parser.add_argument("--merge-by-name", action="store_true",
                        help="for your own map: make the features that share a name one territory "
                        "(a map drawn one feature per island)")


def _map_options(args: argparse.Namespace) -> dict:
    """The keyword arguments of ``load_map``/``resolve_map`` from :func:`_add_map_options`' options."""
    return {"name_property": args.name_property, "links": args.link, "merge_by_name": args.merge_by_name}


def _resolve_map(args: argparse.Namespace, players: int):
    """``resolve_map`` for --map and the map options, its warnings printed as ``triviador-nb: warning: ...``
    on stderr (raises as ``resolve_map``)."""
    import warnings

    from triviador_nb.maps import MapWarning, resolve_map

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MapWarning)
        game_map = resolve_map(args.map, players=players, **_map_options(args))
    for warning in caught:
        if issubclass(warning.category, MapWarning):
            print(f"{PROG}: warning: {warning.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return game_map


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """--rules, --map and --bank: what a game is played with (simulate, host)."""
    parser.add_argument("--rules", default="conquiztador", help="rule set name (default: conquiztador)")
    parser.add_argument("--map", default="hungary", help="built-in map name or a GeoJSON file (default: hungary)")
    parser.add_argument("--bank", nargs="+", default=["general_knowledge_en"], metavar="FILE",
                        help="question bank files and built-in bank names, e.g. general_knowledge_en my.xlsx")


def _add_host_parser(commands: argparse._SubParsersAction) -> None:
    host = commands.add_parser(
        "host",
        help="serve game rooms to students' kernels (as its own process, e.g. a JupyterHub service)",
        description="Open game rooms and serve them until stopped (Ctrl-C). Prints each room's code; "
        "students join with join(CODE, name=..., address=...). A room starts when all its seats are "
        "taken, or --start-after seconds after its first student sat down (bots fill the rest).",
    )
    _add_game_arguments(host)
    _add_map_options(host)
    host.add_argument("--rooms", type=_whole_number, default=1,
                      help="how many rooms to open at once (default: 1; 0: teachers open them from their notebooks)")
    host.add_argument("--hub", action="store_true",
                      help="run as a JupyterHub service: every connection carries its kernel's hub token; "
                      "names are hub users; teachers are --teachers-group members and hub admins")
    host.add_argument("--teachers-group", default=None, metavar="GROUP",
                      help="with --hub: the hub group whose members are teachers (admins always are)")
    host.add_argument("--address", default="127.0.0.1",
                      help="address to listen on (default: 127.0.0.1; 0.0.0.0 for a classroom network)")
    host.add_argument("--port", type=_positive_int, default=None,
                      help="port (default: a free one in 41000-41960, named by the room codes; with --redis: any free one)")
    host.add_argument("--redis", default=os.environ.get("TRIVIADOR_NB_REDIS_URL") or None, metavar="URL",
                      help="share the rooms with the other host processes using this Redis "
                      "(redis://[:password@]host:port/db; default: $TRIVIADOR_NB_REDIS_URL, else nothing shared): "
                      "room codes unique across them, join limits and the refusal log shared, each game's record "
                      "in a stream")
    host.add_argument("--redis-prefix", default="triviador", metavar="PREFIX",
                      help="the prefix of this service's keys in Redis (default: triviador)")
    host.add_argument("--names-per-person", type=_positive_int, default=1, metavar="N",
                      help="names one person (a Unix or hub user, a laptop's address) may hold in a room "
                      "(default: 1; more when students share one account)")
    host.add_argument("--start-after", type=float, default=60.0, metavar="S",
                      help="start a room S seconds after its first student joined (default: 60)")
    host.add_argument("--pace", type=float, default=1.0, help="bot and result pace (default: 1.0)")
    host.add_argument("--language", default=None, metavar="CODE",
                      help="the rooms' language (hu, cs...): the students' screens speak it, and without --bank the "
                      "questions are the built-in bank in it, as host(language=...) (default: en)")
    host.add_argument("--for", dest="serve_for", type=float, default=None, metavar="S",
                      help="stop after S seconds (default: serve until stopped)")
    host.set_defaults(run=_run_host, bank=None)  # no --bank: the built-in bank in --language


def _run_host(args: argparse.Namespace) -> int:
    import signal

    from triviador_nb.i18n import LanguageError
    from triviador_nb.rooms import RoomHost
    from triviador_nb.rooms.shared import SharedUnavailable

    try:
        language, bank = _host_language_and_bank(args)
    except LanguageError as error:
        print(f"{PROG} host: --language: {error}", file=sys.stderr)
        return 2
    hub = None
    if args.hub:
        from triviador_nb.rooms.identity import HubIdentities

        from triviador_nb.rooms.identity import HubUnavailable

        try:
            hub = HubIdentities(args.teachers_group)
            service = hub.check_service()  # fail now, not at the first student
        except (HubUnavailable, ValueError, KeyError, OSError) as error:
            print(f"{PROG} host: --hub needs the JupyterHub service's environment "
                  f"(JUPYTERHUB_API_URL, JUPYTERHUB_API_TOKEN): {error}", file=sys.stderr)
            return 2
        print(f"checking hub tokens as the service {service!r}; teachers: hub admins"
              + (f" and the group {args.teachers_group!r}" if args.teachers_group else ""), flush=True)
    elif args.teachers_group:
        print(f"{PROG} host: --teachers-group goes with --hub", file=sys.stderr)
        return 2
    try:
        room_host = RoomHost(args.address, args.port, hub=hub, names_per_person=args.names_per_person,
                             redis=args.redis, redis_prefix=args.redis_prefix)
    except SharedUnavailable as error:
        print(f"{PROG} host: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"{PROG} host: cannot listen on {args.address}: {error}", file=sys.stderr)
        return 2
    try:
        game_map = _host_map(args) if args.rooms else None
        rooms = [room_host.open_room(args.rules, game_map, bank, pace=args.pace, language=language,
                                     owner="*" if hub is not None else None) for _ in range(args.rooms)]
    except (ValueError, OSError) as error:
        room_host.close()
        print(f"{PROG} host: {error}", file=sys.stderr)
        return 2
    stopping: list[int] = []
    # SIGTERM, and SIGINT even where it came ignored (a service started in the background): JupyterHub
    # stops a managed service with SIGINT first, then SIGTERM after 10 s. Set before the
    # first line is printed: whoever waits for that line may signal at once.
    previous = {number: signal.signal(number, lambda signum, _frame: stopping.append(signum))
                for number in (signal.SIGTERM, signal.SIGINT)}
    where = f"{args.address}:{room_host.port}"
    print(f"serving {len(rooms)} room(s) on ws://{where} for up to {room_host.max_connections} connections at once",
          flush=True)  # (a hub service: behind the hub's proxy)
    if hub is None:  # the key is printed for whoever started the service: a teacher's notebook needs it
        print(f'teacher: teach("{room_host.url()}", key="{room_host.teacher_key}")', flush=True)
    for room in rooms:
        address = "" if room_host.host_part and args.address == "127.0.0.1" else f', address="{where}"'
        print(f"room {room.code}: join(\"{room.code}\", name=\"...\"{address})", flush=True)
    first_seated: dict[str, float] = {}
    end = None if args.serve_for is None else time.monotonic() + args.serve_for
    try:
        while not stopping and (end is None or time.monotonic() < end):
            for room in rooms:
                seated = [m for m in room.members() if m.seat is not None]
                if room.started or not seated or room.code.replace("-", "") not in room_host.rooms:
                    continue
                first_seated.setdefault(room.code, time.monotonic())
                full = len({m.seat for m in seated}) == room.record.seats
                if full or time.monotonic() - first_seated[room.code] >= args.start_after:
                    room.start()
                    print(f"room {room.code}: started with {', '.join(m.name for m in seated)}", flush=True)
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        room_host.close("host_stopped")  # every student is told; the journals are finished
        if hub is not None:
            hub.close()
        for number, handler in previous.items():
            signal.signal(number, handler)
    print("rooms closed", flush=True)
    return 0


def _host_language_and_bank(args: argparse.Namespace) -> tuple[str, object]:
    """The rooms' language code (``"hu"``; ``"en"`` without ``--language``)
    and their bank: ``--bank`` as given, else the built-in bank in that
    language (``hungarian_hu`` for ``hu``; ``general_knowledge_en`` for a
    language with none), as :func:`triviador_nb.ui.host` chooses.

    Raises:
        LanguageError: no catalogue for ``--language`` (the message lists the languages there are).
    """
    from triviador_nb.banks import DEFAULT_BANK, language_bank
    from triviador_nb.i18n import SOURCE, speaking

    with speaking(args.language or SOURCE) as language:  # (the code as the catalogues name it: "HU" -> "hu")
        pass
    if args.bank is not None:
        return language, args.bank if len(args.bank) > 1 else args.bank[0]
    return language, language_bank(DEFAULT_BANK, language) or DEFAULT_BANK


def _host_map(args: argparse.Namespace):
    """The map ``host`` serves, loaded once for every room (raises as ``resolve_map``)."""
    from triviador_nb.engine import find_rule_set

    return _resolve_map(args, find_rule_set(args.rules).players)


def _whole_number(text: str) -> int:
    """A whole number >= 0 (argparse type)."""
    return _int_at_least(text, 0)


def _positive_int(text: str) -> int:
    """A whole number >= 1 (argparse type)."""
    return _int_at_least(text, 1)


def _int_at_least(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {text}" if least == 0
                                         else f"must be at least {least}, not {value}")
    return value


def _run_maps_list(args: argparse.Namespace) -> int:
    from triviador_nb.maps import MapError, builtin_map_names, builtin_map_path, load_builtin_map

    rows, status = [], 0
    for name in builtin_map_names():
        try:
            game_map = load_builtin_map(name)
        except MapError as exc:
            print(f"{PROG}: error: built-in map {name}: {exc}", file=sys.stderr)
            status = 1
            continue
        size_kb = builtin_map_path(name).stat().st_size / 1024
        rows.append((name, game_map.title, str(len(game_map.board)), f"{size_kb:.1f} KB"))
    header = ("NAME", "TITLE", "TERRITORIES", "SIZE")
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(4)]
    for row in (header, *rows):
        print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:>{widths[2]}}  {row[3]:>{widths[3]}}")
    return status


def _run_maps_check(args: argparse.Namespace) -> int:
    from triviador_nb.maps import check_map, draw_size
    from triviador_nb.maps.places import where

    started = time.monotonic()

    def progress(message: str) -> None:  # quiet for a map checked in a moment
        if time.monotonic() - started >= PROGRESS_AFTER_S:
            print(f"{PROG}: {args.file}: {message} ({time.monotonic() - started:.0f} s)", file=sys.stderr,
                  flush=True)

    try:
        check = check_map(args.file, players=args.players, progress=progress, **_map_options(args))
    except OSError as exc:
        print(f"{PROG}: error: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for problem in check.errors:
        print(f"{args.file}: {problem}")
    for warning in check.warnings:
        print(f"{args.file}: warning: {warning}")
    if check.errors:
        print(f"{args.file}: {_count(len(check.errors), 'error')}, {_count(len(check.warnings), 'warning')}")
        return 1
    game_map = check.game_map
    links = len(game_map.links)
    borders = sum(len(n) for n in game_map.board.adjacency.values()) // 2 - links
    summary = f"{args.file}: OK, {_territories(len(game_map.board))}, {_count(borders, 'border')}"
    summary += f", {_count(links, 'link')}" + (f", {_count(len(check.warnings), 'warning')}" if check.warnings else "")
    print(summary)
    if check.computed:  # a teacher's own map: a map read with latitude and longitude swapped shows here
        print(f"{args.file}: {where(game_map.bounds)}")
    size = draw_size(game_map)
    print(f"{args.file}: to draw: {_territories(size.territories)}, {size.vertices:,} points, "
          f"{size.geometry_bytes / 1024:,.0f} KB of outlines" + (" (simplified)" if check.computed else ""))
    return 0


def _territories(number: int) -> str:
    return f"{number} {'territory' if number == 1 else 'territories'}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
