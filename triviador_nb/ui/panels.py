"""HTML for the side panels: scoreboard, status line, answer reveal, log, ranking.

Pure functions from a seat's :class:`~triviador_nb.engine.view.View` to HTML
strings (the screen is fed by views only, so it cannot show what the seat may
not see), easy to test. Words come from :mod:`triviador_nb.words`, in the
language in use (:mod:`triviador_nb.i18n`). Every text
from a question bank or a player name is escaped: markup in a bank is shown
literally, never rendered.
"""

from __future__ import annotations

from html import escape
from typing import Mapping, NamedTuple, Sequence

from ..engine.view import View
from ..i18n import _, ngettext
from ..words import Names, event_text, seconds_text, status, win_kind_label
from .map_view import castle_svg
from .palette import seat_colour

LETTERS = "ABCD"


def swatch(colour: str, mark: str = "") -> str:
    """A player's colour, with their seat number on it (the map's labels
    carry the same number: a cue that needs no colour)."""
    return f'<span class="tnb-swatch" style="background:{colour}">{escape(mark)}</span>'


class PlayerRow(NamedTuple):
    """One player's line of the scoreboard, in the parts that change apart (:mod:`.scoreboard`
    sends each part only when it changes).

    Attributes:
        classes: ``tnb-player``, with ``tnb-acting`` on a turn and ``tnb-out`` when out of the game.
        who: the colour swatch (with the seat number) and the name, HTML.
        status: the role and territories (or "out of the game"), HTML.
        castle: the castle drawing, HTML ("" before a base is chosen).
        score: the score, as text.
    """

    classes: tuple[str, ...]
    who: str
    status: str
    castle: str
    score: str


def scoreboard_rows(view: View, roles: Mapping[int, str]) -> list[PlayerRow]:
    """The scoreboard's lines, one per player in seat order (see :func:`scoreboard_html`)."""
    rows = []
    for p in view.players:
        colour = seat_colour(p.colour)
        castle = castle_svg(p.castle_towers, view.base_towers, colour) if p.castle_towers else ""
        classes = ("tnb-player", *(("tnb-acting",) if p.acting else ()), *(("tnb-out",) if not p.in_game else ()))
        owned = p.territories
        status = (_("out of the game") if not p.in_game
                  else ngettext("{count} territory", "{count} territories", owned).format(count=owned))
        role = escape(roles.get(p.seat, ""))
        rows.append(PlayerRow(classes, f"{swatch(colour, str(p.seat + 1))} <b>{escape(p.name)}</b>",
                              f'<div class="tnb-role">{f"{role} · " if role else ""}{escape(status)}</div>', castle, str(p.score)))
    return rows


def scoreboard_html(view: View, roles: Mapping[int, str]) -> str:
    """The players with colour, name, role, score, territories and castle, as one table.

    Args:
        roles: seat -> a short role text, e.g. ``"you"`` or ``"bot, hard"``.
    """
    rows = [f'<tr class="{" ".join(row.classes)}"><td>{row.who}{row.status}</td>'
            f'<td class="tnb-castle">{row.castle}</td><td class="tnb-score">{row.score}</td></tr>'
            for row in scoreboard_rows(view, roles)]
    return f'<table class="tnb-scores">{"".join(rows)}</table>'


def status_html(view: View) -> str:
    """One line saying the phase, the round and who must do what, for the
    view's seat (words: :func:`triviador_nb.words.status`)."""
    phase, what = status(view)
    if view.is_over:
        return f'<div class="tnb-status tnb-over" role="status">{escape(what)}</div>'
    mine = " tnb-yourturn" if view.started and not view.paused and view.prompt.kind not in ("wait", "over") else ""
    return (f'<div class="tnb-status{mine}" role="status"><span class="tnb-phase">{escape(phase)}</span> · '
            f'{escape(what)}</div>')


