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

Characters that **draw nothing** - Unicode's Default_Ignorable_Code_Point
(variation selectors, the combining grapheme joiner, Hangul fillers, tags,
zero-width spaces) - are no part of a name: :func:`visible` leaves them out
of the name a room shows (the zero-width joiners an emoji or a script needs
stay) and the braille blank counts as a space. Letters that are only wider or
narrower (fullwidth "Ａｎｎａ") are compared as their NFKC form, and a name is
also compared in capitals, where Cyrillic "Вот" reads "BOT".

No sockets, no widgets, no i18n here (the refusal is a code the screen words).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: Words for the teacher and the bots, in the game's languages (en, hu, cs), as typed.
RESERVED_WORDS = ("teacher", "bot", "bots", "robot", "robots", "tanár", "tanárnő", "tanárnéni",
                  "tanárbácsi", "tanárúr", "tanárok", "gép", "gépek", "učitel", "učitelka", "učitelko", "učiteli",
                  "učitelé", "učitelem", "učitelky")
#: Look-alikes Unicode's confusables table lacks: a pair of v for w; then single characters: kra for k,
#: Cyrillic pe for n, Arabic alef for l, a dagger for t, sharp s for B, a robot's face for the word.
_ALSO_ALIKE = (("VV", "W"), ("vv", "w"), ("\u0138", "k"), ("\u043f", "n"), ("\u0627", "l"), ("\u2020", "t"),
               ("\u00df", "B"), ("\U0001f916", " bot "))
#: The Latin capital each Coptic letter (U+2C80, U+2C82... to U+2CB0) looks like ("-": none); the package's
#: confusables data has no Coptic.
_COPTIC_AS_LATIN = "AB--E-ZH-IK-MN-O-PCTY-X--"
_LETTERS = re.compile(r"[^\W\d_]+")

#: Unicode 15's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), as ranges.
DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
#: Characters that are not default-ignorable but draw nothing in common fonts all the same.
INVISIBLE_TOO = frozenset("\U00016fe4\U0001d159")  # Khitan small script filler, musical null notehead
_JOINERS = "\u200c\u200d"  # zero-width (non-)joiner: emoji sequences and some scripts' words need them
_BLANKS = "\u2800"  # braille blank: not ignorable, drawn as a space
MAX_STACKED_MARKS = 4  # combining marks on one letter (a Devanagari syllable has up to about 3)


def draws_nothing(char: str) -> bool:
    """Whether ``char`` (one character) is Default_Ignorable_Code_Point, or
    one of :data:`INVISIBLE_TOO`."""
    code = ord(char)
    return char in INVISIBLE_TOO or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def stacked_marks(text: str) -> int:
    """The most combining marks (Mn, Me) in a row in ``text``'s NFC form: a
    letter under 39 accents draws over the lines around it."""
    most = run = 0
    for char in unicodedata.normalize("NFC", text):
        if char in _JOINERS or draws_nothing(char):
            continue  # a joiner between marks does not lift them off their letter
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


_LETTER_FORM = re.compile(r"(?:LATIN LETTER SMALL CAPITAL|(?:NEGATIVE )?(?:SQUARED|CIRCLED) LATIN CAPITAL LETTER"
                          r"|REGIONAL INDICATOR SYMBOL LETTER|PARENTHESIZED LATIN SMALL LETTER) ([A-Z])")


@lru_cache(maxsize=1)
def _letter_forms() -> dict[str, str]:
    """Letters drawn in a form NFKC leaves alone -> the capital they show: Latin small capitals
    (ᴛᴇᴀᴄʜᴇʀ), negative squared and circled letters (🅱🅾🆃, 🅐🅝🅝🅐), regional indicators
    (🇧🇴🇹) and parenthesized letters (⒯⒠⒜⒞⒣⒠⒭)."""
    found = {}
    for low, high in ((0x0250, 0x02AF), (0x1D00, 0x1DBF), (0x2460, 0x24FF), (0xA720, 0xA7FF), (0x1DF00, 0x1DFFF),
                      (0x1F100, 0x1F1FF)):
        for code in range(low, high + 1):
            form = _LETTER_FORM.fullmatch(unicodedata.name(chr(code), ""))
            if form:
                found[chr(code)] = form.group(1)
    for capital, latin in zip(range(0x2C80, 0x2CB2, 2), _COPTIC_AS_LATIN):  # Coptic capitals and small letters
        if latin != "-":
            found[chr(capital)] = found[chr(capital + 1)] = latin
    return found


