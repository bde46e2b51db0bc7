"""Names a room refuses: look-alikes of a name already in it, and the teacher's or a bot's (issue 28).

Two names look alike when their **confusable skeletons** (Unicode's UTS #39,
section 4) meet: Cyrillic "Аnna" and "Annа" have the skeleton of "Anna",
"Ida" that of "lda". The mapping is Unicode's ``confusables.txt`` as the
`confusable-homoglyphs <https://pypi.org/project/confusable-homoglyphs/>`_
package ships it (MIT; the data Django's registration checks use): each
character that looks like another maps to that one's prototype. A name is
compared as written and case-folded (names in a room are unique ignoring
case already).

A name **impersonates** when one of its words, read the same way and without
accents, is a word the screens use for the teacher or a bot in one of the
game's languages: English "Teacher", "Bot 2 (medium)"; Hungarian "Tanár",
"2. gép"; Czech "Učitel", "Bot 2" (the catalogues' words for ``Teacher`` and
``Bot {n}``; ``tests/test_rooms_names.py`` checks that they stay covered).
"Botond" and "Gépész" are names, not bots: whole words only.

No sockets, no widgets, no i18n here (the refusal is a code the screen words).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Words for the teacher and the bots, in the game's languages (en, hu, cs), as typed.
RESERVED_WORDS = ("teacher", "bot", "robot", "tanár", "tanárnő", "gép", "učitel", "učitelka", "učitelko")
_LETTERS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> the prototype it looks like (``confusables.txt``), read once.

    The package keeps each line both ways: a character that looks like a
    prototype lists that one prototype; a prototype lists every character
    that looks like it. A pair that only lists each other maps to the
    smaller of the two (either way round they get one skeleton).
    """
    from confusable_homoglyphs.confusables import confusables_data

    prototypes = {}
    for char, glyphs in confusables_data.items():
        if len(glyphs) != 1:
            continue  # a prototype of several look-alikes: itself
        target = glyphs[0]["c"].replace("\u200e", "")  # (the package marks right-to-left glyphs)
        back = confusables_data.get(target, ())
        prototypes[char] = min(char, target) if len(back) == 1 and len(target) == 1 else target
    return prototypes


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton(text)``: NFD, default-ignorable characters dropped,
    each character replaced by its prototype, NFD again. For comparing only."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(prototypes.get(c, c) for c in decomposed if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFD", mapped)


def looks(name: str) -> frozenset[str]:
    """What ``name`` looks like: its skeleton as written and case-folded."""
    return frozenset({skeleton(name), skeleton(name.casefold()), skeleton(name).casefold()})


def look_alike(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that ``name`` looks like (the same name
    ignoring case is not a look-alike: the room calls that ``name_taken``), or None."""
    mine = looks(name)
    for other in others:
        if other.casefold() != name.casefold() and mine & looks(other):
            return other
    return None


def _words(text: str) -> set[str]:
    words = set()
    for form in looks(text):
        bare = "".join(c for c in form if not unicodedata.combining(c)).casefold()
        words.update(_LETTERS.findall(bare))
    return words


@lru_cache(maxsize=1)
def _reserved() -> frozenset[str]:
    return frozenset(w for word in RESERVED_WORDS for w in _words(word))


def impersonates(name: str) -> bool:
    """Whether ``name`` has a word the screens use for the teacher or a bot
    (:data:`RESERVED_WORDS`, read through look-alikes and without accents)."""
    return bool(_words(name) & _reserved())