def reveal_html(view: View) -> str:
    """The last resolved question: the correct answer and every player's answer
    and time, best first (D1 order for guesses)."""
    event = view.reveal
    if event is None:
        return ""
    d = event.data
    guess = d["kind"] == "guess"
    if guess:
        correct = f"{d['correct']}"
    else:
        correct = f"{LETTERS[d['correct_option']]}) {escape(d['options'][d['correct_option']])}"
    by_seat = {a["seat"]: a for a in d["answers"]}
    rows = []
    for seat in (d["order"] if guess else sorted(by_seat)):
        given, ms = by_seat[seat]["given"], by_seat[seat]["ms"]
        colour = seat_colour(view.players[seat].colour)
        if given is None:
            shown, mark = escape(_("no answer")), "✗"
        elif guess:
            off = abs(given - d["correct"])
            shown, mark = f"{given}", escape(_("exact") if off == 0 else _("off by {off}").format(off=off))
        else:
            right = given == d["correct_option"]
            shown, mark = (f"{LETTERS[given]}) {escape(d['options'][given])}",
                           escape(_("✓ right") if right else _("✗ wrong")))
        timing = "" if ms is None or given is None else escape(seconds_text(ms))
        given_class = "tnb-given tnb-option" if given is not None and not guess else "tnb-given"
        rows.append(f"<tr><td>{swatch(colour)} {escape(view.players[seat].name)}</td>"
                    f"<td class='{given_class}'><b>{shown}</b></td>"
                    f"<td class='tnb-verdict'>{mark}</td><td class='tnb-time'>{timing}</td></tr>")
    correct_line = escape(_("Correct answer: {answer}")).format(answer=f"<b>{correct}</b>")
    return (f'<div class="tnb-reveal"><div class="tnb-reveal-q">{escape(d["question_text"])}</div>'
            f'<div class="tnb-correct">{correct_line}</div>'
            f'<table>{"".join(rows)}</table></div>')


def log_lines(view: View, limit: int = 9) -> list[str]:
    """The latest events, newest first, one ``<li>`` each (:class:`~.event_log.EventLog` shows them)."""
    names = Names.of_view(view)
    shown = list(view.log)[-limit:]
    return [f'<li class="tnb-ev-{e.kind}">{escape(event_text(e, names))}</li>' for e in reversed(shown)]


def log_html(view: View, limit: int = 9) -> str:
    """The latest events, newest first, as one list."""
    return f'<ul class="tnb-log">{"".join(log_lines(view, limit))}</ul>'


def ranking_html(view: View) -> str:
    """The final ranking, large; a shared place is numbered twice ("1." for both, D16)."""
    items = []
    for place, seat in zip(view.places or range(1, len(view.ranking) + 1), view.ranking):
        p = view.players[seat]
        colour = seat_colour(p.colour)
        points = (ngettext("{points} point", "{points} points", p.score) if p.in_game
                  else ngettext("{points} point (out)", "{points} points (out)", p.score)).format(points=p.score)
        items.append(f'<li value="{place}">{swatch(colour)} <b>{escape(p.name)}</b> {escape(points)}</li>')
    kind = (f'<div class="tnb-winkind">{escape(win_kind_label(view.win_kind).capitalize())}</div>'
            if view.win_kind else "")
    heading = escape(_("Final ranking"))
    return f'<div class="tnb-ranking"><div>{heading}</div>{kind}<ol>{"".join(items)}</ol></div>'


def report_html(reports: Sequence) -> str:
    """The question reports after play as a table: right answers, and how far
    guesses were off (so authors can fix or retire a question)."""
    rows = []
    for r in reports:
        if r.kind == "guess" and r.answers:
            how = _("exact {correct}/{answers}, median off by {off}").format(
                correct=r.correct, answers=r.answers, off=f"{r.median_off:g}")
        elif r.kind == "guess":
            how = _("exact {correct}/{answers}").format(correct=r.correct, answers=r.answers)
        else:
            how = _("right {correct}/{answers}").format(correct=r.correct, answers=r.answers)
        rows.append(f"<tr><td>{escape(r.text)}</td><td>{escape(how)}</td></tr>")
    question, answers = escape(_("Question")), escape(_("Answers"))
    return (f'<table class="tnb-report"><tr><th>{question}</th><th>{answers}</th></tr>'
            + "".join(rows) + "</table>")
