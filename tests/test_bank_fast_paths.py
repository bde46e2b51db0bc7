"""The vectorised paths of the bank loader agree with their plain-Python definitions."""

from __future__ import annotations

import random
import sys

import pandas as pd
from rapidfuzz.utils import default_process

from triviador_nb.banks.csv_bank import REQUIRED_COLUMNS, WRONG_COLUMNS, _earlier_row, check_bank_file, load_bank
from triviador_nb.banks.detect import Decoded
from triviador_nb.banks.reading import EXPECTED_HEADER, WHITESPACE, _arrow_cells, _pandas_cells, _stripped
from triviador_nb.banks.quality import (
    _YEAR_QUESTION,
    _candidate_pairs,
    _indexed_candidates,
    _may_ask_year,
    same_question_key,
    same_question_codes,
    text_codes,
)

WORDS = ["capital", "of", "France", "city", "Australia", "Austria", "CPU", "USB", "WW1", "WW2", "what", "which",
         "the", "7", "8", "x", "legs", "spider", "insect", "Ünïcödé", "naïve", "café", "cafe\u0301", "½", "²",
         "NASA", "nasa", "WHAT", "year", "1999", "007", "", "?", "!!", "a_b", "tést", "ÉCOLE", "very"]


def _random_texts(rng: random.Random) -> list[str]:
    pool = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(2, 12))]
    return [rng.choice(pool) + rng.choice(["", "?", " city", " the", " very"]) for _ in range(rng.randint(2, 60))]


def test_candidate_pairs_cover_the_indexed_blocking():
    rng = random.Random(7)
    with_candidates = 0
    for _ in range(300):
        texts = _random_texts(rng)
        normal = [default_process(text) for text in texts]
        indexed = _indexed_candidates(texts, normal)
        assert indexed <= _candidate_pairs(texts, normal)
        with_candidates += bool(indexed)
    assert with_candidates > 200  # the inclusion was tested on real candidates, not empty sets


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


def _random_csv(rng: random.Random) -> str:
    """A CSV-like text: quoted and unquoted cells with quotes, spaces, delimiters and line breaks in odd places."""
    cells = ["a", "b c", " x ", '"q"', '"q ""w"" e"', '"multi\nline"', '"a,b"', 'x"y', '"x"y', '"x" ', "", "\t", "é", "½",
             '""', "1", "007", '"\r\n"', "ő;ű", "a\u00a0", "\u3000x", "é", "x\x85", "\x1f", "“q”", "–", '"open', '"open ""q""', '"']
    width = rng.randint(1, 4)
    lines = [",".join(rng.choice(cells) for _ in range(width)) for _ in range(rng.randint(1, 6))]
    ending = rng.choice(["\n", "\r\n", "\r"])
    return ending.join(lines) + rng.choice(["", ending, ending * 2])


def test_arrow_reader_accepts_only_what_pandas_reads_without_problems_and_reads_it_alike():
    rng = random.Random(11)
    agreed = 0
    for _ in range(1500):
        text = _random_csv(rng)
        if text.isspace() or not text or text[0] in "\r\n":
            continue  # read_table reports these itself
        arrow = _arrow_cells(text.encode(), ",", text)
        if arrow is None:
            continue  # pyarrow rejected it: only pandas' reading is used
        pandas_table, problems = _pandas_cells(text.encode(), Decoded(text, "utf-8"), "f.csv", ",")
        assert problems == [], repr(text)
        assert arrow.equals(pandas_table), repr(text)
        agreed += 1
    assert agreed > 500  # many random files are well-formed: the comparison really ran


def test_whitespace_is_exactly_what_str_isspace_accepts():
    assert set(WHITESPACE) == {chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()}


