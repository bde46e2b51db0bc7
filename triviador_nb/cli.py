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
import sys
from collections.abc import Sequence

from triviador_nb.banks import check_bank_files, load_bank

PROG = "triviador-nb"


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
    return parser


def _add_bank_parser(commands: argparse._SubParsersAction) -> None:
    bank = commands.add_parser("bank", help="work with question banks (CSV files)")
    actions = bank.add_subparsers(title="actions", metavar="ACTION", required=True)
    _add_bank_check_parser(actions)


def _add_bank_check_parser(actions: argparse._SubParsersAction) -> None:
    check = actions.add_parser(
        "check",
        help="check question bank files",
        description="Check question bank CSV files meant to be loaded together; "
        "print every problem as FILE:ROW:COLUMN: message, then a summary.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="a question bank CSV file")
    check.set_defaults(run=_run_bank_check)


def _run_bank_check(args: argparse.Namespace) -> int:
    try:
        problems = check_bank_files(args.files)
    except OSError as exc:
        print(f"{PROG}: error: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    errors = sum(problem.is_error for problem in problems)
    warnings = len(problems) - errors
    label = args.files[0] if len(args.files) == 1 else f"{len(args.files)} files"
    if errors:
        print(f"{label}: {_count(errors, 'error')}, {_count(warnings, 'warning')}")
        return 1
    bank = load_bank(args.files)
    summary = f"{label}: OK, {_count(len(bank.choice) + len(bank.guess), 'question')}"
    summary += f" ({len(bank.choice)} choice, {len(bank.guess)} guess)"
    print(summary + (f", {_count(warnings, 'warning')}" if warnings else ""))
    return 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
