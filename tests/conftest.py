"""Shared pytest fixtures (the builders live in ``fixture_data.py``)."""

from __future__ import annotations

import pytest

from fixture_data import grid_board, synthetic_bank
from triviador_nb.classroom import table as _table
from triviador_nb.engine import Board, QuestionBank

GET_READY_S = _table.GET_READY_S  #: the 3-2-1 a class sees after Start (issue 24)


@pytest.fixture
def grid() -> Board:
    return grid_board()


@pytest.fixture
def bank() -> QuestionBank:
    return synthetic_bank()


@pytest.fixture(autouse=True)
def journal_home(tmp_path_factory, monkeypatch):
    """Games' journals (and seat keys) go to a temporary home, never the real one."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path_factory.getbasetemp() / "home"))


@pytest.fixture(autouse=True)
def english_after():
    """Every test ends with the kernel speaking English again (a test may choose another language)."""
    yield
    from triviador_nb.i18n import set_language

    set_language("en")


@pytest.fixture(autouse=True)
def no_get_ready(monkeypatch):
    """Tables start their first prompt at Start, as the timing tests written before
    issue 24's 3-2-1 expect; a test of the get-ready gives ``get_ready_s`` itself
    (or asks for the ``get_ready`` fixture)."""
    monkeypatch.setattr(_table, "GET_READY_S", 0.0)


@pytest.fixture
def get_ready(monkeypatch):
    """Tables made in this test run the real 3-2-1 after Start (classroom.table.GET_READY_S);
    gives its seconds."""
    monkeypatch.setattr(_table, "GET_READY_S", GET_READY_S)
    return GET_READY_S


@pytest.fixture
def token_home(tmp_path, monkeypatch):
    """Room clients keep seat keys under a temporary home, not the real one."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "home"))
