"""Formula-safe exports (issue 13 part 6, issue 12 part 4; OWASP CSV injection)."""

from __future__ import annotations

import csv

import openpyxl
import pandas as pd
import pytest

from triviador_nb.exports import SafeTable, inert, restore, write_table

HOSTILE = ['=HYPERLINK("http://example.invalid","click")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


@pytest.mark.parametrize("text", HOSTILE)
def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe_and_restores(text):
    assert inert(text) == "'" + text
    assert restore(inert(text)) == text


@pytest.mark.parametrize("value", ["-40", "+3.5", "-1e6", "Paris", "", "'quoted", 12, -40, None, 2.5])
def test_plain_numbers_and_ordinary_text_stay_as_they_are(value):
    assert inert(value) == value
    if isinstance(value, str):
        assert restore(value) == value


def hostile_table() -> pd.DataFrame:
    return pd.DataFrame({"text": HOSTILE, "answer": [-40, 3, 1, 2, 5, 6], "=col": ["ok"] * 6})


def test_a_written_csv_holds_no_cell_that_starts_a_formula(tmp_path):
    path = write_table(hostile_table(), tmp_path / "r.csv")
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["text", "answer", "'=col"]
    assert [r[0] for r in rows[1:]] == ["'" + t for t in HOSTILE]
    assert [r[1] for r in rows[1:]] == ["-40", "3", "1", "2", "5", "6"]


def test_a_written_xlsx_read_back_with_openpyxl_has_no_formula(tmp_path):
    path = write_table(hostile_table(), tmp_path / "r.xlsx")
    sheet = openpyxl.load_workbook(path).active
    cells = [cell for row in sheet.iter_rows() for cell in row]
    assert [c.data_type for c in cells if c.data_type == "f"] == []
    # XML reads a lone carriage return back as a line feed
    assert [sheet.cell(row=r, column=1).value for r in range(2, 8)] == ["'" + t.replace("\r", "\n") for t in HOSTILE]
    assert sheet.cell(row=2, column=2).value == -40


def test_a_report_table_is_safe_through_pandas_own_writers(tmp_path):
    table = SafeTable(hostile_table())
    table.to_excel(tmp_path / "r.xlsx", index=False)
    sheet = openpyxl.load_workbook(tmp_path / "r.xlsx").active
    assert sheet.cell(row=2, column=1).value == "'" + HOSTILE[0]
    assert sheet.cell(row=2, column=1).data_type == "s"
    assert table.to_csv(index=False).splitlines()[1].startswith("\"'=HYPERLINK(")
    assert table["text"][0] == HOSTILE[0]  # the frame itself keeps the text
    assert isinstance(table[table["answer"] > 0], SafeTable)


def test_another_suffix_is_refused_with_the_file_name(tmp_path):
    with pytest.raises(ValueError, match=r"^r.json: write a report as .csv or .xlsx, not '.json'$"):
        write_table(hostile_table(), tmp_path / "r.json")


def test_row_labels_and_repeated_column_names_are_made_inert_too(tmp_path):
    """Review: set_index("player") left a live formula in the row labels."""
    table = SafeTable({"player": ["=1+1", "@SUM(1)", "B"], "score": [1, 2, 3]}).set_index("player")
    table.to_excel(tmp_path / "r.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "r.xlsx").active
    assert [c.data_type for row in sheet.iter_rows() for c in row if c.data_type == "f"] == []
    assert [sheet.cell(row=r, column=1).value for r in (2, 3, 4)] == ["'=1+1", "'@SUM(1)", "B"]
    assert table.to_csv().splitlines()[1] == "'=1+1,1"
    twice = SafeTable([["=x", "=y"]], columns=["a", "a"])
    assert twice.to_csv(index=False).splitlines() == ["a,a", "'=x,'=y"]


def test_control_characters_are_written_as_the_symbols_unicode_draws_for_them():
    """Issue 25: xlsx cannot hold them (openpyxl refused the workbook); tab, line feed and CR stay."""
    from triviador_nb.exports import visible
    assert visible("Fox\x0bes\x00 \x1b[31m\x7f") == "Fox␋es␀ ␛[31m␡"
    assert visible("two\nlines\tand\r") == "two\nlines\tand\r"
    assert inert("\x0b=1") == "␋=1" and inert("=\x00") == "'=␀"
