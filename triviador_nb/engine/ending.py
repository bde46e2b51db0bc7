"""The end of a game: tie-break groups, the final ranking and its places, Dobyvatel's win kinds."""

from __future__ import annotations

from typing import Mapping, Sequence

from .rules import WinKinds
from .state import PlayerState, TerritoryState


def tie_groups(players: Sequence[PlayerState], scores: Sequence[int], first_only: bool) -> list[tuple[int, ...]]:
    """Groups of players still in the game with equal scores (``scores[seat]``),
    highest first, each in seat order (D12: every tie; D13: a tie for first
    place only)."""
    in_game = sorted((p for p in players if p.in_game), key=lambda p: (-scores[p.seat], p.seat))
    groups: dict[int, list[int]] = {}
    for p in in_game:
        groups.setdefault(scores[p.seat], []).append(p.seat)
    tied = [tuple(g) for g in groups.values() if len(g) > 1]
    if first_only:
        return tied[:1] if tied and tied[0][0] == in_game[0].seat else []
    return tied


def final_ranking(players: Sequence[PlayerState], scores: Sequence[int],
                  tiebreak_place: Mapping[int, int]) -> tuple[int, ...]:
    """Seats, best first: players still in the game by score (ties by their
    tie-break place, then seat), then eliminated players, the later
    eliminated first."""
    in_game = sorted((p for p in players if p.in_game),
                     key=lambda p: (-scores[p.seat], tiebreak_place.get(p.seat, 0), p.seat))
    out = sorted((p for p in players if not p.in_game), key=lambda p: -p.eliminated_in)
    return tuple(p.seat for p in in_game + out)


def places(ranking: Sequence[int], shared: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The 1-based place of each seat of ``ranking``, in its order: seats of
    one ``shared`` group (equal scores no tie-break separated: D16's End,
    D13's unanswered tie-breaks) share the place of the first of them, and
    the next seat's place counts them all, e.g. ``(1, 1, 3)``."""
    group_of = {seat: i for i, group in enumerate(shared) for seat in group}
    result: list[int] = []
    for i, seat in enumerate(ranking):
        together = i > 0 and seat in group_of and group_of.get(ranking[i - 1]) == group_of[seat]
        result.append(result[-1] if together else i + 1)
    return tuple(result)


def win_kind(winner: int, scores: Sequence[int], territories: Mapping[str, TerritoryState]) -> WinKinds:
    """D13: whole-map victory if the winner owns every territory; great victory
    if the winner's score (``scores[seat]``) is at least the others' together;
    else narrow."""
    if all(t.owner == winner for t in territories.values()):
        return WinKinds.WHOLE_MAP
    others = sum(score for seat, score in enumerate(scores) if seat != winner)
    return WinKinds.GREAT if scores[winner] >= others else WinKinds.NARROW
