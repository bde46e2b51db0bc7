"""Bank-wide quality warnings: near-duplicate questions, give-aways and doubtful guess answers.

Give-aways (a question telling another's answer, :mod:`.giveaways`) and
options that give their own answer away (:mod:`.options`) are described there.

Run by the CSV loader on every bank (``check_bank_files``, ``load_bank``) over
all its files together; everything here is a *warning* (the bank still loads).
Give-aways and options are looked for by the author's check only
(``check_bank_files``, ``check_and_load_bank``: ``bank check``), not when a
game loads a bank (``load_bank``).

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
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from triviador_nb.banks.giveaways import file_languages, suspected_giveaways
from triviador_nb.banks.options import option_problems
from triviador_nb.banks.problems import BankProblem
from triviador_nb.banks.reading import WHITESPACE_UTF8
from triviador_nb.engine.related import fact_keys, giveaway_pairs

NEAR_DUPLICATE_SCORE = 90
"""Minimum ``token_set_ratio`` (0-100) of two normalised questions to be near-duplicates."""

MAX_PLAUSIBLE_GUESS = 10**12
"""Guess answers above this are flagged as implausible for a classroom."""

STOP_WORDS = frozenset(
    "what which where when whom whose does have many much that this these those with from into "
    "than then were been being there their they them your about also some most more whats".split()
)
"""Words of 4+ letters that do not make two questions different (question words and the like)."""

WRONG_COLUMNS = ("wrong_1", "wrong_2", "wrong_3")

_YEAR_QUESTION = re.compile(r"\b(?:what|which)\s+year\b|^\W*year\b", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")
_CONTENT_WORD = re.compile(r"\b[^\W\d_]{4,}\b")


class BankTexts(NamedTuple):
    """A bank's rows as plain lists, one entry per question row in bank order (file, then row)."""

    files: list[str]
    rows: list[int]
    kinds: list[str]
    texts: list[str]
    answers: list[str]
    facts: list[str]
    options: list[tuple[str, ...]]


def bank_texts(sheets: Sequence[tuple[str, pd.DataFrame]], options: bool = True) -> BankTexts:
    """The columns :func:`quality_problems` reads, taken out of the bank's tables.

    Args:
        sheets: ``(file, rows)`` per bank file in bank order; ``rows`` has the
            (stripped) columns ``kind`` (the type lower-cased), ``question``
            and ``answer`` (and perhaps ``fact``, ``wrong_1`` to ``wrong_3``),
            indexed by spreadsheet row number.
        options: False leaves ``options`` empty (``[]``): only the give-aways and the
            options read them (``quality_problems(..., read_words=True)``), and gathering
            them row by row is a Python loop over the whole bank (benchmarks/bank_load.py).
    """
    columns = BankTexts([], [], [], [], [], [], [])
    for file, frame in sheets:
        if frame.empty:
            continue
        columns.files.extend([file] * len(frame))
        columns.rows.extend(map(int, frame.index.tolist()))
        columns.kinds.extend(frame["kind"].tolist())
        columns.texts.extend(frame["question"].tolist())
        columns.answers.extend(frame["answer"].tolist())
        columns.facts.extend(frame["fact"].tolist() if "fact" in frame else [""] * len(frame))
        if not options:
            continue
        wrong = [frame[column].tolist() if column in frame else [""] * len(frame) for column in WRONG_COLUMNS]
        columns.options.extend(tuple(option for option in row if option) if kind == "choice" else ()
                               for kind, row in zip(frame["kind"].tolist(), zip(*wrong)))
    return columns


