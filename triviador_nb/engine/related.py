"""Questions that must not both be asked in one game: give-aways and shared facts.

D4 asks no question twice in a game. One step on (README, "Questions that
belong together"): once a question is asked, the game does not ask

* a question whose answer it *gives away*: a multiple-choice answer, or a
  guess answer of 3 or more digits, that appears as a whole word or number in
  the other question's text ("How high is Kékes, the highest point of
  Hungary?" gives away "Which is the highest point of Hungary? - Kékes");
* a question with the same ``fact`` key (the same fact asked in another
  language or another bank, or a pair an author keyed on purpose); a cell
  may hold several keys separated by ``;``.

Texts and answers are compared after one normalisation: case folded, accents
removed (Unicode NFKD without combining marks), anything but letters and
digits a space. Not give-aways: answers shorter than 4 characters, numbers of
1-2 digits, the words in :data:`COMMON_WORDS`, and any answer named in more
than :data:`MAX_NAMED` question texts (in that bank it is a common word, not a
clue). Pure Python: the engine and the bank checks share it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter, defaultdict
from itertools import chain
from typing import Sequence

MAX_NAMED = 3
"""An answer named in more question texts than this is a common word, not a give-away."""
MAX_WORDS = 6
"""Answers of more words than this are not looked for (a clue names a thing, not a sentence)."""

COMMON_WORDS = frozenset(
    "what which where when whom whose does have many much that this these those with from into than then were "
    "been being there their they them your about also some most more true false none both neither zero year "
    "years city cities river rivers lake country countries water gold silver igen ano".split()
)
"""Words of 4+ letters too common to give an answer away."""


def _char_class(categories: set[str]) -> str:
    """A regex character class of the Basic Multilingual Plane's characters of ``categories``."""
    ranges, start, last = [], None, None
    for code in range(0x80, 0x10000):
        if unicodedata.category(chr(code)) in categories:
            if start is None:
                start = code
            last = code
        elif start is not None:
            ranges.append((start, last))
            start = None
    return "".join(f"\\u{a:04x}-\\u{b:04x}" if a != b else f"\\u{a:04x}" for a, b in ranges)


_ASCII_NOT_WORD = str.maketrans({chr(code): " " for code in range(128) if not chr(code).isalnum()})
"""ASCII: every character but a letter or a digit (what ``[\\W_]`` matches there) to a space."""
_ASCII_NOT_WORD_BUT_NUL = {**_ASCII_NOT_WORD, 0: 0}
"""The same, keeping the NULs that separate texts joined into one string."""


@functools.cache
def _patterns() -> tuple[re.Pattern, re.Pattern]:
    """(marks to drop: accents, harakat, niqqud; what splits words - spacing marks such
    as Devanagari vowel signs stay in their word), built on first use (70 ms)."""
    return (re.compile(f"[{_char_class({'Mn', 'Me'})}]"),
            re.compile(f"[^\\w{_char_class({'Mc'})}]+|_+"))


def normalise(text: str) -> str:
    """Case folded, marks removed, punctuation to single spaces: ``"Kékes!"`` -> ``"kekes"``
    (after NFKD every non-spacing mark is dropped - Latin accents, Arabic harakat,
    Hebrew niqqud - while spacing marks stay part of their word)."""
    if text.isascii():  # str.translate: a third of the time of the regular expression below
        return " ".join(text.lower().translate(_ASCII_NOT_WORD).split())
    marks, not_word = _patterns()
    decomposed = marks.sub("", unicodedata.normalize("NFKD", text.casefold()))
    return " ".join(not_word.sub(" ", decomposed).split())


def normalised_words(texts: Sequence[str]) -> list[list[str]]:
    """``normalise(text).split()`` of every text; all-ASCII texts are normalised at once (joined by NULs:
    one ``lower`` and one ``translate`` for the lot, 20 times faster for a bank of 100,000 questions)."""
    joined = "\x00".join(texts)
    if joined.isascii() and joined.count("\x00") == len(texts) - 1:  # no text holds a NUL
        return [text.split() for text in joined.lower().translate(_ASCII_NOT_WORD_BUT_NUL).split("\x00")]
    return [normalise(text).split() for text in texts]


def _clue(kind: str, answer: str, normalised: list[str]) -> tuple[str, ...] | None:
    """The answer (``normalised``: its :func:`normalised_words`) as the words a give-away would contain,
    or None when it cannot give anything away."""
    if answer.isdigit():  # most guess answers: nothing to normalise; the number as a text names it
        number = answer.lstrip("0") or "0"
        return (number,) if len(number) >= 3 else None
    words = tuple(normalised)
    if not words or len(words) > MAX_WORDS:
        return None
    if kind == "guess":
        number = words[0].lstrip("0") or "0" if len(words) == 1 and words[0].isdigit() else ""
        return (number,) if len(number) >= 3 else None
    if len("".join(words)) < 4 or all(w in COMMON_WORDS for w in words):
        return None
    if len(words) == 1 and words[0].isdigit() and len(words[0]) < 3:
        return None
    return words


