"""Names a room's screens share: a bot's skill, and whether this kernel speaks a room's language.

Apart from :mod:`.teacher` so that a student's screen (:mod:`.student`)
needs none of the teacher's (issue 24: a restarted kernel is back in its
seat sooner when ``join`` imports less).
"""

from __future__ import annotations

from ..i18n import N_, LanguageError, _, language_codes, translation

#: A bot's skill (its identifier) -> its name on screen.
SKILL_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def language_here(code: object) -> str | None:
    """``code`` when this kernel has that language (a room's, a journal's),
    else None (the screen then speaks the kernel's language). Asks for the
    codes only: the languages' names would load Babel's data for each (70 ms
    of a student's rejoin, issue 24)."""
    if not isinstance(code, str) or code not in language_codes():
        return None
    try:
        translation(code)
    except LanguageError:  # a .po file here that cannot be read: the kernel's language instead
        return None
    return code


def skill_name(skill: str) -> str:
    """A bot's skill as the screen names it, in the language in use (an
    unknown one as it is)."""
    return _(SKILL_NAMES[skill]) if skill in SKILL_NAMES else skill