def quality_problems(bank: BankTexts, current_year: int | None = None, read_words: bool = True) -> list[BankProblem]:
    """Warnings about a whole bank: near-duplicates, give-aways (:mod:`.giveaways`), options that
    give their answer away (:mod:`.options`) and doubtful guess answers.

    Works on plain lists, never on the loader's DataFrames, so the loader
    can run it in a worker thread beside its row checks.

    Args:
        bank: the bank's rows (:func:`bank_texts`).
        current_year: for the year check (default: today's year).
        read_words: False leaves out the give-aways and the options, which read every word in
            its language (the author's check, ``bank check``, reads them; a game's loader does
            not: they take about four times the rest of the checks on a big bank). True needs
            ``bank``'s options (:func:`bank_texts` with ``options=True``).

    Returns:
        Warnings, in the order of ``bank`` (file, then row).
    """
    files, rows, kinds, texts, answers, facts, options = bank
    problems = near_duplicate_problems(files, rows, texts)
    if read_words:
        languages = file_languages(files, texts)
        problems += giveaway_problems(files, rows, kinds, texts, answers, facts, options, languages)
        problems += option_problems(files, rows, kinds, texts, answers, options, languages)
    problems += _guess_answer_problems(files, rows, kinds, texts, answers, current_year)
    order = {file: place for place, file in enumerate(dict.fromkeys(files))}
    return sorted(problems, key=lambda problem: (order[problem.file], problem.row))


# ------------------------------------------------------------ exact repeats


def same_question_key(text: str) -> str:
    """What two questions share when they are the same question: the text case-folded, with runs
    of whitespace made one space and none at the ends."""
    return " ".join(text.casefold().split())


def same_question_codes(texts: Sequence[str]) -> np.ndarray:
    """A whole number per text, equal for two texts exactly when their :func:`same_question_key`
    is; numbered in order of first appearance (0, 1, 2, ...).

    The texts are case-folded joined by NULs in one call (case folding maps
    each character alone) and coded by pyarrow straight from the UTF-8 bytes;
    only the texts that may hold whitespace other than single spaces between
    words get their key computed one by one.
    """
    texts = list(texts)
    joined = "\x00".join(texts).casefold()
    if not texts or joined.count("\x00") != len(texts) - 1:  # no text, or a text holds a NUL
        return text_codes([same_question_key(text) for text in texts])
    data = joined.encode("utf-8", "surrogatepass") + b"\x00"  # every key ends with a NUL: equality is kept
    units = np.frombuffer(data, dtype=np.uint8)
    nuls = np.flatnonzero(units == 0)
    offsets = np.concatenate([[0], nuls + 1]).astype(np.int64)
    keys = pa.LargeStringArray.from_buffers(len(texts), pa.py_buffer(offsets), pa.py_buffer(data))
    odd = _odd_whitespace_texts(data, units, nuls)
    if len(odd):
        mask = np.zeros(len(texts), dtype=bool)
        mask[odd] = True
        try:
            fixed = pa.array([same_question_key(texts[place]) + "\x00" for place in odd.tolist()], pa.large_string())
        except (pa.ArrowException, UnicodeEncodeError):  # a lone surrogate
            return text_codes([same_question_key(text) for text in texts])
        keys = pc.replace_with_mask(keys, pa.array(mask), fixed)
    return pc.dictionary_encode(keys).indices.to_numpy()


def text_codes(texts: Sequence[str]) -> np.ndarray:
    """A whole number per text, equal for equal texts, in order of first appearance (coded by pyarrow;
    texts pyarrow cannot take - a lone surrogate from a file name - with a dict)."""
    texts = list(texts)
    try:
        return pc.dictionary_encode(pa.array(texts, pa.large_string())).indices.to_numpy()
    except (pa.ArrowException, UnicodeEncodeError):
        codes: dict[str, int] = {}
        return np.array([codes.setdefault(text, len(codes)) for text in texts], dtype=np.int64)


# UTF-8 whitespace other than the space: its one-byte characters, and the first two bytes of the others
# (U+2000-U+202F all start E2 80, so some typographic quotes and dashes are caught too).
_ASCII_SPACE_BYTES = [code[0] for code in WHITESPACE_UTF8 if len(code) == 1 and code != b" "]
_WIDE_SPACE_STARTS = sorted({(code[0], code[1]) for code in WHITESPACE_UTF8 if len(code) > 1})


