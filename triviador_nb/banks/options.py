"""Multiple-choice options that give their answer away (``bank check`` warnings).

Two checks per multiple-choice question, its options read in its file's
language (:mod:`triviador_nb.banks.words`):

* *The right answer echoes the question*: a word of the answer repeats a word
  of the question (the same stem; or the question's word, 4+ letters, begins
  the answer's word: "Zala" / "Zalaegerszeg"; or the two begin with the same
  :data:`SHARED_PREFIX` letters: "Hungarian" / "Hungaroring"), and no wrong
  option echoes any. ("Which country shares a land border with Northern
  Ireland? - Ireland").
* *An option is the only one of its form*: the only one with a gloss in
  brackets ("Goulash (gulyás)" among "Pierogi", "Paella", "Moussaka"), or the
  only one with digits, or the only one without, when there are at least
  three options - reported when that option is the right answer (a wrong
  option that stands out gives nothing away: "Vitamin B12" among "Vitamin D",
  "Vitamin C" and "Vitamin A").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from triviador_nb.banks.problems import BankProblem
from triviador_nb.banks.words import STOP_WORDS, plain, stem, tokens

SHARED_PREFIX = 5
"""Letters two words must begin with alike to echo each other ("hungar...")."""
OPTION_COLUMNS = ("answer", "wrong_1", "wrong_2", "wrong_3")

_FORMS = (("a gloss in brackets", re.compile(r"[(\[]")), ("digits", re.compile(r"\d")))


def _echo(question: set[str], question_words: tuple[set[str], set[str]], option: str,
          language: str | None) -> str | None:
    """The word of ``option`` that repeats one of the question's (``question``: their stems;
    ``question_words``: the question's words of 4+ letters, and the first :data:`SHARED_PREFIX`
    letters of those that long), or None."""
    for word in tokens(option):
        if len(word) < 3 or not word.isalpha():
            continue
        bare = plain(word)
        if stem(word, language) in question or bare[:SHARED_PREFIX] in question_words[1] or any(
                bare[:size] in question_words[0] for size in range(4, len(bare) + 1)):
            return word
    return None


def option_problems(files: Sequence[str], rows: Sequence[int], kinds: Sequence[str], texts: Sequence[str],
                    answers: Sequence[str], options: Sequence[Sequence[str]],
                    languages: Sequence[str | None]) -> list[BankProblem]:
    """The warnings of the module docstring, one per flagged option, at its cell.

    Args:
        files, rows: where each question is.
        kinds, texts, answers: per question; only ``"choice"`` rows are read.
        options: each question's wrong options (``wrong_1`` to ``wrong_3``; empty ones skipped).
        languages: each question's language (``"en"``, ``"hu"``, ``"cs"`` or None).
    """
    problems = []
    for index, kind in enumerate(kinds):
        if kind != "choice":
            continue
        language = languages[index]
        stop = STOP_WORDS.get(language or "", frozenset())
        words = [word for word in tokens(texts[index]) if len(word) >= 3 and word.isalpha() and word not in stop]
        question = {stem(word, language) for word in words}
        bare = {plain(word) for word in words if len(word) >= 4}
        question_words = (bare, {word[:SHARED_PREFIX] for word in bare if len(word) >= SHARED_PREFIX})
        cells = [(column, str(option)) for column, option in zip(OPTION_COLUMNS, (answers[index], *options[index]))
                 if str(option).strip()]
        echoes = [_echo(question, question_words, option, language) for _, option in cells]
        if echoes and echoes[0] and not any(echoes[1:]):
            problems.append(BankProblem(
                files[index], rows[index], "answer",
                f"the right answer repeats {echoes[0]!r} of the question and no wrong option does: it gives "
                "itself away (reword the question or the answer)", "warning"))
        if len(cells) < 3:
            continue
        for form, pattern in _FORMS:
            has = [bool(pattern.search(option)) for _, option in cells]
            if (sum(has) == 1 or sum(has) == len(has) - 1) and has.index(sum(has) == 1) == 0:
                alone = 0
                column, option = cells[alone]
                which = "has" if has[alone] else "lacks"
                problems.append(BankProblem(
                    files[index], rows[index], column,
                    f"option {option!r} is the only one that {which} {form}: it stands out from the others "
                    "(give them all the same form)", "warning"))
    return problems
