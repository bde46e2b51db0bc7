"""The vectorised paths of the bank loader agree with their plain-Python definitions."""

from __future__ import annotations

import random

import pandas as pd
from rapidfuzz.utils import default_process

from triviador_nb.banks.csv_bank import _earlier_row, _stripped
from triviador_nb.banks.quality import _YEAR_QUESTION, _candidate_pairs, _indexed_candidates, _may_ask_year

WORDS = ["capital", "of", "France", "city", "Australia", "Austria", "CPU", "USB", "WW1", "WW2", "what", "which",
         "the", "7", "8", "x", "legs", "spider", "insect", "Ünïcödé", "naïve", "café", "cafe\u0301", "½", "²",
         "NASA", "nasa", "WHAT", "year", "1999", "007", "", "?", "!!", "a_b", "tést", "ÉCOLE", "very"]


def _random_texts(rng: random.Random) -> list[str]:
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(2, 12))]
    return [rng.choice(pool) + rng.choice(["", "?", " city", " the", " very"]) for _ in range(rng.randint(2, 60))]


def test_candidate_pairs_cover_the_indexed_blocking():
    rng = random.Random(7)
    for _ in range(300):
        texts = _random_texts(rng)
        normal = [default_process(text) for text in texts]
        assert _indexed_candidates(texts, normal) <= _candidate_pairs(texts, normal)


def test_candidate_pairs_fall_back_when_a_text_holds_the_separator():
    texts = ["capital of France", "capital\x01 of France"]
    assert _candidate_pairs(texts, [default_process(text) for text in texts]) is None


def test_may_ask_year_never_misses_a_year_question():
    rng = random.Random(3)
    alphabet = ["a", "B", " ", "\t", "ß", "İ", "YEAR", "yEaR", "What", "which ", "\x01", "é", "?"]
    for _ in range(2000):
        texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(1, 8))]
        maybe = _may_ask_year(texts)
        assert all(maybe[i] or not _YEAR_QUESTION.search(text) for i, text in enumerate(texts))


def test_stripped_strips_exactly_like_str_strip():
    rng = random.Random(5)
    alphabet = ["a", " ", "\t", "\u00a0", "\u2003", "\x00", "\x1f", "x", ""]
    for _ in range(500):
        cells = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))) for _ in range(rng.randint(1, 6))]
        table = pd.DataFrame({0: cells, 1: list(reversed(cells))}, dtype=object)
        expected = table.map(str.strip)
        assert _stripped(table.copy()).equals(expected)


def test_earlier_row_is_the_first_row_with_the_same_key():
    keys = pd.Series(["a", "b", "a", "c", "b", "a"], index=[2, 3, 5, 6, 7, 9])
    assert _earlier_row(keys).tolist() == [0, 0, 2, 0, 3, 2]