def _odd_whitespace_texts(data: bytes, units: np.ndarray, nuls: np.ndarray) -> np.ndarray:
    """The indexes of the NUL-ended UTF-8 texts in ``data`` (``units``: its bytes as an array,
    ``nuls``: where its NULs are) that may hold whitespace other than single spaces between words
    (a run of spaces, a space at an end, a tab, U+3000, ...): every such text and a few more (some
    typographic quotes and dashes start like U+2000-U+202F).

    A byte is looked for with ``in`` (memchr: a fraction of a millisecond for a 100,000-question
    column) and only the kinds found are located with numpy; a space at a text's ends is read
    beside each NUL. Eleven numpy passes over every byte took about 40 ms (benchmarks/bank_load.py).
    """
    found = [np.flatnonzero(units == byte) for byte in _ASCII_SPACE_BYTES if bytes((byte,)) in data]
    for first, second in _WIDE_SPACE_STARTS:
        if bytes((first,)) in data:
            at = np.flatnonzero(units[:-1] == first)
            found.append(at[units[at + 1] == second])
    if b"  " in data:
        found.append(np.flatnonzero((units[:-1] == 32) & (units[1:] == 32)))
    places = [np.searchsorted(nuls, at) for at in found]  # the text each byte is in
    starts = np.concatenate([[0], nuls[:-1] + 1])
    places.append(np.flatnonzero((units[starts] == 32) | (units[nuls - 1] == 32)))  # an empty text reads NULs
    return np.unique(np.concatenate(places))


# ------------------------------------------------------------ near-duplicates


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]+\b")


def _acronyms(text: str) -> frozenset[str]:
    """Short capitalised words (CPU, USB, DNA) count as content words: they
    are what tells "What does CPU stand for?" from "What does USB stand for?"."""
    return frozenset(word.lower() for word in _ACRONYM.findall(text))


def near_duplicate_pairs(texts: Sequence[str], score: float = NEAR_DUPLICATE_SCORE) -> list[tuple[int, int, float]]:
    """Every near-duplicate pair ``(i, j, similarity)`` with ``i < j`` (indexes into ``texts``)."""
    texts = list(texts)
    normal = [default_process(text) for text in texts]
    candidates = _candidate_pairs(texts, normal)
    if candidates is None:  # a text holds the separator of the vectorised path
        candidates = _indexed_candidates(texts, normal)
    found: dict[tuple[int, int], float] = {}
    ratio = fuzz.token_set_ratio
    content: dict[int, frozenset[str]] = {}
    numbers: dict[int, tuple[str, ...]] = {}
    for place in sorted({place for pair in candidates for place in pair}):
        numbers[place] = _numbers(normal[place])
        content[place] = _content_words(normal[place], texts[place])
    for i, j in sorted(candidates):
        # the rules of the module docstring, checked exactly (the blocking only narrows down)
        mine, other = content[i], content[j]
        if numbers[i] != numbers[j]:
            continue
        if len(mine) == len(other):
            if mine != other:
                continue
            # each of two equal questions finds the other; i < j asks first
            similarity = ratio(normal[i], normal[j], score_cutoff=score) or ratio(
                normal[j], normal[i], score_cutoff=score
            )
        else:
            small, big = (i, j) if len(mine) < len(other) else (j, i)
            if len(content[big]) != len(content[small]) + 1 or not content[small] or not content[small] <= content[big]:
                continue
            similarity = ratio(normal[small], normal[big], score_cutoff=score)
        if similarity:
            found[(i, j)] = similarity
    return sorted((i, j, s) for (i, j), s in found.items())


def _numbers(normal: str) -> tuple[str, ...]:
    return tuple(sorted(_DIGITS.findall(normal)))


def _content_words(normal: str, original: str) -> frozenset[str]:
    return (frozenset(_CONTENT_WORD.findall(normal)) - STOP_WORDS) | _acronyms(original)