def giveaway_pairs(kinds: Sequence[str], texts: Sequence[str], answers: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every give-away in a bank given as parallel lists (one entry per question).

    Args:
        kinds: ``"guess"`` or ``"choice"`` per question.
        texts: the question texts.
        answers: the answers as text (a guess answer's digits).

    Returns:
        ``(naming, named, clue)`` triples: question ``naming``'s text contains
        question ``named``'s answer, ``clue`` (normalised). Each pair once, in
        index order of ``naming`` then ``named``.
    """
    clues: dict[tuple[str, ...], list[int]] = defaultdict(list)
    answers = [str(answer) for answer in answers]
    for index, (kind, answer, normalised) in enumerate(zip(kinds, answers, normalised_words(answers))):
        clue = _clue(kind, answer, normalised)
        if clue is not None:
            clues[clue].append(index)
    if not clues:
        return []
    single = {clue[0] for clue in clues if len(clue) == 1}
    first_words = {clue[0] for clue in clues if len(clue) > 1}
    longest = max(len(clue) for clue in clues)
    text_words = normalised_words(texts)
    named_in: dict[tuple[str, ...], list[int]] = defaultdict(list)
    if first_words:
        for index, words in enumerate(text_words):
            if first_words.isdisjoint(words):
                continue
            found = set()
            for start, word in enumerate(words):
                if word in first_words:
                    for size in range(2, min(longest, len(words) - start) + 1):
                        gram = tuple(words[start:start + size])
                        if gram in clues:
                            found.add(gram)
            for gram in found:
                named_in[gram].append(index)
    for word, naming in _named_rarely(single, text_words).items():
        named_in[(word,)] = naming
    pairs = set()
    for gram, naming in named_in.items():
        if len(naming) > MAX_NAMED + 1:  # a common word: even without the named question itself (each text
            continue  # is listed once) too many name it; skipped before the loop over its questions
        for j in clues[gram]:
            others = [i for i in naming if i != j]  # a question naming its own answer gives nothing away
            if len(others) <= MAX_NAMED:
                pairs.update((i, j, " ".join(gram)) for i in others)
    return sorted(pairs)


def _named_rarely(words: set[str], text_words: list[list[str]]) -> dict[str, list[int]]:
    """Each of ``words`` named in at most ``MAX_NAMED + 1`` texts (any more cannot be a give-away, even
    leaving out the named question itself) -> the indexes of those texts, in order.

    Every text's words are looked up and counted by C code (set intersection, ``Counter``); Python
    loops only over the texts naming a rare word (a bank of 100,000 questions whose texts name
    answers at every turn: 0.15 s, where collecting every naming text took 0.5 s).
    """
    named = list(map(words.intersection, text_words))  # each word once per text
    counts = Counter(chain.from_iterable(named))
    rare = {word for word, count in counts.items() if count <= MAX_NAMED + 1}
    found: dict[str, list[int]] = defaultdict(list)
    if rare:
        for index, words_named in enumerate(named):
            if not rare.isdisjoint(words_named):
                for word in rare.intersection(words_named):
                    found[word].append(index)
    return found


def fact_keys(fact: str) -> frozenset[str]:
    """The keys of a ``fact`` cell: several are separated by ``;`` (spaces around and case ignored)."""
    return frozenset(key.strip().casefold() for key in str(fact).split(";") if key.strip())


def giveaway_ids(ids: Sequence[str], kinds: Sequence[str], texts: Sequence[str],
                 answers: Sequence[str]) -> dict[str, frozenset[str]]:
    """Question id -> the ids it gives away or is given away by (both ways)."""
    related: dict[str, set[str]] = defaultdict(set)
    for i, j, _clue_text in giveaway_pairs(kinds, texts, answers):
        related[ids[i]].add(ids[j])
        related[ids[j]].add(ids[i])
    return {question_id: frozenset(others) for question_id, others in related.items()}


class Avoided:
    """What a game does not ask any more (D4, one step on): the give-aways of
    the questions asked and every question sharing one of their fact keys.
    Kept as ids and keys, never as all the pairs a key makes (one key on
    10,000 questions is 10,000 entries, not 100 million pairs).

    Args:
        giveaways: :func:`giveaway_ids` of the bank.
    """

    def __init__(self, giveaways: dict[str, frozenset[str]]):
        self._giveaways = giveaways
        self.ids: set[str] = set()
        self.keys: set[str] = set()

    def add(self, question) -> None:
        """``question`` was asked (or seen): avoid what belongs with it."""
        self.ids |= self._giveaways.get(question.id, frozenset())
        if question.fact:
            self.keys |= fact_keys(question.fact)

    def __call__(self, question) -> bool:
        """True when ``question`` belongs with one asked."""
        return question.id in self.ids or bool(question.fact and not self.keys.isdisjoint(fact_keys(question.fact)))
