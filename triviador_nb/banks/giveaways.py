"""Give-aways the author's check looks for: a question that tells another's answer.

The game itself avoids only the plain give-aways of
:mod:`triviador_nb.engine.related` (an answer written out word for word in
another text). ``bank check`` looks further, reading each text in its file's
language (:mod:`triviador_nb.banks.words`), and warns of every pair no shared
``fact`` key covers; the author keys the pair (the game then never asks both)
or rewords one question. Question A gives question B away when

1. *B's answer is named in A's text*, word by word after stemming: the
   multiple-choice answer "Desetiboj" in "... v desetiboji ...", "Hod
   oštěpem" in "... v hodu oštěpem ..." (answers of 4+ letters, not only
   stop words, named in at most :data:`MAX_NAMED` texts);
2. *B's answer is a person named by surname alone in A*: an answer of two or
   three capitalised words is a name, its surname the first word in a
   Hungarian file ("Kölcsey Ferenc"), the last elsewhere ("Věra Čáslavská");
3. *A shows B's guess answer, about the same thing*: A's text shows the
   number in digits or in words of its language ("sedm", "hét", "seven",
   "50th"), or A is a multiple-choice question with that many options or an
   option showing it; and the two are about the same thing: a word right
   after the number in A (up to :data:`NOUN_REACH` words on) shares its stem
   with a word of B ("hét olimpiai aranyérmet" / "Hány olimpiai aranyérmet
   ..."), or the texts share :data:`SHARED_WORDS` content stems (one, for a
   number of 3+ digits; stems of words of 3+ letters, no stop or number
   words, none found in more than :data:`COMMON_SHARE` of the texts of one
   language in a bigger bank). A multiple-choice question's number of options
   counts only when both texts name the same things (their capitalised words)
   and the guess question counts what the other asks for
   (:func:`_counts_the_options`).

A number shown without either link ("a 1920 play" and "the Treaty of
Trianon, 1920") is not reported: two facts of one year are not a give-away.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from triviador_nb.banks.words import (NUMBER_WORDS, STOP_WORDS, content_stems, has_digit, language_of, numbers_shown,
                                      plain, stems, tokens)
from triviador_nb.engine.related import COMMON_WORDS

MAX_NAMED = 3
"""An answer named in more question texts than this is a common word of that bank, not a give-away."""
MAX_WORDS = 6
"""Answers of more words than this are not looked for (a clue names a thing, not a sentence)."""
NOUN_REACH = 3
"""How many words after a number may say what it counts ("sedm olympijských zlatých medailí")."""
SHARED_WORDS = 2
"""Content stems two texts share when they are about the same thing."""
COMMON_SHARE = 0.05
"""A stem in more than this share of a bank's texts (and in more than :data:`MAX_NAMED`) says nothing."""


_WORD = re.compile(r"\w+")
HOW_MANY = frozenset({"many", "much", "hány", "hányan", "kolik", "kolika", "kolikrát"})
"""The words after which a question names what it counts ("How many *states* ...")."""
WHICH = frozenset({"which", "what", "melyik", "mely", "milyen"})
"""The words after which a question names what it asks for (and Czech ``kter...``, ``jak...``)."""


class Giveaway(NamedTuple):
    """Question ``naming`` (an index) tells question ``named``'s answer through ``clue`` (as written
    in ``naming``); ``how`` is ``"answer"``, ``"surname"`` (rules 1, 2), ``"number"`` or
    ``"options"`` (rule 3: a number shown, or the number of options)."""

    naming: int
    named: int
    clue: str
    how: str


class _Read(NamedTuple):
    languages: list[str | None]
    words: list[list[str]]
    stems: list[list[str]]
    context: list[set[str]]
    original: list[list[str]]  # the words as written (case kept), one per word of ``words``