def _indexed_candidates(texts: list[str], normal: list[str]) -> set[tuple[int, int]]:
    """Candidate pairs ``(i, j)``, ``i < j``, by the blocking of the module docstring (pure Python)."""
    numbers = [_numbers(text) for text in normal]
    content = [_content_words(text, original) for text, original in zip(normal, texts)]
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
    pairs: set[tuple[int, int]] = set()
    for place, key in enumerate(rarest):
        if key is None:
            continue
        mine, my_numbers = content[place], numbers[place]
        for size in (len(mine), len(mine) + 1):
            for other in index_.get((key, size), ()):
                if other != place and numbers[other] == my_numbers and mine <= content[other]:
                    pairs.add((place, other) if place < other else (other, place))
    return pairs


_SEPARATOR = "\x01"
_SIZE_STEP = np.uint64(0xC2B2AE3D27D4EB4F)
_NUMBERS_FACTOR = np.uint64(0x9E3779B97F4A7C15)


def _random_hashes(count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2**64 - 1, size=count, dtype=np.uint64, endpoint=True)


def _word_table(normal: list[str]) -> tuple[np.ndarray, np.ndarray, list[list[str]], list[list[str]]] | None:
    """Every normalised text's space-separated tokens at once (split and coded by pyarrow).

    Returns (text index per token, token code per token, per code: its
    content words, per code: its numbers). ``default_process`` leaves only
    single characters ``" "`` between words (runs of them give empty
    tokens, which hold nothing); neither pattern matches a space and a space
    is ``\\W`` like a text's ends, so a text's matches are exactly those of
    its tokens taken alone.
    """
    try:
        tokens = pc.split_pattern(pa.array(normal, pa.string()), " ")
    except (pa.ArrowException, UnicodeEncodeError):  # a lone surrogate: the caller takes the plain-Python path
        return None
    text_of = np.repeat(np.arange(len(normal)), pc.list_value_length(tokens).to_numpy())
    coded = pc.dictionary_encode(pc.list_flatten(tokens))
    uniques = coded.dictionary.to_pylist()
    words = [[word for word in _CONTENT_WORD.findall(token) if word not in STOP_WORDS] for token in uniques]
    digits = [_DIGITS.findall(token) for token in uniques]
    return text_of, coded.indices.to_numpy(), words, digits


