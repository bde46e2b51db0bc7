"""Bank-wide quality warnings: near-duplicate questions and doubtful guess answers.

Run by the CSV loader on every bank (``check_bank_files``, ``load_bank``) over
all its files together; everything here is a *warning* (the bank still loads).

Near-duplicates
    Two questions are near-duplicates when, after normalising (lower case,
    punctuation to spaces, runs of spaces collapsed; rapidfuzz's
    ``default_process``):

    1. ``rapidfuzz.fuzz.token_set_ratio >= NEAR_DUPLICATE_SCORE`` (90): the
       same words, in any order, give or take a few; and
    2. they contain the same numbers ("... WW1 ..." vs "... WW2 ...", "7 x 8"
       vs "7 x 9" are different questions); and
    3. no content word was *substituted* and at most one was added: the
       content words (4+ letters, not in :data:`STOP_WORDS`) of one are those
       of the other, or those plus one more word.
       "capital of Australia" vs "capital of Austria" scores 97 but asks
       something else; "capital of France" vs "capital city of France" is
       flagged. (A typo in a long word therefore goes unnoticed.)

    With 90, "How many legs has a spider?" vs "How many legs has an insect?"
    (score 83, and a substitution) is not flagged.

    Rule 3 makes an exact, cheap blocking possible: A's content words are B's
    or B's minus one, so A's rarest content word is one of B's two rarest.
    Each question is indexed under its two rarest content words (and its
    number of content words) and compared only with the questions indexed
    under its own rarest word (questions without content words: with those
    having the same numbers). Rule 3 also keeps token_set_ratio's blind spot
    (a short question inside a long one scores 100) from flagging unrelated
    questions. Exact repeats inside one file
    are already reported by the loader ("same question as row N") and are not
    repeated here. Each question is reported once, at its row, naming the
    first earlier row (in bank order) it nearly repeats.

Guess answers (the loader already rejects ``1 000``, ``1,000``, ``1.000``)
    * leading zeros (``007``): read as 7 - probably a typo or a code, not a
      quantity;
    * more than :data:`MAX_PLAUSIBLE_GUESS` (10**12): no classroom can guess
      to that scale meaningfully (the hard limit is 15 digits, an error);
    * a question asking for a year ("What year ...", "In which year ...",
      "Year of ...") whose answer is later than the current year: probably a
      typo (a real future year - Halley's comet in 2061 - may be kept).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

import pandas as pd
from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from triviador_nb.banks.problems import BankProblem

NEAR_DUPLICATE_SCORE = 90
"""Minimum ``token_set_ratio`` (0-100) of two normalised questions to be near-duplicates."""

MAX_PLAUSIBLE_GUESS = 10**12
"""Guess answers above this are flagged as implausible for a classroom."""

STOP_WORDS = frozenset(
    "what which where when whom whose does have many much that this these those with from into "
    "than then were been being there their they them your about also some most more whats".split()
)
"""Words of 4+ letters that do not make two questions different (question words and the like)."""

_YEAR_QUESTION = re.compile(r"\b(?:what|which)\s+year\b|^\W*year\b", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_CONTENT_WORD = re.compile(r"\b[^\W\d_]{4,}\b")


def bank_quality_problems(
    sheets: Sequence[tuple[str, pd.DataFrame]], current_year: int | None = None
) -> list[BankProblem]:
    """Warnings about a whole bank.

    Args:
        sheets: ``(file, rows)`` per bank file in bank order; ``rows`` has the
            (stripped) columns ``type``, ``question`` and ``answer``, indexed
            by spreadsheet row number.
        current_year: for the year check (default: today's year).

    Returns:
        Warnings, in bank order (file, then row).
    """
    files, rows, types, texts, answers = [], [], [], [], []
    for file, frame in sheets:
        if frame.empty:
            continue
        files += [file] * len(frame)
        rows += [int(row) for row in frame.index]
        types += list(frame["type"].str.lower())
        texts += list(frame["question"])
        answers += list(frame["answer"])
    problems = near_duplicate_problems(files, rows, texts)
    problems += _guess_answer_problems(files, rows, types, texts, answers, current_year)
    order = {file: place for place, (file, _) in enumerate(sheets)}
    return sorted(problems, key=lambda problem: (order.get(problem.file, len(order)), problem.row))


# ------------------------------------------------------------ near-duplicates


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]+\b")


def _acronyms(text: str) -> frozenset[str]:
    """Short capitalised words (CPU, USB, DNA) count as content words: they
    are what tells "What does CPU stand for?" from "What does USB stand for?"."""
    return frozenset(word.lower() for word in _ACRONYM.findall(text))


def near_duplicate_pairs(texts: Sequence[str], score: float = NEAR_DUPLICATE_SCORE) -> list[tuple[int, int, float]]:
    """Every near-duplicate pair ``(i, j, similarity)`` with ``i < j`` (indexes into ``texts``)."""
    normal = [default_process(text) for text in texts]
    numbers = [tuple(sorted(_DIGITS.findall(text))) for text in normal]
    content = [(frozenset(_CONTENT_WORD.findall(text)) - STOP_WORDS) | _acronyms(original)
               for text, original in zip(normal, texts)]
    frequency = Counter(word for words in content for word in words)
    # A near-duplicate pair has content(A) <= content(B), at most one word more in B:
    # A's rarest word is one of B's two rarest, so B is indexed under those two only.
    index_: dict[object, list[int]] = defaultdict(list)
    rarest: list[object] = []
    for place, words in enumerate(content):
        if not normal[place]:
            rarest.append(None)
            continue
        if not words:
            key = ("numbers", numbers[place])
            index_[(key, 0)].append(place)
            rarest.append(key)
            continue
        ranked = sorted(words, key=lambda w: (frequency[w], w))[:2]
        for word in ranked:
            index_[(word, len(words))].append(place)
        rarest.append(ranked[0])
    found: dict[tuple[int, int], float] = {}
    ratio = fuzz.token_set_ratio
    for place, key in enumerate(rarest):
        if key is None:
            continue
        mine, my_numbers, my_text = content[place], numbers[place], normal[place]
        for size in (len(mine), len(mine) + 1):
            for other in index_.get((key, size), ()):
                if other == place or numbers[other] != my_numbers or not mine <= content[other]:
                    continue
                pair = (place, other) if place < other else (other, place)
                if pair in found:
                    continue
                similarity = ratio(my_text, normal[other], score_cutoff=score)
                if similarity:
                    found[pair] = similarity
    return sorted((i, j, s) for (i, j), s in found.items())


def near_duplicate_problems(files: Sequence[str], rows: Sequence[int], texts: Sequence[str]) -> list[BankProblem]:
    """One warning per question that nearly repeats an earlier one (bank order)."""
    first: dict[int, tuple[int, float]] = {}
    for i, j, similarity in near_duplicate_pairs(texts):
        if files[i] == files[j] and " ".join(texts[i].casefold().split()) == " ".join(texts[j].casefold().split()):
            continue  # the loader reports exact repeats in one file
        if j not in first or i < first[j][0]:
            first[j] = (i, similarity)
    problems = []
    for j, (i, similarity) in first.items():
        where = f"row {rows[i]}" if files[i] == files[j] else f"{files[i]} row {rows[i]}"
        problems.append(
            BankProblem(
                files[j],
                rows[j],
                "question",
                f"question nearly repeats {where} (similarity {similarity:.0f}%): {texts[i]!r}; "
                "a game may ask both",
                "warning",
            )
        )
    return problems


# ------------------------------------------------------------ guess answers


def _guess_answer_problems(
    files: Sequence[str],
    rows: Sequence[int],
    types: Sequence[str],
    texts: Sequence[str],
    answers: Sequence[str],
    current_year: int | None,
) -> list[BankProblem]:
    year = current_year or _dt.date.today().year
    problems = []
    for file, row, kind, text, answer in zip(files, rows, types, texts, answers):
        if kind != "guess" or not answer.isascii() or not answer.isdigit() or len(answer) > 15:
            continue  # the loader reports empty, non-digit and too long answers as errors
        value = int(answer)
        if len(answer) > 1 and answer[0] == "0":
            problems.append(BankProblem(file, row, "answer", f"guess answer {answer!r} has leading zeros; "
                                        f"it is read as {value}", "warning"))
        if value > MAX_PLAUSIBLE_GUESS:
            problems.append(BankProblem(file, row, "answer", f"guess answer {value} is more than "
                                        f"{MAX_PLAUSIBLE_GUESS:,}; too large to guess in a classroom "
                                        "(use a smaller unit?)", "warning"))
        elif value > year and _YEAR_QUESTION.search(text):
            problems.append(BankProblem(file, row, "answer", f"the question asks for a year but the answer "
                                        f"{value} is after {year}", "warning"))
    return problems