def file_languages(files: Sequence[str], texts: Sequence[str]) -> list[str | None]:
    """Per question, its file's language (:func:`~triviador_nb.banks.words.language_of`)."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for file, text in zip(files, texts):
        by_file[file].append(text)
    language = {file: language_of(found) for file, found in by_file.items()}
    return [language[file] for file in files]


def _read(files: Sequence[str], texts: Sequence[str], languages: Sequence[str | None] | None = None) -> _Read:
    languages = list(languages) if languages is not None else file_languages(files, texts)
    words = [tokens(text) for text in texts]
    stemmed = [stems(found, language) for found, language in zip(words, languages)]
    context = [content_stems(found, language) for found, language in zip(words, languages)]
    groups: dict[object, list[int]] = defaultdict(list)  # texts of one language (of one file when unknown)
    for index, (file, language) in enumerate(zip(files, languages)):
        groups[language or ("file", file)].append(index)
    for members in groups.values():
        frequency: Counter[str] = Counter(word for index in members for word in context[index])
        limit = max(MAX_NAMED, COMMON_SHARE * len(members))
        common = {word for word, count in frequency.items() if count > limit}
        for index in members:
            context[index] -= common
    original = [_WORD.findall(unicodedata.normalize("NFC", str(text))) for text in texts]
    return _Read(languages, words, stemmed, context, original)


def suspected_giveaways(files: Sequence[str], kinds: Sequence[str], texts: Sequence[str],
                        answers: Sequence[str], options: Sequence[Sequence[str]],
                        languages: Sequence[str | None] | None = None) -> list[Giveaway]:
    """Every give-away of rules 1-3 (module docstring) in a bank given as parallel lists.

    Args:
        files: each question's file (its language is the file's).
        kinds: ``"guess"`` or ``"choice"``.
        texts: the question texts.
        answers: the answers as text.
        options: each question's wrong options (empty for a guess question).
        languages: each question's language, when known (default: :func:`file_languages`).

    Returns:
        One :class:`Giveaway` per (naming, named) pair, sorted by naming then named.
    """
    read = _read(files, texts, languages)
    found: dict[tuple[int, int], Giveaway] = {}
    for giveaway in (*_named_answers(read, kinds, answers, options),
                     *_shown_numbers(read, kinds, texts, answers, options)):
        found.setdefault((giveaway.naming, giveaway.named), giveaway)
    return [found[pair] for pair in sorted(found)]


def _answer_clues(read: _Read, kinds: Sequence[str],
                  answers: Sequence[str]) -> dict[tuple[str, ...], list[tuple[int, str]]]:
    """Stemmed clue -> [(named question, how)] for rules 1 and 2."""
    clues: dict[tuple[str, ...], list[tuple[int, str]]] = defaultdict(list)
    for index, (kind, answer) in enumerate(zip(kinds, answers)):
        if kind != "choice":
            continue
        language = read.languages[index]
        words = tokens(answer)
        if not words or len(words) > MAX_WORDS or any(word.isdigit() for word in words):
            continue
        if len(words) == 1 and words[0] in NUMBER_WORDS.get(language or "", {}):
            continue  # a number ("Sedm"): rule 3 reads it
        stop = STOP_WORDS.get(language or "", frozenset()) | COMMON_WORDS
        if len("".join(words)) >= 4 and not all(word in stop for word in words):
            clues[tuple(stems(words, language))].append((index, "answer"))
        names = _names(answer, language)
        if names:
            surname = names[0]
            stemmed = stems([surname], language)
            if len(surname) >= 4 and len(stemmed[0]) >= 4 and surname not in stop:
                clues[tuple(stemmed)].append((index, "surname"))
    return clues


def _names(text: str, language: str | None) -> tuple[str, list[str]] | None:
    """(surname, given names) of a text of two or three capitalised words, or None."""
    parts = str(text).split()
    if not 2 <= len(parts) <= 3 or not all(part[:1].isupper() and part.replace("-", "").isalpha() for part in parts):
        return None
    words = tokens(text)
    return (words[0], words[1:]) if language == "hu" else (words[-1], words[:-1])


def _given_names(read: _Read, kinds: Sequence[str], answers: Sequence[str],
                 options: Sequence[Sequence[str]]) -> frozenset[str]:
    found: set[str] = set()
    for index, kind in enumerate(kinds):
        if kind == "choice":
            for option in (answers[index], *options[index]):
                names = _names(option, read.languages[index])
                if names:
                    found.update(stems(names[1], read.languages[index]))
                    found.update(map(plain, names[1]))
    return frozenset(found)


def _named_answers(read: _Read, kinds: Sequence[str], answers: Sequence[str],
                   options: Sequence[Sequence[str]]) -> list[Giveaway]:
    """Rules 1 and 2: an answer (or a person's surname) named in another text, stem by stem."""
    clues = _answer_clues(read, kinds, answers)
    short = defaultdict(set)  # a stem of 1-3 letters ("mar" of "Mars") must be the answer's word itself
    for gram, named in clues.items():
        if len(gram) == 1 and len(gram[0]) < 4:
            short[gram].update(plain(tokens(answers[index])[0]) for index, _ in named)
    given_names = _given_names(read, kinds, answers, options)
    if not clues:
        return []
    sizes: dict[str, set[int]] = defaultdict(set)  # first stem of a clue -> the clues' lengths
    for clue in clues:
        sizes[clue[0]].add(len(clue))
    named_in: dict[tuple[str, ...], dict[int, tuple[int, str]]] = defaultdict(dict)
    for index, stemmed in enumerate(read.stems):
        for start in [place for place, word in enumerate(stemmed) if word in sizes]:
            word = stemmed[start]
            for size in sizes[word]:
                gram = tuple(stemmed[start:start + size])
                if len(gram) == size and gram in clues and (
                        size > 1 or len(word) >= 4 or plain(read.words[index][start]) in short[gram]):
                    named_in[gram].setdefault(index, (start, " ".join(read.words[index][start:start + size])))
    found = []
    for gram, naming in named_in.items():
        for named, how in clues[gram]:
            others = {i: place for i, place in naming.items() if i != named}
            if len(others) > MAX_NAMED:
                continue
            for i, (start, clue) in others.items():
                if how == "answer" or _same_person(read, i, start, named, answers[named], given_names):
                    found.append(Giveaway(i, named, clue, how))
    return found


def _same_person(read: _Read, naming: int, place: int, named: int, answer: str,
                 given_names: frozenset[str]) -> bool:
    """Rule 2's surname at word ``place`` of ``naming`` names the answer's person: it is capitalised
    there, and the given name beside it (after it in Hungarian, before it elsewhere), if any, is
    the answer's ("Hunyadi Mátyás" is not "Hunyadi János"); ``given_names``: the given names of
    every name among the bank's answers and options, as stems and as written (accents removed)."""
    written = read.original[naming]
    if place >= len(written) or not written[place][:1].isupper():
        return False
    language = read.languages[naming]
    beside = place + 1 if language == "hu" else place - 1
    if 0 <= beside < len(written) and written[beside].isalpha():
        word = written[beside].casefold()
        forms = {stems([word], language)[0], plain(word)}  # its stem, and itself (names cross languages)
        answer_words = tokens(answer)
        if forms & given_names and not forms & {*stems(answer_words, read.languages[named]), *map(plain, answer_words)}:
            return False
    return True


def _shown_numbers(read: _Read, kinds: Sequence[str], texts: Sequence[str], answers: Sequence[str],
                   options: Sequence[Sequence[str]]) -> list[Giveaway]:
    """Rule 3: a guess answer shown in another question about the same thing.

    The guess questions are indexed by (answer, stem) - once under each stem of their text and of
    what they count - so a question showing a number meets only those sharing a stem with it."""
    by_context: dict[tuple[int, str], list[int]] = defaultdict(list)
    by_asked: dict[tuple[int, str], list[int]] = defaultdict(list)
    by_names: dict[tuple[int, frozenset[str]], list[int]] = defaultdict(list)
    asked: dict[int, set[str]] = {}
    for index, (kind, answer) in enumerate(zip(kinds, answers)):
        if kind == "guess" and str(answer).isdigit():
            value = int(answer)
            asked[index] = _asked(read, index)
            for word in read.context[index]:
                by_context[(value, word)].append(index)
            for word in asked[index]:
                by_asked[(value, word)].append(index)
            names = _proper_stems(read, index)
            if names:
                by_names[(value, names)].append(index)
    if not asked:
        return []
    found = []
    for naming, text in enumerate(texts):
        language, words = read.languages[naming], read.words[naming]
        numbers = NUMBER_WORDS.get(language or "", {})
        shown: list[tuple[int, int | None, str]] = [
            (value, place, words[place] if place < len(words) else str(value))
            for value, place in numbers_shown(text, words, language)]
        if kinds[naming] == "choice":
            listed = [str(option) for option in (answers[naming], *options[naming]) if str(option).strip()]
            candidates = by_names.get((len(listed), _proper_stems(read, naming)), ()) if by_names else ()
            found += [Giveaway(naming, named, f"{len(listed)} options", "options") for named in candidates
                      if named != naming and _counts_the_options(read, naming, asked[named])]
            for option in listed:
                if has_digit(option) or option.casefold() in numbers:
                    shown += [(value, None, option) for value, _ in numbers_shown(option, tokens(option), language)]
        for value, place, clue in shown:
            shared: Counter[int] = Counter()
            for word in read.context[naming]:
                shared.update(by_context.get((value, word), ()))
            linked = {named for named, count in shared.items() if count >= SHARED_WORDS or value >= 100}
            if place is not None:  # a word right after the number is what the other counts
                for word in content_stems(words[place + 1:place + 1 + NOUN_REACH], language):
                    linked.update(by_asked.get((value, word), ()))
            found += [Giveaway(naming, named, clue, "number") for named in sorted(linked) if named != naming]
    return found


def _counts_the_options(read: _Read, naming: int, asked: set[str]) -> bool:
    """Rule 3 for a multiple-choice question's number of options, once the guess question is known
    to name the same things (its capitalised words past the first are those of the choice
    question, and there are some): it counts what the choice question asks for (a stem of the
    words after "which" is one of what it counts): "S kterou zemí má Česká republika ..." and "S
    kolika státy sousedí Česká republika?" (4 options: Czechia's neighbours)."""
    words = read.words[naming]
    for place, word in enumerate(words):
        if word in WHICH or word.startswith(("kter", "jak")):
            after = content_stems(words[place + 1:place + 1 + NOUN_REACH], read.languages[naming])
            return not after.isdisjoint(asked)
    return False


def _proper_stems(read: _Read, index: int) -> frozenset[str]:
    """The stems of a text's capitalised words, the first word aside (names: "Česká republika")."""
    written, words = read.original[index], read.words[index]
    return frozenset(stems([words[place] for place in range(1, min(len(words), len(written)))
                            if written[place][:1].isupper() and written[place].isalpha()], read.languages[index]))


def _asked(read: _Read, named: int) -> set[str]:
    """What a guess question counts: the content stems of the :data:`NOUN_REACH` words after its
    "how many" ("Hány *olimpiai aranyérmet nyert* ..."), or all its content stems without one."""
    words = read.words[named]
    for place, word in enumerate(words):
        if word in HOW_MANY:
            return content_stems(words[place + 1:place + 1 + NOUN_REACH], read.languages[named])
    return read.context[named]