def test_same_question_codes_are_the_codes_of_each_texts_key():
    rng = random.Random(13)
    alphabet = ["a", "B", " ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\x85", "“", "–", "ß", "İ", "Σ",
                "\x1f", "é", "x"]  # no NUL: a text with a NUL takes the one-by-one path (checked at the end)
    for _ in range(3000):
        texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5))) for _ in range(rng.randint(0, 6))]
        expected = text_codes([same_question_key(text) for text in texts])
        assert same_question_codes(texts).tolist() == expected.tolist(), texts
    assert same_question_codes(["A\x00b", "a\x00B", "a  \x00b "]).tolist() == [0, 0, 1]


def test_earlier_row_matches_its_definition_on_random_keys():
    rng = random.Random(17)
    for _ in range(300):
        count = rng.randint(0, 12)
        rows = sorted(rng.sample(range(2, 40), count))
        keys = pd.Series([rng.choice(["a", "b", "c", "ő", ""]) for _ in rows], index=rows, dtype=object)
        expected = [next((r for r, k in keys.items() if k == key and r < row), 0) for row, key in keys.items()]
        assert _earlier_row(keys).tolist() == expected


def test_expected_header_in_the_empty_file_message_lists_the_required_columns():
    assert EXPECTED_HEADER == ",".join((*REQUIRED_COLUMNS, *WRONG_COLUMNS))


def test_a_quote_left_open_in_the_last_column_is_reported_not_read_to_the_end(tmp_path):
    path = tmp_path / "open.csv"
    path.write_text(
        "type,question,answer,wrong_1,wrong_2,wrong_3,source\n"
        "guess,How many legs has a spider?,8,,,,\"Wikipedia\n"
        "choice,Capital of France?,Paris,Rome,Berlin,Madrid,\n",
        encoding="utf-8",
    )
    assert [str(problem) for problem in check_bank_file(path)] == [
        f'{path}:2:-: a quoted cell starting on this row is never closed (a " is missing)'
    ]


def test_a_file_name_with_an_undecodable_byte_still_loads(tmp_path):
    path = tmp_path / "q\udcff.csv"  # what Python makes of the byte 0xff in a file name
    path.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\nguess,Legs of a spider?,8,,,\n"
                    "choice,Capital of France?,Paris,Rome,Berlin,Madrid\n", encoding="utf-8")
    bank = load_bank(path)
    assert [question.id for question in (*bank.guess, *bank.choice)] == ["q\udcff:2", "q\udcff:3"]


def test_strip_invisible_finds_and_removes_exactly_what_the_cell_by_cell_rule_does():
    """strip_invisible searches only the cells that hold an invisible character (found with
    str.find over the joined column); the result is what _FOUND gives cell by cell."""
    from triviador_nb.banks.invisible import _FOUND, INVISIBLE, invisible_names, strip_invisible

    rng = random.Random(11)
    alphabet = ["Pa", "ris", " ", "é", "ő", "\U0001F468", "\u0645", "", *INVISIBLE, "\u200d\u200d"]
    changed_cells = 0
    for _ in range(400):
        count = rng.randint(1, 12)
        rows = pd.DataFrame({column: ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
                                      for _ in range(count)] for column in ("question", "answer")},
                            index=range(2, count + 2), dtype=object)
        clean, before, warnings = strip_invisible("f.csv", rows, ["question", "answer"])
        expected = [(row, column) for row in rows.index for column in ("question", "answer")
                    if _FOUND.search(rows.at[row, column])]
        assert [(w.row, w.column) for w in warnings] == expected
        assert [w.message for w in warnings] == [
            f"invisible characters removed ({invisible_names(rows.at[row, column])}): they show as nothing but "
            "make texts differ" for row, column in expected]
        for row, column in expected:
            assert clean.at[row, column] == _FOUND.sub("", rows.at[row, column]).strip()
        untouched = [(row, column) for row in rows.index for column in ("question", "answer")
                     if (row, column) not in expected]
        assert all(clean.at[row, column] == rows.at[row, column] for row, column in untouched)
        assert (before is rows) == bool(expected)
        changed_cells += len(expected)
    assert changed_cells > 500  # the rule was tested on real finds, not on clean columns
