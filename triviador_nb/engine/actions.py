"""Actions: small frozen values with a one-line text form.

Seats are 0-based in code and 1-based in text (``p1`` is seat 0), as players
see them. Response times travel in the action in milliseconds; the engine
never reads a clock.

=============================  ==========================================
text form                      action
=============================  ==========================================
``pick p1 HU-PE``              :class:`Pick` - take a free territory
``attack p2 HU-BA``            :class:`Attack` - attack a territory
``attack p1 HU-BA wings``      :class:`Attack` with Magic Wings (Duel)
``rebuild p3``                 :class:`Rebuild` - rebuild one's castle
``answer p3 1980 4200ms``      :class:`GuessAnswer` - a guess, 4.2 s
``answer p1 B 3100ms``         :class:`ChoiceAnswer` - option B, 3.1 s
``answer p2 none``             no answer (timer ran out)
``answer p2 none 10000ms``     no answer, with the time it was given at
``timeout p1``                 :class:`Timeout` - territory choice ran out
``skip``                       :class:`Skip` - the teacher skips the question
``end``                        :class:`End` - the teacher ends the game now
``draw guess gk-g-017``        :class:`Draw` - chance: the question asked
``draw choice 2031 gk-c-004``  :class:`Draw` - and its options' order
=============================  ==========================================

:class:`Draw` is no player's action: it is a chance outcome the game records
when it asks a question (OpenSpiel's chance nodes), so a saved record replays
into the same game whatever the bank's row order, and a question can be
burned and not drawn again. :class:`Skip` and :class:`End` are the
teacher's, no seat's: they are in the record like any action, so a replay
gives the same game (undo is :meth:`~.game.Game.undone`: the record without
its last action).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LETTERS = "ABCD"


class ActionParseError(ValueError):
    """A text action could not be read; the message quotes it."""


def seat_text(seat: int) -> str:
    """``0 -> "p1"``."""
    return f"p{seat + 1}"


def _number_text(value: object) -> str:
    """A number as text; one too large to be a real answer is not spelled out
    (Python refuses to print integers of more than 4300 digits)."""
    if isinstance(value, int) and abs(value) >= 10**30:
        return "<a number too large to show>"
    return str(value)


def _time_text(ms: int | None) -> str:
    return "" if ms is None else f" {_number_text(ms)}ms"


@dataclass(frozen=True)
class Pick:
    """Take free territory ``territory`` during expansion."""

    player: int
    territory: str

    def __str__(self) -> str:
        return f"pick {seat_text(self.player)} {self.territory}"


@dataclass(frozen=True)
class Attack:
    """Attack ``territory`` (owned by another player) during battle.

    ``wings=True`` spends the player's Magic Wings to reach a territory that
    does not border them (Duel round 3, D11).
    """

    player: int
    territory: str
    wings: bool = False

    def __str__(self) -> str:
        return f"attack {seat_text(self.player)} {self.territory}{' wings' if self.wings else ''}"


@dataclass(frozen=True)
class Rebuild:
    """Rebuild one's castle instead of attacking (Long Campaign, D14)."""

    player: int

    def __str__(self) -> str:
        return f"rebuild {seat_text(self.player)}"


@dataclass(frozen=True)
class GuessAnswer:
    """Answer a guess question with ``value`` (>= 0) after ``ms`` milliseconds.

    ``value=None`` means no answer (D1: ranks last); its ``ms``, when
    given, is kept in the text form (``answer p1 none 10000ms``).
    """

    player: int
    value: int | None
    ms: int | None = None

    def __str__(self) -> str:
        if self.value is None:
            return f"answer {seat_text(self.player)} none{_time_text(self.ms)}"
        return f"answer {seat_text(self.player)} {_number_text(self.value)}{_time_text(self.ms)}"


@dataclass(frozen=True)
class ChoiceAnswer:
    """Answer a multiple-choice question with option ``option`` (0-3 = A-D).

    ``option=None`` means no answer, which counts as wrong (D2); its
    ``ms``, when given, is kept in the text form.
    """

    player: int
    option: int | None
    ms: int | None = None

    def __str__(self) -> str:
        if self.option is None:
            return f"answer {seat_text(self.player)} none{_time_text(self.ms)}"
        # an out-of-range option still needs a text form: the engine quotes it when refusing it
        valid = isinstance(self.option, int) and 0 <= self.option < len(LETTERS)
        letter = LETTERS[self.option] if valid else f"<option {self.option!r}>"
        return f"answer {seat_text(self.player)} {letter}{_time_text(self.ms)}"