def _acronym_texts(texts: list[str]) -> list[int]:
    """The texts that may hold an acronym (an ASCII capital followed by a capital or digit)."""
    data = np.frombuffer(_SEPARATOR.join(texts).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    capital = (data >= 65) & (data <= 90)
    follows = capital | ((data >= 48) & (data <= 57))
    starts = np.flatnonzero(capital[:-1] & follows[1:])
    if not len(starts):
        return []
    separators = np.flatnonzero(data == 1)
    return np.unique(np.searchsorted(separators, starts)).tolist()


def _run_starts(values: np.ndarray) -> np.ndarray:
    """True where a sorted array's value differs from the one before it."""
    starts = np.ones(len(values), dtype=bool)
    starts[1:] = values[1:] != values[:-1]
    return starts


def _candidate_pairs(texts: list[str], normal: list[str]) -> set[tuple[int, int]] | None:
    """Every pair that can satisfy rules 2 and 3, found with numpy (a superset is fine, none may be missing).

    Each question's content words and numbers are hashed to one 64-bit key
    (the sum of a random number per distinct content word, plus a multiple
    of the sum of those of its numbers, plus a multiple of its number of
    content words); a pair with equal content words and numbers has equal
    keys, and a question with one word ``w`` more has its key minus ``w``'s
    and one size step equal to the other's. Hash collisions only add
    candidates, which the caller checks exactly.
    """
    count = len(texts)
    if count < 2:
        return set()
    if _SEPARATOR.join(texts).count(_SEPARATOR) != count - 1:
        return None
    table = _word_table(normal)
    if table is None:
        return None
    with np.errstate(over="ignore"):
        text_of, token_of, token_words, token_digits = table
        vocabulary: dict[str, int] = {}
        first_word = np.array(
            [vocabulary.setdefault(words[0], len(vocabulary)) if words else -1 for words in token_words] or [-1],
            dtype=np.int64,
        )
        rows_text = [text_of]
        rows_word = [first_word[token_of]]
        extra = [code for code, words in enumerate(token_words) if len(words) > 1]
        if extra:  # tokens with several content words (rare Unicode): the other words too
            for place in np.flatnonzero(np.isin(token_of, extra)).tolist():
                for word in token_words[token_of[place]][1:]:
                    rows_text.append(np.array([text_of[place]]))
                    rows_word.append(np.array([vocabulary.setdefault(word, len(vocabulary))]))
        for place in _acronym_texts(texts):
            for word in _acronyms(texts[place]):
                rows_text.append(np.array([place]))
                rows_word.append(np.array([vocabulary.setdefault(word, len(vocabulary))]))
        size_v = max(len(vocabulary), 1)
        pair_key = np.concatenate(rows_text).astype(np.int64) * size_v + np.concatenate(rows_word)
        pair_key = pair_key[np.concatenate(rows_word) >= 0]
        if len(rows_text) == 1:  # already by text: drop the repeats (hashing is faster than sorting)
            pair_key = pair_key[~pd.Series(pair_key).duplicated().to_numpy()]
        else:
            pair_key = np.sort(pair_key)
            pair_key = pair_key[_run_starts(pair_key)]  # one per (text, content word), by text
        text_of_word, word_of = pair_key // size_v, pair_key % size_v
        size = np.bincount(text_of_word, minlength=count)
        word_hash = _random_hashes(size_v, 1)[word_of]
        sums = np.concatenate([np.zeros(1, np.uint64), np.cumsum(word_hash, dtype=np.uint64)])
        ends = np.cumsum(size)
        key = sums[ends] - sums[ends - size]
        digit_vocabulary: dict[str, int] = {}
        digit_hashes = _random_hashes(sum(len(digits) for digits in token_digits) + 1, 2)
        token_number = np.array(
            [
                sum((int(digit_hashes[digit_vocabulary.setdefault(d, len(digit_vocabulary))]) for d in digits), 0)
                % 2**64
                for digits in token_digits
            ],
            dtype=np.uint64,
        )
        number_hash = np.zeros(count, np.uint64)
        with_digits = token_number[token_of] != 0
        np.add.at(number_hash, text_of[with_digits], token_number[token_of[with_digits]])
        key = key + number_hash * _NUMBERS_FACTOR + size.astype(np.uint64) * _SIZE_STEP
        valid = np.fromiter(map(len, normal), dtype=np.int64, count=count) > 0
        places = np.flatnonzero(valid)
        order = places[np.argsort(key[places], kind="stable")]
        sorted_keys = key[order]
        found: set[tuple[int, int]] = set()
        # equal keys: same content words (or none), same numbers
        starts = np.flatnonzero(_run_starts(sorted_keys))
        runs = np.diff(np.r_[starts, len(order)])
        for start, run in zip(starts[runs > 1].tolist(), runs[runs > 1].tolist()):
            group = sorted(order[start:start + run].tolist())
            found.update((a, b) for n, a in enumerate(group) for b in group[n + 1:])
        # one word more: key(B) - hash(w) - one size step == key(A), for A with content words
        bigger = valid[text_of_word] & (size[text_of_word] >= 2)
        wanted = key[text_of_word[bigger]] - word_hash[bigger] - _SIZE_STEP
        with_words = order[size[order] > 0]
        with_keys = key[with_words]
        hit = np.flatnonzero(pd.Series(wanted).isin(pd.Series(with_keys)).to_numpy())
        low = np.searchsorted(with_keys, wanted[hit], side="left")
        high = np.searchsorted(with_keys, wanted[hit], side="right")
        big_of = text_of_word[bigger][hit]
        for b, start, stop in zip(big_of.tolist(), low.tolist(), high.tolist()):
            for a in with_words[start:stop].tolist():
                if a != b:
                    found.add((a, b) if a < b else (b, a))
    return found


def near_duplicate_problems(files: Sequence[str], rows: Sequence[int], texts: Sequence[str]) -> list[BankProblem]:
    """One warning per question that nearly repeats an earlier one (bank order)."""
    first: dict[int, tuple[int, float]] = {}
    for i, j, similarity in near_duplicate_pairs(texts):
        if files[i] == files[j] and same_question_key(texts[i]) == same_question_key(texts[j]):
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


# ------------------------------------------------------------ give-aways


def giveaway_problems(files: Sequence[str], rows: Sequence[int], kinds: Sequence[str], texts: Sequence[str],
                      answers: Sequence[str], facts: Sequence[str],
                      options: Sequence[Sequence[str]] | None = None,
                      languages: Sequence[str | None] | None = None) -> list[BankProblem]:
    """One warning per question that gives another's answer away
    (:func:`triviador_nb.banks.giveaways.suspected_giveaways`), at the giving row;
    none for a pair an author gave the same ``fact`` key (intended). A pair the
    game also finds by itself (:func:`triviador_nb.engine.related.giveaway_pairs`)
    is never asked together; the others are, until keyed or reworded."""
    answers = [str(a) for a in answers]
    options = options if options is not None else [()] * len(texts)
    problems = []
    for naming, named, clue, how in suspected_giveaways(files, kinds, texts, answers, options, languages):
        if fact_keys(facts[naming]) & fact_keys(facts[named]):
            continue
        where = f"row {rows[named]}" if files[naming] == files[named] else f"{files[named]} row {rows[named]}"
        told = _giveaway_words(how, clue, answers[named], where)
        pair = giveaway_pairs([kinds[naming], kinds[named]], [texts[naming], texts[named]],
                              [answers[naming], answers[named]])  # does the game avoid it by itself?
        when = "a game never asks both" if any((i, j) == (0, 1) for i, j, _ in pair) else "a game may ask both"
        problems.append(BankProblem(
            files[naming], rows[naming], "question",
            f"{told}: {when} (a give-away; give both the same fact key if they belong together on purpose, "
            "or reword one)", "warning"))
    return problems


def _giveaway_words(how: str, clue: str, answer: str, where: str) -> str:
    """How a give-away gives its answer away, in a warning's words."""
    if how == "surname":
        return f"names {clue!r}, the surname of {answer!r}, the answer of {where}"
    if how == "number":
        return f"shows {clue!r}, the answer {int(answer)} of {where}"
    if how == "options":
        return f"lists {clue}, as many as the answer {int(answer)} of {where}"
    return f"names {clue!r}, the answer of {where}"


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
    guess = [place for place, kind in enumerate(types) if kind == "guess"]
    may_ask_year = _may_ask_year([texts[place] for place in guess])
    places = [
        place
        for place, maybe in zip(guess, may_ask_year)
        # the only rows that can be flagged: leading zeros, at least 13 digits, or perhaps a year question
        if maybe or answers[place][:1] == "0" or len(answers[place]) > 12
    ]
    for place in places:
        file, row, text, answer = files[place], rows[place], texts[place], answers[place]
        if not answer.isascii() or not answer.isdigit() or len(answer) > 15:
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


def _may_ask_year(texts: Sequence[str]) -> list[bool]:
    """Per text, False only when :data:`_YEAR_QUESTION` cannot match it: an ASCII text
    without "year" in any case (all texts searched at once)."""
    joined = "\x01".join(texts)
    if not joined.isascii():
        lowered = joined.lower().split("\x01")
        if len(lowered) != len(texts):  # a text holds the separator
            return [True] * len(texts)
        return [not text.isascii() or "year" in low for text, low in zip(texts, lowered)]
    joined = joined.lower()  # ASCII: each text keeps its length
    hits = []
    at = joined.find("year")
    while at >= 0:
        hits.append(at)
        at = joined.find("year", at + 4)
    maybe = [False] * len(texts)
    if hits:
        ends = np.cumsum([len(text) + 1 for text in texts])  # one past each text's separator
        for place in np.searchsorted(ends, hits, side="right").tolist():
            maybe[place] = True
    return maybe
