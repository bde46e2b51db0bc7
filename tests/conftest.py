"""Shared pytest fixtures (the builders live in ``fixture_data.py``)."""

from __future__ import annotations

import pytest

from fixture_data import grid_board, synthetic_bank
from triviador_nb.engine import Board, QuestionBank


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


@pytest.fixture
def token_home(tmp_path, monkeypatch):
    """Room clients keep seat keys under a temporary home, not the real one."""
    monkeypatch.setenv("TRIVIADOR_NB_HOME", str(tmp_path / "home"))
