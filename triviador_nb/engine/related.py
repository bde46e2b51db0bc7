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

import re
import unicodedata
from collections import defaultdict
from typing import Iterable, Sequence

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


_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_NOT_WORD = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Case folded, accents removed, punctuation to single spaces: ``"Kékes!"`` -> ``"kekes"``
    (the combining marks of Unicode's combining blocks are dropped after NFKD)."""
    if text.isascii():
        return _NOT_WORD.sub(" ", text.lower()).strip()
    decomposed = _COMBINING.sub("", unicodedata.normalize("NFKD", text.casefold()))
    return _NOT_WORD.sub(" ", decomposed).strip()


def _clue(kind: str, answer: str) -> tuple[str, ...] | None:
    """The answer as the words a give-away would contain, or None when it cannot give anything away."""
    if answer.isdigit():  # most guess answers: nothing to normalise
        return (answer,) if len(answer.lstrip("0") or "0") >= 3 else None
    words = tuple(normalise(answer).split())
    if not words or len(words) > MAX_WORDS:
        return None
    if kind == "guess":
        return words if len(words) == 1 and words[0].isdigit() and len(words[0].lstrip("0") or "0") >= 3 \
            else None
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
    for index, (kind, answer) in enumerate(zip(kinds, answers)):
        clue = _clue(kind, str(answer))
        if clue is not None:
            clues[clue].append(index)
    if not clues:
        return []
    single = {clue[0] for clue in clues if len(clue) == 1}
    first_words = {clue[0] for clue in clues if len(clue) > 1}
    longest = max(len(clue) for clue in clues)
    named_in: dict[tuple[str, ...], list[int]] = defaultdict(list)
    named_once: dict[str, list[int]] = defaultdict(list)
    for index, text in enumerate(texts):
        words = normalise(text).split()
        for word in single.intersection(words):
            named_once[word].append(index)
        found = set()
        if first_words and not first_words.isdisjoint(words):
            for start, word in enumerate(words):
                if word in first_words:
                    for size in range(2, min(longest, len(words) - start) + 1):
                        gram = tuple(words[start:start + size])
                        if gram in clues:
                            found.add(gram)
        for gram in found:
            named_in[gram].append(index)
    for word, naming in named_once.items():
        named_in[(word,)] = naming
    pairs = set()
    for gram, naming in named_in.items():
        if len(naming) > MAX_NAMED:
            continue
        for i in naming:
            for j in clues[gram]:
                if i != j:
                    pairs.add((i, j, " ".join(gram)))
    return sorted(pairs)


def fact_keys(fact: str) -> frozenset[str]:
    """The keys of a ``fact`` cell: several are separated by ``;`` (spaces around ignored)."""
    return frozenset(key.strip() for key in str(fact).split(";") if key.strip())


def related_ids(ids: Sequence[str], kinds: Sequence[str], texts: Sequence[str], answers: Sequence[str],
                facts: Iterable[str]) -> dict[str, frozenset[str]]:
    """Question id -> the ids not to ask in a game once it was asked: its
    give-aways both ways and the questions sharing one of its ``fact`` keys
    (:func:`fact_keys`; "" = none)."""
    related: dict[str, set[str]] = defaultdict(set)
    for i, j, _clue_text in giveaway_pairs(kinds, texts, answers):
        related[ids[i]].add(ids[j])
        related[ids[j]].add(ids[i])
    groups: dict[str, list[str]] = defaultdict(list)
    for question_id, fact in zip(ids, facts):
        for key in fact_keys(fact):
            groups[key].append(question_id)
    for members in groups.values():
        for question_id in members:
            related[question_id].update(m for m in members if m != question_id)
    return {question_id: frozenset(others) for question_id, others in related.items() if others}
