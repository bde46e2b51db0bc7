"""Ranking the answers to a guess question (D1)."""

from __future__ import annotations

from typing import Mapping

from .actions import GuessAnswer


def rank_guesses(correct: int, answers: Mapping[int, GuessAnswer]) -> list[int]:
    """Order the players who answered a guess question, best first (D1).

    Args:
        correct: the correct whole number.
        answers: seat -> that seat's answer (``value=None`` for no answer).

    Returns:
        Seats, best first: smaller ``|value - correct|`` first; on equal
        distance the shorter response time (milliseconds) first, an answer
        without a time after those with one; then by seat. Seats that did not
        answer come last, in seat order.
    """

    def key(seat: int) -> tuple[int, int, int, int]:
        answer = answers[seat]
        if answer.value is None:
            return (1, 0, 0, seat)
        ms = answer.ms if answer.ms is not None else 1 << 62
        return (0, abs(answer.value - correct), ms, seat)

    return sorted(answers, key=key)