def visible(text: str) -> str:
    """``text`` as it is seen: characters that draw nothing left out (but the
    zero-width joiners), a braille blank made a space."""
    return "".join(" " if c in _BLANKS else c for c in text if c in _JOINERS or not draws_nothing(c))


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
    """UTS #39 ``skeleton(text)`` of ``text``'s NFKC form: NFD, default-ignorable
    characters (and every other format character) dropped, each character
    replaced by its prototype (and a letter in another form, such as a small
    capital or a squared letter, by its capital), NFD again. For comparing only."""
    prototypes, capitals = _prototypes(), _letter_forms()
    for seen, meant in _ALSO_ALIKE[2:]:  # (single characters: before the table maps them elsewhere)
        text = text.replace(seen, meant)
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", "".join(capitals.get(c, c) for c in text)))
    mapped = "".join(prototypes.get(c, c) for c in decomposed
                     if unicodedata.category(c) != "Cf" and not draws_nothing(c))
    alike = unicodedata.normalize("NFD", "".join(capitals.get(c, c) for c in mapped))
    for seen, meant in _ALSO_ALIKE:
        alike = alike.replace(seen, meant)
    return alike


@lru_cache(maxsize=8192)  # a room's names are looked at again for every join (the sixth attack: 5-52 ms a join)
def looks(name: str) -> frozenset[str]:
    """What ``name`` looks like: its skeleton as written, case-folded and in capitals."""
    return frozenset({skeleton(name), skeleton(name.casefold()), skeleton(name).casefold(),
                      skeleton(name.upper()).casefold()})


def look_alike(name: str, others: list[str]) -> str | None:
    """The first of ``others`` that ``name`` looks like (the same name
    ignoring case is not a look-alike: the room calls that ``name_taken``), or None."""
    mine = looks(name)
    for other in others:
        if other.casefold() != name.casefold() and mine & looks(other):
            return other
    return None


def _camel_split(text: str) -> str:
    """Words run together are words: a space before a capital that follows a small letter
    ("TeacherAnna") and before a small letter that follows two capitals ("TEACHERanna")."""
    return "".join(" " + c if i and ((c.isupper() and text[i - 1].islower())
                                     or (i > 1 and c.islower() and text[i - 1].isupper() and text[i - 2].isupper()))
                   else c for i, c in enumerate(text))


_SEPARATORS = re.compile(r"[\W_]+")  # anything between letters and digits: spaces, dots, bullets, stars...


def _singles_joined(text: str) -> str:
    """Letters spaced or dotted apart are one word: "T e a c h e r", "B.O.T. 2" read "Teacher", "BOT 2"."""
    words, singles = [], []
    for token in _SEPARATORS.split(text):
        if len(token) == 1:
            singles.append(token)
            continue
        if singles:
            words.append("".join(singles))
            singles = []
        words.append(token)
    return " ".join([*words, "".join(singles)] if singles else words)


#: Digits written for letters ("8ot", "Te4cher", Cyrillic "Ро6от" for "робот"), read both ways for a 1.
_DIGITS_AS_LETTERS = (str.maketrans("0134567893", "oleasbtbge"), str.maketrans("1", "i"))


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    words = set()
    bare_symbols = "".join(c for c in text if not unicodedata.category(c).startswith("S"))  # "Teacher™"
    for form in (looks(text) | looks(_camel_split(text)) | looks(_singles_joined(text))
                 | looks(_singles_joined(bare_symbols))):
        bare = "".join(c for c in form if not unicodedata.combining(c)).casefold()
        words.update(_LETTERS.findall(bare))
        if any(c.isdigit() for c in bare):  # and with its digits read as the letters they look like
            for table in _DIGITS_AS_LETTERS:
                read = bare.translate(table)
                words.update(_LETTERS.findall(read), _LETTERS.findall(read.translate(_DIGITS_AS_LETTERS[0])))
    return frozenset(words)


@lru_cache(maxsize=1)
def _reserved() -> frozenset[str]:
    return frozenset(w for word in RESERVED_WORDS for w in _words(word))


def impersonates(name: str) -> bool:
    """Whether ``name`` has a word the screens use for the teacher or a bot
    (:data:`RESERVED_WORDS`, read through look-alikes and without accents)."""
    return bool(_words(name) & _reserved())
