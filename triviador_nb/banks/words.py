"""Words of a question as the author's check reads them: language, stems, numbers.

Used by :mod:`triviador_nb.banks.giveaways` and :mod:`triviador_nb.banks.options`
(``bank check`` only; a game never stems).

* A file's language (``"en"``, ``"hu"``, ``"cs"`` or None) is the one whose
  common function words (:data:`FUNCTION_WORDS`) its question texts use most;
  None when no text uses any of them.
* Words are the ``\\w+`` runs of the case-folded text (NFC); a word's stem is
  the Snowball stemmer's for the language (``snowballstemmer``: English,
  Hungarian, Czech), then with accents removed (so ``desetiboji`` and
  ``Desetiboj`` share the stem ``desetiboj``, ``Himnuszát`` and ``Himnuszt``
  the stem ``himnusz``). A text of no known language is not stemmed.
* Numbers a text shows: digits (``7``, ``50th``, ``1849.``, ``9 000``; not
  the parts of ``98,48``) and number words of its language, cardinal 0-99
  and the first ten ordinals, with the common declined Czech forms
  (``sedm``, ``sedmi``; ``hét``; ``seven``, ``seventh``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

import snowballstemmer

LANGUAGES = {"en": "english", "hu": "hungarian", "cs": "czech"}
"""Language code -> Snowball stemmer name."""

FUNCTION_WORDS = {
    "en": frozenset("the of what which who how many in did was is does and".split()),
    "hu": frozenset("az melyik hány ki mi mikor hol melyik évben volt van és című magyar".split()),
    "cs": frozenset("je ve se na který která které kterém kolik jak kdo co byl byla roce jaké".split()),
}
"""Words that tell a text's language (each is common in one language only)."""

STOP_WORDS = {
    "en": frozenset(
        "the a an of in on at to for by and or is was are were did do does what which who whom whose when where "
        "why how many much that this these those with from into than then been being there their they them "
        "about also some most more as it its be has have had not no after before since during between first "
        "become became year years called known name named one".split()),
    "hu": frozenset(
        "a az egy és is meg volt van voltak vannak melyik melyiket melyikben hány hányan ki kit kinek mi mit "
        "mikor hol honnan hová milyen mely évben év hogy nem de vagy című nevű első lett ezt azt".split()),
    "cs": frozenset(
        "a i v ve na se si je jsou byl byla bylo byli z ze do k ke o u s se za po od který která které "
        "kterého kterém kterou kteří kterých kterému kolik jak jaký jaká jaké jakou kdo co kde kdy čím jméno "
        "jmenuje jmenoval jmenovala roce rok letech první když jako".split()),
}
"""Words that say nothing about a question's subject, per language."""

_TENS_EN = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_ONES_EN = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
            "sixteen seventeen eighteen nineteen").split()
_ORDINALS_EN = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
_ONES_HU = ("nulla egy kettő három négy öt hat hét nyolc kilenc tíz tizenegy tizenkettő tizenhárom tizennégy "
            "tizenöt tizenhat tizenhét tizennyolc tizenkilenc").split()
_TENS_HU = "húsz harminc negyven ötven hatvan hetven nyolcvan kilencven".split()
_ORDINALS_HU = "első második harmadik negyedik ötödik hatodik hetedik nyolcadik kilencedik tizedik".split()
_ONES_CS = ("nula jeden dva tři čtyři pět šest sedm osm devět deset jedenáct dvanáct třináct čtrnáct patnáct "
            "šestnáct sedmnáct osmnáct devatenáct").split()
_TENS_CS = "dvacet třicet čtyřicet padesát šedesát sedmdesát osmdesát devadesát".split()
_ORDINALS_CS = "první druh třet čtvrt pát šest sedm osm devát desát".split()  # stems of druhý, třetí, ...