@dataclass(frozen=True)
class Timeout:
    """The territory-choice timer of ``player`` ran out (D3: seeded random pick)."""

    player: int

    def __str__(self) -> str:
        return f"timeout {seat_text(self.player)}"


@dataclass(frozen=True)
class Skip:
    """The teacher skips the open question: a new one of the same type is put
    to the same players, and the skipped one (its answers dropped, its
    correct answer never shown) stays out of the deck's first pass."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True)
class End:
    """The teacher ends the game now: the ranking is the current scores' (D10);
    equal scores share the place, with no tie-break question (D16)."""

    def __str__(self) -> str:
        return "end"


TeacherAction = Skip | End


@dataclass(frozen=True)
class Draw:
    """Chance: the question the game asked, and for a multiple-choice question
    the order its options were shown in.

    Attributes:
        question: the question's id in its bank.
        order: for multiple choice, the permutation of ``(0, 1, 2, 3)``
            giving, for each shown option A-D, its index in the question's
            ``options`` (the right answer is index 0); empty for guesses.
    """

    question: str
    order: tuple[int, ...] = ()

    def __str__(self) -> str:
        if not self.order:
            return f"draw guess {self.question}"
        return f"draw choice {''.join(map(str, self.order))} {self.question}"


Action = Pick | Attack | Rebuild | GuessAnswer | ChoiceAnswer | Timeout | Skip | End
Entry = Action | Draw  # one line of a game's record

_SEAT = r"p(?P<seat>[1-9][0-9]*)"
_PATTERNS = (
    (re.compile(rf"^pick {_SEAT} (?P<t>\S+)$"), lambda m, s: Pick(s, m["t"])),
    (re.compile(rf"^attack {_SEAT} (?P<t>\S+)(?P<w> wings)?$"), lambda m, s: Attack(s, m["t"], m["w"] is not None)),
    (re.compile(rf"^rebuild {_SEAT}$"), lambda m, s: Rebuild(s)),
    (re.compile(rf"^timeout {_SEAT}$"), lambda m, s: Timeout(s)),
    (re.compile(rf"^answer {_SEAT} none(?: (?P<ms>[0-9]{{1,15}})ms)?$"), None),
    (
        re.compile(rf"^answer {_SEAT} (?P<v>[0-9]{{1,15}})(?: (?P<ms>[0-9]{{1,15}})ms)?$"),
        lambda m, s: GuessAnswer(s, int(m["v"]), _ms(m)),
    ),
    (
        re.compile(rf"^answer {_SEAT} (?P<o>[A-D])(?: (?P<ms>[0-9]{{1,15}})ms)?$"),
        lambda m, s: ChoiceAnswer(s, LETTERS.index(m["o"]), _ms(m)),
    ),
)


_TEACHER = {"skip": Skip(), "end": End()}
_DRAW = re.compile(r"^draw\s+(?:guess|choice\s+(?P<order>[0-3]{4}))\s+(?P<id>\S.*)$", re.DOTALL)


def _ms(match: re.Match[str]) -> int | None:
    return None if match["ms"] is None else int(match["ms"])


def parse_action(text: str, *, none_answer: type = GuessAnswer) -> Entry:
    """Read an action from its text form (see the module table).

    Args:
        text: e.g. ``"answer p3 1980 4200ms"``; surrounding spaces ignored.
        none_answer: the class to build for ``"answer pN none"`` (the text
            does not say which kind of question it answers);
            :meth:`triviador_nb.engine.game.Game.parse` picks it from the
            question being asked.

    Raises:
        ActionParseError: when the text matches no action form.
    """
    if not isinstance(text, str):
        raise ActionParseError(f"cannot read action {text!r}: an action is a line of text")
    drawn = _DRAW.match(text.strip())  # a question's id is kept as written, inner spaces and all
    if drawn:
        order = tuple(int(c) for c in drawn["order"] or "")
        if order and sorted(order) != [0, 1, 2, 3]:
            raise ActionParseError(f"cannot read {text!r}: the order must use each of 0, 1, 2, 3 once")
        return Draw(drawn["id"], order)
    line = " ".join(text.split())
    if line in _TEACHER:
        return _TEACHER[line]
    for pattern, build in _PATTERNS:
        match = pattern.match(line)
        if match:
            seat = int(match["seat"]) - 1
            if build is None:
                return none_answer(seat, None, _ms(match))
            return build(match, seat)
    raise ActionParseError(f"cannot read action {text!r}; expected e.g. 'pick p1 HU-PE' or 'answer p2 1980 4200ms'")
