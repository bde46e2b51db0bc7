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