def _number_words() -> dict[str, dict[str, int]]:
    """Language -> number word -> value (the words of 0-99, the first ten ordinals)."""
    en: dict[str, int] = {word: value for value, word in enumerate(_ONES_EN)}
    for place, ten in enumerate(_TENS_EN):
        en[ten] = 20 + 10 * place
    for value, word in enumerate(_ORDINALS_EN, 1):
        en[word] = value
    en.pop("one")  # "one of the ..." everywhere
    en.pop("second")  # a unit of time
    hu: dict[str, int] = {word: value for value, word in enumerate(_ONES_HU)}
    hu.update({"két": 2, "száz": 100, "ezer": 1000})
    for place, ten in enumerate(_TENS_HU):
        value = 20 + 10 * place
        hu[ten] = value
        prefix = "huszon" if value == 20 else ten
        for one in range(1, 10):
            hu[prefix + _ONES_HU[one]] = value + one
    for value, word in enumerate(_ORDINALS_HU, 1):
        hu[word] = value
    hu.pop("egy")  # the article "a, an"
    hu.pop("hat")  # also "it can"
    cs: dict[str, int] = {word: value for value, word in enumerate(_ONES_CS)}
    cs.update({"jedna": 1, "jedno": 1, "dvě": 2, "dvou": 2, "dvěma": 2, "tří": 3, "třech": 3, "třem": 3,
               "třemi": 3, "čtyř": 4, "čtyřech": 4, "čtyřem": 4, "čtyřmi": 4, "sto": 100, "tisíc": 1000})
    for place, ten in enumerate(_TENS_CS):
        cs[ten] = 20 + 10 * place
    for word, value in list(cs.items()):
        if 5 <= value < 100:
            cs[word + "i"] = value  # sedmi, deseti, dvaceti, padesáti
    for value, word in enumerate(_ORDINALS_CS, 1):
        cs[word + "ý"] = cs[word + "á"] = cs[word + "é"] = cs[word + "ého"] = cs[word + "ém"] = value
    cs.update({"první": 1, "třetí": 3})
    return {"en": en, "hu": hu, "cs": cs}


NUMBER_WORDS = _number_words()
"""Language -> number word (case folded, accented) -> value."""

_WORD = re.compile(r"\w+")
_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)(?!\d|[.,]\d)")
_DIGIT = re.compile(r"\d")
_MARKS = re.compile(r"[\u0300-\u036f]")


def plain(word: str) -> str:
    """``word`` without accents (NFKD, combining marks dropped): ``čáslavsk`` -> ``caslavsk``."""
    return _MARKS.sub("", unicodedata.normalize("NFKD", word))


def tokens(text: str) -> list[str]:
    """The words of ``text``, case folded (NFC): ``"Hod oštěpem!"`` -> ``["hod", "oštěpem"]``."""
    return _WORD.findall(unicodedata.normalize("NFC", str(text).casefold()))


def language_of(texts: Sequence[str]) -> str | None:
    """The language whose :data:`FUNCTION_WORDS` the texts use most, or None when none is used."""
    votes: Counter[str] = Counter()
    for text in texts:
        words = set(tokens(text))
        for language, function in FUNCTION_WORDS.items():
            votes[language] += len(words & function)
    if not votes or votes.most_common(1)[0][1] == 0:
        return None
    return votes.most_common(1)[0][0]


@functools.cache
def _stemmer(language: str):
    return snowballstemmer.stemmer(LANGUAGES[language])


_STEMS: dict[str | None, dict[str, str]] = {}  # language -> word -> stem, filled as words come


def stem(word: str, language: str | None) -> str:
    """The accent-free stem of a case-folded word (the word itself, accents removed, when
    ``language`` is None or the word holds a digit)."""
    known = _STEMS.setdefault(language, {})
    found = known.get(word)
    if found is None:
        if language is None or not word.isalpha():
            found = plain(word)
        else:
            found = plain(_stemmer(language).stemWord(word))
        if len(known) < 500_000:
            known[word] = found
    return found


def stems(words: Sequence[str], language: str | None) -> list[str]:
    """:func:`stem` of each word."""
    known = _STEMS.setdefault(language, {})
    return [known[word] if word in known else stem(word, language) for word in words]


def content_stems(words: Sequence[str], language: str | None) -> set[str]:
    """The stems of the words that can say what a question is about: 3+ letters, not a stop word
    or a number word of the language."""
    stop = STOP_WORDS.get(language or "", frozenset())
    numbers = NUMBER_WORDS.get(language or "", {})
    return set(stems([word for word in words if len(word) >= 3 and word not in stop and word not in numbers
                      and word.isalpha()], language))


def has_digit(text: str) -> bool:
    """True when ``text`` holds a digit."""
    return _DIGIT.search(text) is not None


def numbers_shown(text: str, words: Sequence[str], language: str | None) -> list[tuple[int, int]]:
    """``(value, word index)`` of every number ``text`` shows, in digits or in words of its
    language; the index is that of the number's (first) word in ``words`` (:func:`tokens`)."""
    found: list[tuple[int, int]] = []
    text = str(text)
    if _DIGIT.search(text):
        for match in _NUMBER.finditer(text):
            digits = re.sub(r"\D", "", match.group(1))
            found.append((int(digits), len(_WORD.findall(text[:match.start()]))))
    table = NUMBER_WORDS.get(language or "", {})
    if table:
        found += [(table[word], place) for place, word in enumerate(words) if word in table]
    return found
