"""What a translation must keep so the screen can show it: the English's
``{fields}``, written as the English writes them, and a plural rule that
gives a form for every count.

The screens fill a sentence with ``str.format`` and the English's named
fields (``_("{seat} takes {territory}").format(seat=..., territory=...)``).
A translation with a field the English does not have (``{mezo}``), a
numbered one (``{0}``) or an unbalanced brace would raise in the middle of a
game, so a teacher's ``.po`` file is checked when it is read
(:mod:`.reading`) and such a message is left out: the English shows there.
Pure functions of strings.
"""

from __future__ import annotations

import gettext
import string
from typing import Callable, Iterable

#: The counts a plural rule is tried on when a file is read (a game counts
#: towers, questions, moves and points: a few thousand at most).
TRIED_COUNTS = range(0, 2001)


def fields(text: str) -> set[str]:
    """The ``{field}`` names of a ``str.format`` template (``"{a} and {b}"`` -> {a, b}).

    Raises:
        ValueError: a template ``str.format`` cannot read.
    """
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def _written(text: str) -> list[tuple[str, str | None, str]]:
    """Each field of ``text`` as written: ``(name, conversion, format spec)``.

    Raises:
        ValueError: a template ``str.format`` cannot read.
    """
    return [(name, conv, spec) for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None]


def _shown(field: tuple[str, str | None, str]) -> str:
    name, conv, spec = field
    return "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"


def field_problem(english: Iterable[str], translated: str) -> str | None:
    """Why ``translated`` would fail where the screen fills in ``english``'s
    fields (the singular and plural of a counted sentence together), or None
    when it is safe.

    A field must be one of the English's, written the same way; ``{0}`` and
    ``{}`` are never given; ``{{`` and ``}}`` write a brace itself. An
    English text that is no template (it is never filled in) allows anything.
    """
    try:
        allowed = {field for text in english for field in _written(text)}
    except ValueError:
        return None
    try:
        used = _written(translated)
    except ValueError as error:
        return f"an unbalanced brace ({error}); write {{{{ or }}}} for a brace itself"
    names = ", ".join(sorted({_shown(field) for field in allowed}))
    for field in used:
        if field in allowed:
            continue
        name = field[0]
        root = name.split(".")[0].split("[")[0]
        if not allowed:
            return f"the field {_shown(field)}, but the English has none (write {{{{ or }}}} for a brace itself)"
        if root == "" or root.isdigit():
            return f"the numbered field {_shown(field)}: write the English's names instead ({names})"
        if any(root == other[0] for other in allowed):
            return f"the field {_shown(field)} is written otherwise in the English ({names})"
        return f"the field {_shown(field)}, which the English does not have (it has {names})"
    return None


def plural_problem(expression: str, count: int) -> str | None:
    """Why the plural rule ``expression`` (a ``Plural-Forms`` header's
    ``plural=``) with ``count`` forms would fail, tried on
    :data:`TRIED_COUNTS`, or None when it gives a form for every one."""
    try:
        rule = gettext.c2py(expression)
    except (ValueError, SyntaxError, RecursionError, MemoryError) as error:
        return f"the plural rule {expression!r} cannot be read ({error})"
    for n in TRIED_COUNTS:
        try:
            form = rule(n)
        except Exception as error:  # noqa: BLE001 - any failure of a teacher's rule is reported, never raised
            return f"the plural rule {expression!r} fails for n={n} ({type(error).__name__}: {error})"
        if not 0 <= form < count:
            return f"the plural rule {expression!r} gives form {form} for n={n}, but there are {count} forms"
    return None


def guarded(rule: Callable[[int], int]) -> Callable[[int], int]:
    """``rule`` that never raises: -1 (no form, so gettext shows the English)
    for a count it fails on beyond :data:`TRIED_COUNTS`."""
    def plural(n: int) -> int:
        try:
            return rule(n)
        except Exception:  # noqa: BLE001 - a count the rule fails on shows the English, never a traceback
            return -1
    return plural
